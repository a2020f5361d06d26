/**
 * Lines of HLO text as XLA's lexer sees them: a line ends at `\n`, `\r\n` or a lone `\r`, and
 * strings (`"..."`, `'...'`) and `/* ... *\/` comments may run over line ends, so a line that
 * starts inside one is no statement of its own. The statement splitter reads each line's first
 * characters only; it asks here, at little cost, whether a line ends inside a string or comment.
 */
import {
  CH_CR,
  CH_NEWLINE,
  CH_SLASH,
  CH_STAR,
  closingQuote,
  lineCommentEnd,
  nextLineBreak,
  quotedEnd,
} from './chars';
import { sharedNextOccurrences } from './next-occurrence';

/** What {@link crossingEnd} answers for a line with a string that no quote before `end` closes. */
export const UNCLOSED_STRING = -2;

/**
 * What {@link crossingEnd} answers for a line with a string cut at its line end: its closing quote
 * lies on a later line but does not end a value (see `quotedEnd`), so it is taken for a stray quote.
 * A quote typed between the two may make the string run on instead.
 */
export const CUT_STRING = -3;

/**
 * End of the line starting at `pos` (the offset of its line break, or `end`): a lone `\r` ends it,
 * and so does `\n`; in `\r\n` the line ends at the `\n`, the `\r` being the line's last blank.
 */
export function lineEndOf(text: string, pos: number, end: number): number {
  let at = nextLineBreak(text, pos);
  if (at < text.length && text.charCodeAt(at) === CH_CR && text.charCodeAt(at + 1) === CH_NEWLINE) at++;
  return at > end ? end : at;
}

/** Where the line after the one ending at `lineEnd` starts (past its line break), or `lineEnd` at the end. */
export function nextLineStart(text: string, lineEnd: number, end: number): number {
  if (lineEnd >= end) return lineEnd;
  const c = text.charCodeAt(lineEnd);
  return c === CH_NEWLINE || c === CH_CR ? lineEnd + 1 : lineEnd;
}

// One memo per walk (the splitter's over lines, the analysis's over statements), so that two
// walks through one text do not make each other search again from their own positions.
const STOPS = ['"', "'", '/', '/*'];
const stops = sharedNextOccurrences(STOPS);
const commentStops = sharedNextOccurrences(STOPS);

/**
 * Whether the text from `pos` to the line end `lineEnd` leaves a string or a block comment open:
 * then the offset where it ends (after its closing quote or `*\/`; `end` for a comment never
 * closed), which is past `lineEnd`; otherwise -1, or {@link UNCLOSED_STRING} when a string on the
 * line finds no closing quote before `end` (it ends at its line, unless the text goes on beyond
 * `end`, where a streaming caller has not looked yet), or {@link CUT_STRING} when a string on the
 * line was cut at its end. `pos` must not be inside a string or comment, and no line break may lie
 * between `pos` and `lineEnd`.
 */
export function crossingEnd(text: string, pos: number, lineEnd: number, end: number): number {
  while (pos < lineEnd) {
    const p = Math.min(stops.find(text, 0, pos), stops.find(text, 1, pos), stops.find(text, 2, pos));
    if (p >= lineEnd) return -1;
    const c = text.charCodeAt(p);
    if (c !== CH_SLASH) {
      const quote = closingQuote(text, p, end);
      if (quote < 0) return UNCLOSED_STRING;
      // Closed on its own line (no line break lies before `lineEnd`): the usual string of a dump.
      if (quote < lineEnd) {
        pos = quote + 1;
        continue;
      }
      const close = quotedEnd(text, p, end);
      return close > lineEnd ? close : CUT_STRING;
    }
    const n = p + 1 < lineEnd ? text.charCodeAt(p + 1) : -1;
    if (n === CH_SLASH) return -1; // the rest of the line is a comment
    if (n !== CH_STAR) {
      pos = p + 1;
      continue;
    }
    const close = text.indexOf('*/', p + 2);
    const after = close < 0 || close + 2 > end ? end : close + 2;
    if (after > lineEnd) return after;
    pos = after;
  }
  return -1;
}

/**
 * Offset of a `/*` in `text[start, end)`, outside strings and comments, that no `*\/` before `end`
 * closes, or -1. XLA's lexer fails on it ("expects ..." at the comment); to this tool's splitter
 * the comment runs on to the end, so a statement holding one ends with the text.
 */
export function unterminatedComment(text: string, start: number, end: number): number {
  if (commentStops.find(text, 3, start) >= end) return -1; // no `/*` at all: the usual case, one lookup
  let pos = start;
  while (pos < end) {
    const p = Math.min(
      commentStops.find(text, 0, pos),
      commentStops.find(text, 1, pos),
      commentStops.find(text, 2, pos),
    );
    if (p >= end) return -1;
    if (text.charCodeAt(p) !== CH_SLASH) {
      pos = quotedEnd(text, p, end);
      continue;
    }
    const n = p + 1 < end ? text.charCodeAt(p + 1) : -1;
    if (n === CH_SLASH) pos = lineCommentEnd(text, p, end);
    else if (n !== CH_STAR) pos = p + 1;
    else {
      const close = text.indexOf('*/', p + 2);
      if (close < 0 || close + 2 > end) return p;
      pos = close + 2;
    }
  }
  return -1;
}
