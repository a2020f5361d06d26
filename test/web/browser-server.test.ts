/**
 * The browser build of the language server, for real: dist/browser/server.js in a dedicated Web
 * Worker of headless Chromium, driven over postMessage with LSP JSON-RPC, like vscode.dev's
 * LanguageClient does. Checks the handshake (with workspace/configuration answered), diagnostics on
 * exact ranges, hover sizes, the outline, a quick fix applied as an incremental edit, a custom
 * request with bigint-sized results, and that the worker never touched a Node-only API.
 *
 * Needs Chromium (scripts/setup.sh installs it); without it the before hook fails and says so.
 */
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import type {
  CodeAction,
  Diagnostic,
  DocumentSymbol,
  Hover,
  InitializeResult,
  MarkupContent,
  PublishDiagnosticsParams,
} from 'vscode-languageserver';
import { AnalyzeShapeRequest } from '../../protocol/src/lsp';
import { positionOf, textOf } from '../server/harness';
import { launchChromium } from '../support/chromium';
import { applyEdits } from '../support/editor-positions';
import { TEST_INITIALIZE_PARAMS } from '../support/lsp-client';
import {
  assertChromium,
  buildBrowserServer,
  openWorkerSession,
  serveWorkerPage,
  type WorkerPageServer,
  type WorkerSession,
} from './worker-harness';

const URI = 'file:///w/web.after_optimizations.hlo';
const TEXT = [
  'HloModule web_worker',
  '',
  'ENTRY %main (p: f32[8,128]) -> f32[8,4] {',
  '  %p = f32[8,128]{1,0} parameter(0)',
  '  %neg = f32[8,128]{1,0:T(-1,128)} copy(%p)',
  '  %big = f32[1099511627776,1048576]{1,0} parameter(1)',
  '  ROOT %small = f32[8,4]{1,0:T(8,128)} slice(%p), slice={[0:8], [0:4]}',
  '}',
  '',
].join('\n');

/** A worker-backed LSP client: the session plus what the server sent besides responses. */
interface Client {
  readonly session: WorkerSession;
  readonly init: InitializeResult;
  /** Sections the server asked for through workspace/configuration, in order. */
  readonly configurationAsks: string[];
  /** window/logMessage and window/showMessage traffic, as `type: message`. */
  readonly serverMessages: string[];
  /** Resolves with the first publishDiagnostics for `uri` at `version` or later. */
  diagnostics(uri: string, version: number): Promise<PublishDiagnosticsParams>;
}

async function connect(browser: Browser, origin: string, settings: unknown): Promise<Client> {
  const session = await openWorkerSession(browser, origin);
  const configurationAsks: string[] = [];
  const serverMessages: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; version: number; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  const { rpc } = session;
  rpc.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map((item) => {
      configurationAsks.push(item.section ?? '');
      return settings;
    }),
  );
  rpc.onRequest('client/registerCapability', () => null);
  rpc.onRequest('window/workDoneProgress/create', () => null);
  rpc.onNotification('window/logMessage', (p: { type: number; message: string }) =>
    serverMessages.push(`${p.type}: ${p.message}`),
  );
  rpc.onNotification('window/showMessage', (p: { type: number; message: string }) =>
    serverMessages.push(`${p.type}: ${p.message}`),
  );
  rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].uri === p.uri && (p.version ?? 0) >= waiters[i].version)
        waiters.splice(i, 1)[0].resolve(p);
    }
  });
  rpc.listen();
  const init = await rpc.sendRequest<InitializeResult>('initialize', TEST_INITIALIZE_PARAMS);
  await rpc.sendNotification('initialized', {});
  return {
    session,
    init,
    configurationAsks,
    serverMessages,
    diagnostics: (uri, version) =>
      new Promise((resolve) => {
        const done = published.find((p) => p.uri === uri && (p.version ?? 0) >= version);
        if (done !== undefined) resolve(done);
        else waiters.push({ uri, version, resolve });
      }),
  };
}

/** Everything that would show the worker hit a Node-only global, or failed in any other way. */
async function assertQuiet(client: Client): Promise<void> {
  const { observed } = client.session;
  assert.deepEqual(await client.session.workerErrors(), [], 'Worker error events');
  assert.deepEqual(observed.pageErrors, [], 'uncaught exceptions in the page or the worker');
  assert.deepEqual(observed.console, [], 'console messages of the page or the worker');
  // The server catches feature failures and logs them over LSP instead of throwing.
  assert.deepEqual(client.serverMessages, [], 'window/logMessage and window/showMessage from the server');
}

describe('web: language server in a Web Worker (headless Chromium, postMessage)', function () {
  this.timeout(120_000);
  let server: WorkerPageServer;
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    assertChromium();
    await buildBrowserServer();
    server = await serveWorkerPage();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  describe('one session through the features', () => {
    let client: Client;
    let diagnostics: Diagnostic[];

    before(async () => {
      client = await connect(browser, server.origin, {});
      const published = client.diagnostics(URI, 1);
      await client.session.rpc.sendNotification('textDocument/didOpen', {
        textDocument: { uri: URI, languageId: 'hlo', version: 1, text: TEXT },
      });
      diagnostics = (await published).diagnostics;
    });

    after(async () => {
      await client?.session.rpc.sendRequest('shutdown');
      await client?.session.close();
    });

    it('runs in a worker loaded from dist/browser/server.js and completes the handshake', async () => {
      assert.deepEqual(client.session.workerUrls(), [`${server.origin}/dist/browser/server.js`]);
      assert.deepEqual(client.init.serverInfo, { name: 'xla-layout-lens' });
      assert.deepEqual(client.init.capabilities.textDocumentSync, { openClose: true, change: 2 });
      assert.equal(client.init.capabilities.hoverProvider, true);
      assert.deepEqual(client.init.capabilities.codeActionProvider, { codeActionKinds: ['quickfix'] });
      // The server asked for its settings (after `initialized`, before the first diagnostics).
      assert.deepEqual(client.configurationAsks, ['xlaLayout']);
      await assertQuiet(client);
    });

    it('publishes tile-negative on exactly the -1 of T(-1,128)', () => {
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.source, textOf(TEXT, d.range), d.range]),
        [
          [
            'tile-negative',
            1,
            'xla-layout',
            '-1',
            { start: { line: 4, character: 26 }, end: { line: 4, character: 28 } },
          ],
        ],
      );
      assert.match(diagnostics[0].codeDescription?.href ?? '', /tile-negative/);
    });

    it('hovers a tiled shape and reads its logical and physical sizes', async () => {
      const hover = await client.session.rpc.sendRequest<Hover | null>('textDocument/hover', {
        textDocument: { uri: URI },
        position: positionOf(TEXT, 'f32[8,4]{1,0:T(8,128)}', 3),
      });
      assert.ok(hover);
      assert.equal(textOf(TEXT, hover.range!), 'f32[8,4]{1,0:T(8,128)}');
      // Table cells start with &nbsp; only to look spaced out in VS Code; assert on the values.
      const value = (hover.contents as MarkupContent).value.replace(/&nbsp;/g, '');
      assert.equal((hover.contents as MarkupContent).kind, 'markdown');
      // 8×4 f32 = 32 elements, 128 B; T(8,128) stores one 8×128 tile = 1,024 slots, 4,096 B: 32x.
      assert.match(value, /\| logical \(ByteSizeOf\) \| 32 \| 128 B \|/);
      assert.match(value, /\| physical \(all tiles\) \| 1,024 \| 4,096 B \(4 KiB\) \|/);
      assert.match(value, /Expansion \*\*32x\*\* \(4,096 \/ 128\)/);
      await assertQuiet(client);
    });

    it('lists the module, its entry computation and every instruction in the outline', async () => {
      const symbols = await client.session.rpc.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', {
        textDocument: { uri: URI },
      });
      assert.deepEqual(
        symbols.map((s) => s.name),
        ['web_worker'],
      );
      const main = symbols[0].children!;
      assert.deepEqual(
        main.map((c) => [c.name, c.detail]),
        [['main', 'ENTRY']],
      );
      assert.deepEqual(
        main[0].children!.map((c) => [c.name, c.detail]),
        [
          ['p', 'f32[8,128]{1,0}'],
          ['neg', 'f32[8,128]{1,0:T(-1,128)}'],
          ['big', 'f32[1099511627776,1048576]{1,0}'],
          ['small', 'f32[8,4]{1,0:T(8,128)}'],
        ],
      );
      assert.equal(textOf(TEXT, main[0].selectionRange), 'main');
    });

    it('answers xlaLayout/analyzeShape with exact sizes past 2^53 (bigint as decimal strings)', async () => {
      const r = await client.session.rpc.sendRequest(AnalyzeShapeRequest, {
        textDocument: { uri: URI },
        position: positionOf(TEXT, 'f32[1099511627776,', 5),
      });
      assert.ok(r);
      assert.equal(r.text, 'f32[1099511627776,1048576]{1,0}');
      assert.equal(r.owner, 'big');
      // 2^40 × 2^20 elements × 4 B = 2^62 B, beyond what a double holds exactly.
      assert.equal(r.analysis.arrays[0].sizes?.logicalBytes, '4611686018427387904');
    });

    it('offers the quick fix, and applying it as an incremental edit clears the diagnostic', async () => {
      const d = diagnostics[0];
      const actions = await client.session.rpc.sendRequest<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri: URI },
        range: d.range,
        context: { diagnostics: [d], only: ['quickfix'] },
      });
      assert.deepEqual(
        actions.map((a) => [a.title, a.kind, a.isPreferred]),
        [['Replace -1 with * (combine dimension)', 'quickfix', true]],
      );
      const edits = actions[0].edit!.changes![URI];
      const fixed = applyEdits(TEXT, edits);
      assert.equal(fixed.split('\n')[4], '  %neg = f32[8,128]{1,0:T(*,128)} copy(%p)');
      const republished = client.diagnostics(URI, 2);
      await client.session.rpc.sendNotification('textDocument/didChange', {
        textDocument: { uri: URI, version: 2 },
        contentChanges: edits.map((e) => ({ range: e.range, text: e.newText })),
      });
      const after = await republished;
      assert.equal(after.version, 2);
      assert.deepEqual(after.diagnostics, []);
      // The server's copy of the document is the edited text: the hover now sees the * tile.
      const hover = await client.session.rpc.sendRequest<Hover | null>('textDocument/hover', {
        textDocument: { uri: URI },
        position: positionOf(fixed, 'f32[8,128]{1,0:T(*,128)}', 3),
      });
      assert.equal(textOf(fixed, hover!.range!), 'f32[8,128]{1,0:T(*,128)}');
      await assertQuiet(client);
    });
  });

  it('applies the settings answered to workspace/configuration (severity override) in a fresh worker', async () => {
    const client = await connect(browser, server.origin, {
      diagnostics: { severity: { 'tile-negative': 'hint' } },
    });
    try {
      const published = client.diagnostics(URI, 1);
      await client.session.rpc.sendNotification('textDocument/didOpen', {
        textDocument: { uri: URI, languageId: 'hlo', version: 1, text: TEXT },
      });
      const { diagnostics } = await published;
      // LSP DiagnosticSeverity.Hint = 4: the very first publication already honours the user's settings.
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, textOf(TEXT, d.range)]),
        [['tile-negative', 4, '-1']],
      );
      assert.deepEqual(client.configurationAsks, ['xlaLayout']);
      await client.session.rpc.sendRequest('shutdown');
      await assertQuiet(client);
    } finally {
      await client.session.close();
    }
  });
});
