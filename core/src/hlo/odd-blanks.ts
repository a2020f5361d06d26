/**
 * Characters that look like blanks but are none to XLA: its lexer skips only spaces, tabs, line
 * breaks and comments between tokens, so a no-break space (U+00A0, what text copied from a web
 * page or a chat carries), a form feed or a vertical tab is an error token wherever it stands
 * outside a string, a comment or a braced backend_config (which XLA reads as raw text). XLA stops
 * on the character itself; what it says there depends on what it expected, which
 * {@link oddBlankError} tells from the statement read so far.
 */
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { sharedNextOccurrences } from '../parse/next-occurrence';
import { attributesOf } from './attribute-table';
import { isOpcode } from './opcodes';
import { charAt, readName, skipBalanced, skipString, skipTrivia } from './lex';
import { isIdentifierChar } from './split-statements';
import type { HloStatement } from './types';

/** Whether `c` is a character JavaScript counts as white space (or an invisible one) that XLA does not skip. */
function isOddBlank(c: number): boolean {
  if (c < 128) return c === 11 || c === 12;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200b) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The odd blanks people meet (pasted text), searched for natively by the fast paths. */
const COMMON = sharedNextOccurrences(['\u00a0', '\f', '\v']);

/**
 * Whether `text[start, end)` holds a no-break space, form feed or vertical tab: the fast paths that
 * skip the statement parser on plain instructions leave such statements to it. (A forward walk
 * through one text searches it once per character.) The rarer odd blanks are left to the parser
 * where the fast paths do not already stop at them: in the attributes of a plain instruction they go
 * unreported, by the CLI and the editor alike.
 */
export function mayHoldOddBlank(text: string, start: number, end: number): boolean {
  return (
    COMMON.find(text, 0, start) < end ||
    COMMON.find(text, 1, start) < end ||
    COMMON.find(text, 2, start) < end
  );
}

/** Whether the `{` at `brace` opens a backend_config value, which XLA reads as raw text up to its matching `}`. */
function backendConfigBrace(text: string, start: number, brace: number): boolean {
  let i = brace - 1;
  while (i >= start && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
  return i >= start && text.charCodeAt(i) === 61 && text.startsWith('backend_config', i - 14);
}

/** Offset of the first odd blank of `text[start, end)` outside strings, comments and braced backend_configs; -1. */
export function firstOddBlank(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && !isOddBlank(text.charCodeAt(i))) i++;
  if (i >= end) return -1;
  for (let p = start; p < end;) {
    const c = text.charCodeAt(p);
    if (c === 34 || c === 39) p = skipString(text, p, end);
    else if (c === 47) p = Math.max(p + 1, skipTrivia(text, p, end));
    else if (c === 123 && backendConfigBrace(text, start, p)) p = skipBalanced(text, p, end);
    else if (isOddBlank(c)) return p;
    else p++;
  }
  return -1;
}

const NAMES = new Map<number, string>([
  [0xa0, 'a no-break space (U+00A0)'],
  [12, 'a form feed'],
  [11, 'a vertical tab'],
  [0x3000, 'an ideographic space (U+3000)'],
  [0x200b, 'a zero-width space (U+200B)'],
  [0xfeff, 'a zero-width no-break space (U+FEFF)'],
]);

function blankName(c: number): string {
  return NAMES.get(c) ?? `the space-like character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether `c` is skipped while looking for the tokens around an odd blank. */
function around(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || isOddBlank(c);
}

/** The identifier ending at `stop` (exclusive), or ''. */
function wordBefore(text: string, start: number, stop: number): string {
  let i = stop;
  while (i > start && isIdentifierChar(text.charCodeAt(i - 1))) i--;
  return text.slice(i, stop);
}

/**
 * XLA's message at the odd blank `q` of `statement` (everything before it read cleanly), by what XLA
 * expects there: a name, `=`, an opcode, `(`, an operand, an attribute name...
 */
function xlaMessage(text: string, statement: HloStatement, q: number): string {
  const { start, end } = statement.range;
  let a = q;
  while (a < end && around(text.charCodeAt(a))) a++;
  // At the end of a statement XLA expects the next one's name.
  if (skipTrivia(text, a, end) >= end) return 'expects name';
  let p = q - 1;
  while (p >= start && around(text.charCodeAt(p))) p--;
  if (p < skipTrivia(text, start, end)) return 'expects name';
  const prev = text.charCodeAt(p);
  const word = wordBefore(text, start, p + 1);
  const first = skipTrivia(text, start, end);
  if (first + word.length === p + 1 && (word === 'ROOT' || word === 'ENTRY' || word === 'HloModule'))
    return 'expects name';
  switch (statement.kind) {
    case 'instruction': {
      const op = statement.opcode;
      if (!op && isOpcode(word) && charAt(text, a, end) === 40) {
        if (word === 'parameter') return "expects '(' before parameter number";
        if (word === 'constant') return "expects '(' before constant literal";
        return "expects '(' at the beginning of operands";
      }
      if (!op || q < op.range.start) return 'expects opcode';
      const open = skipTrivia(text, op.range.end, end);
      if (q < open) return "expects '(' at the beginning of operands";
      if (q < skipBalanced(text, open, end)) {
        const closing = charAt(text, a, end) === 41;
        if (op.name === 'parameter')
          return closing && prev !== 40 ? "expects ')' after parameter number" : 'expects integer';
        if (op.name === 'constant')
          return closing && prev !== 40
            ? "expects ')' after constant literal"
            : 'unexpected token type in a literal';
        return 'cannot parse as an instruction name or as a nested instruction';
      }
      if (prev === 44 || (prev === 123 && attributeListBrace(text, start, p)))
        return 'expects attribute name';
      if (prev === 61) return valueExpected(text, a, end, wordBefore(text, start, p));
      const m = statement.metadata?.range;
      if (m && q > m.start && q < m.end) return 'expects attribute name';
      // After the operands or a whole attribute the list ends: XLA then wants the attributes it
      // requires, and the next instruction's name.
      if (prev === 41 || prev === 125 || isIdentifierChar(prev) || prev === 34) {
        const seen = new Set(
          statement.attributes.filter((at) => at.key.range.start < q).map((at) => at.key.name),
        );
        const missing = attributesOf(op.name).find((at) => at.required && !seen.has(at.name));
        return missing ? `attribute ${missing.name} is expected but not seen` : 'expects name';
      }
      break;
    }
    case 'computation':
      if (prev === 40 || prev === 44) return 'expects name';
      if (prev === 58 || (prev === 62 && text.charCodeAt(p - 1) === 45))
        return 'expected primitive type, saw kError';
      if (prev === 41 && charAt(text, a, end) !== 123) return "expects '->'";
      if (charAt(text, a, end) === 123) return "expects '{' at the beginning of instruction list.";
      break;
    case 'module':
      if (prev === 44) return 'expects attribute name';
      if (prev === 61) return valueExpected(text, a, end, wordBefore(text, start, p));
      return 'expects name';
    case 'unknown':
      // `[ROOT] %name` and then the odd blank, where XLA expects the `=`.
      if (readName(text, p - word.length + 1, end)?.end === p + 1) return "expects '=' in instruction";
  }
  return 'expects a token here, and this character is none';
}

/**
 * Where the operand holding the odd blank at `q` starts: XLA reports an operand it cannot read at
 * its start (`%a` of `add(%a<NBSP>, %b)`), after the `(` or `,` before it.
 */
function operandStart(text: string, start: number, q: number): number {
  let depth = 0;
  let i = q - 1;
  for (; i >= start; i--) {
    const c = text.charCodeAt(i);
    if (c === 41 || c === 93 || c === 125) depth++;
    else if (c === 91 || c === 123 || (c === 40 && depth > 0)) depth--;
    else if (depth === 0 && (c === 40 || c === 44)) break;
  }
  let at = i + 1;
  while (at < q && around(text.charCodeAt(at))) at++;
  return at;
}

/** What XLA expects after `key=` when the value, starting at `a`, is not there yet. */
function valueExpected(text: string, a: number, end: number, key: string): string {
  const c = charAt(text, a, end);
  if (c === 34) return 'expects string';
  if ((c >= 48 && c <= 57) || c === 45) return 'expects integer';
  if (c === 123 && (key === 'metadata' || key === 'frontend_attributes'))
    return "expects '{' to start sub attributes";
  return 'expects a token here, and this character is none';
}

/**
 * Whether the odd blank at `q` (the text around it `text[p]` and `text[a]`) stands between an
 * attribute's key and its `=` after the operands or in metadata: XLA then reports the key (an
 * attribute name is one token with its `=`), as it does a blank there.
 */
function keyBeforeEquals(text: string, statement: HloStatement, p: number, a: number): number {
  if (charAt(text, a, statement.range.end) !== 61 || !isIdentifierChar(text.charCodeAt(p))) return -1;
  if (statement.kind === 'instruction') {
    const op = statement.opcode;
    if (
      !op ||
      p < skipBalanced(text, skipTrivia(text, op.range.end, statement.range.end), statement.range.end)
    )
      return -1;
  } else if (statement.kind !== 'module') return -1;
  let i = p;
  while (i > statement.range.start && isIdentifierChar(text.charCodeAt(i - 1))) i--;
  return i;
}

/** Whether the `{` at `brace` opens a value XLA reads as `key=value` pairs (metadata, frontend_attributes). */
function attributeListBrace(text: string, start: number, brace: number): boolean {
  const key = wordBefore(text, start, brace - 1);
  return text.charCodeAt(brace - 1) === 61 && (key === 'metadata' || key === 'frontend_attributes');
}

/**
 * The error on the odd blank at `q` of `statement`: at the character, XLA's message for what it
 * expected there, and plain words on what the character is and what to write instead.
 */
export function oddBlankError(text: string, statement: HloStatement, q: number): LayoutDiagnostic {
  const c = text.charCodeAt(q);
  const { start, end } = statement.range;
  let a = q;
  while (a < end && around(text.charCodeAt(a))) a++;
  let p = q - 1;
  while (p >= start && around(text.charCodeAt(p))) p--;
  const key = p >= start ? keyBeforeEquals(text, statement, p, a) : -1;
  const message = key >= 0 ? 'expects attribute name' : xlaMessage(text, statement, q);
  const at =
    key >= 0
      ? key
      : message.startsWith('cannot parse as an instruction name')
        ? operandStart(text, start, q)
        : q;
  return diagnostic(
    'invalid-character',
    message,
    { start: at, end: Math.max(q + 1, at + 1) },
    `${blankName(c)} here is no blank to XLA: between tokens its lexer skips only spaces, tabs and line breaks (text copied from a web page or a chat often carries such characters); replace it with a space`,
  );
}
