/**
 * The statement splitter as first written, kept as a reference for the optimised one in
 * core/src/hlo/split-statements.ts: one pass that scans every character of every line for open
 * brackets, strings and comments before deciding whether the next line continues the statement.
 * Lines end at `\n`, `\r\n` or a lone `\r`; a string or `/* *\/` comment may run over line ends
 * (a string only when its closing quote ends a value: `,`, `}`, `)`, `]`, a blank or the end).
 * The optimised splitter skips the scan when the next line plainly starts a statement; the two
 * must agree on every input (test/fuzz/split-reference.test.ts).
 */
import type { TextRange } from '../../core/src/diagnostics';
import { primitiveType } from '../../core/src/primitive-types';

interface SplitOptions {
  readonly maxStatementLength?: number;
}

const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const APOSTROPHE = 39;
const BACKSLASH = 92;
const SLASH = 47;
const STAR = 42;
const LPAREN = 40;
const RPAREN = 41;
const LBRACKET = 91;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;
const COMMA = 44;
const EQUALS = 61;
const PERCENT = 37;
/** What `last` holds after a `->` (a signature's arrow, which a statement goes on after). */
const ARROW = 0x2192;

/** `[A-Za-z0-9_.-]`: the characters of an HLO identifier after its first. */
function isIdentifierChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45
  );
}

/** `[A-Za-z_]`: the first character of an HLO identifier. */
function isIdentifierStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** Scanner state carried from one line of a statement to the next. */
interface LineState {
  paren: number;
  bracket: number;
  /** Depth of `{` opened as an attribute value (right after `=`), and of braces nested in it. */
  anyBrace: number;
  attrBrace: number;
  /** Depth of `{` right after `]` (a layout, or a body brace after `-> shape`). */
  layoutBrace: number;
  /** Where the string or comment open at the end of the line ends (-1: none open). */
  openUntil: number;
  /** Last character outside strings and comments that is not whitespace (0 when none yet). */
  last: number;
  /** Whether a `word(` appeared at depth 0, i.e. the statement already has its opcode or signature. */
  sawCall: boolean;
}

function isLineBreakChar(c: number): boolean {
  return c === NL || c === CR;
}

/**
 * Where the string opening at `i` ends (after its closing quote), read character by character: on
 * its line, or on a later one when its closing quote ends a value; otherwise at its line end.
 */
function stringEnd(text: string, i: number, end: number): number {
  const quote = text.charCodeAt(i);
  let lineBreak = -1;
  for (let k = i + 1; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === BACKSLASH) {
      if (lineBreak < 0 && k + 1 < end && isLineBreakChar(text.charCodeAt(k + 1))) lineBreak = k + 1;
      k++;
      continue;
    }
    if (lineBreak < 0 && isLineBreakChar(c)) lineBreak = k;
    if (c === quote) {
      if (lineBreak < 0) return k + 1;
      const after = k + 1 < text.length ? text.charCodeAt(k + 1) : -1;
      const endsValue =
        after === -1 ||
        after <= 32 ||
        after === COMMA ||
        after === RBRACE ||
        after === RPAREN ||
        after === RBRACKET;
      return endsValue ? k + 1 : lineBreak;
    }
  }
  return lineBreak < 0 ? end : lineBreak;
}

/** Scans [pos, lineEnd) of a statement whose text ends at `end`, and updates `st`. */
function scanLine(text: string, pos: number, lineEnd: number, end: number, st: LineState): void {
  if (st.openUntil >= lineEnd) return; // the whole line is inside a string or comment
  let { paren, bracket, attrBrace, anyBrace, layoutBrace, last, sawCall } = st;
  let i = st.openUntil > pos ? st.openUntil : pos;
  st.openUntil = -1;
  while (i < lineEnd) {
    const c = text.charCodeAt(i);
    if (c === QUOTE || c === APOSTROPHE) {
      const close = stringEnd(text, i, end);
      last = QUOTE;
      if (close > lineEnd) {
        st.openUntil = close;
        break;
      }
      i = close;
      continue;
    }
    if (c === SLASH && i + 1 < lineEnd && text.charCodeAt(i + 1) === SLASH) break; // to the line end
    if (c === SLASH && i + 1 < lineEnd && text.charCodeAt(i + 1) === STAR) {
      let close = end;
      for (let k = i + 2; k + 1 < end; k++)
        if (text.charCodeAt(k) === STAR && text.charCodeAt(k + 1) === SLASH) {
          close = k + 2;
          break;
        }
      if (close > lineEnd) {
        st.openUntil = close;
        break;
      }
      i = close;
      continue;
    }
    switch (c) {
      case SPACE:
      case TAB:
      case CR:
        break;
      case LBRACE:
        if (
          attrBrace > 0 ||
          last === EQUALS ||
          /(^|[^A-Za-z0-9_.%-])-?[0-9][A-Za-z0-9_.-]*[ \t]*$/.test(text.slice(pos, i))
        )
          attrBrace++;
        else if (last === RBRACKET) layoutBrace++;
        anyBrace++;
        last = c;
        break;
      case RBRACE:
        if (attrBrace > 0) attrBrace--;
        else if (layoutBrace > 0) layoutBrace--;
        if (anyBrace > 0) anyBrace--;
        last = c;
        break;
      case LPAREN:
        if (
          paren === 0 &&
          bracket === 0 &&
          anyBrace === 0 &&
          i > pos &&
          isIdentifierChar(text.charCodeAt(i - 1))
        )
          sawCall = true;
        paren++;
        last = c;
        break;
      case RPAREN:
        if (paren > 0) paren--;
        last = c;
        break;
      case LBRACKET:
        bracket++;
        last = c;
        break;
      case RBRACKET:
        if (bracket > 0) bracket--;
        last = c;
        break;
      case 62: // `>`
        last = i > pos && text.charCodeAt(i - 1) === 45 ? ARROW : c;
        break;
      default:
        last = c;
    }
    i++;
  }
  Object.assign(st, { paren, bracket, attrBrace, anyBrace, layoutBrace, last, sawCall });
}

function skipBlanks(text: string, pos: number, end: number): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c !== SPACE && c !== TAB && c !== CR) break;
    pos++;
  }
  return pos;
}

/** The line's end: its `\n` (also of `\r\n`), a lone `\r`, or `end`. */
function lineEndOf(text: string, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === NL || (c === CR && text.charCodeAt(i + 1) !== NL)) return i;
  }
  return end;
}

/** Reads `[%]identifier` at `pos`; returns the end offset, or `pos` when there is none. */
function identifierEnd(text: string, pos: number, end: number): number {
  let i = pos;
  if (i < end && text.charCodeAt(i) === PERCENT) i++;
  if (i >= end || !isIdentifierStart(text.charCodeAt(i))) return pos;
  i++;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  return i;
}

/**
 * After `=`: does a shape start here (`(`, `b(` with blanks allowed before the `(`, `word[`, or an
 * element type or `b` ending the line, its `[` or `(` on the next)?
 */
function startsShape(text: string, pos: number, end: number): boolean {
  if (pos >= end) return false;
  if (text.charCodeAt(pos) === LPAREN) return true;
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  if (i === pos) return false;
  const rest = text.slice(i, end).trim();
  const buffer = i === pos + 1 && text.charCodeAt(pos) === 98; /* b */
  if (
    (rest === '' || rest.startsWith('//') || rest.startsWith('/*')) &&
    (buffer || primitiveType(text.slice(pos, i)))
  )
    return true;
  if (i >= end) return false;
  return text.charCodeAt(i) === LBRACKET || (buffer && rest.startsWith('('));
}

/** `[ROOT] [%]name = <shape>` at the start of [pos, lineEnd)? (Line breaks count as blanks.) */
function startsInstruction(text: string, pos: number, lineEnd: number): boolean {
  const skip = (at: number) => {
    while (at < lineEnd && text.charCodeAt(at) <= 32 && [SPACE, TAB, CR, NL].includes(text.charCodeAt(at)))
      at++;
    return at;
  };
  let i = skip(pos);
  let e = identifierEnd(text, i, lineEnd);
  if (e === i) return false;
  if (e - i === 4 && text.startsWith('ROOT', i)) {
    i = skip(e);
    e = identifierEnd(text, i, lineEnd);
    if (e === i) return false;
  }
  i = skip(e);
  if (i >= lineEnd || text.charCodeAt(i) !== EQUALS) return false;
  return startsShape(text, skip(i + 1), lineEnd);
}

/** Whether the line [pos, lineEnd) is a `}` alone, a comment after it allowed. */
function closeLine(text: string, pos: number, lineEnd: number): boolean {
  return /^[ \t\r]*\}[ \t\r]*(\/\/.*)?$/s.test(text.slice(pos, lineEnd));
}

/** Whether [start, lineEnd) is `[ROOT] [%]name` and nothing else but blanks and comments. */
function nameOnly(text: string, start: number, lineEnd: number): boolean {
  const rest = text
    .slice(start, lineEnd)
    .replace(/\/\*[\s\S]*?(\*\/|$)|\/\/[^\n\r]*/g, ' ')
    .trim();
  return /^(ROOT\s+)?%?[A-Za-z_][A-Za-z0-9_.-]*$/.test(rest) || rest === 'ROOT';
}

/** Does the line [pos, lineEnd) plainly begin a new statement? */
function startsStatement(text: string, pos: number, lineEnd: number): boolean {
  const i = skipBlanks(text, pos, lineEnd);
  if (i >= lineEnd) return false;
  const e = identifierEnd(text, i, lineEnd);
  if (e === i) return false;
  const word = text.slice(i, e);
  if (word === 'ROOT' || word === 'ENTRY' || word === 'HloModule') return true;
  if (startsInstruction(text, i, lineEnd)) return true;
  // A computation header `%name (...) -> shape {` or `name {`: a name, then `(` or `{`, and `{` at the end.
  const after = text.charCodeAt(skipBlanks(text, e, lineEnd));
  if (after !== LPAREN && after !== LBRACE) return false;
  let last = lineEnd - 1;
  while (
    last > e &&
    (text.charCodeAt(last) === SPACE || text.charCodeAt(last) === TAB || text.charCodeAt(last) === CR)
  )
    last--;
  return text.charCodeAt(last) === LBRACE;
}

/** The state a statement starts from. */
function freshLineState(): LineState {
  return {
    paren: 0,
    bracket: 0,
    attrBrace: 0,
    anyBrace: 0,
    layoutBrace: 0,
    openUntil: -1,
    last: 0,
    sawCall: false,
  };
}

/** Blanks, line breaks and comments, then what no statement starts with (`{`, `,`, brackets, quotes, `->`). */
const TRIVIA_THEN_NO_START =
  /^(?:[ \t\r\n]|\/\/[^\n\r]*(?![^\n\r])|\/\*(?:[^*]|\*(?!\/))*\*\/)*(?:[{,()[\]"']|->)/;

/** Whether the line starting at `lineStart` and those after it hold only blanks and comments, then what no statement starts with, before `end`. */
function continuedAfterTrivia(text: string, lineStart: number, end: number): boolean {
  return TRIVIA_THEN_NO_START.test(text.slice(lineStart, end));
}

/**
 * The statements of `text` between `start` and `end` (default: all of it), in order. Ranges cover
 * whole lines without their final line break; blank lines are statements of their own. The last
 * statement ends at `end`: a streaming caller that cuts `end` at a line break must treat the last
 * statement as possibly incomplete and feed it again with the following text.
 */
export function referenceSplitStatements(
  text: string,
  start = 0,
  end = text.length,
  options: SplitOptions = {},
): TextRange[] {
  const cap = Math.max(1, options.maxStatementLength ?? 64 * 1024 * 1024);
  start = Math.max(0, Math.min(start, text.length));
  end = Math.max(start, Math.min(end, text.length));
  const out: TextRange[] = [];
  const st = freshLineState();
  let pos = start;
  while (pos < end) {
    const stmtStart = pos;
    Object.assign(st, freshLineState());
    let stmtEnd: number;
    for (;;) {
      let lineEnd = lineEndOf(text, pos, end);
      if (lineEnd - stmtStart > cap) lineEnd = Math.max(pos, stmtStart + cap);
      scanLine(text, pos, lineEnd, end, st);
      const next = lineEnd < end && isLineBreakChar(text.charCodeAt(lineEnd)) ? lineEnd + 1 : lineEnd;
      if (next >= end || lineEnd - stmtStart >= cap || next === lineEnd) {
        stmtEnd = lineEnd;
        pos = next;
        break;
      }
      const nextLineEnd = lineEndOf(text, next, end);
      const first = text.charCodeAt(skipBlanks(text, next, nextLineEnd));
      const layoutNext =
        skipBlanks(text, next, nextLineEnd) < nextLineEnd &&
        ((first >= 48 && first <= 57) || first === 45 || first === 58);
      const open =
        st.paren > 0 ||
        st.bracket > 0 ||
        st.attrBrace > 0 ||
        (st.layoutBrace > 0 && (st.last !== LBRACE || layoutNext));
      // A line no statement starts with: `{`, `,`, `(`, `)`, `[`, `]`, `"`, `->`, and `=` after a name alone.
      const lead = text.slice(skipBlanks(text, next, nextLineEnd), nextLineEnd);
      const noStart =
        /^[{,()[\]"']/.test(lead) ||
        lead.startsWith('->') ||
        (lead.startsWith('=') && nameOnly(text, stmtStart, lineEnd)) ||
        ((lead === '' || lead.startsWith('/')) && continuedAfterTrivia(text, next, end));
      const continues =
        st.openUntil > lineEnd ||
        noStart ||
        (closeLine(text, next, nextLineEnd)
          ? st.attrBrace > 0 || (st.paren > 0 && st.anyBrace > st.layoutBrace)
          : (open ||
              st.last === COMMA ||
              st.last === EQUALS ||
              st.last === ARROW ||
              (!st.sawCall && startsInstruction(text, stmtStart, lineEnd))) &&
            !startsStatement(text, next, nextLineEnd));
      if (!continues) {
        stmtEnd = lineEnd;
        pos = next;
        break;
      }
      pos = next;
    }
    out.push({ start: stmtStart, end: stmtEnd });
  }
  return out;
}
