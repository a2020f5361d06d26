/**
 * The lean first pass over an instruction statement: its shape diagnostics, tile advice and result
 * padding warnings without building the statement's structure (names, operands, attributes,
 * metadata) that `parseStatement` reads and that only outline and navigation need, later, on demand.
 *
 * The shape finder's walk (`walkShapeCandidates`) visits every place a shape may start, and each
 * candidate is looked up by its plain-text key (`shapeKeyEnd`, the rule core's memoised checker
 * uses): text that determines the whole parse, so one parse and one facts computation serve every
 * occurrence of the same shape text. The pass only answers for statements whose every candidate has
 * a key and parses cleanly, and whose result shape sits where the finder starts a candidate; for
 * those the finder's shapes are the statement parser's shapes, so the diagnostics are the same as
 * the full analysis (test/server/lean-pass.test.ts checks this on every corpus file). Anything else
 * (a parse error, `b(...)`, a tuple operand holding names) answers `undefined` and the caller runs
 * the full per-statement analysis. Computation headers have their own recogniser ({@link
 * LeanPass.header}): their parameter list would look like a tuple to the finder.
 */
import { movedDiagnostic, type LayoutDiagnostic } from '../../core/src';
import {
  charAt,
  nameEnd,
  plainInstructionTail,
  plainOperandsEnd,
  resultShapeStart,
  skipBlanks,
} from '../../core/src';
import { isValidatorDiagnostic, uncheckedLayoutWarning, unterminatedComment } from '../../core/src';
import { scanAt, walkShapeCandidates, type FoundShape } from '../../core/src';
import { shapeKeyEnd, ScanState } from '../../core/src';
import { RegionCache } from '../../core/src';
import { calledAfter, opcodeAfter, parseShape } from '../../core/src';
import { instructionAllocation, resultPaddingWarnings, type InstructionAllocation } from './allocation-facts';
import {
  arrayLeaves,
  tupleFacts,
  atDiagnosticLimit,
  type ShapeFacts,
  type ShapeFactsCache,
} from './shape-facts';
import type { Settings } from '../../protocol/src/settings';

/** What the pass keeps per distinct candidate key. */
interface CandidateEntry {
  /** Where the finder continues, relative to the candidate start. */
  readonly next: number;
  /** The facts of the one shape found there; undefined when the parse reported diagnostics. */
  readonly facts: ShapeFacts | undefined;
  /** Whether some array leaf of the shape has `T(...)` tiles. */
  readonly tiled: boolean;
}

/** The lean result of one statement: diagnostics relative to the statement start, and tiling. */
export interface LeanStatement {
  readonly tiled: boolean;
  readonly diagnostics: readonly LayoutDiagnostic[];
}

/** The lean result of an instruction: what its padding warnings depend on beyond its own text too. */
export interface LeanInstruction extends LeanStatement {
  readonly allocation: InstructionAllocation;
}

/** The lean result of a computation header: its name (without `%`) and ENTRY flag as well. */
export interface LeanHeader extends LeanStatement {
  readonly name: string;
  readonly entry: boolean;
}

function isWord(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && text.startsWith(word, start);
}

const NO_DIAGNOSTICS: readonly LayoutDiagnostic[] = Object.freeze([]);
const CH_PERCENT = 37;
const CH_LPAREN = 40;
const CH_RPAREN = 41;
const CH_COMMA = 44;
const CH_COLON = 58;
const CH_LBRACKET = 91;
const CH_LBRACE = 123;

export class LeanPass {
  private readonly candidates: RegionCache<CandidateEntry>;

  constructor(
    private readonly facts: ShapeFactsCache,
    private readonly settings: Settings,
    maxEntries = 250_000,
  ) {
    this.candidates = new RegionCache(maxEntries);
  }

  // State of the statement being walked: kept on the instance so that the walk's visitor is one
  // function for all statements rather than a closure allocated per statement.
  private result = 0;
  private ok = true;
  private sawResult = false;
  /** Where the result shape's candidate ended. */
  private resultEnd = 0;
  /** Where each other shape of the statement starts and ends, in pairs (for plainCall). */
  private readonly clean: number[] = [];
  private tiled = false;
  private found: LayoutDiagnostic[] | undefined;
  /**
   * Layout errors on arrays other than the result that XLA may not check: where the array starts
   * and the diagnostic's index in {@link found}, in pairs.
   */
  private readonly unchecked: number[] = [];
  /** The result shape's facts, and how many diagnostics were found up to its end. */
  private resultFacts: ShapeFacts | undefined;
  private paddingAt = 0;
  /** Where the statement being walked starts: diagnostics are relative to it. */
  private origin = 0;
  /** The finder's state over the text being walked, the caller's (one per document). */
  private scan = new ScanState();

  /** Lets go of the last document's finder state, and with it of the document's text. */
  forgetText(): void {
    this.scan = new ScanState();
  }

  /**
   * The diagnostics (in the order of the full analysis, offsets relative to `start`) and tiling of
   * the instruction statement `text[start, end)`, or undefined when the full analysis must answer.
   * The statement is read in place: walking the document's own text rather than a slice of it
   * keeps character reads on a flat string, and the finder's search memo across statements.
   */
  statement(text: string, start: number, end: number, scan: ScanState): LeanInstruction | undefined {
    const result = resultShapeStart(text, start, end);
    if (result < 0) return undefined;
    this.scan = scan;
    this.origin = start;
    this.result = result;
    this.ok = true;
    this.sawResult = false;
    this.tiled = false;
    this.found = undefined;
    this.resultFacts = undefined;
    if (this.clean.length > 0) this.clean.length = 0;
    if (this.unchecked.length > 0) this.unchecked.length = 0;
    walkShapeCandidates(text, start, end, this.visit, scan);
    // Filled by the walk's visitor, which TypeScript does not see assign it.
    const diagnostics = this.found as LayoutDiagnostic[] | undefined;
    this.found = undefined;
    const facts = this.resultFacts;
    this.resultFacts = undefined;
    if (!this.ok || !this.sawResult || !facts) return undefined;
    // What the statement parser reports between shapes: no opcode after the result shape, an
    // unknown one, operands not in plain form, a `%` that opens no name, a comment never closed.
    // Such statements get the full analysis.
    if (!plainInstructionTail(text, start, result, this.resultEnd, end, scan.comments, this.clean))
      return undefined;
    if (unterminatedComment(text, start, end) >= 0) return undefined;
    if (this.unchecked.length > 0 && diagnostics !== undefined) {
      const operandsEnd = plainOperandsEnd(text, this.resultEnd, end, scan.comments, this.clean);
      for (let k = 0; k < this.unchecked.length; k += 2)
        if (this.unchecked[k] < operandsEnd) {
          const i = this.unchecked[k + 1];
          diagnostics[i] = uncheckedLayoutWarning(diagnostics[i], 'operand');
        }
    }
    const op = opcodeAfter(text, this.resultEnd, end);
    if (!op) return undefined;
    const opcode = text.slice(op.start, op.end);
    // Padding is a property of a buffer: warned where one is defined, the instruction's result.
    const warnings = resultPaddingWarnings(
      facts,
      result - start,
      opcode,
      this.settings,
      () => parseShape(text, result, { end }).shape,
    );
    let all = diagnostics ?? NO_DIAGNOSTICS;
    if (warnings.length > 0) {
      // Where the full analysis lists them: after the result shape's own diagnostics.
      const at = this.paddingAt;
      all = [...all.slice(0, at), ...warnings, ...all.slice(at)];
    }
    const allocation = instructionAllocation(opcode, warnings.length, () => calledAfter(text, op.end, end));
    return { tiled: this.tiled, diagnostics: all, allocation };
  }

  /**
   * The diagnostics and tiling of a computation header in its plain form, `[ENTRY] [%]name
   * ([%]p: shape, ...) -> shape {` with only blanks between the parts and every shape a clean
   * candidate, or undefined when the full analysis must answer (anything else, including comments).
   * For such a header the statement parser finds exactly these shapes (parameters and result, in
   * text order) and reports nothing itself; test/server/lean-pass.test.ts checks the agreement.
   * Reads `text[start, end)` in place, like {@link statement}; offsets are relative to `start`.
   */
  header(text: string, start: number, end: number, scan: ScanState): LeanHeader | undefined {
    this.scan = scan;
    let p = skipBlanks(text, start, end);
    let e = nameEnd(text, p, end);
    if (e < 0) return undefined;
    let entry = false;
    if (text.charCodeAt(p) !== CH_PERCENT) {
      if (isWord(text, p, e, 'HloModule') || isWord(text, p, e, 'ROOT')) return undefined;
      if (isWord(text, p, e, 'ENTRY')) {
        entry = true;
        p = skipBlanks(text, e, end);
        e = nameEnd(text, p, end);
        if (e < 0) return undefined;
      }
    }
    const name = text.slice(text.charCodeAt(p) === CH_PERCENT ? p + 1 : p, e);
    let q = skipBlanks(text, e, end);
    if (charAt(text, q, end) !== CH_LPAREN) return undefined;
    q = skipBlanks(text, q + 1, end);
    let tiled = false;
    let found: LayoutDiagnostic[] | undefined;
    /** The clean shape at `at`: adds its diagnostics and returns its end, or -1. */
    const shapeAt = (at: number): number => {
      let typeEnd = -1;
      if (charAt(text, at, end) !== CH_LPAREN) {
        typeEnd = nameEnd(text, at, end);
        if (typeEnd < 0 || charAt(text, at, end) === CH_PERCENT || charAt(text, typeEnd, end) !== CH_LBRACKET)
          return -1;
      }
      const c = this.candidate(text, at, end, typeEnd);
      if (c?.facts === undefined) return -1;
      if (c.tiled) tiled = true;
      for (const d of c.facts.diagnostics) {
        const moved = movedDiagnostic(d, at - start);
        // XLA does not check the layout of an array in a signature (a tuple's elements it does).
        const unchecked = typeEnd >= 0 && isValidatorDiagnostic(d);
        (found ??= []).push(unchecked ? uncheckedLayoutWarning(moved, 'signature') : moved);
      }
      return at + c.next;
    };
    if (charAt(text, q, end) === CH_RPAREN) q++;
    else {
      for (;;) {
        // `name:` is one token to XLA's lexer: no `%`, no blank before the colon.
        const n = nameEnd(text, q, end);
        if (n < 0 || text.charCodeAt(q) === CH_PERCENT || charAt(text, n, end) !== CH_COLON) return undefined;
        const shapeEnd = shapeAt(skipBlanks(text, n + 1, end));
        if (shapeEnd < 0) return undefined;
        q = skipBlanks(text, shapeEnd, end);
        const c = charAt(text, q, end);
        q = skipBlanks(text, q + 1, end);
        if (c === CH_RPAREN) break;
        if (c !== CH_COMMA) return undefined;
      }
    }
    q = skipBlanks(text, q, end);
    if (q + 2 > end || !text.startsWith('->', q)) return undefined;
    const resultEnd = shapeAt(skipBlanks(text, q + 2, end));
    if (resultEnd < 0) return undefined;
    q = skipBlanks(text, resultEnd, end);
    if (charAt(text, q, end) !== CH_LBRACE || skipBlanks(text, q + 1, end) !== end) return undefined;
    return { name, entry, tiled, diagnostics: found ?? NO_DIAGNOSTICS };
  }

  /** The finder's visitor: one candidate of the statement being walked. */
  private readonly visit = (text: string, pos: number, bound: number, typeEnd: number): number => {
    if (!this.ok) return bound;
    const entry = this.candidate(text, pos, bound, typeEnd);
    // No key, a parse with diagnostics, or a shape before the result: not a statement the pass knows.
    if (entry?.facts === undefined || pos < this.result) {
      this.ok = false;
      return bound;
    }
    if (entry.tiled) this.tiled = true;
    const at = pos - this.origin;
    for (const d of entry.facts.diagnostics) {
      // An array's layout error outside the result: XLA does not check it in an operand's
      // declared shape, which the statement's tail tells apart from an attribute's value.
      if (pos !== this.result && typeEnd >= 0 && isValidatorDiagnostic(d))
        this.unchecked.push(pos, (this.found ??= []).length);
      (this.found ??= []).push(movedDiagnostic(d, at));
    }
    if (pos !== this.result) this.clean.push(pos, pos + entry.next);
    else {
      this.sawResult = true;
      this.resultEnd = pos + entry.next;
      this.resultFacts = entry.facts;
      this.paddingAt = this.found?.length ?? 0;
    }
    return pos + entry.next;
  };

  // A tuple candidate's arrays, as shapeKeyEnd lists them (reused: it runs for every candidate).
  private readonly leaves: number[] = [];

  /** The memoised work at one finder candidate, or undefined when it has no plain key. */
  private candidate(text: string, pos: number, bound: number, typeEnd: number): CandidateEntry | undefined {
    if (this.leaves.length > 0) this.leaves.length = 0;
    const keyEnd = shapeKeyEnd(this.scan, text, pos, bound, typeEnd, this.leaves);
    if (keyEnd < 0) return undefined;
    const hash = this.scan.keyHash;
    let entry = this.candidates.get(text, pos, keyEnd, hash);
    if (entry === undefined) {
      entry =
        (typeEnd < 0 ? this.tupleEntry(text, pos, keyEnd, bound, this.leaves.slice()) : undefined) ??
        this.parsedEntry(text, pos, bound);
      // An array's facts keep its text (ShapeFactsCache's key): the cache keeps that string too.
      this.candidates.set(text, pos, keyEnd, hash, entry, entry.facts?.leaves[0]?.facts.text);
    }
    return entry;
  }

  /** The candidate's entry from parsing it and computing the facts of the one shape found. */
  private parsedEntry(text: string, pos: number, bound: number): CandidateEntry {
    const found: FoundShape[] = [];
    const next = scanAt(text, pos, bound, found, this.scan) - pos;
    const only =
      found.length === 1 && found[0].diagnostics.length === 0 && found[0].shape.range.start === pos
        ? found[0].shape
        : undefined;
    return {
      next,
      facts: only ? this.facts.get(text, only) : undefined,
      tiled: only ? arrayLeaves(only).some((l) => (l.layout?.tiles?.tiles.length ?? 0) > 0) : false,
    };
  }

  /**
   * A new plain tuple's entry from its arrays' (mostly cached) entries: dumps hold many distinct
   * tuples of the same few arrays, and parsing and sizing each whole was a fifth of opening one.
   * When every array parses cleanly to the end of its key, the tuple parses cleanly too and ends
   * after its `)` (as core's memoised checker relies on as well); otherwise it is parsed whole.
   */
  private tupleEntry(
    text: string,
    pos: number,
    keyEnd: number,
    bound: number,
    leaves: readonly number[],
  ): CandidateEntry | undefined {
    const parts: { facts: ShapeFacts; offset: number }[] = [];
    let tiled = false;
    for (let k = 0; k < leaves.length; k += 2) {
      const at = leaves[k];
      const leaf = this.candidate(text, at, bound, leaves[k + 1]);
      if (
        leaf?.facts === undefined ||
        at + leaf.next !== shapeKeyEnd(this.scan, text, at, bound, leaves[k + 1]) ||
        atDiagnosticLimit(leaf.facts)
      )
        return undefined;
      parts.push({ facts: leaf.facts, offset: at - pos });
      tiled ||= leaf.tiled;
    }
    return { next: keyEnd - pos, facts: tupleFacts(parts), tiled };
  }
}
