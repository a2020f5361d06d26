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
  CH_APOSTROPHE,
  CH_LSQUARE,
  CH_PERCENT,
  CH_QUOTE,
  CH_SLASH,
  CH_STAR,
  isIdentPart,
  isIdentStart,
  lineCommentEnd,
  quotedEnd,
} from './chars';
import { nextAt } from './next-occurrence';
import { ScanState } from './scan-state';
import { typeAt } from './type-names';
import { DEFAULT_MAX_DEPTH, parseShapeTree } from './shape-parser';

/** A shape found in HLO text with the parser's diagnostics for it; ranges are absolute. */
export interface FoundShape {
  readonly shape: ShapeNode;
  /** Parse diagnostics only; validation is {@link validateShape} / `createShapeChecker`. */
  readonly diagnostics: LayoutDiagnostic[];
}

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
    // Inside: a diagnostic starting where the node ends is about what follows it (a tuple's `)`).
    for (let i = lo; i < order.length && all[order[i]].range.start < Math.max(end, start + 1); i++)
      picked.push(order[i]);
    return picked.sort((a, b) => a - b).map((i) => all[i]);
  };
}

/**
 * After a tuple/buffer attempt failed at tuple level, reports the complete shapes inside it. The
 * partial nodes form a chain from the root to the failure point; everything else is complete.
 */
function collectComplete(
  root: ShapeNode,
  partials: readonly object[],
  diagnostics: readonly LayoutDiagnostic[],
  out: FoundShape[],
): void {
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
export function scanAt(
  text: string,
  pos: number,
  end: number,
  out: FoundShape[],
  scan: ScanState = new ScanState(),
): number {
  const state = scan.parser;
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

/**
 * Called by {@link walkShapeCandidates} where the finder tries the shape parser: at a word followed
 * by `[`, an element type or one the parser reports as unknown (`typeEnd` is the word's end), or at
 * `(` or `b(` (`typeEnd` is -1). `end` is
 * the clamped bound. Returns where scanning continues, which must be past `pos`.
 */
export type ShapeCandidateVisitor = (text: string, pos: number, end: number, typeEnd: number) => number;

/**
 * All shapes in `text[start, end)`, in order. Nested shapes are reported once, as part of the
 * outermost shape (a tuple's elements are inside the tuple node). A caller scanning one text piece
 * by piece passes one `scan` for all the pieces.
 */
export function scanShapes(
  text: string,
  start = 0,
  end: number = text.length,
  scan: ScanState = new ScanState(),
): FoundShape[] {
  const out: FoundShape[] = [];
  walkShapeCandidates(text, start, end, (t, pos, e) => scanAt(t, pos, e, out, scan), scan);
  return out;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

/**
 * Whether the word at `pos` is an attribute's value: after `key=` (XLA's attribute name token,
 * the `=` right after the key), blanks and block comments allowed before the value. An instruction's `%x = ` has
 * its name and `=` apart, or a `%` name.
 */
export function attributeValueAt(text: string, pos: number): boolean {
  let k = pos;
  for (;;) {
    while (k > 0 && isBlank(text.charCodeAt(k - 1))) k--;
    // `replica_groups=/* c */mesh[...]`: XLA skips the comment.
    if (k < 4 || text.charCodeAt(k - 1) !== 47 || text.charCodeAt(k - 2) !== 42) break;
    const open = text.lastIndexOf('/*', k - 3);
    if (open < 0) break;
    k = open;
  }
  if (k < 2 || text.charCodeAt(k - 1) !== 61) return false;
  let n = k - 1;
  while (n > 0 && isIdentPart(text.charCodeAt(n - 1))) n--;
  return n < k - 1 && isIdentStart(text.charCodeAt(n)) && (n === 0 || text.charCodeAt(n - 1) !== CH_PERCENT);
}

/**
 * The finder's walk over `text[start, end)`: skips strings, comments and names, and hands every
 * position where a shape may start to `visit`. {@link scanShapes} parses there; the memoised
 * checker first looks the candidate up in its cache. One walk for both keeps them in agreement.
 *
 * Shapes are anchored at `[` (after a type name) and `(` (a tuple, or `b(`), so the walk jumps
 * from one `"`, `(`, `/` or `[` to the next with native searches and looks back from a `[` or `(`
 * for the name before it. The result is what a character-by-character walk gives (kept as the
 * oracle in test/fuzz/reference-walk.ts): that walk reads a name, looks past blanks and comments
 * for `[` or `(`, and tries a shape there; `floor` marks how far back a name may start (nothing
 * but names, blanks, comments and plain punctuation lies between it and the stop), and the
 * comments skipped since then are one run of comments separated by blanks, `chain` to `chainEnd`.
 */
export function walkShapeCandidates(
  text: string,
  start: number,
  end: number,
  visit: ShapeCandidateVisitor,
  scan: ScanState = new ScanState(),
): void {
  end = Math.max(0, Math.min(end, text.length));
  let from = Math.max(0, start);
  let floor = from;
  let chain = -1;
  let chainEnd = -1;
  let quote = scan.nextStop(text, 0, from);
  let paren = scan.nextStop(text, 1, from);
  let slash = scan.nextStop(text, 2, from);
  let square = scan.nextStop(text, 3, from);
  let apostrophe = scan.nextStop(text, 4, from);
  let quoteSince = from;
  let parenSince = from;
  let slashSince = from;
  let squareSince = from;
  let apostropheSince = from;
  while (from < end) {
    // A stop is the first of its kind from where it was searched; the visitor may continue before
    // that point (inside a comment the walk already skipped, say), and then it is searched again.
    if (quote < from || quoteSince > from) quote = nextAt(text, '"', (quoteSince = from));
    if (paren < from || parenSince > from) paren = nextAt(text, '(', (parenSince = from));
    if (slash < from || slashSince > from) slash = nextAt(text, '/', (slashSince = from));
    if (square < from || squareSince > from) square = nextAt(text, '[', (squareSince = from));
    if (apostrophe < from || apostropheSince > from) apostrophe = nextAt(text, "'", (apostropheSince = from));
    const p = Math.min(quote, paren, slash, square, apostrophe);
    if (p >= end) break;
    const c = text.charCodeAt(p);
    if (c === CH_QUOTE || c === CH_APOSTROPHE) {
      // Strings (metadata, backend_config) are a large share of dumps: quotedEnd finds the
      // closing quote natively.
      from = floor = quotedEnd(text, p, end);
      continue;
    }
    if (c === CH_SLASH) {
      const n = p + 1 < end ? text.charCodeAt(p + 1) : -1;
      if (n !== CH_SLASH && n !== CH_STAR) {
        from = floor = p + 1;
        continue;
      }
      let close = end;
      if (n === CH_SLASH) close = lineCommentEnd(text, p, end);
      else {
        const at = scan.comments.closeOf(text, p);
        if (at >= 0 && at + 2 <= end) close = at + 2;
      }
      // Blanks back to the last comment's end, not into it: a line comment may end in blanks (`\r`).
      let before = p;
      while (before > floor && before !== chainEnd && isBlank(text.charCodeAt(before - 1))) before--;
      if (before !== chainEnd) chain = p;
      chainEnd = from = close;
      continue;
    }
    // `[` or `(`: find the name the character walk would have read before it, past blanks and
    // comments except for `name(` (an operand list, or `b(`).
    let nameEnd = p;
    if (c === CH_LSQUARE || p === 0 || !isIdentPart(text.charCodeAt(p - 1))) {
      while (nameEnd > floor && nameEnd !== chainEnd && isBlank(text.charCodeAt(nameEnd - 1))) nameEnd--;
      if (nameEnd === chainEnd) {
        nameEnd = chain;
        while (nameEnd > floor && isBlank(text.charCodeAt(nameEnd - 1))) nameEnd--;
      }
    }
    let run = nameEnd;
    while (run > floor && isIdentPart(text.charCodeAt(run - 1))) run--;
    while (run < nameEnd && !isIdentStart(text.charCodeAt(run))) run++;
    // `%name` is an instruction or computation name, whatever it spells.
    const named = run < nameEnd && !(run > 0 && text.charCodeAt(run - 1) === CH_PERCENT);
    // A word before `[` is taken for an element type: a known one, or one the parser reports as
    // unknown (XLA's docs print `F32[2]`, people write `float32[3]`), unless it is an attribute's
    // value (`replica_groups=mesh['x'=8]`), where an unknown word is other syntax.
    if (c === CH_LSQUARE)
      from =
        named && (typeAt(text, run, nameEnd) !== undefined || !attributeValueAt(text, run))
          ? visit(text, run, end, nameEnd)
          : p + 1;
    else if (named && nameEnd === run + 1 && text.charCodeAt(run) === 98) from = visit(text, run, end, -1);
    // `opcode(` is an operand list; any other `(` may open a tuple shape.
    else if (p > 0 && isIdentPart(text.charCodeAt(p - 1))) from = p + 1;
    else from = visit(text, p, end, -1);
    floor = from;
    // The visitor may continue inside comments the chain holds: then they are no chain any more.
    if (chainEnd > from) chain = chainEnd = -1;
  }
  scan.rememberStop(text, 0, quoteSince, quote);
  scan.rememberStop(text, 1, parenSince, paren);
  scan.rememberStop(text, 2, slashSince, slash);
  scan.rememberStop(text, 3, squareSince, square);
  scan.rememberStop(text, 4, apostropheSince, apostrophe);
}
