/**
 * The statement splitter as first written, kept as a reference for the optimised one in
 * core/src/hlo/split-statements.ts: one pass that scans every character of every line for open
 * brackets, strings and comments before deciding whether the next line continues the statement.
 * The optimised splitter skips the scan when the next line plainly starts a statement; the two
 * must agree on every input (test/fuzz/split-reference.test.ts).
 */
import type { TextRange } from '../../core/src/diagnostics';

interface SplitOptions {
  readonly maxStatementLength?: number;
}

const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
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
  attrBrace: number;
  /** Depth of every `{`, to tell an opcode's `(` from a layout attribute's `T(`. */
  anyBrace: number;
  inBlockComment: boolean;
  /** Last character outside strings and comments that is not whitespace (0 when none yet). */
  last: number;
  /** Whether a `word(` appeared at depth 0, i.e. the statement already has its opcode or signature. */
  sawCall: boolean;
}

/**
 * Scans one line [pos, lineEnd) and updates `st`. The state lives in locals inside the loop and is
 * written back once: this loop sees every character of the file.
 */
function scanLine(text: string, pos: number, lineEnd: number, st: LineState): void {
  let { paren, bracket, attrBrace, anyBrace, last, sawCall, inBlockComment } = st;
  let i = pos;
  while (i < lineEnd) {
    const c = text.charCodeAt(i);
    if (inBlockComment) {
      if (c === STAR && i + 1 < lineEnd && text.charCodeAt(i + 1) === SLASH) {
        inBlockComment = false;
        i += 2;
      } else {
        i++;
      }
      continue;
    }
    // Identifier characters and digits are most of the text: one range test skips them.
    if (c > RBRACKET) {
      if (c === LBRACE) {
        if (attrBrace > 0 || last === EQUALS) attrBrace++;
        anyBrace++;
      } else if (c === RBRACE) {
        if (attrBrace > 0) attrBrace--;
        if (anyBrace > 0) anyBrace--;
      }
      last = c;
      i++;
      continue;
    }
    switch (c) {
      case SPACE:
      case TAB:
      case CR:
        break;
      case QUOTE: {
        // A string ends at its closing quote or, unterminated, at the end of the line.
        i++;
        while (i < lineEnd) {
          const d = text.charCodeAt(i);
          if (d === BACKSLASH) i++;
          else if (d === QUOTE) break;
          i++;
        }
        last = QUOTE;
        break;
      }
      case SLASH: {
        const n = i + 1 < lineEnd ? text.charCodeAt(i + 1) : 0;
        if (n === SLASH) {
          i = lineEnd; // line comment: the rest of the line is ignored
          continue;
        }
        if (n === STAR) {
          inBlockComment = true;
          i += 2;
          continue;
        }
        last = c;
        break;
      }
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
      default:
        last = c;
    }
    i++;
  }
  st.paren = paren;
  st.bracket = bracket;
  st.attrBrace = attrBrace;
  st.anyBrace = anyBrace;
  st.last = last;
  st.sawCall = sawCall;
  st.inBlockComment = inBlockComment;
}

function skipBlanks(text: string, pos: number, end: number): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c !== SPACE && c !== TAB && c !== CR) break;
    pos++;
  }
  return pos;
}

function lineEndOf(text: string, pos: number, end: number): number {
  const nl = text.indexOf('\n', pos);
  return nl < 0 || nl > end ? end : nl;
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

/** After `=`: does a shape start here (`(`, `b(`, or `type[`)? */
function startsShape(text: string, pos: number, end: number): boolean {
  if (pos >= end) return false;
  if (text.charCodeAt(pos) === LPAREN) return true;
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  if (i === pos || i >= end) return false;
  const c = text.charCodeAt(i);
  return c === LBRACKET || (c === LPAREN && i === pos + 1 && text.charCodeAt(pos) === 98); /* b */
}

/** `[ROOT] [%]name = <shape>` at the start of [pos, lineEnd)? */
function startsInstruction(text: string, pos: number, lineEnd: number): boolean {
  let i = skipBlanks(text, pos, lineEnd);
  let e = identifierEnd(text, i, lineEnd);
  if (e === i) return false;
  if (e - i === 4 && text.startsWith('ROOT', i)) {
    i = skipBlanks(text, e, lineEnd);
    e = identifierEnd(text, i, lineEnd);
    if (e === i) return false;
  }
  i = skipBlanks(text, e, lineEnd);
  if (i >= lineEnd || text.charCodeAt(i) !== EQUALS) return false;
  return startsShape(text, skipBlanks(text, i + 1, lineEnd), lineEnd);
}

/** Does the line [pos, lineEnd) plainly begin a new statement? */
function startsStatement(text: string, pos: number, lineEnd: number): boolean {
  const i = skipBlanks(text, pos, lineEnd);
  if (i >= lineEnd) return false;
  const c = text.charCodeAt(i);
  if (c === RBRACE)
    return (
      skipBlanks(text, i + 1, lineEnd) === lineEnd || text.startsWith('//', skipBlanks(text, i + 1, lineEnd))
    );
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
  const st: LineState = {
    paren: 0,
    bracket: 0,
    attrBrace: 0,
    anyBrace: 0,
    inBlockComment: false,
    last: 0,
    sawCall: false,
  };
  let pos = start;
  while (pos < end) {
    const stmtStart = pos;
    st.paren = st.bracket = st.attrBrace = st.anyBrace = st.last = 0;
    st.inBlockComment = false;
    st.sawCall = false;
    let stmtEnd: number;
    for (;;) {
      let lineEnd = lineEndOf(text, pos, end);
      if (lineEnd - stmtStart > cap) lineEnd = Math.max(pos, stmtStart + cap);
      scanLine(text, pos, lineEnd, st);
      const next = lineEnd < end && text.charCodeAt(lineEnd) === NL ? lineEnd + 1 : lineEnd;
      if (next >= end || lineEnd - stmtStart >= cap || next === lineEnd) {
        stmtEnd = lineEnd;
        pos = next;
        break;
      }
      const nextLineEnd = lineEndOf(text, next, end);
      const open = st.paren > 0 || st.bracket > 0 || st.attrBrace > 0;
      const continues =
        (st.inBlockComment ||
          open ||
          st.last === COMMA ||
          st.last === EQUALS ||
          (!st.sawCall && startsInstruction(text, stmtStart, lineEnd))) &&
        !startsStatement(text, next, nextLineEnd);
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
