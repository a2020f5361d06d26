/**
 * Shape hovers with VS Code's hover verbosity: the hover opens on the answer and its reasons, and
 * the `+` / `-` VS Code draws beside a hover ask the server for more or less (the `verbosity` of
 * protocol/src/lsp.ts). VS Code 1.100 passes the request for more to the provider that made the
 * hover, as `context.verbosityDelta` with `context.previousHover`, and draws `+` / `-` for a hover
 * that says `canIncreaseVerbosity` / `canDecreaseVerbosity`; the `VerboseHover` class and that
 * context are still a proposed API in its typings (editorHoverVerbosityLevel), but its extension
 * host passes them to every extension. vscode-languageclient 9 drops the context on the way to
 * its middleware, so this provider sends textDocument/hover itself, and the client's own hover
 * provider is switched off ({@link hoverMiddleware}). Where VS Code has no `VerboseHover` (before
 * 1.90) nothing changes: the client's provider answers and the server says everything.
 */
import * as vscode from 'vscode';
import {
  HoverRequest,
  type BaseLanguageClient,
  type Hover as LspHover,
  type Middleware,
} from 'vscode-languageclient';
import type { HoverVerbosity, HoverVerbosityParams } from '../../protocol/src/lsp';

/** VS Code's `VerboseHover` (proposed API `editorHoverVerbosityLevel`), which @types/vscode lacks. */
type VerboseHoverClass = new (
  contents: vscode.MarkdownString | vscode.MarkedString | (vscode.MarkdownString | vscode.MarkedString)[],
  range: vscode.Range | undefined,
  canIncreaseVerbosity: boolean,
  canDecreaseVerbosity: boolean,
) => vscode.Hover;

/** The `VerboseHover` class of the running VS Code, or undefined where it has none. */
export function verboseHoverClass(): VerboseHoverClass | undefined {
  const c: unknown = (vscode as unknown as { readonly VerboseHover?: unknown }).VerboseHover;
  return typeof c === 'function' ? (c as VerboseHoverClass) : undefined;
}

/** Middleware that keeps vscode-languageclient's hover provider quiet where {@link LevelledHoverProvider} answers. */
export function hoverMiddleware(): Pick<Middleware, 'provideHover'> {
  return verboseHoverClass() === undefined ? {} : { provideHover: () => undefined };
}

/** What VS Code passes when `+` or `-` is pressed. */
interface VerbosityContext {
  readonly verbosityDelta: number;
  readonly previousHover: vscode.Hover;
}

function verbosityContext(context: unknown): VerbosityContext | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const { verbosityDelta, previousHover } = context as Partial<VerbosityContext>;
  return typeof verbosityDelta === 'number' && previousHover instanceof vscode.Hover
    ? { verbosityDelta, previousHover }
    : undefined;
}

/** The hover provider for HLO documents where VS Code has hover verbosity. */
export class LevelledHoverProvider implements vscode.HoverProvider {
  /** The level each hover shows, to step from when `+` or `-` is pressed on it. */
  private readonly levels = new WeakMap<vscode.Hover, number>();

  constructor(
    private readonly client: () => BaseLanguageClient | undefined,
    private readonly VerboseHover: VerboseHoverClass,
  ) {}

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
    context?: unknown,
  ): Promise<vscode.Hover | undefined> {
    const client = this.client();
    if (client === undefined) return undefined;
    const step = verbosityContext(context);
    const level = step ? Math.max(0, (this.levels.get(step.previousHover) ?? 0) + step.verbosityDelta) : 0;
    const params: HoverVerbosityParams = {
      ...client.code2ProtocolConverter.asTextDocumentPositionParams(document, position),
      verbosity: level,
    };
    let result: (LspHover & { readonly verbosity?: HoverVerbosity }) | null;
    try {
      result = await client.sendRequest(HoverRequest.method, params, token);
    } catch (e) {
      return client.handleFailedRequest(HoverRequest.type, token, e, undefined);
    }
    if (result === null || token.isCancellationRequested) return undefined;
    const hover = client.protocol2CodeConverter.asHover(result);
    const v = result.verbosity;
    if (v === undefined) return hover;
    const levelled = new this.VerboseHover(hover.contents, hover.range, v.level < v.max, v.level > 0);
    this.levels.set(levelled, v.level);
    return levelled;
  }
}
