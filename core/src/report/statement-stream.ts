/**
 * Splits text that arrives in chunks into complete HLO statements, exactly as
 * {@link splitStatements} splits the whole text at once. Only text up to the last line break is
 * split; the last statement found there may continue on the next line, so it is carried into the
 * next chunk together with the unfinished line. Memory stays bounded by one chunk plus the longest
 * statement (itself capped by the splitter), whatever the file size.
 */
import type { TextRange } from '../diagnostics';
import { skipTrivia } from '../hlo/lex';
import { DEFAULT_MAX_STATEMENT_LENGTH, splitStatements } from '../hlo/split-statements';
import { LineCounter, type LineColumn } from './line-counter';

/**
 * Receives consecutive batches of complete statements. Ranges index `text`; `base` is the offset
 * of `text[0]` in the whole stream (UTF-16 units); `lines` turns offsets of `text` into 1-based
 * line/column while they are visited in increasing order.
 */
export type StatementBatchHandler = (
  text: string,
  statements: readonly TextRange[],
  base: number,
  lines: LineCounter,
) => void;

/** Options of {@link StatementStream}. */
export interface StatementStreamOptions {
  /** Cap on one statement's length in UTF-16 units; default {@link DEFAULT_MAX_STATEMENT_LENGTH}. */
  readonly maxStatementLength?: number;
}

/** Incremental statement splitter: {@link write} chunks in order, then {@link end} once. */
export class StatementStream {
  private carry = '';
  private base = 0;
  private ended = false;
  private textEnd = { offset: 0, at: { line: 1, column: 1 } };
  private readonly lines = new LineCounter();
  private readonly cap: number;

  constructor(
    private readonly onBatch: StatementBatchHandler,
    options: StatementStreamOptions = {},
  ) {
    this.cap = Math.max(1, options.maxStatementLength ?? DEFAULT_MAX_STATEMENT_LENGTH);
  }

  /** Feeds the next piece of text (any size, cut anywhere, even inside a line). */
  write(chunk: string): void {
    if (this.ended || chunk.length === 0) return;
    const text = this.carry + chunk;
    // Without a new line break nothing new can be final: splitting again would give what the
    // previous write gave, so tiny chunks cost no re-scan.
    if (chunk.indexOf('\n') < 0 && chunk.indexOf('\r') < 0 && text.length < this.cap) {
      this.carry = text;
      return;
    }
    let end = lastLineBreak(text) + 1;
    if (end === 0) end = text.length; // one line longer than the cap: cut it like the splitter does
    this.flush(text, end, false);
  }

  /**
   * Feeds text that ends where a statement starts (a cut made by `lastStatementBoundary` or
   * `statementBoundaryAfter`): everything up to its end is complete, so nothing is carried into the
   * next write and the chunk is split as it is, without being copied onto a carried remainder.
   */
  writeComplete(chunk: string): void {
    if (this.ended || chunk.length === 0) return;
    const text = this.carry.length > 0 ? this.carry + chunk : chunk;
    this.flush(text, text.length, false, true);
  }

  /**
   * Ends the stream: the carried statement is complete now. Later writes are ignored. Returns where
   * the text ends: its length, and the line and column just past its last character.
   */
  end(): { offset: number; at: LineColumn } {
    if (this.ended) return this.textEnd;
    this.ended = true;
    const text = this.carry;
    this.carry = '';
    if (text.length > 0) this.flush(text, text.length, true);
    // Without a last batch the counter was cut at the end of the previous one: offset 0 is the end.
    else this.lines.reset('');
    this.textEnd = { offset: this.base + text.length, at: this.lines.at(text.length) };
    return this.textEnd;
  }

  /**
   * Splits text[0, end) and hands on its statements; with `final` or `complete`, all of them, but
   * for those a string or comment running past `end` may yet change (carried with the rest).
   */
  private flush(text: string, end: number, final: boolean, complete = false): void {
    const endState = { openFrom: -1 };
    const statements = splitStatements(text, 0, end, { maxStatementLength: this.cap, endState });
    // The statement before blank and comment lines at the end may go on after them (a header whose
    // `{` follows such a line): it is carried with them.
    let lastIndex = statements.length - 1;
    while (
      lastIndex > 0 &&
      trivia(text, statements[lastIndex]) &&
      end - statements[lastIndex - 1].start < this.cap
    )
      lastIndex--;
    const last = statements[lastIndex];
    let keepFrom =
      final || complete || last === undefined || last.end - last.start >= this.cap ? end : last.start;
    if (!final && endState.openFrom >= 0 && end - endState.openFrom < this.cap)
      keepFrom = Math.min(keepFrom, endState.openFrom);
    const done = keepFrom === end ? statements : statements.filter((r) => r.start < keepFrom);
    this.lines.reset(text);
    if (done.length > 0) this.onBatch(text, done, this.base, this.lines);
    if (final) return;
    this.lines.cut(keepFrom);
    this.base += keepFrom;
    this.carry = text.slice(keepFrom);
  }
}

/** Whether `text[range]` holds only blanks and comments. */
function trivia(text: string, range: TextRange): boolean {
  return skipTrivia(text, range.start, range.end) >= range.end;
}

/** Offset of the last line break of `text` (`\n`, or a lone `\r` not at the very end, where it may begin `\r\n`), or -1. */
function lastLineBreak(text: string): number {
  const newline = text.lastIndexOf('\n');
  // Only the stretch after the last `\n` is searched for `\r`: a backward search for a character
  // the text lacks (dumps have no `\r`) reads the whole chunk.
  let last = newline;
  for (
    let cr = text.indexOf('\r', newline + 1);
    cr >= 0 && cr < text.length - 1;
    cr = text.indexOf('\r', cr + 1)
  )
    last = cr;
  return last;
}
