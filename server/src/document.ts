/**
 * One open HLO document: its text (vscode-languageserver-textdocument, which applies incremental
 * changes and keeps line offsets), its statement table, and indexes derived from the table on
 * demand. Features ask for parsed statements by offset; only summaries are retained.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { parseStatement, type HloStatement } from '../../core/src/hlo';
import type { Analyzer, StatementDiagnostic, StatementSummary } from './analyzer';
import { toOffset } from './positions';
import { StatementTable, type TableEdit } from './statement-table';

/** A computation as the outline and navigation see it: statement indexes of header and `}`. */
export interface ComputationEntry {
  readonly name: string | undefined;
  readonly entry: boolean;
  /** Statement index of the header. */
  readonly header: number;
  /** Statement index of the closing `}`, or of the last statement before the next header. */
  readonly last: number;
  /** Statement index of the module header this computation belongs to (-1 when none). */
  readonly module: number;
}

export class HloDocument {
  readonly text: TextDocument;
  private table: StatementTable<StatementSummary>;
  private computationIndex: ComputationEntry[] | undefined;
  private tiledCache: boolean | undefined;

  /** A document whose statements are not analysed yet: call {@link analyze} before use. */
  constructor(uri: string, languageId: string, version: number, content: string, private analyzer: Analyzer) {
    this.text = TextDocument.create(uri, languageId, version, content);
    const positionAt = (offset: number) => this.text.positionAt(offset);
    this.table = new StatementTable((t, r) => this.analyzer.summarize(t, r, positionAt));
  }

  /**
   * Analyses the whole text, in time slices separated by `pause` (see StatementTable.resetSliced).
   * With a new `analyzer` (settings changed), statement boundaries are kept and only summaries redone.
   */
  async analyze(pause: () => Promise<void>, analyzer?: Analyzer): Promise<void> {
    if (analyzer) this.analyzer = analyzer;
    await this.table.resetSliced(this.text.getText(), pause, analyzer !== undefined);
    this.computationIndex = undefined;
    this.tiledCache = undefined;
  }

  get uri(): string {
    return this.text.uri;
  }

  get version(): number {
    return this.text.version;
  }

  get statementCount(): number {
    return this.table.count;
  }

  /** Applies LSP content changes in order, re-analysing only the statements they touch. */
  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if ('range' in change) {
        const a = toOffset(this.text, change.range.start);
        const b = toOffset(this.text, change.range.end);
        const start = Math.min(a, b);
        const end = Math.max(a, b);
        const old = this.text.getText();
        // TextDocument keeps its line index up to date by the range's line numbers, so give it the
        // clamped range a client may have sent out of bounds.
        const range = { start: this.text.positionAt(start), end: this.text.positionAt(end) };
        TextDocument.update(this.text, [{ range, text: change.text }], version);
        if (splitsOrJoinsCrLf(old, start, end, change.text)) {
          // The incremental line index gets `\r` + `\n` seams wrong: have it rebuilt from the text.
          TextDocument.update(this.text, [{ text: this.text.getText() }], version);
        }
        this.afterEdit(this.table.applyEdit(this.text.getText(), start, end, change.text.length));
      } else {
        TextDocument.update(this.text, [change], version);
        this.table.reset(change.text);
        this.computationIndex = undefined;
        this.tiledCache = undefined;
      }
    }
  }

  /** Keeps the derived indexes valid: they are only dropped when the edit changed what they index. */
  private afterEdit(edit: TableEdit<StatementSummary>): void {
    if (edit.added.some((s) => s.tiled)) {
      if (this.tiledCache === false) this.tiledCache = true;
    } else if (edit.removed.some((s) => s.tiled)) this.tiledCache = undefined;
    const same = edit.removed.length === edit.added.length && edit.removed.every((r, i) => sameStructure(r, edit.added[i]));
    if (!same) this.computationIndex = undefined;
  }

  /** Index of the statement containing `offset` (its end included), or -1 between statements. */
  statementIndexAt(offset: number): number {
    return this.table.indexAt(offset);
  }

  /** Statement index range [start, end) of statements overlapping [from, to]. */
  statementsOverlapping(from: number, to: number): { first: number; end: number } {
    const first = Math.max(0, this.table.lastStartingAtOrBefore(from));
    const end = this.table.lastStartingAtOrBefore(to) + 1;
    return { first, end: Math.max(first, end) };
  }

  range(i: number): { start: number; end: number } {
    return { start: this.table.start(i), end: this.table.end(i) };
  }

  summary(i: number): StatementSummary {
    return this.table.summary(i);
  }

  /** The statement `i`, parsed now; ranges absolute in the document. */
  parse(i: number): HloStatement {
    return parseStatement(this.text.getText(), this.range(i));
  }

  /**
   * Calls `visit` for every diagnostic in the document with the LSP position of its statement's
   * first character (spans in the diagnostics are relative to it), in text order.
   */
  forEachDiagnostic(visit: (d: StatementDiagnostic, base: { line: number; character: number }) => void): void {
    for (let i = 0; i < this.table.count; i++) {
      const d = this.table.summary(i).diagnostics;
      if (!d) continue;
      const base = this.text.positionAt(this.table.start(i));
      for (const x of d) visit(x, base);
    }
  }

  /** Whether any shape in the document carries `T(...)` tiles. */
  get hasTiles(): boolean {
    if (this.tiledCache === undefined) {
      this.tiledCache = false;
      for (let i = 0; i < this.table.count; i++) {
        if (this.table.summary(i).tiled) {
          this.tiledCache = true;
          break;
        }
      }
    }
    return this.tiledCache;
  }

  /** The computations in text order (rebuilt lazily after an edit: one pass over the summaries). */
  computations(): readonly ComputationEntry[] {
    if (this.computationIndex) return this.computationIndex;
    const out: ComputationEntry[] = [];
    let module = -1;
    let open: { name: string | undefined; entry: boolean; header: number; module: number } | undefined;
    let lastContent = -1;
    const close = (last: number) => {
      if (open) out.push({ ...open, last });
      open = undefined;
    };
    for (let i = 0; i < this.table.count; i++) {
      const s = this.table.summary(i);
      switch (s.kind) {
        case 'module':
          close(lastContent);
          module = i;
          break;
        case 'computation':
          close(lastContent);
          open = { name: s.name, entry: s.entry ?? false, header: i, module };
          break;
        case 'close':
          close(i);
          break;
        default:
          break;
      }
      if (s.kind !== 'blank' && s.kind !== 'comment') lastContent = i;
    }
    close(lastContent);
    this.computationIndex = out;
    return out;
  }

  /** The computation whose statements include statement `i`, if any. */
  computationOf(i: number): ComputationEntry | undefined {
    const list = this.computations();
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = list[mid];
      if (c.last < i) lo = mid + 1;
      else if (c.header > i) hi = mid - 1;
      else return c;
    }
    return undefined;
  }
}

/** Whether two summaries index the same way (kind, header name, ENTRY): the computation index survives. */
function sameStructure(a: StatementSummary, b: StatementSummary): boolean {
  return a.kind === b.kind && a.name === b.name && a.entry === b.entry;
}

/**
 * Whether replacing [start, end) of `old` by `inserted` splits a `\r\n` pair or creates one at a
 * seam of the edit: the only edits whose line index TextDocument updates wrongly. Seams can only
 * pair up through a `\r` right before the edit or a `\n` right after it.
 */
export function splitsOrJoinsCrLf(old: string, start: number, end: number, inserted: string): boolean {
  const CR = 13;
  const LF = 10;
  if (start > 0 && old.charCodeAt(start - 1) === CR) return true;
  if (old.charCodeAt(end) !== LF) return false;
  return (end > start && old.charCodeAt(end - 1) === CR) || (inserted.length > 0 && inserted.charCodeAt(inserted.length - 1) === CR);
}
