/**
 * Names the token at a position the way XLA's `TokKindToString` does, for messages such as
 * `expected primitive type, saw kIdent`, and gives its extent for the diagnostic's range.
 */
import { primitiveType } from '../primitive-types';
import {
  CH_COLON,
  CH_EQUAL,
  CH_GT,
  CH_LT,
  CH_MINUS,
  CH_PERCENT,
  CH_QUOTE,
  CH_APOSTROPHE,
  identifierEnd,
  isDigit,
  isIdentStart,
  quotedEnd,
} from './chars';
import { lexNumber } from './numbers';

export interface TokenInfo {
  /** XLA's token kind name, e.g. `kIdent`, `kRparen`, `kEof`. */
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

// Maps, not object literals: looking up user text in an object finds inherited keys such as
// `constructor` or `__proto__` ("saw function Object() { [native code] }").
const SINGLE: ReadonlyMap<string, string> = new Map([
  ['=', 'kEqual'],
  [',', 'kComma'],
  [':', 'kColon'],
  ['*', 'kAsterisk'],
  ['#', 'kOctothorp'],
  ['+', 'kPlus'],
  ['~', 'kTilde'],
  ['[', 'kLsquare'],
  [']', 'kRsquare'],
  ['{', 'kLbrace'],
  ['}', 'kRbrace'],
  ['(', 'kLparen'],
  [')', 'kRparen'],
  ['?', 'kQuestionMark'],
]);

const KEYWORDS: ReadonlyMap<string, string> = new Map([
  ['true', 'kw_true'],
  ['false', 'kw_false'],
  ['inf', 'kw_inf'],
  ['nan', 'kw_nan'],
  ['ROOT', 'kw_ROOT'],
  ['ENTRY', 'kw_ENTRY'],
  ['HloModule', 'kw_HloModule'],
]);

const NUMBER_KINDS = { int: 'kInt', decimal: 'kDecimal', dxd: 'kDxD', pad: 'kPad', error: 'kError' } as const;

/** The token starting exactly at `pos` (trivia already skipped). */
export function tokenAt(text: string, pos: number, end: number): TokenInfo {
  if (pos >= end) return { kind: 'kEof', start: end, end };
  const c = text.charCodeAt(pos);
  if (isIdentStart(c)) {
    const e = identifierEnd(text, pos, end);
    const after = e < end ? text.charCodeAt(e) : 0;
    if (after === CH_COLON) return { kind: 'kName', start: pos, end: e };
    if (after === CH_EQUAL) return { kind: 'kAttributeName', start: pos, end: e };
    const word = text.slice(pos, e);
    if (primitiveType(word) !== undefined) return { kind: 'kPrimitiveType', start: pos, end: e };
    return { kind: KEYWORDS.get(word) ?? 'kIdent', start: pos, end: e };
  }
  if (c === CH_MINUS && pos + 1 < end && text.charCodeAt(pos + 1) === CH_GT)
    return { kind: 'kArrow', start: pos, end: pos + 2 };
  if (isDigit(c) || c === CH_MINUS) {
    const n = lexNumber(text, pos, end);
    return { kind: n.tooLarge ? 'kError' : NUMBER_KINDS[n.kind], start: pos, end: n.end };
  }
  if (c === CH_LT) {
    const leq = pos + 1 < end && text.charCodeAt(pos + 1) === CH_EQUAL;
    return { kind: leq ? 'kLeq' : 'kError', start: pos, end: pos + (leq ? 2 : 1) };
  }
  if (c === CH_QUOTE || c === CH_APOSTROPHE)
    return { kind: 'kString', start: pos, end: quotedEnd(text, pos, end) };
  if (c === CH_PERCENT && pos + 1 < end && isIdentStart(text.charCodeAt(pos + 1))) {
    return { kind: 'kName', start: pos, end: identifierEnd(text, pos + 1, end) };
  }
  if (text.startsWith('...', pos) && pos + 3 <= end) return { kind: 'kDots', start: pos, end: pos + 3 };
  const single = SINGLE.get(text[pos]);
  if (single !== undefined) return { kind: single, start: pos, end: pos + 1 };
  // Keep surrogate pairs together so a range never splits a character.
  const wide = c >= 0xd800 && c <= 0xdbff && pos + 1 < end;
  return { kind: 'kError', start: pos, end: pos + (wide ? 2 : 1) };
}
