/**
 * The XLA Layout Lens language server, independent of transport: `createServer(connection)` wires
 * documents, settings, diagnostics and every feature onto a connection that node-main.ts (stdio,
 * IPC) or browser-main.ts (web worker) created. Handlers run inside `guarded`, so one failing
 * feature logs and answers empty instead of taking the server down.
 */
import {
  CodeActionKind,
  TextDocumentSyncKind,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import {
  AnalysisProgressNotification,
  AnalyzeShapeRequest,
  OutlineLimitNotification,
  PaddingReportRequest,
  SourceInstructionsRequest,
  type AnalysisProgressParams,
  type OutlineLimitParams,
} from '../../protocol/src/lsp';
import { forgetSearchedText } from '../../core/src';
import { ANALYSIS_SETTINGS, Analyzer } from './analyzer';
import { incomingCalls, outgoingCalls, prepareCallHierarchy } from './call-hierarchy';
import { codeActions } from './code-actions';
import { completions } from './completion';
import { analyzeShape, paddingReport } from './custom-requests';
import { HloDocument } from './document';
import { guarded, logged } from './guard';
import { hover } from './hover';
import { inlayHints } from './inlay-hints';
import { documentDiagnostics } from './lsp-diagnostics';
import { NameChecks } from './name-diagnostics';
import { definition, highlights, references } from './navigation';
import { documentSymbols, foldingRanges } from './outline';
import { prepareRename, rename } from './rename';
import { selectionRanges } from './selection-ranges';
import { sourceInstructions } from './source-instructions';
import { toOffset } from './positions';
import { workspaceSymbols } from './workspace-symbols';
import {
  DEFAULT_SETTINGS,
  changedSettings,
  readSettingsSection,
  type Settings,
} from '../../protocol/src/settings';
import type { InitializationOptions } from '../../protocol/src/lsp';
import { acceptRulesDocUri, PUBLISHED_RULES_DOC } from './rules-link';

/** Documents above this size (UTF-16 units) get AnalysisProgress notifications around full analyses. */
export const LARGE_DOCUMENT = 5 * 1024 * 1024;
/**
 * While a large document just opened is analysed, the diagnostics found so far are published this
 * long after the analysis starts, and again after three times the previous wait (at 100, 400,
 * 1300 ms, ...): the first screenful of squiggles soon, and few extra publishes of a list that
 * grows to thousands (each costs its conversion and JSON on the server and again on the client;
 * publishing every 250 ms made the complete diagnostics of a 50 MB dump about 0.1 s later).
 */
export const PARTIAL_DIAGNOSTICS_MS = 100;
/** How often a large document's analysis reports how far it got. */
export const PROGRESS_MS = 100;
/**
 * Within a burst of changes (each less than this after the one before), diagnostics are published
 * this long after the last one. A change after a quiet spell is published at once, after the
 * messages already received: an isolated edit pays no wait, and a burst costs one publish.
 */
export const DIAGNOSTICS_DEBOUNCE_MS = 15;
/**
 * A publish of at least this many diagnostics is garbage of tens of MiB once written (the LSP
 * objects and their JSON), which a short burst of edits promotes to the old generation faster than
 * V8 collects it: 20 one-line edits on a dump with 50,669 warnings left the server at about 1 GiB.
 * After such a publish a full collection runs once the server has published nothing large for
 * {@link IDLE_COLLECTION_MS}: when the user has stopped typing, not between keystrokes. An outline
 * or folding answer of this many items leaves the same kind of garbage (the outline and folding
 * ranges VS Code asks for after opening the 50 MB bench dump took the server from 166 to 242 MiB)
 * and schedules the same collection.
 */
export const LARGE_PUBLISH = 10_000;
export const IDLE_COLLECTION_MS = 2000;

/** What the entry point knows about its environment. */
export interface ServerOptions {
  /** A local copy of docs/rules.md (the Node entry finds the one beside dist/). */
  readonly rulesDocUri?: string;
  /**
   * A full garbage collection, run around the analysis of a large document that was just opened.
   * Receiving a 50 MB document leaves its message buffers and decoded JSON (about twice the file)
   * as garbage in the old generation, and the analysis leaves its own; V8 would keep both resident
   * until it next runs short (measured: peak 360 → 258 MiB, resident after open 253 → 233 MiB).
   */
  readonly collectGarbage?: () => void;
  /** First wait before publishing partial diagnostics (default {@link PARTIAL_DIAGNOSTICS_MS}; tests shorten it). */
  readonly partialDiagnosticsMs?: number;
  /** Time between analysis progress reports (default {@link PROGRESS_MS}; tests shorten it). */
  readonly progressMs?: number;
  /** Quiet time after a large publish before {@link collectGarbage} runs (default {@link IDLE_COLLECTION_MS}; tests shorten it). */
  readonly idleCollectionMs?: number;
}

/** Wires the server onto `connection` (the caller calls `connection.listen()`). */
export function createServer(connection: Connection, options: ServerOptions = {}): void {
  const documents = new Map<string, HloDocument>();
  const nameChecks = new Map<string, NameChecks>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Documents whose last outline was cut at outline.maxItems: the client shows it until a whole one is sent. */
  const cutOutlines = new Set<string>();
  let settings: Settings = DEFAULT_SETTINGS;
  let analyzer = new Analyzer(settings);
  let canAskConfiguration = false;
  let rulesDoc = options.rulesDocUri ?? PUBLISHED_RULES_DOC;
  let canRefreshInlayHints = false;
  let definitionLinks = false;
  let relatedInformation = false;

  /** When each document last changed (Date.now()). */
  const changed = new Map<string, number>();
  const send = (doc: HloDocument, diagnostics: Diagnostic[]): void =>
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  let idleCollection: ReturnType<typeof setTimeout> | undefined;
  /** Runs {@link ServerOptions.collectGarbage} once nothing large has been published for a while. */
  const collectWhenIdle = (): void => {
    const collect = options.collectGarbage;
    if (!collect) return;
    if (idleCollection !== undefined) clearTimeout(idleCollection);
    idleCollection = setTimeout(() => {
      idleCollection = undefined;
      collect();
    }, options.idleCollectionMs ?? IDLE_COLLECTION_MS);
  };
  const publish = (doc: HloDocument): void => {
    timers.delete(doc.uri);
    const names = nameChecks.get(doc.uri)?.diagnostics(doc);
    const diagnostics = documentDiagnostics(doc, settings, rulesDoc, names, relatedInformation);
    send(doc, diagnostics);
    if (diagnostics.length >= LARGE_PUBLISH) collectWhenIdle();
  };
  const schedule = (doc: HloDocument): void => {
    const pending = timers.get(doc.uri);
    if (pending !== undefined) clearTimeout(pending);
    const now = Date.now();
    const quiet = pending === undefined && now - (changed.get(doc.uri) ?? 0) >= DIAGNOSTICS_DEBOUNCE_MS;
    changed.set(doc.uri, now);
    timers.set(
      doc.uri,
      setTimeout(
        () => logged(connection, 'diagnostics', () => publish(doc)),
        quiet ? 0 : DIAGNOSTICS_DEBOUNCE_MS,
      ),
    );
  };
  /**
   * Yields to the event loop between analysis slices: setImmediate in Node (setTimeout would add
   * its 1 ms minimum to every 20 ms slice), setTimeout in a web worker.
   */
  const pause = () =>
    new Promise<void>((resolve) =>
      typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
    );
  /**
   * Analyses a whole document, bracketed by progress notifications when it is large. A large
   * document that was just opened has no diagnostics on screen yet: from time to time ({@link
   * PARTIAL_DIAGNOSTICS_MS}) the diagnostics of the statements analysed so far are published (the
   * top of the file first, where the editor opens it), each publish replacing the one before, until
   * the caller publishes them all. A re-analysis with a new `analyzer` (settings changed) leaves the
   * diagnostics on screen alone until the new ones are complete.
   */
  const analyzeWhole = async (doc: HloDocument, analyzer?: Analyzer): Promise<void> => {
    const size = doc.text.length;
    const large = size > LARGE_DOCUMENT;
    const progress = (state: AnalysisProgressParams['state'], done?: number) =>
      void connection.sendNotification(AnalysisProgressNotification, {
        uri: doc.uri,
        state,
        size,
        ...(done !== undefined ? { done } : {}),
      });
    const partial = large && analyzer === undefined;
    let wait = options.partialDiagnosticsMs ?? PARTIAL_DIAGNOSTICS_MS;
    let due = Date.now() + wait;
    let shown = 0;
    let reported = Date.now();
    const slice = async (statementsDone: number): Promise<void> => {
      if (large && Date.now() - reported >= (options.progressMs ?? PROGRESS_MS)) {
        progress('progress', statementsDone / doc.statementCount);
        reported = Date.now();
      }
      // Only when there is more to show than last time (with warnings turned off, maybe nothing).
      const found = partial && Date.now() >= due ? documentDiagnostics(doc, settings, rulesDoc) : undefined;
      if (found !== undefined && found.length > shown) {
        shown = found.length;
        send(doc, found);
        wait *= 3;
        due = Date.now() + wait;
      }
      await pause();
    };
    if (large) progress('started');
    try {
      await doc.analyze(slice, analyzer);
    } finally {
      if (large) progress('finished');
    }
  };

  const fetchSettings = async (): Promise<void> => {
    if (!canAskConfiguration) return;
    const [raw] = (await connection.workspace.getConfiguration([{ section: 'xlaLayout' }])) as unknown[];
    const next = readSettingsSection(raw).settings;
    const changed = changedSettings(settings, next);
    if (changed.length === 0) return;
    const reanalyze = changed.some((name) => ANALYSIS_SETTINGS.includes(name));
    settings = next;
    if (reanalyze) {
      analyzer = new Analyzer(settings);
      for (const doc of documents.values()) await analyzeWhole(doc, analyzer);
    }
    for (const doc of documents.values()) publish(doc);
    if (canRefreshInlayHints) await connection.languages.inlayHint.refresh();
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    canAskConfiguration = params.capabilities.workspace?.configuration === true;
    const fromClient = acceptRulesDocUri(
      (params.initializationOptions as InitializationOptions | undefined)?.rulesDocUri,
    );
    if (fromClient) rulesDoc = fromClient;
    canRefreshInlayHints = params.capabilities.workspace?.inlayHint?.refreshSupport === true;
    definitionLinks = params.capabilities.textDocument?.definition?.linkSupport === true;
    relatedInformation = params.capabilities.textDocument?.publishDiagnostics?.relatedInformation === true;
    // The server may answer prepareRename only to a client that says it asks (LSP 3.12).
    const prepareSupport = params.capabilities.textDocument?.rename?.prepareSupport === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        documentSymbolProvider: { label: 'HLO' },
        foldingRangeProvider: true,
        callHierarchyProvider: true,
        renameProvider: prepareSupport ? { prepareProvider: true } : true,
        completionProvider: { triggerCharacters: ['%'] },
        selectionRangeProvider: true,
        workspaceSymbolProvider: true,
        inlayHintProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
      serverInfo: { name: 'xla-layout-lens' },
    };
  });

  // Settings fetches and document notifications run one after another in arrival order: the first
  // diagnostics already honour the user's settings (clients send `initialized` before any didOpen),
  // no change overtakes its open, and no edit lands in the middle of a sliced re-analysis.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (name: string, fn: () => void | Promise<void>): void => {
    queue = queue
      .then(fn)
      .catch((e: unknown) =>
        connection.console.error(
          `${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
        ),
      );
  };

  connection.onInitialized(() => enqueue('settings', fetchSettings));
  connection.onDidChangeConfiguration(() => enqueue('settings', fetchSettings));

  connection.onDidOpenTextDocument((params) =>
    enqueue('open', async () => {
      const { uri, languageId, version, text } = params.textDocument;
      const collect =
        options.collectGarbage && text.length > LARGE_DOCUMENT ? options.collectGarbage : undefined;
      // The message's buffers and decoded JSON go before the analysis allocates: a third less peak.
      collect?.();
      const doc = new HloDocument(uri, languageId, version, text, analyzer);
      await analyzeWhole(doc);
      documents.set(uri, doc);
      nameChecks.set(uri, new NameChecks());
      publish(doc);
      if (collect) {
        // The analysis's own garbage, once the diagnostics are written and before the next message
        // (which also stands for the idle collection a large publish schedules).
        await pause();
        collect();
        if (idleCollection !== undefined) clearTimeout(idleCollection);
        idleCollection = undefined;
      }
    }),
  );

  connection.onDidChangeTextDocument((params) =>
    enqueue('change', () => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return;
      doc.applyChanges(params.contentChanges, params.textDocument.version);
      schedule(doc);
    }),
  );

  connection.onDidCloseTextDocument((params) =>
    enqueue('close', () => {
      const uri = params.textDocument.uri;
      const pending = timers.get(uri);
      if (pending !== undefined) clearTimeout(pending);
      timers.delete(uri);
      changed.delete(uri);
      documents.delete(uri);
      nameChecks.delete(uri);
      cutOutlines.delete(uri);
      // The shape finder's search memo may still point at the closed document's text.
      forgetSearchedText();
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    }),
  );

  /** The open document `uri` once every earlier notification has been applied. */
  const documentFor = async (uri: string): Promise<HloDocument | undefined> => {
    await queue;
    return documents.get(uri);
  };
  /** The document and offset a positional request is about, or undefined when it is not open. */
  const at = async (uri: string, position: { line: number; character: number }) => {
    const doc = await documentFor(uri);
    return doc ? { doc, offset: toOffset(doc.text, position) } : undefined;
  };
  connection.onHover(
    guarded(connection, 'hover', null, async (p) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? hover(t.doc, t.offset, settings) : null;
    }),
  );
  connection.onDefinition(
    guarded(connection, 'definition', [], async (p) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? definition(t.doc, t.offset, definitionLinks) : [];
    }),
  );
  connection.onReferences(
    guarded(connection, 'references', [], async (p, token) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? references(t.doc, t.offset, p.context.includeDeclaration, token) : [];
    }),
  );
  connection.onDocumentHighlight(
    guarded(connection, 'documentHighlight', [], async (p, token) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? highlights(t.doc, t.offset, token) : [];
    }),
  );
  connection.onDocumentSymbol(
    guarded(connection, 'documentSymbol', [], async (p, token) => {
      const doc = await documentFor(p.textDocument.uri);
      if (!doc) return [];
      const outline = await documentSymbols(doc, token, settings.outlineMaxItems);
      if (outline.shown >= LARGE_PUBLISH) collectWhenIdle();
      const cut = outline.shown < outline.total && outline.shown >= settings.outlineMaxItems;
      if (cut || cutOutlines.has(doc.uri)) {
        if (cut) cutOutlines.add(doc.uri);
        else cutOutlines.delete(doc.uri);
        const limit: OutlineLimitParams = { uri: doc.uri, shown: outline.shown, total: outline.total };
        void connection.sendNotification(OutlineLimitNotification, limit);
      }
      return outline.symbols;
    }),
  );
  connection.onWorkspaceSymbol(
    guarded(connection, 'workspaceSymbol', [], async (p, token) => {
      await queue;
      return workspaceSymbols([...documents.values()], p.query, token);
    }),
  );
  connection.onFoldingRanges(
    guarded(connection, 'foldingRange', [], async (p, token) => {
      const doc = await documentFor(p.textDocument.uri);
      if (!doc) return [];
      const ranges = await foldingRanges(doc, token);
      if (ranges.length >= LARGE_PUBLISH) collectWhenIdle();
      return ranges;
    }),
  );
  connection.onCompletion(
    guarded(connection, 'completion', null, async (p) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? completions(t.doc, t.offset) : null;
    }),
  );
  connection.onSelectionRanges(
    guarded(connection, 'selectionRange', [], async (p) => {
      const doc = await documentFor(p.textDocument.uri);
      return doc
        ? selectionRanges(
            doc,
            p.positions.map((position) => toOffset(doc.text, position)),
          )
        : [];
    }),
  );
  connection.onPrepareRename(
    guarded(connection, 'prepareRename', null, async (p) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? prepareRename(t.doc, t.offset) : null;
    }),
  );
  connection.onRenameRequest(
    guarded(connection, 'rename', null, async (p, token) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? rename(t.doc, t.offset, p.newName, token) : null;
    }),
  );
  connection.languages.callHierarchy.onPrepare(
    guarded(connection, 'prepareCallHierarchy', [], async (p) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? prepareCallHierarchy(t.doc, t.offset) : [];
    }),
  );
  connection.languages.callHierarchy.onIncomingCalls(
    guarded(connection, 'incomingCalls', [], async (p, token) => {
      const doc = await documentFor(p.item.uri);
      return doc ? incomingCalls(doc, p.item, token) : [];
    }),
  );
  connection.languages.callHierarchy.onOutgoingCalls(
    guarded(connection, 'outgoingCalls', [], async (p, token) => {
      const doc = await documentFor(p.item.uri);
      return doc ? outgoingCalls(doc, p.item, token) : [];
    }),
  );
  connection.languages.inlayHint.on(
    guarded(connection, 'inlayHint', [], async (p, token) => {
      const doc = await documentFor(p.textDocument.uri);
      return doc ? inlayHints(doc, p.range, settings, analyzer, token) : [];
    }),
  );
  connection.onCodeAction(
    guarded(connection, 'codeAction', [], async (p) => {
      const doc = await documentFor(p.textDocument.uri);
      return doc ? codeActions(doc, p) : [];
    }),
  );
  connection.onRequest(
    AnalyzeShapeRequest,
    guarded(connection, AnalyzeShapeRequest.method, null, async (p) => {
      const t = await at(p.textDocument.uri, p.position);
      return t ? analyzeShape(t.doc, t.offset, settings) : null;
    }),
  );
  connection.onRequest(
    SourceInstructionsRequest,
    guarded(connection, SourceInstructionsRequest.method, null, async (p, token) => {
      await queue;
      return sourceInstructions([...documents.values()], p, analyzer, token);
    }),
  );
  connection.onRequest(
    PaddingReportRequest,
    guarded(connection, PaddingReportRequest.method, null, async (p, token) => {
      const doc = await documentFor(p.textDocument.uri);
      return doc ? paddingReport(doc, analyzer, token) : null;
    }),
  );
}
