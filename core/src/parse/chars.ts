/**
 * Character classes and trivia skipping shared by the shape parser and the HLO shape finder.
 * Everything works on UTF-16 code units through `charCodeAt`: no regular expressions and no
 * per-character allocation, because these loops run over 100 MB dumps.
 */
import { sharedNextOccurrences } from './next-occurrence';

/** Bit flags per ASCII code unit. */
const IDENT_START = 1;
const IDENT_PART = 2;
const DIGIT = 4;
const SPACE = 8;

const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let flags = 0;
  if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_') flags |= IDENT_START | IDENT_PART;
  if (ch >= '0' && ch <= '9') flags |= IDENT_PART | DIGIT;
  // XLA's IsIdentifierChar also allows '.' and '-' after the first character (`get-tuple-element.1`).
  if (ch === '.' || ch === '-') flags |= IDENT_PART;
  if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') flags |= SPACE;
  CLASS[c] = flags;
}

export const CH_LPAREN = 40;
export const CH_RPAREN = 41;
export const CH_STAR = 42;
export const CH_PLUS = 43;
export const CH_COMMA = 44;
export const CH_MINUS = 45;
export const CH_DOT = 46;
export const CH_SLASH = 47;
export const CH_COLON = 58;
export const CH_LT = 60;
export const CH_EQUAL = 61;
export const CH_GT = 62;
export const CH_QUESTION = 63;
export const CH_LSQUARE = 91;
export const CH_RSQUARE = 93;
export const CH_LBRACE = 123;
export const CH_RBRACE = 125;
export const CH_TILDE = 126;
export const CH_HASH = 35;
export const CH_QUOTE = 34;
const CH_BACKSLASH = 92;
export const CH_PERCENT = 37;
export const CH_NEWLINE = 10;
export const CH_CR = 13;
export const CH_APOSTROPHE = 39;

/** `[a-zA-Z_]`: the first character of an XLA identifier. */
export function isIdentStart(c: number): boolean {
  return c < 128 && (CLASS[c] & IDENT_START) !== 0;
}

/** `[a-zA-Z0-9_.-]`: a later character of an XLA identifier. */
export function isIdentPart(c: number): boolean {
  return c < 128 && (CLASS[c] & IDENT_PART) !== 0;
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** End of the identifier that starts at `pos` (which must satisfy {@link isIdentStart}). */
export function identifierEnd(text: string, pos: number, end: number): number {
  let i = pos + 1;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (CLASS[c] & IDENT_PART) === 0) break;
    i++;
  }
  return i;
}

/**
 * Skips whitespace, `// ...` line comments and `/* ... *\/` block comments, as XLA's lexer does
 * between any two tokens. An unterminated block comment is not skipped: XLA lexes it as an error
 * token, so the caller reports whatever it expected at that position.
 */
export function skipTrivia(text: string, pos: number, end: number, comments: CommentSearch): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c < 128 && (CLASS[c] & SPACE) !== 0) {
      pos++;
      continue;
    }
    if (c === CH_SLASH && pos + 1 < end) {
      const n = text.charCodeAt(pos + 1);
      if (n === CH_STAR) {
        const close = comments.closeOf(text, pos);
        if (close < 0 || close + 2 > end) return pos;
        pos = close + 2;
        continue;
      }
      if (n === CH_SLASH) {
        pos = lineCommentEnd(text, pos, end);
        continue;
      }
    }
    return pos;
  }
  return pos;
}

/** End of a `//` comment starting at `pos`: the line break (`\n` or `\r`, exclusive) or `end`. */
export function lineCommentEnd(text: string, pos: number, end: number): number {
  let i = pos + 2;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === CH_NEWLINE || c === CH_CR) break;
    i++;
  }
  return i;
}

/**
 * Where block comments close, remembered for the last text searched, so that repeated look-aheads
 * over the same unterminated `/*` (random bytes, truncated dumps) cost one scan in total instead of
 * one scan each. Held by whoever reads one text piece by piece (a {@link ScanState}).
 */
export class CommentSearch {
  private text = '';
  private from = -1;
  private close = -1;

  /**
   * Offset of the `*\/` closing the block comment that opens at `pos`, or -1. Amortised linear: a
   * later query inside the span of an earlier one reuses its answer.
   */
  closeOf(text: string, pos: number): number {
    const same = text === this.text;
    // Keep this very string: two equal strings that are distinct objects compare by reading them whole.
    this.text = text;
    if (same && pos >= this.from && (this.close < 0 || pos + 2 <= this.close)) return this.close;
    const close = text.indexOf('*/', pos + 2);
    this.from = pos;
    this.close = close;
    return close;
  }
}

const lineBreaks = sharedNextOccurrences(['\n', '\r']);

/** Offset of the first `\n` or `\r` at or after `pos`, or `text.length`. Amortised linear over a forward walk. */
export function nextLineBreak(text: string, pos: number): number {
  return Math.min(lineBreaks.find(text, 0, pos), lineBreaks.find(text, 1, pos));
}

/** Whether `c`, after the closing quote of a string that spans lines, ends the value (see {@link quotedEnd}). */
function endsValue(c: number): boolean {
  return c === CH_COMMA || c === CH_RBRACE || c === CH_RPAREN || c === CH_RSQUARE || c <= 32;
}

/**
 * End of the string whose opening quote (`"` or `'`, as XLA's lexer takes both) is at `pos`: after
 * its closing quote (the next one not escaped by an odd run of backslashes, found natively), at
 * most at `end`. A string may hold line breaks (XLA prints the HLO text an attribute holds, such as
 * `origin_recovery_table`, over many lines), but a stray quote must not swallow what follows it:
 * a string runs past its first line only when its closing quote ends a value (is followed by `,`,
 * `}`, `)`, `]`, a blank or the end), as the closing quote of such an attribute is, and as the
 * opening quote of the next string on a later line (`op_name="jit(f)..."`) is not. Otherwise it
 * ends at its line break, unterminated.
 */
export function quotedEnd(text: string, pos: number, end: number): number {
  const q = closingQuote(text, pos, end);
  const lineBreak = nextLineBreak(text, pos + 1);
  if (q >= 0 && q < lineBreak) return q + 1;
  if (q >= 0 && (q + 1 >= text.length || endsValue(text.charCodeAt(q + 1)))) return q + 1;
  return Math.min(lineBreak, end);
}

/**
 * Offset of the quote closing the string that opens at `pos` (`"` or `'`): the next one of the same
 * kind before `end` not escaped by an odd run of backslashes; -1 when there is none.
 */
export function closingQuote(text: string, pos: number, end: number): number {
  const mark = text.charCodeAt(pos) === CH_APOSTROPHE ? "'" : '"';
  let q = pos;
  for (;;) {
    q = text.indexOf(mark, q + 1);
    if (q < 0 || q >= end) return -1;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === CH_BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
}
