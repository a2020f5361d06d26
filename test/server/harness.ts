/**
 * Runs the language server over a real JSON-RPC connection in memory: two PassThrough streams,
 * the server's `createConnection` on one end and a vscode-jsonrpc client on the other. Tests talk
 * LSP only (requests, notifications, the client's answers to workspace/configuration), never
 * internals, and wait on real signals (published diagnostics), never on timers. While the server
 * analyses a large document (between its `started` and `finished` progress notifications) it
 * publishes the diagnostics found so far: those go to {@link TestClient.partials}, and waiting for
 * diagnostics means waiting for complete ones.
 */
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { createConnection } from 'vscode-languageserver/node';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
  type RequestType,
} from 'vscode-jsonrpc/node';
import type {
  Diagnostic,
  InitializeResult,
  Location,
  PublishDiagnosticsParams,
  TextDocumentClientCapabilities,
  TextDocumentContentChangeEvent,
} from 'vscode-languageserver';
import { createServer, type ServerOptions } from '../../server/src/server';
import { AnalysisProgressNotification, type AnalysisProgressParams } from '../../protocol/src/lsp';
import { parseHloText } from '../../core/src/hlo';
import { offsetAt, positionAt } from '../support/editor-positions';
import { TEST_INITIALIZE_PARAMS } from '../support/lsp-client';

interface Waiter {
  readonly uri: string;
  readonly accept: (p: PublishDiagnosticsParams) => boolean;
  readonly resolve: (p: PublishDiagnosticsParams) => void;
}

/** A test-side LSP client connected to a fresh server. */
export class TestClient {
  readonly rpc: MessageConnection;
  /** The `xlaLayout` section answered to workspace/configuration; tests may replace it. */
  settings: unknown = {};
  /** Every notification the server sent, by method, in order. */
  readonly notifications: { method: string; params: unknown }[] = [];
  /** Messages the server logged through connection.console. */
  readonly logs: string[] = [];
  /** Diagnostics published while their document was still being analysed, in order. */
  readonly partials: PublishDiagnosticsParams[] = [];
  /** Documents whose analysis the server announced as started and not yet as finished. */
  private readonly analysing = new Set<string>();
  private readonly latest = new Map<string, PublishDiagnosticsParams>();
  private readonly waiters: Waiter[] = [];
  private readonly versions = new Map<string, number>();
  private readonly streams: PassThrough[];

  private constructor(options: ServerOptions) {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    this.streams = [toServer, toClient];
    const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    createServer(server, options);
    server.listen();
    this.rpc = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    this.rpc.onRequest('workspace/configuration', (params: { items: unknown[] }) =>
      params.items.map(() => this.settings),
    );
    this.rpc.onRequest('client/registerCapability', () => null);
    this.rpc.onRequest('window/workDoneProgress/create', () => null);
    this.rpc.onNotification('window/logMessage', (p: { message: string }) => this.logs.push(p.message));
    this.rpc.onNotification((method: string, params: unknown) => this.notifications.push({ method, params }));
    this.rpc.onNotification(AnalysisProgressNotification, (p: AnalysisProgressParams) => {
      this.notifications.push({ method: AnalysisProgressNotification.method, params: p });
      if (p.state === 'started') this.analysing.add(p.uri);
      else if (p.state === 'finished') this.analysing.delete(p.uri);
    });
    this.rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      if (this.analysing.has(p.uri)) {
        this.partials.push(p);
        return;
      }
      this.latest.set(p.uri, p);
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const w = this.waiters[i];
        if (w.uri === p.uri && w.accept(p)) {
          this.waiters.splice(i, 1);
          w.resolve(p);
        }
      }
    });
    this.rpc.listen();
  }

  /** Starts a server and completes the initialize handshake (`textDocument` adds client capabilities). */
  static async start(
    settings: unknown = {},
    initializationOptions?: unknown,
    options: ServerOptions = {},
    textDocument: TextDocumentClientCapabilities = {},
  ): Promise<{ client: TestClient; init: InitializeResult }> {
    const client = new TestClient(options);
    client.settings = settings;
    const capabilities = {
      ...TEST_INITIALIZE_PARAMS.capabilities,
      textDocument: { ...TEST_INITIALIZE_PARAMS.capabilities.textDocument, ...textDocument },
    };
    const init = await client.rpc.sendRequest<InitializeResult>('initialize', {
      ...TEST_INITIALIZE_PARAMS,
      capabilities,
      initializationOptions,
    });
    await client.rpc.sendNotification('initialized', {});
    return { client, init };
  }

  /** A custom request, typed by its definition in protocol/src/lsp.ts, or a standard one by name. */
  request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R>;
  request<R>(method: string, params: unknown): Promise<R>;
  request(method: string | RequestType<unknown, unknown, void>, params: unknown): Promise<unknown> {
    return typeof method === 'string'
      ? this.rpc.sendRequest(method, params)
      : this.rpc.sendRequest(method, params);
  }

  /** Opens a document and returns the diagnostics the server publishes for this version. */
  async open(uri: string, text: string, languageId = 'hlo'): Promise<Diagnostic[]> {
    const wait = this.waitForDiagnostics(uri, 1);
    this.versions.set(uri, 1);
    await this.rpc.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text },
    });
    return (await wait).diagnostics;
  }

  /** Sends one didChange and returns the diagnostics published for the new version. */
  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<Diagnostic[]> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const wait = this.waitForDiagnostics(uri, version);
    await this.rpc.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: changes,
    });
    return (await wait).diagnostics;
  }

  async close(uri: string): Promise<void> {
    const wait = this.waitFor(uri, (p) => p.diagnostics.length === 0);
    await this.rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await wait;
  }

  /** Resolves with the first publishDiagnostics for `uri` at `version` (or later). */
  waitForDiagnostics(uri: string, version: number): Promise<PublishDiagnosticsParams> {
    return this.waitFor(uri, (p) => (p.version ?? 0) >= version);
  }

  /** The diagnostics published for `uri` at `version` or later: the latest if it qualifies, else the next that does. */
  async diagnosticsAt(uri: string, version: number): Promise<PublishDiagnosticsParams> {
    const latest = this.latest.get(uri);
    return latest && (latest.version ?? 0) >= version ? latest : this.waitForDiagnostics(uri, version);
  }

  /** Resolves with the first publishDiagnostics for `uri` that `accept` takes. */
  waitFor(uri: string, accept: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve) => this.waiters.push({ uri, accept, resolve }));
  }

  /** The last diagnostics published for `uri`. */
  diagnostics(uri: string): Diagnostic[] {
    return this.latest.get(uri)?.diagnostics ?? [];
  }

  /** Shuts the server down politely and tears down both ends. */
  async dispose(): Promise<void> {
    await this.rpc.sendRequest('shutdown');
    this.rpc.dispose();
    for (const s of this.streams) s.end();
  }
}

/** The offset-free way tests name a position: the first occurrence of `needle` (plus `delta` chars). */
export function positionOf(
  text: string,
  needle: string,
  delta = 0,
  occurrence = 0,
): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0)
      throw new Error(`fixture does not contain ${JSON.stringify(needle)} (occurrence ${occurrence})`);
  }
  const offset = at + delta;
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** The text an LSP range covers in `text` (lines split on \n). */
export function textOf(
  text: string,
  range: { start: { line: number; character: number }; end: { line: number; character: number } },
): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return text.slice(offset(range.start), offset(range.end));
}

/**
 * Asks for the references of every name core's module model defines in `text` (open as `uri`),
 * declaration included, and asserts they are the occurrences the model resolves to that name.
 * Returns how many names it checked.
 */
export async function assertReferencesAsModel(
  client: TestClient,
  uri: string,
  text: string,
  label: string,
): Promise<number> {
  let checked = 0;
  for (const symbol of parseHloText(text).symbols) {
    if (!symbol.definition) continue;
    const refs = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri },
      position: positionAt(text, symbol.definition.start),
      context: { includeDeclaration: true },
    });
    const found = refs.map((r) => offsetAt(text, r.range.start)).sort((a, b) => a - b);
    const expected = [symbol.definition, ...symbol.references].map((r) => r.start).sort((a, b) => a - b);
    assert.deepEqual(found, expected, `${symbol.kind} ${symbol.name} in ${label}`);
    checked++;
  }
  return checked;
}
