/**
 * Small character-level helpers for reading HLO statements: trivia, names, strings and balanced
 * attribute values. All take an explicit `end` so a statement is never read past its range.
 */
import type { TextRange } from '../diagnostics';
import { lineCommentEnd, quotedEnd } from '../parse/chars';
import type { HloName } from './types';
import { isIdentifierChar, isIdentifierStart } from './split-statements';

/** The character code at `pos` of a statement ending at `end`, or -1 past it (the text may go on there). */
export function charAt(text: string, pos: number, end: number): number {
  return pos < end ? text.charCodeAt(pos) : -1;
}

/** Skips whitespace (line breaks included), `/* ... *\/` and `// ...` comments. */
export function skipTrivia(text: string, pos: number, end: number): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      pos++;
    } else if (c === 47 && pos + 1 < end && text.charCodeAt(pos + 1) === 42) {
      const close = text.indexOf('*/', pos + 2);
      pos = close < 0 || close + 2 > end ? end : close + 2;
    } else if (c === 47 && pos + 1 < end && text.charCodeAt(pos + 1) === 47) {
      pos = lineCommentEnd(text, pos, end);
    } else {
      break;
    }
  }
  return pos;
}

/** Reads `[%]identifier` at `pos`. Returns the name and the offset after it, or undefined. */
export function readName(text: string, pos: number, end: number): { name: HloName; end: number } | undefined {
  let i = pos;
  if (i < end && text.charCodeAt(i) === 37) i++;
  if (i >= end || !isIdentifierStart(text.charCodeAt(i))) return undefined;
  const start = i;
  i++;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  return { name: { name: text.slice(start, i), range: { start, end: i } }, end: i };
}

/**
 * The name a statement declares, read in place without parsing it: `[keyword] [%]name` at the start
 * of `range`, where `keyword` (`ROOT` for instructions, `ENTRY` for computation headers) may be absent.
 */
export function declaredName(text: string, range: TextRange, keyword: 'ROOT' | 'ENTRY'): HloName | undefined {
  const p = skipTrivia(text, range.start, range.end);
  const first = readName(text, p, range.end);
  if (first?.name.name !== keyword || text.charCodeAt(p) === 37) return first?.name;
  return readName(text, skipTrivia(text, first.end, range.end), range.end)?.name;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The code of the first character of `text[start, end)` that is not a blank, or -1. */
export function firstNonBlank(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) if (!isBlank(text.charCodeAt(i))) return text.charCodeAt(i);
  return -1;
}

/** `pos` moved back over blanks to the end of the text before it (not before `start`). */
export function trimmedEnd(text: string, start: number, pos: number): number {
  while (pos > start && /\s/.test(text[pos - 1] ?? '')) pos--;
  return pos;
}

/** The code of the last character of `text[start, end)` that is not a blank, or -1. */
export function lastNonBlank(text: string, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) if (!isBlank(text.charCodeAt(i))) return text.charCodeAt(i);
  return -1;
}

/**
 * The offset after the string whose opening quote (`"` or `'`) is at `pos`: after its closing
 * quote, or, unterminated, at its line end (see `quotedEnd`).
 */
export function skipString(text: string, pos: number, end: number): number {
  return quotedEnd(text, pos, end);
}

/** The contents of the string whose opening quote is at `pos`, with `\"`-style escapes undone. */
export function readString(text: string, pos: number, end: number): { value: string; end: number } {
  const close = skipString(text, pos, end);
  const quote = text.charCodeAt(pos);
  const raw = text.slice(
    pos + 1,
    close > pos + 1 && text.charCodeAt(close - 1) === quote ? close - 1 : close,
  );
  return { value: raw.includes('\\') ? raw.replace(/\\(.)/g, '$1') : raw, end: close };
}

/**
 * The offset after an attribute value starting at `pos`: a string, or text up to the next `,` or
 * `)`/`}` at depth 0 with `(` `[` `{` balanced and strings skipped (`window={size=3x3}`,
 * `backend_config={"a":{"b":1}}`, `kind=kLoop`), or up to a `;`, which no value holds there.
 */
export function skipValue(text: string, pos: number, end: number): number {
  let depth = 0;
  let i = pos;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      i = skipString(text, i, end);
      continue;
    }
    if (c === 47 && i + 1 < end && (text.charCodeAt(i + 1) === 47 || text.charCodeAt(i + 1) === 42)) {
      // A comment ends the value when the value ends after it (`mesh // c` then `['x'=8]` goes on).
      if (depth === 0 && endsValueAt(text, skipTrivia(text, i, end), end)) return trimEnd(text, pos, i);
      i = commentEnd(text, i, end);
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93 || c === 125) {
      if (depth === 0) return trimEnd(text, pos, i);
      depth--;
    } else if ((c === 44 || c === 59) && depth === 0) return trimEnd(text, pos, i);
    i++;
  }
  return trimEnd(text, pos, end);
}

/** Whether a value ends at `p`: at `end`, or at `,` or a closing bracket. */
function endsValueAt(text: string, p: number, end: number): boolean {
  const c = charAt(text, p, end);
  return c === -1 || c === 44 || c === 41 || c === 93 || c === 125;
}

function trimEnd(text: string, start: number, i: number): number {
  while (i > start) {
    const c = text.charCodeAt(i - 1);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i--;
  }
  return i;
}

/**
 * The offset after the bracket that closes the one at `open` (`(`, `[` or `{`), with strings
 * skipped; `end` when it is never closed.
 */
export function skipBalanced(text: string, open: number, end: number): number {
  let depth = 0;
  let i = open;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      i = skipString(text, i, end);
      continue;
    }
    if (c === 47 && i + 1 < end && (text.charCodeAt(i + 1) === 47 || text.charCodeAt(i + 1) === 42)) {
      i = commentEnd(text, i, end);
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if ((c === 41 || c === 93 || c === 125) && --depth === 0) return i + 1;
    i++;
  }
  return end;
}

/**
 * The end of the comment (`//` or `/*`) at `pos`: brackets inside it are no brackets to XLA's
 * lexer, which skips comments (`f(a, /*}index=5*\/b)` is one call). A `/*` never closed runs to `end`.
 */
function commentEnd(text: string, pos: number, end: number): number {
  if (text.charCodeAt(pos + 1) === 47) return lineCommentEnd(text, pos, end);
  const close = text.indexOf('*/', pos + 2);
  return close < 0 || close + 2 > end ? end : close + 2;
}
