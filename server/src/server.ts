/**
 * The XLA Layout Lens language server, independent of transport: `createServer(connection)` wires
 * documents, settings and diagnostics onto a connection that node-main.ts (stdio, IPC) or
 * browser-main.ts (web worker) created, and registers every request of the table in requests.ts.
 * Document notifications and settings changes run in arrival order (in-order.ts); requests wait
 * for those received before them.
 */
import {
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver';
import { BufferAssignmentNotification } from '../../protocol/src/memory';
import { changedSettings, readSettingsSection } from '../../protocol/src/settings';
import { ANALYSIS_SETTINGS, Analyzer } from './analyzer';
import { pause, SYSTEM_CLOCK, type Clock } from './clock';
import { HloDocument } from './document';
import { DiagnosticsPublisher } from './publisher';
import { REQUESTS } from './requests';
import { Session } from './session';
import { SettingsFetch } from './settings-fetch';
import { analyzeWhole, LARGE_DOCUMENT, type WholeAnalysisOptions } from './whole-analysis';

/** What the entry point knows about its environment; tests shorten the waits. */
export interface ServerOptions extends WholeAnalysisOptions {
  /** A local copy of docs/rules.md (the Node entry finds the one beside dist/). */
  readonly rulesDocUri?: string;
  /**
   * A full garbage collection, run around the analysis of a large document that was just opened
   * (receiving it leaves its message buffers and decoded JSON as garbage, about twice the file)
   * and once the server is idle after large results (idle-collection.ts).
   */
  readonly collectGarbage?: () => void;
  /** Quiet time after a large result before {@link collectGarbage} runs. */
  readonly idleCollectionMs?: number;
  /** The clock the idle collection waits on (tests pass one they move on by hand). */
  readonly idleClock?: Clock;
  /** How long settings fetches wait for the client (settings-fetch.ts); tests shorten it. */
  readonly configurationTimeoutMs?: number;
}

/** Wires the server onto `connection` (the caller calls `connection.listen()`). */
export function createServer(connection: Connection, options: ServerOptions = {}): void {
  const session = new Session(
    (message) => connection.console.error(message),
    options.idleClock ?? SYSTEM_CLOCK,
    options,
  );
  const publisher = new DiagnosticsPublisher(connection, session);
  const analysis = { connection, publisher, options };

  const applySettings = async (raw: unknown): Promise<void> => {
    const next = readSettingsSection(raw).settings;
    const changed = changedSettings(session.settings, next);
    if (changed.length === 0) return;
    session.settings = next;
    if (changed.some((name) => ANALYSIS_SETTINGS.includes(name))) {
      session.analyzer = new Analyzer(next);
      for (const { doc } of session.all()) await analyzeWhole(doc, analysis, session.analyzer);
    }
    for (const { doc } of session.all()) publisher.publish(doc);
    if (session.client.inlayHintRefresh) await connection.languages.inlayHint.refresh();
  };
  const settingsFetch = new SettingsFetch({
    ask: async () =>
      ((await connection.workspace.getConfiguration([{ section: 'xlaLayout' }])) as unknown[])[0],
    apply: applySettings,
    later: (task) => session.inOrder.run('settings', task),
    log: (message) => connection.console.warn(message),
    clock: SYSTEM_CLOCK,
    timeoutMs: options.configurationTimeoutMs,
  });
  const fetchSettings = async (): Promise<void> => {
    if (session.client.configuration) await settingsFetch.fetch();
  };

  connection.onInitialize((params): InitializeResult => {
    session.initialize(params);
    return {
      capabilities: REQUESTS.reduce<ServerCapabilities>(
        (all, r) => ({ ...all, ...r.capabilities(session) }),
        {
          textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        },
      ),
      serverInfo: { name: 'xla-layout-lens' },
    };
  });
  connection.onInitialized(() => session.inOrder.run('settings', fetchSettings));
  connection.onDidChangeConfiguration(() => session.inOrder.run('settings', fetchSettings));

  connection.onDidOpenTextDocument((params) =>
    session.inOrder.run('open', async () => {
      const { uri, languageId, version, text } = params.textDocument;
      const collect = text.length > LARGE_DOCUMENT ? options.collectGarbage : undefined;
      // The message's buffers and decoded JSON go before the analysis allocates, lowering the peak.
      collect?.();
      const doc = new HloDocument(uri, languageId, version, text, session.analyzer);
      await analyzeWhole(doc, analysis);
      session.opened(doc);
      publisher.publish(doc);
      if (collect) {
        // The analysis's own garbage, once the diagnostics are written and before the next message
        // (which also stands for the idle collection a large publish schedules).
        await pause();
        collect();
        session.idleCollection.cancel();
      }
    }),
  );

  connection.onDidChangeTextDocument((params) =>
    session.inOrder.run('change', () => {
      const doc = session.current(params.textDocument.uri)?.doc;
      if (!doc) return;
      doc.applyChanges(params.contentChanges, params.textDocument.version);
      publisher.schedule(doc);
    }),
  );

  connection.onDidCloseTextDocument((params) =>
    session.inOrder.run('close', () => {
      const uri = params.textDocument.uri;
      session.closed(uri);
      publisher.closed(uri);
      session.analyzer.forgetTexts();
    }),
  );

  connection.onNotification(BufferAssignmentNotification, (p: unknown) =>
    session.inOrder.run('bufferAssignment', () => session.assignments.accept(p)),
  );

  for (const r of REQUESTS) r.register({ session, connection });
}
