/**
 * Memoised checking for the hot path (`xla-layout check` over 100 MB dumps, the language server on
 * a freshly opened dump): dumps repeat the same shape text thousands of times, so diagnostics are
 * computed once per distinct text and re-based to each occurrence.
 */
import { movedDiagnostic, type LayoutDiagnostic } from '../diagnostics';
import {
  hasBadSigil,
  headerNameEnd,
  nameEnd,
  plainInstructionTail,
  resultShapeStart,
  skipBlanks,
} from '../hlo/instruction-start';
import { parseStatement } from '../hlo/parse-statement';
import type { HloStatement } from '../hlo/types';
import { isValidatorDiagnostic, relaxUncheckedLayouts } from '../hlo/unchecked-layouts';
import { skipTrivia } from '../parse/chars';
import { unterminatedComment } from '../parse/lexical-lines';
import { scanAt, walkShapeCandidates, type FoundShape } from '../parse/scan-shapes';
import { ScanState } from '../parse/scan-state';
import { shapeKeyEnd } from '../parse/shape-key';
import { regionHash } from '../parse/text-hash';
import { RegionCache } from './region-cache';
import {
  capShapeDiagnostics,
  MAX_SHAPE_DIAGNOSTICS,
  validateShape,
  type ValidateOptions,
} from './validate-shape';

export interface ShapeChecker {
  /**
   * All diagnostics of a found shape: the parser's (`found.diagnostics`) followed by
   * {@link validateShape}'s, with ranges absolute in `text`.
   */
  check(text: string, found: FoundShape): LayoutDiagnostic[];
  /**
   * All diagnostics, parse and validation, of every shape in `text[start, end)` (defaults: the
   * whole text), with absolute ranges: exactly what {@link check} gives for each shape of
   * `scanShapes(text, start, end)`, concatenated in order. Parses a shape only the first time its
   * text (with the characters the parser looks ahead at) is seen; tuples are cached whole when
   * they are plain, and anything unusual is parsed every time.
   */
  checkText(text: string, start?: number, end?: number): LayoutDiagnostic[];
  /**
   * All diagnostics of the statement `text[start, end)` (a range from `splitStatements`): its
   * shapes' ({@link checkText}) and the statement's own, what XLA's parser expects between them
   * (an opcode after the result shape, a bracket or name of a signature, a comment's end; see
   * `parseStatement`). An instruction in its plain form (`[ROOT] %name = <shape> opcode(...`)
   * has none of its own; any other statement is parsed in full for them.
   */
  checkStatement(text: string, start: number, end: number): LayoutDiagnostic[];
  /**
   * What the last {@link checkStatement} call read of its statement beyond the diagnostics, for a
   * caller that reads the statements too (the name checks of a whole text, name-statements.ts):
   * the statement parser's reading when it made one, else undefined.
   */
  readonly lastParsed: HloStatement | undefined;
  /**
   * Where the result shape of the last {@link checkStatement} call's statement ends (its opcode
   * follows) when the statement is an instruction in its plain form with no diagnostic at all:
   * the statement parser would find nothing in it. -1 otherwise.
   */
  readonly lastPlainResultEnd: number;
  /** How many shapes {@link checkText} has found, over all calls (a top-level tuple counts once). */
  readonly shapesChecked: number;
  /** Number of distinct shape texts currently cached (validation and parse caches together). */
  readonly size: number;
}

export interface ShapeCheckerOptions extends ValidateOptions {
  /**
   * Distinct shape texts each of the two caches (validation by shape, parse by candidate) holds at
   * most (default 50,000); the least recently seen go first.
   */
  readonly maxEntries?: number;
}

/** What {@link ShapeChecker.checkText} remembers about one candidate, offsets relative to it. */
interface CandidateResult {
  /** The parser's diagnostics, then validation's. */
  readonly diagnostics: readonly LayoutDiagnostic[];
  /** How many of {@link diagnostics} are the parser's. */
  readonly parsed: number;
  /** Where the finder continues after the candidate. */
  readonly next: number;
  /** How many shapes the finder found there. */
  readonly shapes: number;
}

const NONE: readonly LayoutDiagnostic[] = [];

function shift(diagnostics: readonly LayoutDiagnostic[], delta: number): LayoutDiagnostic[] {
  return diagnostics.map((d) => movedDiagnostic(d, delta));
}

/** `result` with its offsets made relative to `pos`. */
function relative(result: CandidateResult, pos: number): CandidateResult {
  return {
    ...result,
    diagnostics: result.diagnostics.length === 0 ? NONE : shift(result.diagnostics, -pos),
    next: result.next - pos,
  };
}

/** Creates a checker with its own caches (diagnostics stored relative to the shape's start). */
export function createShapeChecker(options: ShapeCheckerOptions = {}): ShapeChecker {
  const maxEntries = options.maxEntries ?? 50_000;
  const validated = new RegionCache<readonly LayoutDiagnostic[]>(maxEntries);
  const candidates = new RegionCache<CandidateResult>(maxEntries);
  // Callers check one text statement by statement: the finder's memos carry over between them.
  const scan = new ScanState();

  function check(text: string, found: FoundShape): LayoutDiagnostic[] {
    const { start, end } = found.shape.range;
    const hash = regionHash(text, start, end);
    let relative = validated.get(text, start, end, hash);
    if (relative === undefined) {
      const absolute = validateShape(found.shape, options);
      relative = absolute.length === 0 ? NONE : shift(absolute, -start);
      validated.set(text, start, end, hash, relative);
    }
    if (relative.length === 0) return found.diagnostics.length === 0 ? [] : found.diagnostics.slice();
    return [...found.diagnostics, ...shift(relative, start)];
  }

  /**
   * The finder's work at one candidate, checked: what scanShapes + check give there. A candidate
   * with a key is validated directly: its shapes' texts are (part of) the key that just missed,
   * so the validation cache would only miss as well. (Loops, not spread pushes: a broken tuple can
   * carry more diagnostics than a call takes arguments.)
   */
  function checkCandidate(text: string, pos: number, end: number, keyed: boolean): CandidateResult {
    const found: FoundShape[] = [];
    const next = scanAt(text, pos, end, found, scan);
    const diagnostics: LayoutDiagnostic[] = [];
    let parsed = 0;
    for (const f of found) {
      for (const d of keyed ? f.diagnostics : check(text, f)) diagnostics.push(d);
      if (!keyed) continue;
      parsed += f.diagnostics.length;
      for (const d of validateShape(f.shape, options)) diagnostics.push(d);
    }
    return { diagnostics, parsed, next, shapes: found.length };
  }

  /**
   * The cached result of the keyed candidate text[pos, keyEnd), computed on a miss; offsets
   * relative to pos. Call right after the shapeKeyEnd call that gave `keyEnd` (it hashed the key).
   */
  function keyedResult(
    text: string,
    pos: number,
    keyEnd: number,
    bound: number,
    leaves: readonly number[] | undefined,
  ): CandidateResult {
    const hash = scan.keyHash;
    let cached = candidates.get(text, pos, keyEnd, hash);
    if (cached === undefined) {
      cached =
        leaves === undefined
          ? relative(checkCandidate(text, pos, bound, true), pos)
          : tupleFromLeaves(text, pos, keyEnd, bound, leaves.slice());
      candidates.set(text, pos, keyEnd, hash, cached);
    }
    return cached;
  }

  /**
   * A plain tuple's result assembled from its arrays' own (mostly cached) results: dumps hold many
   * distinct tuples of the same few arrays, and parsing each whole cost more than the rest of the
   * check. When every array parses cleanly to the end of its key the tuple parses cleanly too,
   * ending after its `)`, and its diagnostics are its arrays' validation diagnostics in order. An
   * array the parser complains about or stops short in (`{*0}` is no layout to it, and the tuple
   * then expects `)` at the `{`) derails the tuple's own parse, so such a tuple is parsed whole,
   * as is one with an array at the per-shape limit of diagnostics (the tuple's count of those it
   * does not list spans all its arrays).
   */
  function tupleFromLeaves(
    text: string,
    pos: number,
    keyEnd: number,
    bound: number,
    leaves: readonly number[],
  ): CandidateResult {
    const diagnostics: LayoutDiagnostic[] = [];
    for (let k = 0; k < leaves.length; k += 2) {
      const at = leaves[k];
      const leafKeyEnd = shapeKeyEnd(scan, text, at, bound, leaves[k + 1]);
      const leaf = keyedResult(text, at, leafKeyEnd, bound, undefined);
      if (
        leaf.parsed > 0 ||
        leaf.next !== leafKeyEnd - at ||
        leaf.diagnostics.length >= MAX_SHAPE_DIAGNOSTICS
      )
        return relative(checkCandidate(text, pos, bound, true), pos);
      for (const d of leaf.diagnostics) diagnostics.push(movedDiagnostic(d, at - pos));
    }
    return {
      diagnostics: diagnostics.length === 0 ? NONE : capShapeDiagnostics(diagnostics),
      parsed: 0,
      next: keyEnd - pos,
      shapes: 1,
    };
  }

  let shapesChecked = 0;
  // Diagnostics of the current checkText call, created on the first one: most statements have none.
  let out: LayoutDiagnostic[] | undefined;
  const emit = (d: LayoutDiagnostic) => (out ??= []).push(d);

  // A tuple candidate's arrays, as shapeKeyEnd lists them (reused: one walk runs per statement).
  const leaves: number[] = [];
  /** The walk's visitor, made once: checkText runs once per statement, hundreds of thousands of times per dump. */
  // Where checkStatement's instruction has its result shape, and where the finder went on after it
  // when the shape parsed cleanly there (-1 otherwise: the statement is then parsed in full).
  let resultAt = -1;
  let resultNext = -1;
  // During checkStatement: where each shape the walk read cleanly (other than the result shape)
  // starts and where the finder went on after it, in pairs, in text order.
  let recordClean = false;
  const clean: number[] = [];
  const visit = (t: string, pos: number, bound: number, typeEnd: number): number => {
    if (leaves.length > 0) leaves.length = 0; // truncating an array is a runtime call even when empty
    const keyEnd = shapeKeyEnd(scan, t, pos, bound, typeEnd, leaves);
    if (keyEnd < 0) {
      const result = checkCandidate(t, pos, bound, false);
      for (const d of result.diagnostics) emit(d);
      shapesChecked += result.shapes;
      return result.next;
    }
    const cached = keyedResult(t, pos, keyEnd, bound, typeEnd < 0 ? leaves : undefined);
    for (const d of cached.diagnostics) emit(movedDiagnostic(d, pos));
    shapesChecked += cached.shapes;
    if (cached.parsed === 0 && cached.shapes === 1) {
      if (pos === resultAt) resultNext = pos + cached.next;
      else if (recordClean) clean.push(pos, pos + cached.next);
    }
    return pos + cached.next;
  };

  function checkText(text: string, start = 0, end = text.length): LayoutDiagnostic[] {
    out = undefined;
    walkShapeCandidates(text, start, end, visit, scan);
    const found = out ?? [];
    out = undefined;
    return found;
  }

  /** Whether the instruction `text[start, end)` is in its plain form, its result shape at `resultAt` clean. */
  function plainInstruction(text: string, start: number, end: number): boolean {
    if (resultAt < 0 || resultNext < 0) return false;
    return plainInstructionTail(text, start, resultAt, resultNext, end, scan.comments, clean);
  }

  /**
   * Whether `text[start, end)` is a computation header in its plain form, `[ENTRY] %name (p0: <shape>,
   * ...) -> <shape> {` with blanks only between the parts and after the `{`, every shape one the walk
   * read cleanly: then the statement parser would find nothing of its own in it. Headers are an
   * eighth of a real jax dump, and parsing each in full took a third of its check.
   */
  function plainHeader(text: string, start: number, end: number): boolean {
    let p = headerNameEnd(text, start, end);
    if (p < 0) return false;
    let k = 0;
    // Where the finder went on after the clean shape starting at `at`, or -1 when none starts there.
    const shapeAt = (at: number): number => {
      while (k < clean.length && clean[k] < at) k += 2;
      return k < clean.length && clean[k] === at ? clean[k + 1] : -1;
    };
    p = skipBlanks(text, p, end);
    if (p < end && text.charCodeAt(p) === 40) {
      p = skipBlanks(text, p + 1, end);
      if (p >= end || text.charCodeAt(p) !== 41)
        for (;;) {
          // `name:` as one token, then the parameter's shape.
          if (p >= end || text.charCodeAt(p) === 37) return false;
          const colon = nameEnd(text, p, end);
          if (colon < 0 || colon >= end || text.charCodeAt(colon) !== 58) return false;
          const next = shapeAt(skipBlanks(text, colon + 1, end));
          if (next < 0) return false;
          p = skipBlanks(text, next, end);
          const c = p < end ? text.charCodeAt(p) : -1;
          if (c === 41) break; // at the `)`
          if (c !== 44) return false;
          p = skipBlanks(text, p + 1, end);
        }
      p = skipBlanks(text, p + 1, end);
      if (!text.startsWith('->', p) || p + 2 > end) return false;
      const next = shapeAt(skipBlanks(text, p + 2, end));
      if (next < 0) return false;
      p = skipBlanks(text, next, end);
    }
    return (
      p < end &&
      text.charCodeAt(p) === 123 &&
      skipBlanks(text, p + 1, end) >= end &&
      !hasBadSigil(text, start, end)
    );
  }

  let lastParsed: HloStatement | undefined;
  let lastPlainResultEnd = -1;

  function checkStatement(text: string, start: number, end: number): LayoutDiagnostic[] {
    lastParsed = undefined;
    lastPlainResultEnd = -1;
    resultAt = resultShapeStart(text, start, end);
    resultNext = -1;
    recordClean = true;
    if (clean.length > 0) clean.length = 0;
    const found = checkText(text, start, end);
    recordClean = false;
    const first = skipTrivia(text, start, end, scan.comments);
    const plain = plainInstruction(text, start, end);
    // Blank lines, comments and `}` alone hold nothing of their own: the usual case after plain instructions.
    const bare =
      first >= end ||
      (text.charCodeAt(first) === 125 && skipTrivia(text, first + 1, end, scan.comments) >= end) ||
      plain ||
      (found.length === 0 && resultAt < 0 && plainHeader(text, start, end));
    // A layout error outside the result shape may stand where XLA does not check layouts.
    const unchecked = found.some(
      (d) =>
        isValidatorDiagnostic(d) &&
        (resultNext < 0 || d.range.start < resultAt || d.range.start >= resultNext),
    );
    resultAt = -1;
    if (bare && unterminatedComment(text, start, end) < 0) {
      if (plain && found.length === 0) lastPlainResultEnd = resultNext;
      return unchecked ? relaxUncheckedLayouts(text, { start, end }, found) : found;
    }
    // The statement parser's own diagnostics, and those of shapes only it reads (where the finder
    // does not look: `f32 parameter(0)`, a word that is not followed by `[`).
    const statement = parseStatement(text, { start, end }, scan);
    lastParsed = statement;
    const seen = new Set(found.map((d) => `${d.code}@${d.range.start}`));
    const add = (d: LayoutDiagnostic) => {
      const key = `${d.code}@${d.range.start}`;
      if (seen.has(key)) return;
      seen.add(key);
      found.push(d);
    };
    for (const f of statement.shapes) for (const d of f.diagnostics) add(d);
    for (const d of statement.diagnostics) add(d);
    // The statements XLA reads after the first on its line (`ENTRY %e { ROOT ... }`) have their own.
    for (let s = statement; s.following !== undefined;) {
      s = parseStatement(text, { start: s.following, end }, scan);
      for (const f of s.shapes) for (const d of f.diagnostics) add(d);
      for (const d of s.diagnostics) add(d);
    }
    return unchecked ? relaxUncheckedLayouts(text, { start, end }, found, statement) : found;
  }

  return {
    check,
    checkText,
    checkStatement,
    get shapesChecked() {
      return shapesChecked;
    },
    get lastParsed() {
      return lastParsed;
    },
    get lastPlainResultEnd() {
      return lastPlainResultEnd;
    },
    get size() {
      return validated.size + candidates.size;
    },
  };
}
