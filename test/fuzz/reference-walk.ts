/**
 * The shape finder's walk as first written, kept as a reference for the optimised one in
 * core/src/parse/scan-shapes.ts: it reads every character, takes each name whole, looks past blanks
 * and comments for the `[` or `(` after it, and skips strings and comments. The optimised walk
 * jumps between `"`, `'`, `(`, `/` and `[` and looks back for the name; the two must hand the same
 * candidates to the visitor on every input (test/fuzz/walk-reference.test.ts).
 */
import {
  CommentSearch,
  identifierEnd,
  isIdentPart,
  isIdentStart,
  lineCommentEnd,
  quotedEnd,
  skipTrivia,
} from '../../core/src/parse/chars';
import { attributeValueAt, type ShapeCandidateVisitor } from '../../core/src/parse/scan-shapes';
import { typeAt } from '../../core/src/parse/type-names';

const LPAREN = 40;
const LSQUARE = 91;
const PERCENT = 37;
const QUOTE = 34;
const APOSTROPHE = 39;
const SLASH = 47;
const STAR = 42;
const LOWER_B = 98;

export function referenceWalkShapeCandidates(
  text: string,
  start: number,
  end: number,
  visit: ShapeCandidateVisitor,
): void {
  end = Math.max(0, Math.min(end, text.length));
  const comments = new CommentSearch();
  let i = Math.max(0, start);
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isIdentStart(c)) {
      const stop = identifierEnd(text, i, end);
      if (i > 0 && text.charCodeAt(i - 1) === PERCENT) {
        i = stop;
        continue;
      }
      let next = stop < end ? text.charCodeAt(stop) : -1;
      if (next !== LSQUARE && next !== LPAREN && next !== -1 && !isIdentPart(next)) {
        const after = skipTrivia(text, stop, end, comments);
        next = after < end ? text.charCodeAt(after) : -1;
      }
      // A word before `[` is an element type, known or not (the parser says which), unless it is
      // an unknown word in an attribute's value (`replica_groups=mesh[...]`).
      if (next === LSQUARE && (typeAt(text, i, stop) !== undefined || !attributeValueAt(text, i))) {
        i = visit(text, i, end, stop);
        continue;
      }
      if (next === LPAREN && stop === i + 1 && c === LOWER_B) {
        i = visit(text, i, end, -1);
        continue;
      }
      i = stop;
      continue;
    }
    if (c === LPAREN) {
      if (i > 0 && isIdentPart(text.charCodeAt(i - 1))) i++;
      else i = visit(text, i, end, -1);
      continue;
    }
    if (c === QUOTE || c === APOSTROPHE) {
      i = quotedEnd(text, i, end);
      continue;
    }
    if (c === SLASH && i + 1 < end) {
      const n = text.charCodeAt(i + 1);
      if (n === SLASH) {
        i = lineCommentEnd(text, i, end);
        continue;
      }
      if (n === STAR) {
        const close = comments.closeOf(text, i);
        i = close < 0 || close + 2 > end ? end : close + 2;
        continue;
      }
    }
    i++;
  }
}
