/**
 * Turns one statement into the small summary the document keeps for it: its kind, the name of a
 * computation or module header, whether it carries tiles, and its diagnostics with their positions
 * relative to the statement (so publishing after an edit only adds the statement's current line).
 * Statements of real dumps are nearly all distinct (names, metadata), so summaries are not memoised
 * by statement text; the expensive part, the facts of each shape, is memoised by shape text in
 * {@link ShapeFactsCache}. Blank lines and `}` are classified by their first character that is not
 * a blank; instructions and computation headers in their plain form go through the lean pass
 * (lean-pass.ts: shapes only, no operands or metadata, which outline and navigation parse on
 * demand); anything the lean pass cannot vouch for gets the full `parseStatement` analysis (same
 * result either way).
 * An edit reuses the summaries of statements it did not touch (StatementTable.applyEdit). One analyzer exists per settings value; a settings change builds a new one.
 */
import { copyDiagnostic, movedDiagnostic, type LayoutDiagnostic } from '../../core/src';
import { parseStatement, type HloStatement } from '../../core/src';
import { isValidatorDiagnostic, uncheckedLayoutWarning, uncheckedPlaceAt } from '../../core/src';
import type { ShapeNode } from '../../core/src';
import { lastNonBlank, strayCloseBrace, type ScanState } from '../../core/src';
import { detach, forgetSharedTexts } from '../../core/src';
import { skipBlanks } from '../../core/src';
import { LeanPass } from './lean-pass';
import {
  instructionAllocation,
  NO_ALLOCATION,
  resultPaddingWarnings,
  type InstructionAllocation,
} from './allocation-facts';
import {
  arrayLeaves,
  detachedDiagnostic,
  PaddingWarning,
  ShapeFactsCache,
  type ShapeFacts,
} from './shape-facts';
import type { SettingName, Settings } from '../../protocol/src/settings';

/**
 * Where a diagnostic sits relative to its statement: lines after the statement's first line, and
 * UTF-16 characters from the statement's first character on that first line (from the line start
 * on later lines). Stays valid while the statement's text is unchanged, wherever it moves.
 */
export interface RelativeSpan {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
}

/** A diagnostic of one statement: range relative to the statement start, plus its line-relative span. */
export interface StatementDiagnostic extends LayoutDiagnostic {
  readonly span: RelativeSpan;
}

/**
 * A statement XLA reads after the first on the same stretch of text (`ENTRY %e { ROOT ... }` on one
 * line: a header, an instruction and a `}`): what the computation index needs of it.
 */
export interface StatementPart {
  readonly kind: HloStatement['kind'];
  /** Where it starts, relative to the statement's start. */
  readonly start: number;
  readonly name: string | undefined;
  readonly entry: boolean | undefined;
  readonly opensComputation: boolean;
}

/**
 * Every summary has all eight properties (made by {@link summaryOf} only): one object layout for
 * all, so the passes over 358,000 of them read a property at one place in memory.
 */
export interface StatementSummary {
  readonly kind: HloStatement['kind'];
  /** Whether some shape in the statement has `T(...)` tiles. */
  readonly tiled: boolean;
  /** For computation and module headers: the name without `%`. */
  readonly name: string | undefined;
  /** For computation headers: whether it is the ENTRY computation. */
  readonly entry: boolean | undefined;
  /** Diagnostics with core's default severities; ranges relative to the statement start. */
  readonly diagnostics: readonly StatementDiagnostic[] | undefined;
  /**
   * For instructions and `}`: whether it ends by opening a computation written in place
   * (`calls=\n{`); with {@link parts}, whether the last part does.
   */
  readonly opensComputation: boolean;
  /** The statements that follow the first in its text, in order; undefined when there are none (nearly always). */
  readonly parts: readonly StatementPart[] | undefined;
  /**
   * For instructions: what its padding warnings depend on beyond its text (whether it is a
   * parameter, the computations it calls); {@link NO_ALLOCATION} for most.
   */
  readonly allocation: InstructionAllocation;
}

/** The settings an analysis depends on: when one changes, every document is analysed again. */
export const ANALYSIS_SETTINGS: readonly SettingName[] = [
  'warnExpansion',
  'warnMinWastedBytes',
  'assumedTiling',
];

function summaryOf(
  kind: HloStatement['kind'],
  tiled: boolean,
  name: string | undefined,
  entry: boolean | undefined,
  diagnostics: readonly StatementDiagnostic[] | undefined,
  opensComputation = false,
  allocation = NO_ALLOCATION,
  parts: readonly StatementPart[] | undefined = undefined,
): StatementSummary {
  return { kind, tiled, name, entry, diagnostics, opensComputation, allocation, parts };
}

/** Converts document offsets to LSP positions (the document's line index). */
export type PositionAt = (offset: number) => { line: number; character: number };

/** Shared summaries for the common case of nothing to remember but kind and tiling (one lookup per statement). */
const PLAIN_TILED = new Map<HloStatement['kind'], StatementSummary>();
const PLAIN_UNTILED = new Map<HloStatement['kind'], StatementSummary>();
const PLAIN_INSTRUCTION = summaryOf('instruction', true, undefined, undefined, undefined);
const PLAIN_INSTRUCTION_UNTILED = summaryOf('instruction', false, undefined, undefined, undefined);
function plain(kind: HloStatement['kind'], tiled: boolean): StatementSummary {
  if (kind === 'instruction') return tiled ? PLAIN_INSTRUCTION : PLAIN_INSTRUCTION_UNTILED;
  const map = tiled ? PLAIN_TILED : PLAIN_UNTILED;
  let s = map.get(kind);
  if (!s) {
    s = summaryOf(kind, tiled, undefined, undefined, undefined);
    map.set(kind, s);
  }
  return s;
}

const CH_LBRACE = 123;
const CH_RBRACE = 125;

export class Analyzer {
  private readonly facts: ShapeFactsCache;
  private readonly lean: LeanPass;

  constructor(readonly settings: Settings) {
    this.facts = new ShapeFactsCache(settings);
    this.lean = new LeanPass(this.facts, settings);
  }

  /**
   * Lets go of every text the analysis remembers between calls (its finder state, the core's
   * search memos): called when a document closes, so that its text is not kept.
   */
  forgetTexts(): void {
    this.lean.forgetText();
    forgetSharedTexts();
  }

  /** Diagnostics and sizes of one shape found in `text` (ranges relative to the shape start). */
  shapeFacts(text: string, node: ShapeNode): ShapeFacts {
    return this.facts.get(text, node);
  }

  /**
   * The summary of the statement `text[start, end)`; `positionAt` is the line index of the
   * document `text` belongs to (only consulted for statements with diagnostics), and `scan` the
   * shape finder's state for that document (its statements are walked in order).
   */
  summarize(
    text: string,
    start: number,
    end: number,
    positionAt: PositionAt,
    scan: ScanState,
  ): StatementSummary {
    // Blank lines and `}` (a third of a dump's statements) have nothing to find: parseStatement
    // classifies them by their first character that is not a blank, as here.
    const first = skipBlanks(text, start, end);
    if (first === end) return plain('blank', false);
    // `}` alone; `}, condition={` opening the next computation written in place is parsed in full.
    if (text.charCodeAt(first) === CH_RBRACE && lastNonBlank(text, start, end) === CH_RBRACE)
      return plain('close', false);
    // The lean pass reads the statement in place; only the full analysis gets a slice of its own.
    const lean = this.lean.statement(text, start, end, scan);
    // An instruction that ends in `{` may open a computation written in place: rare, and the full
    // parse is what says so.
    if (lean !== undefined && lastNonBlank(text, start, end) === CH_LBRACE)
      return this.summarizeParsed(text.slice(start, end), start, positionAt);
    // One ending in a `}` that closes its computation (`ROOT %r = ... }`) is two statements.
    if (
      lean !== undefined &&
      lastNonBlank(text, start, end) === CH_RBRACE &&
      strayCloseBrace(text, start, end)
    )
      return this.summarizeParsed(text.slice(start, end), start, positionAt);
    if (lean !== undefined) {
      if (lean.diagnostics.length === 0 && lean.allocation === NO_ALLOCATION)
        return plain('instruction', lean.tiled);
      return summaryOf(
        'instruction',
        lean.tiled,
        undefined,
        undefined,
        lean.diagnostics.length > 0 ? located(lean.diagnostics, start, positionAt) : undefined,
        false,
        lean.allocation,
      );
    }
    const header = this.lean.header(text, start, end, scan);
    if (header === undefined) return this.summarizeParsed(text.slice(start, end), start, positionAt);
    return summaryOf(
      'computation',
      header.tiled,
      detach(header.name),
      header.entry,
      header.diagnostics.length > 0 ? located(header.diagnostics, start, positionAt) : undefined,
    );
  }

  /**
   * The summary from the full per-statement analysis (`parseStatement`): what {@link summarize}
   * does for statements the lean pass leaves to it, and the reference the lean pass must agree with.
   */
  summarizeFully(text: string, start: number, end: number, positionAt: PositionAt): StatementSummary {
    return this.summarizeParsed(text.slice(start, end), start, positionAt);
  }

  /** The full analysis of the statement text `key`, found at offset `start` of the document. */
  private summarizeParsed(key: string, start: number, positionAt: PositionAt): StatementSummary {
    const st = parseStatement(key, { start: 0, end: key.length });
    const { diagnostics, padding } = this.diagnosticsOf(key, st);
    let tiled = isTiled(st);
    let opens = opensComputation(st);
    // The statements XLA reads after the first in the same text: their diagnostics are the summary's.
    let parts: StatementPart[] | undefined;
    for (let s = st; s.following !== undefined;) {
      s = parseStatement(key, { start: s.following, end: key.length });
      for (const d of this.diagnosticsOf(key, s).diagnostics) diagnostics.push(d);
      if (isTiled(s)) tiled = true;
      opens = opensComputation(s);
      (parts ??= []).push({
        kind: s.kind,
        start: s.range.start,
        name: s.kind === 'computation' && s.name ? detach(s.name.name) : undefined,
        entry: s.kind === 'computation' ? s.entry : undefined,
        opensComputation: opens,
      });
    }
    const name = st.kind === 'computation' || st.kind === 'module' ? st.name?.name : undefined;
    const opcode = st.kind === 'instruction' ? st.opcode?.name : undefined;
    const allocation =
      st.kind === 'instruction' && opcode !== undefined
        ? instructionAllocation(opcode, padding, () => st.calledComputations.map((c) => c.name), opens)
        : NO_ALLOCATION;
    if (diagnostics.length === 0 && name === undefined && !opens && allocation === NO_ALLOCATION && !parts)
      return plain(st.kind, tiled);
    return summaryOf(
      st.kind,
      tiled,
      name !== undefined ? detach(name) : undefined,
      st.kind === 'computation' ? st.entry : undefined,
      diagnostics.length > 0 ? located(diagnostics, start, positionAt) : undefined,
      opens,
      allocation,
      parts,
    );
  }

  /**
   * All diagnostics of one parsed statement (absolute ranges, as in `statement`). Messages never
   * reference `text` (parser messages may quote it), so summaries do not keep old document versions.
   */
  private diagnosticsOf(
    text: string,
    statement: HloStatement,
  ): { diagnostics: LayoutDiagnostic[]; padding: number } {
    const out: LayoutDiagnostic[] = statement.diagnostics.map((d) => detachedDiagnostic(d));
    let padding = 0;
    const result = statement.kind === 'instruction' ? statement.shape : undefined;
    const opcode = statement.kind === 'instruction' ? statement.opcode?.name : undefined;
    for (const found of statement.shapes) {
      for (const d of found.diagnostics) out.push(detachedDiagnostic(d));
      const origin = found.shape.range.start;
      const facts = this.facts.get(text, found.shape);
      for (const d of facts.diagnostics) {
        const moved = movedDiagnostic(d, origin);
        const place = isValidatorDiagnostic(d) ? uncheckedPlaceAt(statement, moved.range.start) : undefined;
        out.push(place === undefined ? moved : uncheckedLayoutWarning(moved, place));
      }
      // Padding is a property of a buffer: warn where one is defined (the instruction's result,
      // when its opcode defines one), not on every operand annotation that repeats its shape.
      if (found.shape === result && opcode !== undefined) {
        const node = found.shape;
        for (const w of resultPaddingWarnings(facts, origin, opcode, this.settings, () => node)) {
          out.push(w);
          padding++;
        }
      }
    }
    return { diagnostics: out, padding };
  }
}

/** Whether some shape of `st` carries `T(...)` tiles. */
function isTiled(st: HloStatement): boolean {
  return st.shapes.some((f) => arrayLeaves(f.shape).some((l) => (l.layout?.tiles?.tiles.length ?? 0) > 0));
}

/** Whether `st` ends by opening a computation written in place. */
function opensComputation(st: HloStatement): boolean {
  return (st.kind === 'instruction' || st.kind === 'close') && st.inlineComputation !== undefined;
}

/**
 * Adds line-relative spans to statement-relative diagnostics. Positions come from the document's
 * own line index, so line breaks (`\n`, `\r\n`, a lone `\r`) count exactly as the client counts them.
 */
function located(
  diagnostics: readonly LayoutDiagnostic[],
  origin: number,
  positionAt: PositionAt,
): StatementDiagnostic[] {
  const base = positionAt(origin);
  const rel = (offset: number): [number, number] => {
    const p = positionAt(origin + offset);
    return p.line === base.line ? [0, p.character - base.character] : [p.line - base.line, p.character];
  };
  return diagnostics.map((d) => {
    const [startLine, startCharacter] = rel(d.range.start);
    const [endLine, endCharacter] = rel(d.range.end);
    const span = { startLine, startCharacter, endLine, endCharacter };
    return d instanceof PaddingWarning ? d.placed(span) : Object.assign(copyDiagnostic(d, d.range), { span });
  });
}
