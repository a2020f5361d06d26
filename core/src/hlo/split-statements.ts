/**
 * Splits HLO text into statements. A statement is normally one line (lines end at `\n`, `\r\n` or
 * a lone `\r`, as in XLA's lexer); it continues on the next line while a `(` or `[` (or an
 * attribute value's `{`, as in `entry_computation_layout={(`) is still open outside strings and
 * comments, while the line ends with `,`, `=` or a signature's `->`, while an instruction has no
 * opcode yet (`%x = (s32[2], s32[])` followed by `custom-call(...)` on the next line, as XLA's own
 * test files write it), and always while a string or a `/* ... *\/` comment runs over the line end.
 * XLA reads a line break as a blank, so a line that no statement can start with continues the one
 * before, whatever that left open: one opening with `{` (a computation's body brace on a line of
 * its own), `->`, `,` (leading-comma style), `(` or `[` (a header's parameters or result shape
 * broken from its name or element type), `)` or `]` (closing a literal), or a quote (a source
 * table's file name under its id); one opening with `=` continues a statement that is only a name so far
 * (`%a` above `= f32[2] parameter(0)`). Otherwise a continuation never swallows a line that plainly
 * starts a new statement (`ROOT`, `ENTRY`, `HloModule`, `name = shape`, a header ending in `{`), so
 * one unbalanced bracket cannot eat the rest of the file. A `}` alone on its line ends a
 * computation, unless an attribute value's `{`, or a literal's inside an open `(`, is still open
 * before it: then it closes that (`metadata={...` with its `}` on the next line, as XLA reads it). A `{` after a
 * number opens a value as after `=` (a source-table entry, `1 {file_name_id=1 ...}`).
 *
 * Every line these rules continue is an error to XLA after a complete statement, and the statement
 * parser reports what it cannot read after one (`)` or `, ,` left over), so the errors stay where
 * XLA puts them. A blank or comment line is a statement of its own unless a line that no statement
 * starts with follows it (after more blank and comment lines or none): a continuation looks one
 * line ahead, no further, which is what lets an editor re-split from the statement before an edit;
 * only such a line after blank and comment lines is looked for past them (a header, a blank or
 * comment line, then its body `{`, which XLA reads as one header), and the callers that re-split
 * step back over blank and comment statements for it.
 *
 * It runs over 1 GB dumps in the CLI and on every edit in the language server, so it allocates at
 * most one range per statement and, on the lines of a dump, reads little more than each line's first
 * characters: a line that plainly starts a statement ends the one before it, whatever that one
 * left open, so only the lines followed by something else (or by a `}` alone, a computation's end)
 * are scanned for brackets.
 */
import type { TextRange } from '../diagnostics';
import { isIdentPart, isIdentStart, lineCommentEnd, quotedEnd } from '../parse/chars';
import { typeAt } from '../parse/type-names';
import { crossingEnd, CUT_STRING, lineEndOf, nextLineStart, UNCLOSED_STRING } from '../parse/lexical-lines';

/** Statements longer than this are cut (the rest starts a new statement) instead of buffered forever. */
export const DEFAULT_MAX_STATEMENT_LENGTH = 64 * 1024 * 1024;

export interface SplitOptions {
  /** Cap on one statement's length in UTF-16 units; default {@link DEFAULT_MAX_STATEMENT_LENGTH}. */
  readonly maxStatementLength?: number;
  /**
   * Receives where the first statement starts that may read differently once text after `end`
   * is known: one ending with the text inside a block comment, or holding a string that nothing
   * before `end` closes. -1 when there is none. A streaming caller carries the text from there.
   * `strayFrom` receives where the first statement starts that holds a string cut at its line end
   * (a quote with no closing quote on its line, see `quotedEnd`), or -1: an editor re-splits from
   * there when a quote is typed below it, which may close that string.
   */
  readonly endState?: { openFrom: number; strayFrom?: number };
}

const CR = 13;
const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const APOSTROPHE = 39;
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
const MINUS = 45;
const GREATER = 62;
/** What `LineState.last` holds after a `->` (a character code no HLO syntax uses). */
const ARROW = 0x2192;

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
  /** Depth of `{` right after `]`: a layout, or a computation's body brace after `-> shape`. */
  layoutBrace: number;
  /** Last character outside strings and comments that is not whitespace (0 when none yet). */
  last: number;
  /** Whether a `word(` appeared at depth 0, i.e. the statement already has its opcode or signature. */
  sawCall: boolean;
}

/**
 * Scans one line [pos, lineEnd) and updates `st`; `pos` is never inside a string or comment (a line
 * that starts inside one is scanned from where it ends). A string or comment still open at the line
 * end is skipped to it (crossingEnd says whether it goes on). The state lives in locals inside the
 * loop and is written back once: this loop sees every character of the lines it scans.
 */
function scanLine(text: string, pos: number, lineEnd: number, st: LineState): void {
  let { paren, bracket, attrBrace, anyBrace, layoutBrace, last, sawCall } = st;
  let i = pos;
  while (i < lineEnd) {
    const c = text.charCodeAt(i);
    // Identifier characters and digits are most of the text: one range test skips them.
    if (c > RBRACKET) {
      if (c === LBRACE) {
        if (attrBrace > 0 || last === EQUALS || (last <= 57 && last >= 48 && afterNumber(text, pos, i)))
          attrBrace++;
        else if (last === RBRACKET) layoutBrace++;
        anyBrace++;
      } else if (c === RBRACE) {
        if (attrBrace > 0) attrBrace--;
        else if (layoutBrace > 0) layoutBrace--;
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
      case QUOTE:
      case APOSTROPHE:
        i = quotedEnd(text, i, lineEnd);
        last = QUOTE;
        continue;
      case SLASH: {
        const n = i + 1 < lineEnd ? text.charCodeAt(i + 1) : 0;
        if (n === SLASH) {
          i = lineCommentEnd(text, i, lineEnd);
          continue;
        }
        if (n === STAR) {
          const close = text.indexOf('*/', i + 2);
          i = close < 0 || close + 2 > lineEnd ? lineEnd : close + 2;
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
      case GREATER:
        last = i > pos && text.charCodeAt(i - 1) === MINUS ? ARROW : c;
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
  st.layoutBrace = layoutBrace;
  st.last = last;
  st.sawCall = sawCall;
}

/**
 * Whether the `{` at `brace` follows a number (`1 {` opening a source-table entry), not a name
 * ending in a digit (`%e.1 {`): the word before it, blanks skipped, starts with a digit or `-`.
 */
function afterNumber(text: string, pos: number, brace: number): boolean {
  let i = brace - 1;
  while (i > pos && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i--;
  while (i > pos && isIdentifierChar(text.charCodeAt(i - 1))) i--;
  const c = text.charCodeAt(i);
  return (c >= 48 && c <= 57) || c === MINUS;
}

function skipBlanks(text: string, pos: number, end: number): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c !== SPACE && c !== TAB && c !== CR) break;
    pos++;
  }
  return pos;
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
 * After `=`: does a shape start here (`(`, `b(`, `word[`, or an element type or `b` that the line
 * ends after, its `[` or `(` on the next line)?
 */
function startsShape(text: string, pos: number, end: number): boolean {
  if (pos >= end) return false;
  if (text.charCodeAt(pos) === LPAREN) return true;
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  if (i === pos) return false;
  const j = skipSpace(text, i, end);
  // `b` opens a buffer shape when `(` follows it, after blanks and comments too (XLA skips them).
  const buffer = i === pos + 1 && text.charCodeAt(pos) === 98;
  if (
    (j >= end || text.startsWith('//', j) || text.startsWith('/*', j)) &&
    (buffer || typeAt(text, pos, i) !== undefined)
  )
    return true;
  if (i >= end) return false;
  return text.charCodeAt(i) === LBRACKET || (buffer && j < end && text.charCodeAt(j) === LPAREN);
}

/** `[ROOT] [%]name = <shape>` at the start of [pos, lineEnd)? (The statement's lines so far: blanks include line breaks.) */
function startsInstruction(text: string, pos: number, lineEnd: number): boolean {
  let i = skipSpace(text, pos, lineEnd);
  let e = identifierEnd(text, i, lineEnd);
  if (e === i) return false;
  if (e - i === 4 && text.startsWith('ROOT', i)) {
    i = skipSpace(text, e, lineEnd);
    e = identifierEnd(text, i, lineEnd);
    if (e === i) return false;
  }
  i = skipSpace(text, e, lineEnd);
  if (i >= lineEnd || text.charCodeAt(i) !== EQUALS) return false;
  return startsShape(text, skipSpace(text, i + 1, lineEnd), lineEnd);
}

/** {@link skipBlanks}, line breaks included. */
function skipSpace(text: string, pos: number, end: number): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c !== SPACE && c !== TAB && c !== CR && c !== 10) break;
    pos++;
  }
  return pos;
}

/** Whether text[start, end) is exactly `word`. */
function isWord(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && text.startsWith(word, start);
}

/** Whether the line [pos, lineEnd) is a `}` alone (a comment may follow it). */
function closeLine(text: string, pos: number, lineEnd: number): boolean {
  const i = skipBlanks(text, pos, lineEnd);
  if (i >= lineEnd || text.charCodeAt(i) !== RBRACE) return false;
  const j = skipBlanks(text, i + 1, lineEnd);
  return j === lineEnd || text.startsWith('//', j);
}

/**
 * Does the line [pos, lineEnd) plainly begin a new statement, whatever is open before it?
 * (Allocates nothing: it runs once per line.) A `}` alone is not plainly one: see {@link closeLine}.
 */
function startsStatement(text: string, pos: number, lineEnd: number): boolean {
  const i = skipBlanks(text, pos, lineEnd);
  if (i >= lineEnd) return false;
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
    pos = nextLineStart(text, lineEnd, end);
    if (pos === lineEnd) break;
  }
  return -1;
}

/**
 * The last line start in (`from`, text.length) whose line is complete (ends in a line break) and
 * plainly starts a statement, looking back at most `maxLines` lines; -1 when there is none. Text
 * before it holds only complete statements (unless a string or comment runs over that line, which
 * a streaming reader learns from the split's `endState`): a streaming reader can hand that part
 * over without carrying anything into its next read.
 */
export function lastStatementBoundary(text: string, from = 0, maxLines = 1000): number {
  // Carriage returns are rare: without one, native searches for `\n` find every line.
  const returns = text.indexOf('\r', from) >= 0;
  const lineStartBefore = (at: number): number => {
    if (!returns) return text.lastIndexOf('\n', at - 1) + 1;
    let i = at - 1;
    while (
      i >= 0 &&
      text.charCodeAt(i) !== 10 &&
      !(text.charCodeAt(i) === CR && text.charCodeAt(i + 1) !== 10)
    )
      i--;
    return i + 1;
  };
  // The last line break: a `\r` at the very end may be the first half of `\r\n`, so it ends nothing yet.
  let lineEnd = text.length - 1;
  while (
    lineEnd >= 0 &&
    text.charCodeAt(lineEnd) !== 10 &&
    !(returns && text.charCodeAt(lineEnd) === CR && lineEnd + 1 < text.length)
  )
    lineEnd--;
  for (let n = 0; lineEnd > from && n < maxLines; n++) {
    const lineStart = lineStartBefore(lineEnd);
    if (lineStart <= from) return -1;
    if (startsStatement(text, lineStart, lineEnd)) return lineStart;
    lineEnd = lineStart - 1;
    if (returns && text.charCodeAt(lineEnd) === 10 && text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
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
    layoutBrace: 0,
    last: 0,
    sawCall: false,
  };
  let pos = start;
  // The end of the line starting at `pos`, carried over from the look at the next line.
  let lineEnd = lineEndOf(text, pos, end);
  let openFrom = -1;
  let strayFrom = -1;
  const memo: TriviaRun = { start: -1, end: -1, continued: false };
  while (pos < end) {
    const stmtStart = pos;
    st.paren = st.bracket = st.attrBrace = st.anyBrace = st.layoutBrace = st.last = 0;
    st.sawCall = false;
    // Where the string or comment open at the end of the statement's previous line ends.
    let resume = -1;
    let stmtEnd: number;
    for (;;) {
      if (lineEnd - stmtStart > cap) lineEnd = Math.max(pos, stmtStart + cap);
      const from = Math.max(pos, resume);
      // A string or comment running over this line's end: the next line continues it.
      resume = from < lineEnd ? crossingEnd(text, from, lineEnd, end) : resume > lineEnd ? resume : -1;
      if (resume === UNCLOSED_STRING || resume === CUT_STRING) {
        if (resume === UNCLOSED_STRING && openFrom < 0) openFrom = stmtStart;
        if (strayFrom < 0) strayFrom = stmtStart;
        resume = -1;
      }
      const next = nextLineStart(text, lineEnd, end);
      if (next >= end || lineEnd - stmtStart >= cap || next === lineEnd) {
        if (resume === end && resume > lineEnd && openFrom < 0) openFrom = stmtStart;
        stmtEnd = lineEnd;
        pos = next;
        lineEnd = lineEndOf(text, pos, end);
        break;
      }
      const nextLineEnd = lineEndOf(text, next, end);
      // A line that plainly starts a statement is never a continuation, whatever is open before
      // it (but a string or comment): that settles most lines of a dump without reading the
      // current line's characters beyond its strings. Otherwise the current line is scanned; the
      // statement's earlier lines all were, as each of them was continued.
      const first = firstNonBlank(text, next, nextLineEnd);
      let continues =
        resume > lineEnd ||
        first === LBRACE ||
        first === COMMA ||
        first === LPAREN ||
        first === RPAREN ||
        first === LBRACKET ||
        first === RBRACKET ||
        first === QUOTE ||
        first === APOSTROPHE ||
        (first === EQUALS && nameOnly(text, stmtStart, lineEnd)) ||
        arrowAhead(text, next, nextLineEnd) ||
        ((first === -1 || first === SLASH) && continuedAfterTrivia(text, next, end, memo));
      if (continues) {
        // Brackets still count on a line continued for its string or comment.
        if (from < lineEnd) scanLine(text, from, lineEnd, st);
      } else if (first === RBRACE && closeLine(text, next, nextLineEnd)) {
        // A `}` alone closes an attribute value's `{` left open, or a literal's inside an open `(`,
        // else the computation. An open `(` alone does not count: XLA reads `{1,0:L(1}` as a
        // whole layout.
        if (from < lineEnd) scanLine(text, from, lineEnd, st);
        continues = st.attrBrace > 0 || (st.paren > 0 && st.anyBrace > st.layoutBrace);
      } else if (!startsStatement(text, next, nextLineEnd)) {
        if (from < lineEnd) scanLine(text, from, lineEnd, st);
        continues =
          st.paren > 0 ||
          st.bracket > 0 ||
          st.attrBrace > 0 ||
          (st.layoutBrace > 0 && (st.last !== LBRACE || layoutAhead(text, next, nextLineEnd))) ||
          st.last === COMMA ||
          st.last === EQUALS ||
          st.last === ARROW ||
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
  if (options.endState) {
    options.endState.openFrom = openFrom;
    options.endState.strayFrom = strayFrom;
  }
}

/**
 * Whether the line [pos, end) goes on with a layout's contents (a number or `:`, as XLA's look-ahead
 * decides): then a `{` ending the line before it opened a layout, not a computation's body.
 */
function layoutAhead(text: string, pos: number, end: number): boolean {
  const c = firstNonBlank(text, pos, end);
  return (c >= 48 && c <= 57) || c === 45 || c === 58;
}

/**
 * Whether the statement [start, lineEnd) is a name alone so far (`[ROOT] [%]name`, blanks, line
 * breaks and comments around it): a line opening with `=` then goes on with its instruction.
 */
function nameOnly(text: string, start: number, lineEnd: number): boolean {
  let i = skipTrivia(text, start, lineEnd);
  let e = identifierEnd(text, i, lineEnd);
  if (e === i) return false;
  if (isWord(text, i, e, 'ROOT')) {
    i = skipTrivia(text, e, lineEnd);
    if (i >= lineEnd) return true;
    e = identifierEnd(text, i, lineEnd);
    if (e === i) return false;
  }
  return skipTrivia(text, e, lineEnd) >= lineEnd;
}

/** {@link skipSpace} and `//` and `/* *\/` comments (a comment left open runs to `end`). */
function skipTrivia(text: string, pos: number, end: number): number {
  for (;;) {
    pos = skipSpace(text, pos, end);
    if (pos + 1 >= end || text.charCodeAt(pos) !== SLASH) return pos;
    const n = text.charCodeAt(pos + 1);
    if (n === SLASH) pos = lineCommentEnd(text, pos, end);
    else if (n === STAR) {
      const close = text.indexOf('*/', pos + 2);
      pos = close < 0 || close + 2 > end ? end : close + 2;
    } else return pos;
  }
}

/** The last run of blank lines and comments {@link continuedAfterTrivia} read, and its answer. */
interface TriviaRun {
  start: number;
  end: number;
  continued: boolean;
}

/**
 * Whether the line starting at `pos` and the lines after it hold only blanks and comments up to
 * what no statement starts with (a computation's body `{`, its parameters' `(`, a `->`, a `,`, a
 * bracket or a quote), before `end`: XLA reads that as going on with the statement before them.
 * `run` keeps the last run read: the lines of one run are asked about in turn, each with the same answer.
 */
function continuedAfterTrivia(text: string, pos: number, end: number, run: TriviaRun): boolean {
  if (pos > run.start && pos < run.end) return run.continued;
  const after = skipTrivia(text, pos, end);
  // A later line of a run with a block comment may lie inside it: it is asked about afresh.
  const kept = !hasBlockComment(text, pos, after);
  run.start = kept ? pos : -1;
  run.end = kept ? after : -1;
  const c = after < end ? text.charCodeAt(after) : -1;
  run.continued =
    c === LBRACE ||
    c === COMMA ||
    c === LPAREN ||
    c === RPAREN ||
    c === LBRACKET ||
    c === RBRACKET ||
    c === QUOTE ||
    c === APOSTROPHE ||
    (c === MINUS && text.charCodeAt(after + 1) === GREATER);
  return run.continued;
}

/** Whether `/*` occurs in text[pos, end). */
function hasBlockComment(text: string, pos: number, end: number): boolean {
  for (let i = pos; i + 1 < end; i++)
    if (text.charCodeAt(i) === SLASH && text.charCodeAt(i + 1) === STAR) return true;
  return false;
}

/** Whether the line [pos, end) opens with a signature's `->`, which no statement starts with. */
function arrowAhead(text: string, pos: number, end: number): boolean {
  const i = skipBlanks(text, pos, end);
  return i + 1 < end && text.charCodeAt(i) === MINUS && text.charCodeAt(i + 1) === GREATER;
}

/** The code of the first character of `text[pos, end)` that is not a space or tab, or -1. */
function firstNonBlank(text: string, pos: number, end: number): number {
  const i = skipBlanks(text, pos, end);
  return i < end ? text.charCodeAt(i) : -1;
}
