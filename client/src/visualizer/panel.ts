/**
 * The host side of the layout visualizer: one WebviewPanel, reused, with a strict CSP, a fresh
 * nonce per load, resources only from dist/ and webview/media/, and every message validated
 * (protocol/src/webview.ts) in both directions. While "follow" is on (the default, kept across
 * sessions) it shows the shape at the cursor of the active HLO editor; its title names the shape
 * on the page, also one typed into the page's Shape box.
 */
import * as vscode from 'vscode';
import type { Range } from '../../../protocol/src/lsp';
import {
  validateHostToWebview,
  validateWebviewToHost,
  type HostToWebviewMessage,
  type ShowShapeMessage,
  type ShowingMessage,
} from '../../../protocol/src/webview';
import type { Ctx } from '../ctx';
import { elementOffsets } from './cursor-shape';
import { saveExport } from './export-dialog';
import { EditorFollower, type FoundShape } from './follow';
import { createNonce, visualizerHtml } from './html';

const VIEW_TYPE = 'xlaLayout.visualizer';
/** globalState key: whether the panel follows the editor. */
const FOLLOW_KEY = 'xlaLayout.visualizer.follow';

class VisualizerPanel {
  private current: ShowShapeMessage;
  /** The document range "Reveal in editor" selects: the shape's, or an element picked on the page. */
  private revealRange: vscode.Range | undefined;
  private follower: EditorFollower | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly ctx: Ctx,
    show: ShowShapeMessage,
    private readonly onDispose: () => void,
  ) {
    this.current = show;
    this.revealRange = toRange(show.source?.range);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.setFollow(this.following, false);
    this.load();
  }

  get following(): boolean {
    return this.ctx.extension.globalState.get<boolean>(FOLLOW_KEY, true);
  }

  /** Turns following the editor on or off (the page's toggle, or the command). */
  setFollow(on: boolean, remember = true): void {
    if (remember) void this.ctx.extension.globalState.update(FOLLOW_KEY, on);
    this.follower?.dispose();
    this.follower = on
      ? new EditorFollower(
          () => this.ctx.client,
          (found) => this.followed(found),
          (e) => this.ctx.output.appendLine(`Visualizer: the shape at the cursor: ${String(e)}`),
        )
      : undefined;
    this.post({ type: 'follow', on });
  }

  /** Shows a new shape in the existing page; `reveal` brings the panel forward. */
  show(message: ShowShapeMessage, reveal: boolean): void {
    this.current = message;
    this.revealRange = toRange(message.source?.range);
    this.panel.title = panelTitle(message.shape);
    this.post(message);
    if (reveal) this.panel.reveal(undefined, true);
  }

  private followed(found: FoundShape): void {
    const source = this.current.source;
    const same =
      found.shape === this.current.shape &&
      found.uri === source?.uri &&
      JSON.stringify(found.range) === JSON.stringify(source.range);
    if (!same) this.show(showMessage({ shape: found.shape, uri: found.uri, range: found.range }), false);
  }

  /** (Re)writes the page; called once per panel: VS Code reloads it itself when it becomes visible again. */
  private load(): void {
    const webview = this.panel.webview;
    this.panel.title = panelTitle(this.current.shape);
    const extensionUri = this.ctx.extension.extensionUri;
    webview.html = visualizerHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview
        .asWebviewUri(vscode.Uri.joinPath(extensionUri, 'webview', 'media', 'visualizer.css'))
        .toString(),
    });
  }

  private post(message: HostToWebviewMessage): void {
    // The outgoing side is validated too: it carries document text and must keep the shape the page expects.
    const checked = validateHostToWebview(message);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(`XLA Layout: cannot show this shape (${checked.error}).`);
      return;
    }
    void this.panel.webview.postMessage(checked.value);
  }

  private receive(raw: unknown): void {
    const checked = validateWebviewToHost(raw);
    if (!checked.ok) {
      console.warn(`XLA Layout visualizer: ignored a malformed message: ${checked.error}`);
      return;
    }
    const message = checked.value;
    switch (message.type) {
      case 'ready':
        // A (re)loaded page asks for its content; the panel always knows the latest shape.
        this.post({ type: 'follow', on: this.following });
        this.post(this.current);
        break;
      case 'reveal':
        void this.reveal();
        break;
      case 'follow':
        this.setFollow(message.on);
        break;
      case 'showing':
        void this.showing(message);
        break;
      case 'export':
        void saveExport(this.ctx.extension, message).then((result) =>
          this.post({ type: 'exportResult', ...result }),
        );
        break;
    }
  }

  /** The page shows another shape: name it in the title; an element of ours can be revealed. */
  private async showing(message: ShowingMessage): Promise<void> {
    this.panel.title = panelTitle(message.shape);
    const source = this.current.source;
    const range = toRange(source?.range);
    if (message.element === undefined || source?.uri === undefined || range === undefined) return;
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(source.uri, true));
    const { start, end } = elementOffsets(
      document.offsetAt(range.start),
      document.offsetAt(range.end),
      message.element,
    );
    this.revealRange = new vscode.Range(document.positionAt(start), document.positionAt(end));
  }

  private async reveal(): Promise<void> {
    const source = this.current.source;
    if (source?.uri === undefined) return;
    const editor = await vscode.window.showTextDocument(vscode.Uri.parse(source.uri, true), {
      viewColumn: vscode.ViewColumn.One,
      preserveFocus: false,
    });
    const range = this.revealRange;
    if (range !== undefined) {
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  private dispose(): void {
    this.follower?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.onDispose();
  }
}

function toRange(range: Range | undefined): vscode.Range | undefined {
  if (range === undefined) return undefined;
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

function panelTitle(shape: string): string {
  const compact = shape.length > 40 ? `${shape.slice(0, 39)}…` : shape;
  return `Layout: ${compact}`;
}

/** `model.hlo:12` from a URI and a range, for the page's "source" line. */
function sourceName(uri: string, range: Range | undefined): string {
  const path = vscode.Uri.parse(uri, true).path;
  const base = path.slice(path.lastIndexOf('/') + 1) || uri;
  return range !== undefined ? `${base}:${range.start.line + 1}` : base;
}

/** Copies just the JSON fields, so a `vscode.Range` (with private fields) passes the validator. */
function plainRange(range: Range | undefined): Range | undefined {
  if (range === undefined) return undefined;
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}

/** What to show: a shape's text and, when it came from a document, where. */
interface VisualizerInput {
  readonly shape: string;
  readonly uri?: string;
  readonly range?: Range;
}

function showMessage(input: VisualizerInput): ShowShapeMessage {
  const range = plainRange(input.range);
  return {
    type: 'show',
    shape: input.shape,
    ...(input.uri !== undefined
      ? { source: { name: sourceName(input.uri, range), uri: input.uri, ...(range ? { range } : {}) } }
      : {}),
  };
}

let panel: VisualizerPanel | undefined;

/**
 * Opens the layout visualizer for `input.shape`, or shows it in the panel that is already open.
 * With `uri` (and `range`), the page offers "reveal in editor", which jumps back to that range.
 */
export function openVisualizer(ctx: Ctx, input: VisualizerInput): void {
  const message = showMessage(input);
  if (panel !== undefined) {
    panel.show(message, true);
    return;
  }
  const extensionUri = ctx.extension.extensionUri;
  const webviewPanel = vscode.window.createWebviewPanel(
    VIEW_TYPE,
    panelTitle(input.shape),
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
    {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist'),
        vscode.Uri.joinPath(extensionUri, 'webview', 'media'),
      ],
    },
  );
  panel = new VisualizerPanel(webviewPanel, ctx, message, () => {
    panel = undefined;
  });
  ctx.extension.subscriptions.push(webviewPanel);
}

/** Turns following the editor on or off (remembered); shown on the open panel's toggle. */
export function toggleVisualizerFollow(ctx: Ctx): void {
  const on = !ctx.extension.globalState.get<boolean>(FOLLOW_KEY, true);
  if (panel !== undefined) panel.setFollow(on);
  else void ctx.extension.globalState.update(FOLLOW_KEY, on);
  void vscode.window.setStatusBarMessage(
    on ? 'XLA Layout: the visualizer follows the cursor' : 'XLA Layout: the visualizer keeps its shape',
    3000,
  );
}
