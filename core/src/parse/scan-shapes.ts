/**
 * Finds every shape in HLO text (spec §1.6): instruction results, operand annotations, signatures,
 * `entry_computation_layout`, attribute values. Strings and comments are opaque; identifiers that
 * merely contain a type name (`%s32.1`, `pred.3`) are skipped whole.
 *
 * Linear time: every character is looked at a bounded number of times. A `(` that is not an
 * opcode's operand list is tried as a tuple; when the attempt fails at tuple level (an operand
 * name, a parameter name, a number...), the complete shapes it read are kept and scanning resumes
 * where the attempt stopped, never before.
 */
import type { ShapeNode } from '../ast';
import type { LayoutDiagnostic } from '../diagnostics';
import {
  CH_LPAREN, CH_LSQUARE, CH_PERCENT, CH_QUOTE, CH_SLASH, CH_STAR, blockCommentClose, identifierEnd, isIdentPart, isIdentStart,
  lineCommentEnd, skipTrivia, CH_BACKSLASH,
} from './chars';
import { ParserState } from './parser-state';
import { DEFAULT_MAX_DEPTH, parseShapeTree } from './shape-parser';
import { typeAt } from './type-names';

/** A shape found in HLO text with the parser's diagnostics for it; ranges are absolute. */
export interface FoundShape {
  readonly shape: ShapeNode;
  /** Parse diagnostics only; validation is {@link validateShape} / `createShapeChecker`. */
  readonly diagnostics: LayoutDiagnostic[];
}

const state = new ParserState();

/**
 * Hands each complete node the diagnostics whose start lies inside it, keeping their original
 * order. Diagnostics are sorted by start once and each node takes its slice by binary search, so a
 * broken tuple with many flagged elements costs n log n rather than one full pass per element.
 */
function diagnosticsPicker(all: readonly LayoutDiagnostic[]): (node: ShapeNode) => LayoutDiagnostic[] {
  if (all.length === 0) return () => [];
  const order = all.map((_, i) => i).sort((a, b) => all[a].range.start - all[b].range.start || a - b);
  return (node) => {
    const { start, end } = node.range;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (all[order[mid]].range.start < start) lo = mid + 1;
      else hi = mid;
    }
    const picked: number[] = [];
    for (let i = lo; i < order.length && all[order[i]].range.start <= end; i++) picked.push(order[i]);
    return picked.sort((a, b) => a - b).map((i) => all[i]);
  };
}

/**
 * After a tuple/buffer attempt failed at tuple level, reports the complete shapes inside it. The
 * partial nodes form a chain from the root to the failure point; everything else is complete.
 */
function collectComplete(root: ShapeNode, partials: readonly object[], diagnostics: readonly LayoutDiagnostic[], out: FoundShape[]): void {
  const incomplete = new Set(partials);
  const diagnosticsWithin = diagnosticsPicker(diagnostics);
  const work: ShapeNode[] = [root];
  while (work.length > 0) {
    const node = work.pop()!;
    if (!incomplete.has(node)) {
      out.push({ shape: node, diagnostics: diagnosticsWithin(node) });
    } else if (node.kind === 'tuple') {
      for (let i = node.elements.length - 1; i >= 0; i--) work.push(node.elements[i]);
    } else if (node.kind === 'buffer') {
      work.push(node.element);
    }
  }
}

/**
 * Parses the shape at `pos` and appends what it finds, as {@link scanShapes} does at each
 * candidate. Returns where scanning continues (always past `pos`).
 */
export function scanAt(text: string, pos: number, end: number, out: FoundShape[]): number {
  state.reset(text, pos, end);
  const shape = parseShapeTree(state, DEFAULT_MAX_DEPTH);
  const stop = state.pos;
  if (shape !== undefined) {
    if (!state.failed) out.push({ shape, diagnostics: state.diagnostics });
    else if (state.structural) collectComplete(shape, state.partials, state.diagnostics, out);
    else out.push({ shape, diagnostics: state.diagnostics });
  }
  state.release();
  return Math.max(stop, pos + 1);
}

/** End of the string opening at `pos`: after its closing quote, or `lineEnd` when unterminated. */
function quotedEnd(text: string, pos: number, lineEnd: number): number {
  let q = pos;
  for (;;) {
    q = text.indexOf('"', q + 1);
    if (q < 0 || q >= lineEnd) return lineEnd;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === CH_BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
  }
}

/**
 * Called by {@link walkShapeCandidates} where the finder tries the shape parser: at an array type
 * name followed by `[` (`typeEnd` is the name's end), or at `(` or `b(` (`typeEnd` is -1). `end` is
 * the clamped bound. Returns where scanning continues, which must be past `pos`.
 */
export type ShapeCandidateVisitor = (text: string, pos: number, end: number, typeEnd: number) => number;

/**
 * All shapes in `text[start, end)`, in order. Nested shapes are reported once, as part of the
 * outermost shape (a tuple's elements are inside the tuple node).
 */
export function scanShapes(text: string, start = 0, end: number = text.length): FoundShape[] {
  const out: FoundShape[] = [];
  walkShapeCandidates(text, start, end, (t, pos, e) => scanAt(t, pos, e, out));
  return out;
}

/**
 * The finder's walk over `text[start, end)`: skips strings, comments and names, and hands every
 * position where a shape may start to `visit`. {@link scanShapes} parses there; the memoised
 * checker first looks the candidate up in its cache. One walk for both keeps them in agreement.
 */
export function walkShapeCandidates(text: string, start: number, end: number, visit: ShapeCandidateVisitor): void {
  end = Math.max(0, Math.min(end, text.length));
  let i = Math.max(0, start);
  let nextNewline = -1;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isIdentStart(c)) {
      const stop = identifierEnd(text, i, end);
      // `%name` is an instruction or computation name, whatever it spells.
      if (i > 0 && text.charCodeAt(i - 1) === CH_PERCENT) {
        i = stop;
        continue;
      }
      let next = stop < end ? text.charCodeAt(stop) : -1;
      if (next !== CH_LSQUARE && next !== CH_LPAREN && next !== -1 && !isIdentPart(next)) {
        const after = skipTrivia(text, stop, end);
        next = after < end ? text.charCodeAt(after) : -1;
      }
      if (next === CH_LSQUARE && typeAt(text, i, stop) !== undefined) {
        i = visit(text, i, end, stop);
        continue;
      }
      if (next === CH_LPAREN && stop === i + 1 && c === 98) {
        i = visit(text, i, end, -1);
        continue;
      }
      i = stop;
      continue;
    }
    if (c === CH_LPAREN) {
      // `opcode(` is an operand list; any other `(` may open a tuple shape.
      if (i > 0 && isIdentPart(text.charCodeAt(i - 1))) i++;
      else i = visit(text, i, end, -1);
      continue;
    }
    if (c === CH_QUOTE) {
      // Strings (metadata, backend_config) are a large share of dumps: find the closing quote
      // natively. A string cannot span lines, so it ends at the next newline at the latest.
      if (nextNewline <= i) {
        nextNewline = text.indexOf('\n', i);
        if (nextNewline < 0 || nextNewline > end) nextNewline = end;
      }
      i = quotedEnd(text, i, nextNewline);
      continue;
    }
    if (c === CH_SLASH && i + 1 < end) {
      const n = text.charCodeAt(i + 1);
      if (n === CH_SLASH) {
        i = lineCommentEnd(text, i, end);
        continue;
      }
      if (n === CH_STAR) {
        const close = blockCommentClose(text, i);
        i = close < 0 || close + 2 > end ? end : close + 2;
        continue;
      }
    }
    i++;
  }
}
