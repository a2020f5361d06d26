/**
 * Splits HLO text into statements. A statement is normally one line; it continues on the next
 * line while a `(` or `[` (or an attribute value's `{`, as in `entry_computation_layout={(`) is
 * still open outside strings and comments, while the line ends with `,` or `=`, or while an
 * instruction has no opcode yet (`%x = (s32[2], s32[])` followed by `custom-call(...)` on the next
 * line, as XLA's own test files write it). A continuation never swallows a line that plainly
 * starts a new statement (`}`, `ROOT`, `ENTRY`, `HloModule`, `name = shape`, a header ending in
 * `{`), so one unbalanced bracket cannot eat the rest of the file.
 *
 * It runs over 1 GB dumps in the CLI and on every edit in the language server, so it allocates at
 * most one range per statement and, on the lines of a dump, reads little more than each line's first
 * characters: a line that plainly starts a statement ends the one before it, whatever that one
 * left open, so only the lines followed by something else are scanned for brackets.
 */
import type { TextRange } from '../diagnostics';
import { isIdentPart, isIdentStart } from '../parse/chars';

/** Statements longer than this are cut (the rest starts a new statement) instead of buffered forever. */
export const DEFAULT_MAX_STATEMENT_LENGTH = 64 * 1024 * 1024;

export interface SplitOptions {
  /** Cap on one statement's length in UTF-16 units; default {@link DEFAULT_MAX_STATEMENT_LENGTH}. */
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

/** `[A-Za-z0-9_.-]`: the characters of an HLO identifier after its first (a table lookup). */
export const isIdentifierChar = isIdentPart;

/** `[A-Za-z_]`: the first character of an HLO identifier (a table lookup). */
export const isIdentifierStart = isIdentStart;

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

/** Whether text[start, end) is exactly `word`. */
function isWord(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && text.startsWith(word, start);
}

/** Does the line [pos, lineEnd) plainly begin a new statement? (Allocates nothing: it runs once per line.) */
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
  if (isWord(text, i, e, 'ROOT') || isWord(text, i, e, 'ENTRY') || isWord(text, i, e, 'HloModule'))
    return true;
  const j = skipBlanks(text, e, lineEnd);
  const after = text.charCodeAt(j);
  // An instruction `name = shape ...` (what startsInstruction tests, the name already read).
  if (after === EQUALS) return startsShape(text, skipBlanks(text, j + 1, lineEnd), lineEnd);
  // A computation header `%name (...) -> shape {` or `name {`: a name, then `(` or `{`, and `{` at the end.
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
 * The first line start at or after `from` (itself a line start) whose line plainly starts a
 * statement, before `end`; -1 when there is none. Every statement split of text containing that
 * line begins a statement there, whatever precedes it, and the statements from there on are the
 * same as splitting from there: a place to cut a file into pieces that are checked apart.
 */
export function statementBoundaryAfter(text: string, from: number, end = text.length): number {
  for (let pos = from; pos < end;) {
    const lineEnd = lineEndOf(text, pos, end);
    if (lineEnd < end && startsStatement(text, pos, lineEnd)) return pos;
    pos = lineEnd + 1;
  }
  return -1;
}

/**
 * The last line start in (`from`, text.length) whose line is complete (ends in `\n`) and plainly
 * starts a statement, looking back at most `maxLines` lines; -1 when there is none. Text before it
 * holds only complete statements: a streaming reader can hand that part over without carrying
 * anything into its next read.
 */
export function lastStatementBoundary(text: string, from = 0, maxLines = 1000): number {
  let lineEnd = text.lastIndexOf('\n');
  for (let n = 0; lineEnd > from && n < maxLines; n++) {
    const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
    if (lineStart <= from) return -1;
    if (startsStatement(text, lineStart, lineEnd)) return lineStart;
    lineEnd = lineStart - 1;
  }
  return -1;
}

/**
 * The statements of `text` between `start` and `end` (default: all of it), in order. Ranges cover
 * whole lines without their final line break; blank lines are statements of their own. The last
 * statement ends at `end`: a streaming caller that cuts `end` at a line break must treat the last
 * statement as possibly incomplete and feed it again with the following text.
 */
export function splitStatements(
  text: string,
  start = 0,
  end = text.length,
  options: SplitOptions = {},
): TextRange[] {
  const out: TextRange[] = [];
  scanStatements(text, start, end, options, (s, e) => out.push({ start: s, end: e }));
  return out;
}

/**
 * The statements of {@link splitStatements} as two parallel arrays of start and end offsets: no
 * object per statement, for the language server, which keeps the bounds of every statement of a
 * document (hundreds of thousands in a large dump) for as long as it is open.
 */
export function statementBounds(
  text: string,
  start = 0,
  end = text.length,
  options: SplitOptions = {},
): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  scanStatements(text, start, end, options, (s, e) => {
    starts.push(s);
    ends.push(e);
  });
  return { starts, ends };
}

/** Calls `emit` with the start and end of each statement of `text[start, end)`, in order. */
function scanStatements(
  text: string,
  start: number,
  end: number,
  options: SplitOptions,
  emit: (start: number, end: number) => void,
): void {
  const cap = Math.max(1, options.maxStatementLength ?? DEFAULT_MAX_STATEMENT_LENGTH);
  start = Math.max(0, Math.min(start, text.length));
  end = Math.max(start, Math.min(end, text.length));
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
  // The end of the line starting at `pos`, carried over from the look at the next line.
  let lineEnd = lineEndOf(text, pos, end);
  while (pos < end) {
    const stmtStart = pos;
    st.paren = st.bracket = st.attrBrace = st.anyBrace = st.last = 0;
    st.inBlockComment = false;
    st.sawCall = false;
    let stmtEnd: number;
    for (;;) {
      if (lineEnd - stmtStart > cap) lineEnd = Math.max(pos, stmtStart + cap);
      const next = lineEnd < end && text.charCodeAt(lineEnd) === NL ? lineEnd + 1 : lineEnd;
      if (next >= end || lineEnd - stmtStart >= cap || next === lineEnd) {
        stmtEnd = lineEnd;
        pos = next;
        lineEnd = lineEndOf(text, pos, end);
        break;
      }
      const nextLineEnd = lineEndOf(text, next, end);
      // A line that plainly starts a statement is never a continuation, whatever is open before
      // it: that settles most lines of a dump without reading the current line's characters.
      // Otherwise the current line is scanned; the statement's earlier lines all were, as each
      // of them was continued.
      let continues = !startsStatement(text, next, nextLineEnd);
      if (continues) {
        scanLine(text, pos, lineEnd, st);
        const open = st.paren > 0 || st.bracket > 0 || st.attrBrace > 0;
        continues =
          st.inBlockComment ||
          open ||
          st.last === COMMA ||
          st.last === EQUALS ||
          (!st.sawCall && startsInstruction(text, stmtStart, lineEnd));
      }
      const thisLineEnd = lineEnd;
      pos = next;
      lineEnd = nextLineEnd;
      if (!continues) {
        stmtEnd = thisLineEnd;
        break;
      }
    }
    emit(stmtStart, stmtEnd);
  }
}
