/**
 * The cache key of a shape candidate for memoised checking: a cheap lexical scan that finds how far
 * the shape parser can possibly read from a candidate position, so that the text up to there
 * determines the whole parse (tree, diagnostics, where it stops) up to a shift of all offsets.
 *
 * Rather than predict the parse, the scan accepts only a plain character vocabulary in which every
 * parser path, the error paths included, is known to stay inside the extent:
 * - dims `[...]` hold only digits and `, ? < = -`: numbers cannot run on (no `. e x _`), no trivia,
 *   no `>` for `->`, so every token ends by the first `]`;
 * - a layout `{...}` holds only digits, `, : ( ) * -` and the letters `T L E S C M`, with parens
 *   balanced and not nested: no trivia, strings, `D(`, `P(` or `#(`; an exponent or `E` attribute
 *   ends at the next non-digit; XLA's look for `(...)` after an unknown attribute name (for its
 *   error range) finds its `)` before the `}`; and without `{` inside, the first `}` is the last
 *   character the layout parser can read;
 * - an array without layout is followed by blanks and one character other than `{` or `/` (or the
 *   end), which is all the layout look-ahead reads, and only to learn that there is no layout: the
 *   key is then just `type[dims]`; in a tuple that character must be `,` or `)`;
 * - an array outside a tuple followed by blanks, `{` and blanks up to the bound (a computation
 *   header's result and body brace) has no layout either; its key runs to the bound;
 * - tuples hold only such arrays and tuples separated by `,` and blanks, nested at most
 *   {@link MAX_TUPLE_DEPTH} deep, and nothing is read after the closing `)` of the outermost one.
 * Blanks are whitespace and complete `/* ... *\/` comments, wherever the parser skips trivia.
 * Anything else (line comments, `b(`, operand names, ...) has no key, and the caller parses it as usual.
 */
import {
  CH_COLON,
  CH_COMMA,
  CH_EQUAL,
  CH_LBRACE,
  CH_LPAREN,
  CH_LSQUARE,
  CH_LT,
  CH_MINUS,
  CH_QUESTION,
  CH_RBRACE,
  CH_RPAREN,
  CH_RSQUARE,
  CH_SLASH,
  CH_STAR,
  identifierEnd,
  isIdentStart,
} from './chars';
import type { ScanState } from './scan-state';
import { FNV_OFFSET, FNV_PRIME, HASH_MASK, fnvRegion, regionHash } from './text-hash';
import { typeAt } from './type-names';

/** Deeper tuples get no key; far below the parser's own limit of 8192. */
const MAX_TUPLE_DEPTH = 32;

/** Character classes of the plain vocabulary, by ASCII code. */
const DIM_CHAR = 1;
const LAYOUT_CHAR = 2;
const BLANK = 4;

const CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLASS[c] = DIM_CHAR | LAYOUT_CHAR;
for (const c of [CH_COMMA, CH_MINUS]) CLASS[c] = DIM_CHAR | LAYOUT_CHAR;
for (const c of [CH_QUESTION, CH_LT, CH_EQUAL]) CLASS[c] = DIM_CHAR;
for (const c of [CH_COLON, CH_STAR, CH_LPAREN, CH_RPAREN, ...'TLESCM'.split('').map((l) => l.charCodeAt(0))])
  CLASS[c] = LAYOUT_CHAR;
for (const c of [32, 9, 10, 13]) CLASS[c] = BLANK;

function hasClass(c: number, flag: number): boolean {
  return c < 128 && (CLASS[c] & flag) !== 0;
}

/**
 * Skips whitespace and complete block comments (XLA prints `/*index=5*\/` inside long tuples).
 * The parser's trivia skipping reads a comment exactly up to its first `*\/`, inside the extent.
 */
function skipBlanks(scan: ScanState, text: string, i: number, end: number): number {
  while (i < end) {
    const c = text.charCodeAt(i);
    if (hasClass(c, BLANK)) {
      i++;
    } else if (c === CH_SLASH && i + 1 < end && text.charCodeAt(i + 1) === CH_STAR) {
      const close = scan.comments.closeOf(text, i);
      if (close < 0 || close + 2 > end) return i;
      i = close + 2;
    } else {
      return i;
    }
  }
  return i;
}

/**
 * Key end of the array whose type name is text[pos, typeEnd), or -1. With `inTuple`, the
 * character after a layout-less array must be `,` or `)`. Hashes the key as it reads it: the
 * result's {@link regionHash} is left in `scan.keyHash`, where it ends as a tuple element would
 * in `scan.elementEnd`.
 */
function arrayExtent(
  scan: ScanState,
  text: string,
  pos: number,
  typeEnd: number,
  end: number,
  inTuple: boolean,
): number {
  if (typeEnd >= end || text.charCodeAt(typeEnd) !== CH_LSQUARE) return -1;
  let h = fnvRegion(FNV_OFFSET, text, pos, typeEnd + 1);
  let i = typeEnd + 1;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!hasClass(c, DIM_CHAR)) break;
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  if (i >= end || text.charCodeAt(i) !== CH_RSQUARE) return -1;
  h = Math.imul(h ^ CH_RSQUARE, FNV_PRIME);
  scan.elementEnd = i + 1;
  const k = skipBlanks(scan, text, i + 1, end);
  const c = k < end ? text.charCodeAt(k) : -1;
  if (c !== CH_LBRACE) {
    if (c === CH_SLASH || (inTuple && c !== CH_COMMA && c !== CH_RPAREN)) return -1;
    // No layout: the blanks skipped and the character seen do not change the parse, which ends at
    // `]`, so neither is part of the key. Keys with a layout end in `}`, so they never collide.
    scan.keyHash = h & HASH_MASK;
    return i + 1;
  }
  // `-> f32[2] {` ending a computation header: only blanks follow the `{` up to the bound, so the
  // parser's look-ahead finds no layout there. The key runs to the bound; it ends in a blank or `{`,
  // which no other key does.
  if (!inTuple && skipBlanks(scan, text, k + 1, end) === end) {
    scan.keyHash = fnvRegion(h, text, i + 1, end) & HASH_MASK;
    return end;
  }
  h = fnvRegion(h, text, i + 1, k + 1);
  let open = false;
  for (let m = k + 1; m < end; m++) {
    const d = text.charCodeAt(m);
    h = Math.imul(h ^ d, FNV_PRIME);
    if (d === CH_RBRACE) {
      if (open) return -1;
      scan.elementEnd = m + 1;
      scan.keyHash = h & HASH_MASK;
      return m + 1;
    }
    if (!hasClass(d, LAYOUT_CHAR)) return -1;
    if (d === CH_LPAREN) {
      if (open) return -1;
      open = true;
    } else if (d === CH_RPAREN) {
      if (!open) return -1;
      open = false;
    }
  }
  return -1;
}

/** Key end of the tuple opening at `pos`, or -1; each array element's start and type-name end go to `leaves`. */
function tupleExtent(
  scan: ScanState,
  text: string,
  pos: number,
  end: number,
  leaves: number[] | undefined,
): number {
  let depth = 1;
  let i = skipBlanks(scan, text, pos + 1, end);
  if (i < end && text.charCodeAt(i) === CH_RPAREN) return i + 1;
  for (;;) {
    // An element starts at i.
    if (i >= end) return -1;
    const c = text.charCodeAt(i);
    if (c === CH_LPAREN) {
      i = skipBlanks(scan, text, i + 1, end);
      if (i < end && text.charCodeAt(i) === CH_RPAREN) {
        i++; // `()`: an empty tuple is one element
      } else {
        if (++depth > MAX_TUPLE_DEPTH) return -1;
        continue;
      }
    } else {
      if (!isIdentStart(c)) return -1;
      const typeEnd = identifierEnd(text, i, end);
      if (typeAt(text, i, typeEnd) === undefined || arrayExtent(scan, text, i, typeEnd, end, true) < 0)
        return -1;
      leaves?.push(i, typeEnd);
      i = scan.elementEnd;
    }
    // After an element: `,` and the next element, or `)` closing one or more tuples.
    for (;;) {
      i = skipBlanks(scan, text, i, end);
      if (i >= end) return -1;
      const d = text.charCodeAt(i);
      if (d === CH_COMMA) {
        i = skipBlanks(scan, text, i + 1, end);
        break;
      }
      if (d !== CH_RPAREN) return -1;
      i++;
      if (--depth === 0) return i;
    }
  }
}

/**
 * For a candidate of the HLO shape finder at `pos` (bound `end`; `typeEnd` is the end of the array
 * type name, or -1 for `(` and `b(`): the end of the smallest extent text[pos, keyEnd) outside of
 * which the shape parser reads nothing, or -1 when the candidate is not plain enough to tell
 * cheaply. Equal extents at two positions parse the same, ranges shifted by the distance.
 *
 * For a keyed tuple, `leaves` receives the start and type-name end of each array in it, in text
 * order: every one of them is itself a keyed candidate whose parse is the same as inside the
 * tuple (what follows it is `,` or `)`, which no array key reads past).
 *
 * The key's `regionHash(text, pos, keyEnd)` is left in `scan.keyHash` (an array's key is hashed
 * while it is scanned, so memoising callers need not read it again): read it before the next call.
 */
export function shapeKeyEnd(
  scan: ScanState,
  text: string,
  pos: number,
  end: number,
  typeEnd: number,
  leaves?: number[],
): number {
  if (typeEnd >= 0) return arrayExtent(scan, text, pos, typeEnd, end, false);
  if (text.charCodeAt(pos) !== CH_LPAREN) return -1;
  const keyEnd = tupleExtent(scan, text, pos, end, leaves);
  if (keyEnd >= 0) scan.keyHash = regionHash(text, pos, keyEnd);
  return keyEnd;
}
