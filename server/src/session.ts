/**
 * What the server knows while it runs: the open documents (each with the state kept beside it),
 * the settings and the analyzer built for them, and what the client said it supports. Features get
 * the session and read what they need; only the server's lifecycle handlers (server.ts) change it.
 */
import type { InitializeParams } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, type Settings } from '../../protocol/src/settings';
import type { InitializationOptions } from '../../protocol/src/lsp';
import { Analyzer } from './analyzer';
import { BufferAssignmentStore } from './hover-allocation';
import type { Clock } from './clock';
import type { HloDocument } from './document';
import { IdleCollection } from './idle-collection';
import { InOrder } from './in-order';
import { NameChecks } from './name-diagnostics';
import { toOffset } from './positions';
import { acceptRulesDocUri, PUBLISHED_RULES_DOC } from './rules-link';

/** An open document and the state kept for it until it closes. */
export interface OpenDocument {
  readonly doc: HloDocument;
  readonly names: NameChecks;
  /** Whether its last outline was cut at outline.maxItems (the client shows it until a whole one is sent). */
  outlineCut: boolean;
}

/** What the client supports, from `initialize`. */
export interface ClientSupport {
  /** workspace/configuration: settings can be asked for. */
  readonly configuration: boolean;
  readonly inlayHintRefresh: boolean;
  readonly definitionLinks: boolean;
  readonly relatedInformation: boolean;
  /** LSP 3.12: the server may answer prepareRename only to a client that says it asks. */
  readonly prepareRename: boolean;
}

const NOTHING: ClientSupport = {
  configuration: false,
  inlayHintRefresh: false,
  definitionLinks: false,
  relatedInformation: false,
  prepareRename: false,
};

export class Session {
  settings: Settings = DEFAULT_SETTINGS;
  analyzer = new Analyzer(DEFAULT_SETTINGS);
  client: ClientSupport = NOTHING;
  /** Where diagnostics' rule links point. */
  rulesDoc: string;
  readonly inOrder: InOrder;
  readonly idleCollection: IdleCollection;
  /** The buffer assignments the client found beside HLO documents, for the hovers' allocation section. */
  readonly assignments = new BufferAssignmentStore();
  private readonly open = new Map<string, OpenDocument>();

  constructor(
    logError: (message: string) => void,
    clock: Clock,
    options: { rulesDocUri?: string; collectGarbage?: () => void; idleCollectionMs?: number },
  ) {
    this.rulesDoc = options.rulesDocUri ?? PUBLISHED_RULES_DOC;
    this.inOrder = new InOrder(logError);
    this.idleCollection = new IdleCollection(options.collectGarbage, clock, options.idleCollectionMs);
  }

  /** Takes in what the client says in `initialize`. */
  initialize(params: InitializeParams): void {
    const c = params.capabilities;
    this.client = {
      configuration: c.workspace?.configuration === true,
      inlayHintRefresh: c.workspace?.inlayHint?.refreshSupport === true,
      definitionLinks: c.textDocument?.definition?.linkSupport === true,
      relatedInformation: c.textDocument?.publishDiagnostics?.relatedInformation === true,
      prepareRename: c.textDocument?.rename?.prepareSupport === true,
    };
    const fromClient = acceptRulesDocUri(
      (params.initializationOptions as InitializationOptions | undefined)?.rulesDocUri,
    );
    if (fromClient) this.rulesDoc = fromClient;
  }

  opened(doc: HloDocument): void {
    this.open.set(doc.uri, { doc, names: new NameChecks(), outlineCut: false });
  }

  closed(uri: string): void {
    this.open.get(uri)?.doc.closed();
    this.open.delete(uri);
  }

  /** The open document `uri` as it is now (for the notification handlers, which run in order). */
  current(uri: string): OpenDocument | undefined {
    return this.open.get(uri);
  }

  /** Every open document as it is now. */
  all(): OpenDocument[] {
    return [...this.open.values()];
  }

  /** The open document `uri` once every notification received before has been applied. */
  async document(uri: string): Promise<HloDocument | undefined> {
    await this.inOrder.settled();
    return this.open.get(uri)?.doc;
  }

  /** Every open document once every notification received before has been applied. */
  async documents(): Promise<HloDocument[]> {
    await this.inOrder.settled();
    return [...this.open.values()].map((o) => o.doc);
  }

  /** The document and offset a positional request is about, or undefined when it is not open. */
  async at(
    uri: string,
    position: { line: number; character: number },
  ): Promise<{ doc: HloDocument; offset: number } | undefined> {
    const doc = await this.document(uri);
    return doc ? { doc, offset: toOffset(doc.text, position) } : undefined;
  }
}
