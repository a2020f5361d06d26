/**
 * Every request the server answers, in one table: its LSP type, the capability it announces, the
 * answer when it fails or its document is not open, and the feature function that answers it. A
 * new feature adds a row here (and its module); the server's core (server.ts) only registers the
 * table. Every handler runs inside `guarded`, so one failing feature logs and answers empty
 * instead of taking the server down.
 */
import {
  type CallHierarchyItem,
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeActionKind,
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentHighlightRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  InlayHintRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  SelectionRangeRequest,
  WorkspaceSymbolRequest,
  type CancellationToken,
  type Connection,
  type RequestType,
  type ServerCapabilities,
  type TextDocumentPositionParams,
} from 'vscode-languageserver';
import {
  AnalyzeShapeRequest,
  OutlineLimitNotification,
  PaddingReportRequest,
  SourceInstructionsRequest,
  requestedVerbosity,
  type HoverVerbosityParams,
} from '../../protocol/src/lsp';
import { incomingCalls, outgoingCalls, prepareCallHierarchy } from './call-hierarchy';
import { codeActions } from './code-actions';
import { completions } from './completion';
import { analyzeShape, paddingReport, requestedRows } from './custom-requests';
import type { HloDocument } from './document';
import { guarded } from './guard';
import {
  documentId,
  fields,
  list,
  object,
  position,
  range,
  requireValid,
  text,
  type ParamsCheck,
} from './params-check';
import { hover } from './hover';
import { withAllocation } from './hover-allocation';
import { inlayHints } from './inlay-hints';
import { definition, highlights, references } from './navigation';
import { documentSymbols, foldingRanges } from './outline';
import { toOffset } from './positions';
import { prepareRename, rename } from './rename';
import { selectionRanges } from './selection-ranges';
import type { Session } from './session';
import { sourceInstructions } from './source-instructions';
import { workspaceSymbols } from './workspace-symbols';

/** What a handler may use besides its params: the session, and the connection to notify the client. */
export interface RequestContext {
  readonly session: Session;
  readonly connection: Connection;
}

/** One row of the table, its types erased once they have been checked against the request's. */
export interface Answerer {
  /** The capabilities to announce, given what the client said it supports. */
  readonly capabilities: (session: Session) => ServerCapabilities;
  register(ctx: RequestContext): void;
}

type Capabilities = ServerCapabilities | ((session: Session) => ServerCapabilities);

/**
 * A request answered by `answer`, or by `empty` when it throws; params that `check` finds malformed
 * are answered InvalidParams before `answer` runs.
 */
function request<P, R>(
  type: RequestType<P, R, void>,
  capabilities: Capabilities,
  empty: R,
  answer: (params: P, ctx: RequestContext, token: CancellationToken) => R | Promise<R>,
  check: Record<string, ParamsCheck> = {},
): Answerer {
  const valid = fields(check);
  return {
    capabilities: typeof capabilities === 'function' ? capabilities : () => capabilities,
    register: (ctx) =>
      void ctx.connection.onRequest(
        type,
        guarded(ctx.connection, type.method, empty, (p: P, token) => {
          requireValid(type.method, valid, p);
          return answer(p, ctx, token);
        }),
      ),
  };
}

/** A request about one open document; `empty` when it is not open. */
function inDocument<P extends { textDocument: { uri: string } }, R>(
  type: RequestType<P, R, void>,
  capabilities: Capabilities,
  empty: R,
  answer: (doc: HloDocument, params: P, ctx: RequestContext, token: CancellationToken) => R | Promise<R>,
  check: Record<string, ParamsCheck> = {},
): Answerer {
  return request(
    type,
    capabilities,
    empty,
    async (p, ctx, token) => {
      const doc = await ctx.session.document(p.textDocument.uri);
      return doc ? answer(doc, p, ctx, token) : empty;
    },
    { textDocument: documentId, ...check },
  );
}

/** A request about a position in one open document: the answer gets the offset. */
function atPosition<P extends TextDocumentPositionParams, R>(
  type: RequestType<P, R, void>,
  capabilities: Capabilities,
  empty: R,
  answer: (
    doc: HloDocument,
    offset: number,
    params: P,
    ctx: RequestContext,
    token: CancellationToken,
  ) => R | Promise<R>,
  check: Record<string, ParamsCheck> = {},
): Answerer {
  return inDocument(
    type,
    capabilities,
    empty,
    (doc, p, ctx, token) => answer(doc, toOffset(doc.text, p.position), p, ctx, token),
    { position, ...check },
  );
}

/** A call hierarchy item as the features read it. */
const hierarchyItem = fields({ uri: text, name: text, selectionRange: range });

/** A call hierarchy request after the first (incoming or outgoing calls): about the item's document. */
function callsOf<P extends { item: CallHierarchyItem }, R>(
  type: RequestType<P, R[] | null, void>,
  calls: (doc: HloDocument, item: CallHierarchyItem, token: CancellationToken) => R[] | Promise<R[]>,
): Answerer {
  return request(
    type,
    {},
    [],
    async (p, { session }, token) => {
      const doc = await session.document(p.item.uri);
      return doc ? calls(doc, p.item, token) : [];
    },
    { item: hierarchyItem },
  );
}

export const REQUESTS: readonly Answerer[] = [
  atPosition(HoverRequest.type, { hoverProvider: true }, null, async (doc, offset, p, { session }) =>
    withAllocation(
      await hover(doc, offset, session.settings, requestedVerbosity((p as HoverVerbosityParams).verbosity)),
      doc,
      offset,
      session.assignments.get(doc.uri),
    ),
  ),
  atPosition(DefinitionRequest.type, { definitionProvider: true }, [], (doc, offset, _p, { session }) =>
    definition(doc, offset, session.client.definitionLinks),
  ),
  atPosition(
    ReferencesRequest.type,
    { referencesProvider: true },
    [],
    (doc, offset, p, _ctx, token) => references(doc, offset, p.context.includeDeclaration, token),
    { context: object },
  ),
  atPosition(
    DocumentHighlightRequest.type,
    { documentHighlightProvider: true },
    [],
    (doc, offset, _p, _ctx, token) => highlights(doc, offset, token),
  ),
  inDocument(DocumentSymbolRequest.type, { documentSymbolProvider: { label: 'HLO' } }, [], outline),
  request(
    WorkspaceSymbolRequest.type,
    { workspaceSymbolProvider: true },
    [],
    async (p, { session }, token) => workspaceSymbols(await session.documents(), p.query, token),
    { query: text },
  ),
  inDocument(
    FoldingRangeRequest.type,
    { foldingRangeProvider: true },
    [],
    async (doc, _p, { session }, token) => {
      const ranges = await foldingRanges(doc, token);
      session.idleCollection.sent(ranges.length);
      return ranges;
    },
  ),
  atPosition(
    CompletionRequest.type,
    { completionProvider: { triggerCharacters: ['%'] } },
    null,
    (doc, offset) => completions(doc, offset),
  ),
  inDocument(
    SelectionRangeRequest.type,
    { selectionRangeProvider: true },
    [],
    (doc, p) =>
      selectionRanges(
        doc,
        p.positions.map((at) => toOffset(doc.text, at)),
      ),
    { positions: list(position) },
  ),
  atPosition(PrepareRenameRequest.type, {}, null, (doc, offset) => prepareRename(doc, offset)),
  atPosition(
    RenameRequest.type,
    (s) => ({ renameProvider: s.client.prepareRename ? { prepareProvider: true } : true }),
    null,
    (doc, offset, p, _ctx, token) => rename(doc, offset, p.newName, token),
    { newName: text },
  ),
  atPosition(CallHierarchyPrepareRequest.type, { callHierarchyProvider: true }, [], (doc, offset) =>
    prepareCallHierarchy(doc, offset),
  ),
  callsOf(CallHierarchyIncomingCallsRequest.type, incomingCalls),
  callsOf(CallHierarchyOutgoingCallsRequest.type, outgoingCalls),
  inDocument(
    InlayHintRequest.type,
    { inlayHintProvider: true },
    [],
    (doc, p, { session }, token) => inlayHints(doc, p.range, session.settings, session.analyzer, token),
    { range },
  ),
  inDocument(
    CodeActionRequest.type,
    { codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] } },
    [],
    (doc, p) => codeActions(doc, p),
    { range, context: fields({ diagnostics: list(fields({ range })) }) },
  ),
  atPosition(AnalyzeShapeRequest, {}, null, (doc, offset, _p, { session }) =>
    analyzeShape(doc, offset, session.settings),
  ),
  request(
    SourceInstructionsRequest,
    {},
    null,
    async (p, { session }, token) =>
      sourceInstructions(await session.documents(), p, session.analyzer, token),
    { path: text },
  ),
  inDocument(PaddingReportRequest, {}, null, (doc, p, { session }, token) =>
    paddingReport(
      doc,
      session.analyzer,
      requestedRows(p.maxRows),
      () => session.current(doc.uri)?.doc === doc,
      token,
    ),
  ),
];

/**
 * The outline, cut at outline.maxItems. When it is cut, and once more when a document whose
 * outline was cut gets a whole one again, the client is told (OutlineLimitNotification).
 */
async function outline(
  doc: HloDocument,
  _p: unknown,
  { session, connection }: RequestContext,
  token: CancellationToken,
) {
  const max = session.settings.outlineMaxItems;
  const result = await documentSymbols(doc, token, max);
  session.idleCollection.sent(result.shown);
  const open = session.current(doc.uri);
  const cut = result.shown < result.total && result.shown >= max;
  if (open && (cut || open.outlineCut)) {
    open.outlineCut = cut;
    void connection.sendNotification(OutlineLimitNotification, {
      uri: doc.uri,
      shown: result.shown,
      total: result.total,
    });
  }
  return result.symbols;
}
