/**
 * XLA's number lexing (`HloLexer::LexNumberOrPattern`), reduced to what shapes need: is the token
 * at a position an integer, and if so which int64 value. A token starting with a digit or `-` is
 * tried as a float, a dim-labels/pad pattern, an `NxM` pattern and only then as an integer, so
 * `1.5`, `1e5`, `2x3` and `1_2` are whole tokens that are NOT integers.
 */
import { CH_DOT, CH_MINUS, isDigit, isLetter } from './chars';

export type NumberKind = 'int' | 'decimal' | 'dxd' | 'pad' | 'error';

export interface LexedNumber {
  readonly kind: NumberKind;
  /** End of the whole token (exclusive). */
  readonly end: number;
  /** The int64 value for kind 'int' (2^63..2^64-1 already bit-cast to negative, like `LexInt64Impl`). */
  readonly value: bigint;
  /**
   * kind 'int' whose digits do not fit in int64 (negative) or uint64 (positive): a lex error in
   * XLA. `value` then holds the number as written, unwrapped.
   */
  readonly tooLarge: boolean;
}

const TWO_63 = 1n << 63n;
const TWO_64 = 1n << 64n;
const SMALL = Array.from({ length: 1025 }, (_, i) => BigInt(i));

const CH_E_UPPER = 69;
const CH_E_LOWER = 101;
const CH_X = 120;
const CH_UNDERSCORE = 95;
const CH_QUESTION_MARK = 63;
const CH_GT = 62;

function digitsEnd(text: string, i: number, end: number): number {
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  return i;
}

/** `[eE][+-]?\d+` at `i`: returns the end, or `i` when there is no exponent. */
function exponentEnd(text: string, i: number, end: number): number {
  if (i >= end) return i;
  const c = text.charCodeAt(i);
  if (c !== CH_E_UPPER && c !== CH_E_LOWER) return i;
  let j = i + 1;
  const s = j < end ? text.charCodeAt(j) : 0;
  if (s === 43 || s === CH_MINUS) j++;
  if (j < end && isDigit(text.charCodeAt(j))) return digitsEnd(text, j, end);
  return i;
}

/** The value of decimal digits text[start, end): exact, via numbers when they are short enough. */
function digitsValue(text: string, start: number, end: number): bigint {
  if (end - start <= 15) {
    let n = 0;
    for (let i = start; i < end; i++) n = n * 10 + (text.charCodeAt(i) - 48);
    return n <= 1024 ? SMALL[n] : BigInt(n);
  }
  return BigInt(text.slice(start, end));
}

/**
 * Lexes the number-like token at `pos` (a digit or `-`). Callers check for `->` first. Never
 * throws; anything that is not an integer comes back with its kind and extent for the error range.
 */
export function lexNumber(text: string, pos: number, end: number): LexedNumber {
  let i = pos;
  const negative = text.charCodeAt(i) === CH_MINUS;
  if (negative) i++;
  const digitsStart = i;
  i = digitsEnd(text, i, end);
  const digitsStop = i;
  const next = i < end ? text.charCodeAt(i) : 0;
  if (next === CH_DOT && (digitsStop > digitsStart || (i + 1 < end && isDigit(text.charCodeAt(i + 1))))) {
    const fracEnd = digitsEnd(text, i + 1, end);
    return { kind: 'decimal', end: exponentEnd(text, fracEnd, end), value: 0n, tooLarge: false };
  }
  if (digitsStop === digitsStart)
    return { kind: 'error', end: Math.max(i, pos + 1), value: 0n, tooLarge: false };
  const expEnd = exponentEnd(text, i, end);
  if (expEnd > i) return { kind: 'decimal', end: expEnd, value: 0n, tooLarge: false };
  if (!negative && next === CH_X && i + 1 < end && isDigit(text.charCodeAt(i + 1))) {
    let j = i;
    while (j + 1 < end && text.charCodeAt(j) === CH_X && isDigit(text.charCodeAt(j + 1)))
      j = digitsEnd(text, j + 1, end);
    return { kind: 'dxd', end: j, value: 0n, tooLarge: false };
  }
  if (next === CH_UNDERSCORE) {
    // Pad (`1_2`, `0_0x1_1`) and dim-label (`01_io->01`) patterns: take the whole run.
    let j = i + 1;
    while (j < end) {
      const c = text.charCodeAt(j);
      if (
        isDigit(c) ||
        isLetter(c) ||
        c === CH_UNDERSCORE ||
        c === CH_QUESTION_MARK ||
        c === CH_MINUS ||
        c === CH_GT
      )
        j++;
      else break;
    }
    return { kind: 'pad', end: j, value: 0n, tooLarge: false };
  }
  const magnitude = digitsValue(text, digitsStart, digitsStop);
  if (negative) {
    if (magnitude > TWO_63) return { kind: 'int', end: i, value: -magnitude, tooLarge: true };
    return { kind: 'int', end: i, value: -magnitude, tooLarge: false };
  }
  if (magnitude >= TWO_64) return { kind: 'int', end: i, value: magnitude, tooLarge: true };
  return {
    kind: 'int',
    end: i,
    value: magnitude >= TWO_63 ? magnitude - TWO_64 : magnitude,
    tooLarge: false,
  };
}

/** Whether a character after a digit run makes the token something other than an integer. */
function continuesNumber(c: number): boolean {
  return c === CH_DOT || c === CH_E_UPPER || c === CH_E_LOWER || c === CH_X || c === CH_UNDERSCORE;
}

/**
 * Fast path for the overwhelmingly common token: up to 15 digits, optionally after `-`, followed
 * by something that cannot extend it. Returns the end offset and stores the value in
 * `into.intValue`, or returns -1 when {@link lexNumber} must decide. Avoids allocating.
 */
export function lexSmallInt(text: string, pos: number, end: number, into: { intValue: bigint }): number {
  let i = pos;
  const negative = text.charCodeAt(i) === CH_MINUS;
  if (negative) i++;
  const start = i;
  let n = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
    i++;
  }
  if (i === start || i - start > 15 || (i < end && continuesNumber(text.charCodeAt(i)))) return -1;
  const value = n <= 1024 ? SMALL[n] : BigInt(n);
  into.intValue = negative ? -value : value;
  return i;
}
