/**
 * What XLA's parser says about text a statement's reading leaves over: the statement splitter
 * continues a statement with a line that no statement starts with (`, metadata=...`, `)`, `(`),
 * since XLA reads a line break as a blank, so what the statement parser cannot read there is an
 * error where XLA puts it, as it is on the same line.
 */
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { isDigit } from '../parse/chars';
import { charAt, readName, skipString, skipTrivia } from './lex';
import { isIdentifierStart } from './split-statements';

/**
 * The error of a statement that starts with a character no statement starts with (`@ROOT ...`, a
 * byte-order mark): XLA's parser expects a name there. A word or a number may start a line of the
 * source tables at the top of a dump (`FileNames`, `1 "f.py"`, `-1 {...}`), so only other characters
 * count.
 */
export function strayStart(text: string, p: number, end: number): LayoutDiagnostic[] {
  const c = text.charCodeAt(p);
  if (isIdentifierStart(c) || isDigit(c) || (c === 45 && isDigit(charAt(text, p + 1, end))) || c === 37)
    return [];
  const range = { start: p, end: p + (c >= 0xd800 && c <= 0xdbff && p + 1 < end ? 2 : 1) };
  const words =
    c === 0xfeff
      ? p === 0
        ? 'the file starts with a byte-order mark (U+FEFF), which XLA does not read: save it without one'
        : 'an invisible U+FEFF (zero-width no-break space) cannot start a statement: delete it'
      : `\`${text.slice(range.start, range.end)}\` cannot start a statement: an instruction starts with its name, a computation with its name or ENTRY`;
  return [diagnostic('invalid-name', 'expects name', range, words)];
}

/**
 * The error at `pos`, where the reading of a statement ending at `end` stopped (trivia skipped),
 * or none: after a `,` that follows `key=value` pairs (`attributes`) XLA expects an attribute
 * `name=`; a character no statement starts with is no name (see {@link strayStart}). A `}` (closing
 * the computation), a name or a number may start what XLA reads next, and is left to the
 * statements that read it.
 */
export function leftoverAt(text: string, pos: number, end: number, attributes = true): LayoutDiagnostic[] {
  const p = skipTrivia(text, pos, end);
  if (p >= end) return [];
  const c = text.charCodeAt(p);
  if (c === 125) return [];
  if (c !== 44 || !attributes) return strayStart(text, p, end);
  const at = skipTrivia(text, p + 1, end);
  const key = readName(text, at, end);
  const range = at >= end ? { start: p, end: p + 1 } : { start: at, end: key ? key.end : at + 1 };
  return [
    key && charAt(text, skipTrivia(text, key.end, end), end) === 61
      ? blankBeforeEquals(text, at, key.end)
      : diagnostic(
          'invalid-name',
          'expects attribute name',
          range,
          'expected an attribute `name=value` after the comma, the `=` right after the name',
        ),
  ];
}

/**
 * XLA's error on the attribute name `text[start, nameEnd)` with blanks or a comment before its
 * `=`: its lexer reads an attribute name only together with the `=` (`dimensions=`).
 */
export function blankBeforeEquals(text: string, start: number, nameEnd: number): LayoutDiagnostic {
  return diagnostic(
    'invalid-name',
    'expects attribute name',
    { start, end: nameEnd },
    spacedWords(text, start, nameEnd),
  );
}

/** Plain words on the key `text[start, nameEnd)` with a blank or comment before its `=`. */
export function spacedWords(text: string, start: number, nameEnd: number): string {
  const name = text.slice(start, nameEnd);
  return `XLA reads an attribute's name only with its \`=\` right after it: write \`${name}=\`, without the blank or comment before the \`=\``;
}

/**
 * The first error in a source-table entry `id {key=value key=value ...}` (FileLocations,
 * StackFrames) at `p`, where the statement starts with its id: each key is one token with its `=`
 * to XLA's lexer, as in an attribute list, whether the entry is on one line or wrapped over
 * several. Other statements starting with a number (FileNames' `1 "a.py"`) are not read here.
 */
export function tableEntryErrors(text: string, p: number, end: number): LayoutDiagnostic[] {
  let i = charAt(text, p, end) === 45 ? p + 1 : p;
  if (!isDigit(charAt(text, i, end))) return [];
  while (isDigit(charAt(text, i, end))) i++;
  i = skipTrivia(text, i, end);
  if (charAt(text, i, end) !== 123) return [];
  i = skipTrivia(text, i + 1, end);
  while (i < end && charAt(text, i, end) !== 125) {
    const key = readName(text, i, end);
    if (!key || charAt(text, key.end, end) !== 61)
      return [
        diagnostic(
          'invalid-name',
          'expects attribute name',
          { start: i, end: key ? key.end : i + 1 },
          'expected `name=value`, the `=` right after the name',
        ),
      ];
    i = skipTrivia(text, key.end + 1, end);
    if (charAt(text, i, end) === 34) i = skipString(text, i, end);
    else while (i < end && !/[\s}/]/.test(text[i])) i++;
    i = skipTrivia(text, i, end);
  }
  return [];
}
