/**
 * The tokens of a constant's literal as XLA's lexer (hlo_lexer.cc) cuts them: what a number, a
 * word or a punctuation mark is to it. `-.5` and `5.` are numbers, `.5`, `+1`, `0x10`, `NaN` and
 * `Inf` are not; `0xff` is the integer 0 followed by the word `xff`. Only what the literal reader
 * needs is told apart; every other token is `other`, which a literal never holds.
 */

export type LiteralTokenKind =
  | '{'
  | '}'
  | ','
  | '('
  | ')'
  | '...'
  | 'true'
  | 'false'
  | 'int'
  | 'decimal'
  | 'inf'
  | '-inf'
  | 'other'
  /** The statement ends before a token does: the literal is cut short, not XLA's to read here. */
  | 'end';

export interface LiteralToken {
  readonly kind: LiteralTokenKind;
  readonly start: number;
  readonly end: number;
}

// The lexer's patterns (LexNumberOrPattern), tried in its order; sticky, read at the token start.
const FLOAT = /-?(?:(?:\d+|\d+\.\d*|\d*\.\d+)[eE][+-]?\d+)|-?(?:\d+\.\d*|\d*\.\d+)/y;
const DIM_LABELS = /[0-9bf?]{2,}_[0-9io?]{2,}->[0-9bf?]{2,}/y;
const DXD = /[0-9]+(?:x[0-9]+)+/y;
const PAD = /-?[0-9]+_-?[0-9]+(?:_[0-9]+)?(?:x-?[0-9]+_-?[0-9]+(?:_[0-9]+)?)*/y;
const INT = /-?\d+/y;
const NAN_PAYLOAD = /\(0x([0-9a-fA-F]+)\)/y;
const IDENTIFIER_REST = /[a-zA-Z0-9_.-]*/y;

/** The integers the lexer reads: int64, and uint64 beyond it. */
const INT_MIN = -(1n << 63n);
const INT_MAX = (1n << 64n) - 1n;
/** The largest NaN payload a double carries. */
const NAN_PAYLOAD_MAX = (1n << 52n) - 1n;

function at(re: RegExp, text: string, pos: number, end: number): number {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m && pos + m[0].length <= end ? pos + m[0].length : -1;
}

/** After `nan` or `-nan` ending at `pos`: the end of its `(0x...)` payload, `pos` without one, -1 for a bad one. */
function nanEnd(text: string, pos: number, end: number): number {
  if (pos >= end || text.charCodeAt(pos) !== 40) return pos;
  NAN_PAYLOAD.lastIndex = pos;
  const m = NAN_PAYLOAD.exec(text);
  if (!m || pos + m[0].length > end) return -1;
  const payload = BigInt(`0x${m[1]}`);
  return payload > 0n && payload <= NAN_PAYLOAD_MAX ? pos + m[0].length : -1;
}

function token(kind: LiteralTokenKind, start: number, end: number): LiteralToken {
  return { kind, start, end };
}

/** Whether `c` may go on a number into a longer token: `.`, `e`, `E`, `_`, `x`, `b`, `f`, `?`, a digit. */
function continuesNumber(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    c === 46 ||
    c === 101 ||
    c === 69 ||
    c === 95 ||
    c === 120 ||
    c === 98 ||
    c === 102 ||
    c === 63
  );
}

/** A token starting with a digit or `-` (or `?`): a number, `-inf`, `-nan`, or a pattern no literal holds. */
function numberToken(text: string, pos: number, end: number): LiteralToken {
  // The usual case without a regular expression: digits that nothing longer continues, an int64.
  let d = text.charCodeAt(pos) === 45 ? pos + 1 : pos;
  const digits = d;
  while (d < end && text.charCodeAt(d) >= 48 && text.charCodeAt(d) <= 57) d++;
  if (d > digits && d - digits < 19 && (d >= end || !continuesNumber(text.charCodeAt(d))))
    return token('int', pos, d);
  let e = at(FLOAT, text, pos, end);
  if (e >= 0) return token('decimal', pos, e);
  // `1x2` (a window size), `1_2` (padding), dimension labels: tokens of their own.
  for (const pattern of [DIM_LABELS, DXD, PAD]) {
    e = at(pattern, text, pos, end);
    if (e >= 0) return token('other', pos, e);
  }
  e = at(INT, text, pos, end);
  if (e >= 0) {
    const value = BigInt(text.slice(pos, e));
    return token(value >= INT_MIN && value <= INT_MAX ? 'int' : 'other', pos, e);
  }
  if (text.startsWith('-inf', pos) && pos + 4 <= end) return token('-inf', pos, pos + 4);
  if (text.startsWith('-nan', pos) && pos + 4 <= end) {
    e = nanEnd(text, pos + 4, end);
    return e >= 0 ? token('decimal', pos, e) : token('other', pos, pos + 1);
  }
  return token('other', pos, pos + 1);
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function wordToken(text: string, pos: number, end: number): LiteralToken {
  IDENTIFIER_REST.lastIndex = pos + 1;
  const e = Math.min(end, pos + 1 + (IDENTIFIER_REST.exec(text)?.[0].length ?? 0));
  const next = e < end ? text.charCodeAt(e) : -1;
  // `name:` and `name=` are tokens of their own.
  if (next === 58 || next === 61) return token('other', pos, e);
  const word = text.slice(pos, e);
  if (word === 'true' || word === 'false' || word === 'inf') return token(word, pos, e);
  if (word === 'nan') {
    const n = nanEnd(text, e, end);
    return n >= 0 ? token('decimal', pos, n) : token('other', pos, e);
  }
  // Any other word (`NaN`, `Inf`, `f32`, a keyword) is no value.
  return token('other', pos, e);
}

/** The token at `pos` (trivia already skipped) of a literal in `text[.., end)`. */
export function literalToken(text: string, pos: number, end: number): LiteralToken {
  if (pos >= end) return token('end', pos, pos);
  const c = text.charCodeAt(pos);
  switch (c) {
    case 123:
      return token('{', pos, pos + 1);
    case 125:
      return token('}', pos, pos + 1);
    case 44:
      return token(',', pos, pos + 1);
    case 40:
      return token('(', pos, pos + 1);
    case 41:
      return token(')', pos, pos + 1);
    case 46:
      return text.startsWith('...', pos) && pos + 3 <= end
        ? token('...', pos, pos + 3)
        : token('other', pos, pos + 1);
    case 45:
    case 63:
      return numberToken(text, pos, end);
  }
  if (c >= 48 && c <= 57) return numberToken(text, pos, end);
  if (isWordStart(c)) return wordToken(text, pos, end);
  return token('other', pos, pos + 1);
}

/** The payload written in a `nan(0x...)` or `-nan(0x...)` token, or undefined (none, or another token). */
export function nanPayload(text: string, t: LiteralToken): bigint | undefined {
  if (t.kind !== 'decimal' || text.charCodeAt(t.end - 1) !== 41) return undefined;
  const open = text.lastIndexOf('(', t.end);
  return BigInt(`0x${text.slice(open + 3, t.end - 1)}`);
}

/** The value of a `decimal` or `int` token as XLA's parser reads it into a double (an integer past int64 wraps). */
export function tokenNumber(text: string, t: LiteralToken): number {
  const s = text.slice(t.start, t.end);
  if (t.kind === 'int') {
    const v = BigInt(s);
    return Number(v > (1n << 63n) - 1n ? v - (1n << 64n) : v);
  }
  if (s.endsWith(')') || s === 'nan' || s === '-nan') return NaN;
  return Number(s);
}
