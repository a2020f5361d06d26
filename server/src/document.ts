/**
 * One open HLO document: its text (text-store.ts: chunks and a line index, so that an edit costs
 * what it touches), its statement table, and indexes derived from the table on demand. Features
 * ask for parsed statements by offset; only summaries are retained.
 */
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { parseStatement, ScanState, StackFrameTables, type HloStatement } from '../../core/src';
import { allocatesIn, placement, type Placement } from '../../core/src';
import { SETTINGS, shownSeverity, type Settings } from '../../protocol/src/settings';
import type { InstructionCalls } from './allocation-facts';
import type { Analyzer, PositionAt, StatementPart, StatementSummary } from './analyzer';
import { toOffset, toPosition } from './positions';
import { StatementTable, type TableEdit } from './statement-table';
import { DocumentText } from './text-store';
import { KeptParses } from './kept-parses';

/** A computation as the outline and navigation see it: statement indexes of header and `}`. */
export interface ComputationEntry {
  /** Its place in {@link HloDocument.computations} (header order). */
  readonly index: number;
  readonly name: string | undefined;
  readonly entry: boolean;
  /**
   * Statement index of the header; for a computation written in place (`calls=\n{ ... }`), of the
   * instruction of the computation around it whose attribute opens it.
   */
  readonly header: number;
  /** Statement index of the closing `}`, or of the last statement before the next header. */
  readonly last: number;
  /**
   * Which part of statement {@link header} the header is, and of statement {@link last} the `}`
   * (or the last statement's last part): -1 for a statement's first, k for its `parts[k]`.
   */
  readonly headerPart: number;
  readonly lastPart: number;
  /**
   * Statement index of what starts this computation's module: its `HloModule` header, or the
   * `// -----` separator of a split file's part (-1 when neither comes before it).
   */
  readonly module: number;
  /**
   * For a computation written in place: the index of the computation around it. Its instructions
   * are its own (XLA's parser scopes their names to it), not those of the computation around it.
   */
  readonly parent?: number;
  /** Whether its `}` was found: an unclosed one runs to the next header. */
  readonly closed: boolean;
}

/** A statement outside any computation: statement `statement`, or its part `part` (-1: its first). */
export interface StrayStatement {
  readonly statement: number;
  readonly part: number;
}

/** The `diagnostics.severity` overrides. */
type Overrides = Settings['severity'];

/**
 * How many of `s`'s diagnostics are shown under `overrides`, negated when one is shown as an error,
 * 0 when none is: its mark in the statement table.
 */
function shownCount(s: StatementSummary, overrides: Overrides): number {
  const diagnostics = s.diagnostics;
  if (diagnostics === undefined) return 0;
  let shown = 0;
  let error = false;
  for (const d of diagnostics) {
    const severity = shownSeverity(d.code, d.severity, overrides);
    if (severity === undefined) continue;
    shown++;
    if (severity === 'error') error = true;
  }
  return error ? -shown : shown;
}

export class HloDocument {
  readonly text: DocumentText;
  private table: StatementTable<StatementSummary>;
  private computationIndex: ComputationEntry[] | undefined;
  private strayIndex: readonly StrayStatement[] = [];
  /**
   * The statements that call computations by name, ascending, and beside each the index of the
   * named computation holding it (-1 when none): gathered with the computation index and valid
   * while it is, so that placements need no pass over every statement of their own.
   */
  private callIndex: { readonly statements: number[]; readonly callers: number[] } = {
    statements: [],
    callers: [],
  };
  private tiledCache: boolean | undefined;
  /** Stack-frame tables by the statement index of their module's start (-1: the text's start); dropped on every change. */
  private frameTables = new Map<number, StackFrameTables>();
  /** The finder's memos for statements parsed on request (hovers, navigation), apart from the analysis's. */
  private readonly lookups = new ScanState();
  /** The long statements {@link parse} answered last; dropped on every change. */
  private readonly kept = new KeptParses();
  /** The severity overrides the table's marks count shown diagnostics by. */
  private markedBy: Overrides = new Map();
  /**
   * Where each module places its values (by the statement index {@link ComputationEntry.module}
   * gives it), from the calls of all its instructions: built when a padding warning asks, kept
   * until an edit changes a call or the computations.
   */
  private placements: Map<number, Placement> | undefined;
  /**
   * The last placements built and what they were built from, kept when an edit drops them: an edit
   * to a `}` or a header's line re-reads the computations, but they are usually the same ones with
   * the same calls, and then the placements are too.
   */
  private placedFrom:
    { readonly inputs: PlacementInputs; readonly placements: Map<number, Placement> } | undefined;
  /**
   * {@link paddingShown}'s answers by computation index and kind (0: not known yet, 1: shown, 2:
   * not), valid for the placements {@link shownFor} and the computations {@link shownIn}.
   */
  private shownMemo = new Int8Array(0);
  private shownFor: Map<number, Placement> | undefined;
  private shownIn: readonly ComputationEntry[] | undefined;

  /** A document whose statements are not analysed yet: call {@link analyze} before use. */
  constructor(
    uri: string,
    languageId: string,
    version: number,
    content: string,
    private analyzer: Analyzer,
  ) {
    this.text = new DocumentText(uri, languageId, version, content);
    const positionAt: PositionAt = (offset) => toPosition(this.text, offset);
    // The shape finder's memos over this document's text: they go when the document does.
    const scan = new ScanState();
    // Around an edit, statements come from a window of the text that starts at `origin`.
    this.table = new StatementTable(
      (t, start, end, origin) =>
        this.analyzer.summarize(
          t,
          start,
          end,
          origin === 0 ? positionAt : (offset) => positionAt(offset + origin),
          scan,
        ),
      (s) => shownCount(s, this.markedBy),
      (s) => (computationShaping(s) ? 1 : 0),
    );
  }

  /**
   * Analyses the whole text, in time slices separated by `pause` (see StatementTable.resetSliced).
   * With a new `analyzer` (settings changed), statement boundaries are kept and only summaries redone.
   * Otherwise, at each pause the document reads as its statements analysed so far: diagnostics
   * (statementsWithDiagnostics) are those found up to there; nothing else is ready yet.
   */
  async analyze(pause: (statementsDone: number) => Promise<void>, analyzer?: Analyzer): Promise<void> {
    if (analyzer) this.analyzer = analyzer;
    await this.table.resetSliced(this.text.getText(), pause, analyzer !== undefined);
    this.computationIndex = undefined;
    this.placements = undefined;
    this.tiledCache = undefined;
    this.frameTables.clear();
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
    this.frameTables.clear();
    this.kept.clear();
    for (const change of changes) {
      if ('range' in change) {
        const a = toOffset(this.text, change.range.start);
        const b = toOffset(this.text, change.range.end);
        const start = Math.min(a, b);
        const end = Math.max(a, b);
        this.text.update(start, end, change.text, version);
        this.afterEdit(this.table.applyEdit(this.text, start, end, change.text.length));
      } else {
        this.text.replaceAll(change.text, version);
        this.table.reset(change.text);
        this.computationIndex = undefined;
        this.placements = undefined;
        this.tiledCache = undefined;
      }
    }
  }

  /** Keeps the derived indexes valid: they are only dropped when the edit changed what they index. */
  private afterEdit(edit: TableEdit<StatementSummary>): void {
    if (edit.added.some((s) => s.tiled)) {
      if (this.tiledCache === false) this.tiledCache = true;
    } else if (edit.removed.some((s) => s.tiled)) this.tiledCache = undefined;
    const calls = sameCalls(edit.removed, edit.added);
    const same =
      edit.removed.length === edit.added.length &&
      edit.removed.every((r, i) => sameStructure(r, edit.added[i]));
    // Dropped too when only a call changed: the index holds the calls.
    if (!same || !calls) this.computationIndex = undefined;
    // Placements are kept while the computations stay the same ones, with the same calls: an
    // edit that only changes instructions (a line being typed in a large dump) keeps them.
    const sameComputations =
      edit.removed.length === edit.added.length &&
      edit.removed.every(
        (r, i) =>
          sameStructure(r, edit.added[i]) || (!shapesComputations(r) && !shapesComputations(edit.added[i])),
      );
    if (!sameComputations || !calls) this.placements = undefined;
  }

  /**
   * Whether the padding warnings of a statement are shown: its values get memory of their own
   * (core's allocatesIn), which depends on the computation it is in. A fused computation's
   * values live inside its kernel, and the parameters of a computation other than ENTRY are its
   * caller's operands; both are counted where they are allocated, as the Memory View counts them.
   * Outside any computation, or in one without a name, nothing says otherwise: shown. Publishing
   * asks it of every statement that warns, so the answer is worked out once per computation and
   * kind (parameter or not), and kept until the placements change.
   */
  paddingShown(): (i: number) => boolean {
    const list = this.computations();
    const placed = this.placementsByModule();
    if (this.shownFor !== placed || this.shownIn !== list) {
      this.shownFor = placed;
      this.shownIn = list;
      this.shownMemo = new Int8Array(list.length * 2);
    }
    const memo = this.shownMemo;
    // Asked in ascending order, the last header at or before `i` moves forward only.
    let h = -1;
    let last = -1;
    return (i) => {
      if (i < last) h = this.lastHeaderAtOrBefore(i);
      last = i;
      while (h + 1 < list.length && list[h + 1].header <= i) h++;
      const c = this.holding(list[h], i);
      if (!c) return true;
      const parameter = this.summary(i).allocation.parameter === true;
      const slot = 2 * c.index + (parameter ? 1 : 0);
      if (memo[slot] === 0) memo[slot] = this.paddingShownIn(c, parameter) ? 1 : 2;
      return memo[slot] === 1;
    };
  }

  private paddingShownIn(c: ComputationEntry, parameter: boolean): boolean {
    // A computation written in place as a fusion's `calls=` is fused; so is all that it holds.
    for (let k: ComputationEntry | undefined = c; k?.parent !== undefined; k = this.around(k))
      if (this.summary(k.header).allocation.calls?.opcode === 'fusion') return false;
    const named = this.outermost(c);
    if (named.name === undefined) return true;
    const placed = this.placementsByModule().get(named.module);
    if (!placed) return true;
    return allocatesIn(placed, named.name, parameter ? 'parameter' : '');
  }

  /**
   * For a document under analysis: {@link paddingShown} as far as it is known, asked of ascending
   * statement indexes. Only ENTRY's values are known to be allocated before the calls further
   * down are read (XLA writes the computations it calls first), so only they are shown.
   */
  paddingShownSoFar(): (i: number) => boolean {
    let k = 0;
    let entry = false;
    return (i) => {
      for (; k <= i && k < this.table.count; k++) {
        const s = this.table.summary(k);
        if (s === undefined) break;
        if (s.kind === 'computation') entry = s.entry === true;
        else if (s.kind === 'module' || s.kind === 'separator') entry = false;
      }
      return entry;
    };
  }

  /**
   * {@link placements}, built now if an edit dropped them from the named computations and the calls
   * of the computation index, or the last ones again if those are the same.
   */
  private placementsByModule(): Map<number, Placement> {
    if (this.placements) return this.placements;
    const named = this.computations().filter((c) => c.parent === undefined && c.name !== undefined);
    const calls = this.callIndex.statements.map((i) => this.table.summary(i).allocation.calls!);
    const inputs = { named, callers: this.callIndex.callers, calls };
    if (this.placedFrom && samePlacementInputs(this.placedFrom.inputs, inputs)) {
      // The new inputs replace the old, so that the computation list they were read from can go.
      this.placedFrom = { inputs, placements: this.placedFrom.placements };
      return (this.placements = this.placedFrom.placements);
    }
    const modules = new Map<number, { name: string; entry: boolean; calls: Map<string, string> }[]>();
    const byIndex = new Map<number, { calls: Map<string, string> }>();
    for (const c of named) {
      const entry = { name: c.name!, entry: c.entry, calls: new Map<string, string>() };
      let list = modules.get(c.module);
      if (!list) modules.set(c.module, (list = []));
      list.push(entry);
      byIndex.set(c.index, entry);
    }
    for (let k = 0; k < calls.length; k++) {
      const caller = byIndex.get(inputs.callers[k]);
      if (!caller) continue;
      // A fusion's callee is fused whatever else calls it (XLA clones a fused computation per fusion).
      for (const callee of calls[k].callees)
        if (caller.calls.get(callee) !== 'fusion') caller.calls.set(callee, calls[k].opcode);
    }
    this.placements = new Map([...modules].map(([module, list]) => [module, placement(list)]));
    this.placedFrom = { inputs, placements: this.placements };
    return this.placements;
  }

  /** Index of the statement containing `offset` (its end included), or -1 between statements. */
  statementIndexAt(offset: number): number {
    return this.table.indexAt(offset);
  }

  /**
   * The stack-frame tables (`FileNames` … `StackFrames`) of the module holding statement `i`: read
   * from the statements between its `HloModule` line (or `// -----`, or the text's start) and its
   * first computation, once per module until the next change. Empty when the module has none.
   */
  stackFrames(i: number): StackFrameTables {
    const module = this.computationOf(i)?.module ?? this.moduleBefore(i);
    let tables = this.frameTables.get(module);
    if (tables) return tables;
    tables = new StackFrameTables();
    const text = this.text.getText();
    for (let k = module + 1; k < this.table.count; k++) {
      const kind = this.table.summary(k).kind;
      if (kind === 'unknown') tables.line(text.slice(this.table.start(k), this.table.end(k)));
      else if (kind !== 'blank' && kind !== 'comment') break;
    }
    this.frameTables.set(module, tables);
    return tables;
  }

  /** The statement index of the `HloModule` line or `// -----` at or before `i` (-1 when none). */
  private moduleBefore(i: number): number {
    for (let k = Math.min(i, this.table.count - 1); k >= 0; k--) {
      const kind = this.table.summary(k).kind;
      if (kind === 'module' || kind === 'separator') return k;
    }
    return -1;
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

  /** Where part `part` of statement `i` starts (-1: the statement's first part, at its start). */
  partStart(i: number, part: number): number {
    const start = this.table.start(i);
    return part < 0 ? start : start + (this.table.summary(i).parts?.[part]?.start ?? 0);
  }

  /** Where part `part` of statement `i` ends: where the next starts, or the statement's end. */
  partEnd(i: number, part: number): number {
    const next = this.table.summary(i).parts?.[part + 1];
    return next === undefined ? this.table.end(i) : this.table.start(i) + next.start;
  }

  /** Statement `i` and the statements XLA reads after it in its text (see {@link StatementPart}), in order. */
  parseParts(i: number): HloStatement[] {
    const first = this.parse(i);
    const out = [first];
    const end = this.range(i).end;
    for (let s = first; s.following !== undefined;) {
      s = parseStatement(this.text.getText(), { start: s.following, end }, this.lookups);
      out.push(s);
    }
    return out;
  }

  /**
   * The statement XLA reads at `offset` in statement `i`: {@link parse}'s, or the one of
   * {@link parseParts} that `offset` lies in when XLA reads several in its text.
   */
  parseAt(i: number, offset: number): HloStatement {
    if (this.summary(i).parts === undefined) return this.parse(i);
    const parts = this.parseParts(i);
    let k = parts.length - 1;
    while (k > 0 && parts[k].range.start > offset) k--;
    return parts[k];
  }

  /**
   * The statement `i`, ranges absolute in the document. The last few long ones parsed are kept
   * until the text changes (kept-parses.ts): requests in a row are mostly about a statement or two,
   * and parsing a long one costs what its whole length does.
   */
  parse(i: number): HloStatement {
    const { start, end } = this.range(i);
    return this.kept.get(start, end, () => parseStatement(this.text.getText(), { start, end }, this.lookups));
  }

  /** Drops what {@link parse} kept: the document was closed, though a request may still hold it. */
  closed(): void {
    this.kept.clear();
  }

  /**
   * The statements with diagnostics shown under the severity `overrides`, ascending, and beside each
   * how many it shows, negated when one shows as an error: what the published list's cap counts
   * without reading the statements. Other overrides than the last ones mark the statements again.
   * Valid until the next change.
   */
  statementsWithDiagnostics(overrides: Overrides): {
    readonly indexes: readonly number[];
    readonly counts: readonly number[];
  } {
    if (!SETTINGS.severity.same(overrides, this.markedBy)) {
      this.markedBy = overrides;
      this.table.remark();
    }
    return { indexes: this.table.marks, counts: this.table.markValues };
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

  /**
   * The computations in header order (rebuilt lazily after an edit from the statements the table
   * indexes as computation-shaping, and those outside every computation).
   * A computation written in place comes right after the one around it and lies inside its range.
   */
  computations(): readonly ComputationEntry[] {
    if (this.computationIndex) return this.computationIndex;
    const out: ComputationEntry[] = [];
    const strays: StrayStatement[] = [];
    let module = -1;
    // Open computations, innermost last (more than one only inside computations written in place);
    // each is in `out` already, in header order, and gets its `last` when it closes.
    const open: { -readonly [K in keyof ComputationEntry]: ComputationEntry[K] }[] = [];
    // The last statement before the one being read that is neither blank, comment nor separator.
    let lastContent = -1;
    // Whether the current module (or part) has a computation yet: text after one that is none is a stray.
    let computed = false;
    const begin = (
      name: string | undefined,
      entry: boolean,
      header: number,
      headerPart: number,
      module: number,
      parent?: number,
    ) => {
      const c = {
        index: out.length,
        name,
        entry,
        header,
        last: header,
        headerPart,
        lastPart: headerPart,
        module,
        ...(parent !== undefined ? { parent } : {}),
        closed: false,
      };
      out.push(c);
      open.push(c);
    };
    const close = (last: number, lastPart: number, closed = false) => {
      const c = open.pop();
      if (!c) return;
      c.last = last;
      c.lastPart = lastPart;
      c.closed = closed;
    };
    const closeAll = (last: number) => {
      const lastPart = last >= 0 ? (this.table.summary(last).parts?.length ?? 0) - 1 : -1;
      while (open.length > 0) close(last, lastPart);
    };
    const calling: number[] = [];
    const callers: number[] = [];
    /** Statement `i`, or its part `part` (-1: the statement's first), read into the index. */
    const step = (i: number, part: number, s: Omit<StatementPart, 'start'>): void => {
      switch (s.kind) {
        case 'module':
        case 'separator':
          closeAll(lastContent);
          module = i;
          computed = false;
          break;
        case 'computation':
          closeAll(lastContent);
          begin(s.name, s.entry ?? false, i, part, module);
          computed = true;
          break;
        case 'unknown':
          if (open.length === 0 && computed) strays.push({ statement: i, part });
          break;
        case 'instruction': {
          const outer = open[open.length - 1];
          if (!outer) strays.push({ statement: i, part });
          else if (s.opensComputation) begin(undefined, false, i, part, outer.module, outer.index);
          break;
        }
        case 'close': {
          if (open.length === 0) strays.push({ statement: i, part });
          close(i, part, true);
          // `}, condition={`: the same instruction's next computation written in place.
          const outer = open[open.length - 1];
          if (s.opensComputation && outer) begin(undefined, false, i, part, outer.module, outer.index);
          break;
        }
        default:
          break;
      }
    };
    // Only the statements the table indexes as structural (computationShaping) change `open`; between
    // them, statements are read only outside every computation, where they are strays.
    const structure = this.table.structure;
    let next = 0;
    for (let m = 0; m <= structure.length; m++) {
      const i = m < structure.length ? structure[m] : this.table.count;
      if (open.length === 0) for (let k = next; k < i; k++) step(k, -1, this.table.summary(k));
      next = i + 1;
      if (i === this.table.count) break;
      lastContent = this.lastContentBefore(i);
      const s = this.table.summary(i);
      const calls = s.allocation.calls;
      // Before `step`: an instruction opening a computation in place belongs to the one around it.
      if (calls !== undefined && calls.callees.length > 0) {
        calling.push(i);
        callers.push(open.length > 0 ? open[0].index : -1);
      }
      const parts = s.parts;
      if (parts === undefined) step(i, -1, s);
      else {
        // The summary's `opensComputation` is its last part's.
        step(i, -1, { kind: s.kind, name: s.name, entry: s.entry, opensComputation: false });
        parts.forEach((p, k) => step(i, k, p));
      }
    }
    closeAll(this.lastContentBefore(this.table.count));
    this.computationIndex = out;
    this.strayIndex = strays;
    this.callIndex = { statements: calling, callers };
    return out;
  }

  /** The last statement before `i` that is not blank, a comment or a separator (-1 when none). */
  private lastContentBefore(i: number): number {
    let k = i - 1;
    while (k >= 0) {
      const kind = this.table.summary(k).kind;
      if (kind !== 'blank' && kind !== 'comment' && kind !== 'separator') break;
      k--;
    }
    return k;
  }

  /** The instructions, `}` and other statements outside any computation once one was read, in text order. */
  strays(): readonly StrayStatement[] {
    this.computations();
    return this.strayIndex;
  }

  /**
   * The innermost computation whose statements include statement `i`, if any. The instruction that
   * opens a computation written in place belongs to the computation around it.
   */
  computationOf(i: number): ComputationEntry | undefined {
    const list = this.computations();
    return this.holding(list[this.lastHeaderAtOrBefore(i)], i);
  }

  /** The innermost computation holding statement `i`, given `c`, the last whose header is at or before `i`: `i` lies in it or in one around it. */
  private holding(c: ComputationEntry | undefined, i: number): ComputationEntry | undefined {
    for (; c; c = this.around(c)) {
      if (i <= c.last && (c.parent === undefined ? c.header <= i : c.header < i)) return c;
    }
    return undefined;
  }

  /**
   * For statement `i` of computation `c` (between its header and its `}`): the computation written
   * in place directly in `c` that holds `i`, or undefined when `i` is `c`'s own. Costs the depth of
   * the nesting at `i`, so a walk over `c` that skips what this returns visits each nest once.
   */
  innerAt(c: ComputationEntry, i: number): ComputationEntry | undefined {
    const list = this.computations();
    let k: ComputationEntry | undefined = list[this.lastHeaderAtOrBefore(i)];
    while (k && k !== c && k.parent !== c.index) k = this.around(k);
    return k && k !== c && k.header < i && i <= k.last ? k : undefined;
  }

  /** The computation written in place that the instruction at statement `i` opens, if it opens one. */
  openedBy(i: number): ComputationEntry | undefined {
    const c = this.computations()[this.lastHeaderAtOrBefore(i)];
    return c?.header === i && c.parent !== undefined ? c : undefined;
  }

  /** The index of the last computation whose header statement is at or before `i` (-1 when none). */
  private lastHeaderAtOrBefore(i: number): number {
    const list = this.computations();
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].header <= i) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The computation that `c` is written in, if it is written in place. */
  around(c: ComputationEntry): ComputationEntry | undefined {
    return c.parent === undefined ? undefined : this.computations()[c.parent];
  }

  /** The computation that `c` is written in, or `c` itself when it is not written in place: the one with a name. */
  outermost(c: ComputationEntry): ComputationEntry {
    for (let k = this.around(c); k; k = this.around(k)) c = k;
    return c;
  }

  /**
   * Statement indexes of `c` after its header, in order, without the bodies of the computations
   * written in place in it (their opening instructions are `c`'s).
   */
  *statementsOf(c: ComputationEntry): Generator<number> {
    for (let i = c.header + 1; i <= c.last; i++) {
      yield i;
      // The `}` ending one computation written in place may open the next (`}, condition={`).
      while (this.summary(i).opensComputation) {
        const inner = this.openedBy(i);
        if (!inner || inner.last <= i) break;
        i = inner.last;
      }
    }
  }

  /**
   * Statement indexes of `c` before statement `i`, nearest first, without the bodies of the
   * computations written in place in it (the instructions that open them are `c`'s).
   */
  *statementsBefore(c: ComputationEntry, i: number): Generator<number> {
    for (let k = i - 1; k > c.header; k--) {
      const inner = this.innerAt(c, k);
      if (inner) k = inner.header + 1;
      else yield k;
    }
  }

  /** Where computation `c` starts: its header, or the `{` of a computation written in place. */
  computationStart(c: ComputationEntry): number {
    const r = this.range(c.header);
    if (c.parent === undefined) return r.start;
    const brace = this.text.getText().lastIndexOf('{', r.end - 1);
    return brace >= r.start ? brace : r.start;
  }
}

/** Whether the statements of an edit call the same computations before and after it. */
function sameCalls(removed: readonly StatementSummary[], added: readonly StatementSummary[]): boolean {
  const before = removed.filter((s) => s.allocation.calls !== undefined);
  const after = added.filter((s) => s.allocation.calls !== undefined);
  return (
    before.length === after.length &&
    before.every((s, k) => sameCall(s.allocation.calls!, after[k].allocation.calls!))
  );
}

function sameCall(a: InstructionCalls, b: InstructionCalls): boolean {
  return (
    a === b ||
    (a.opcode === b.opcode &&
      a.callees.length === b.callees.length &&
      a.callees.every((n, j) => n === b.callees[j]))
  );
}

/** What a document's placements are a function of: its named computations and, beside each call, the one holding it. */
interface PlacementInputs {
  readonly named: readonly ComputationEntry[];
  readonly callers: readonly number[];
  readonly calls: readonly InstructionCalls[];
}

function samePlacementInputs(a: PlacementInputs, b: PlacementInputs): boolean {
  return (
    a.named.length === b.named.length &&
    a.calls.length === b.calls.length &&
    a.named.every((c, k) => {
      const d = b.named[k];
      return c.index === d.index && c.name === d.name && c.entry === d.entry && c.module === d.module;
    }) &&
    a.callers.every((c, k) => c === b.callers[k]) &&
    a.calls.every((c, k) => sameCall(c, b.calls[k]))
  );
}

/** Whether a statement is read into the computation index: it shapes computations, or calls one. */
function computationShaping(s: StatementSummary): boolean {
  return shapesComputations(s) || (s.allocation.calls?.callees.length ?? 0) > 0;
}

/** Whether a statement begins or ends a computation, or a module: what decides which computation the others are in. */
function shapesComputations(s: StatementSummary): boolean {
  return (
    s.kind === 'computation' ||
    s.kind === 'close' ||
    s.kind === 'module' ||
    s.kind === 'separator' ||
    s.opensComputation === true ||
    s.parts !== undefined
  );
}

/** Whether two summaries index the same way (kind, header name, ENTRY): the computation index survives. */
function sameStructure(a: StatementSummary, b: StatementSummary): boolean {
  return (
    a.kind === b.kind &&
    a.name === b.name &&
    a.entry === b.entry &&
    a.opensComputation === b.opensComputation &&
    sameParts(a.parts, b.parts)
  );
}

/** Whether two lists of parts index the same way (kinds, header names, ENTRY, openings, in order). */
function sameParts(
  a: readonly StatementPart[] | undefined,
  b: readonly StatementPart[] | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.length === b.length &&
    a.every(
      (p, k) =>
        p.kind === b[k].kind &&
        p.name === b[k].name &&
        p.entry === b[k].entry &&
        p.opensComputation === b[k].opensComputation,
    )
  );
}
