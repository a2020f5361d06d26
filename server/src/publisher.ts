/**
 * Publishes a document's diagnostics. Within a burst of changes (each less than
 * {@link DIAGNOSTICS_DEBOUNCE_MS} after the one before) they are published that long after the
 * last one; a change after a quiet spell is published at once, after the messages already
 * received: an isolated edit pays no wait, and a burst costs one publish.
 */
import type { Connection, Diagnostic } from 'vscode-languageserver';
import type { HloDocument } from './document';
import { logged } from './guard';
import { documentDiagnostics } from './lsp-diagnostics';
import type { Session } from './session';

const DIAGNOSTICS_DEBOUNCE_MS = 15;

export class DiagnosticsPublisher {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When each document last changed (Date.now()). */
  private readonly changed = new Map<string, number>();

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
  ) {}

  /** Publishes every diagnostic of `doc` now: layout, names, with related information if the client takes it. */
  publish(doc: HloDocument): void {
    this.timers.delete(doc.uri);
    const s = this.session;
    const names = s.current(doc.uri)?.names.diagnostics(doc);
    const diagnostics = documentDiagnostics(doc, s.settings, s.rulesDoc, names, s.client.relatedInformation);
    this.send(doc, diagnostics);
    s.idleCollection.sent(diagnostics.length);
  }

  /**
   * Publishes the layout diagnostics found so far in a document under analysis (no name checks:
   * they need the whole document) when there are more than the `shown` on screen; returns how many
   * are on screen then.
   */
  publishFoundSoFar(doc: HloDocument, shown: number): number {
    const found = documentDiagnostics(doc, this.session.settings, this.session.rulesDoc, [], false, true);
    if (found.length <= shown) return shown;
    this.send(doc, found);
    return found.length;
  }

  /** Publishes `doc` after a change: at once after a quiet spell, else when the burst of changes ends. */
  schedule(doc: HloDocument): void {
    const pending = this.timers.get(doc.uri);
    if (pending !== undefined) clearTimeout(pending);
    const now = Date.now();
    const quiet = pending === undefined && now - (this.changed.get(doc.uri) ?? 0) >= DIAGNOSTICS_DEBOUNCE_MS;
    this.changed.set(doc.uri, now);
    this.timers.set(
      doc.uri,
      setTimeout(
        () => logged(this.connection, 'diagnostics', () => this.publish(doc)),
        quiet ? 0 : DIAGNOSTICS_DEBOUNCE_MS,
      ),
    );
  }

  /** Drops what is pending for a closed document and clears its diagnostics in the client. */
  closed(uri: string): void {
    const pending = this.timers.get(uri);
    if (pending !== undefined) clearTimeout(pending);
    this.timers.delete(uri);
    this.changed.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private send(doc: HloDocument, diagnostics: Diagnostic[]): void {
    void this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }
}
