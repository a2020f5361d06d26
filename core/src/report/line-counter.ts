/**
 * Line and column numbers for a text that arrives in pieces: the streaming reporters hand it
 * offsets in increasing order and cut the consumed prefix off between batches, so it never rescans
 * text it has passed and never needs the whole file.
 */
import type { TextRange } from '../diagnostics';

/** A 1-based line and a 1-based column in UTF-16 code units. */
export interface LineColumn {
  readonly line: number;
  readonly column: number;
}

/** 1-based line and column of offsets visited in increasing order, across cut batches. */
export class LineCounter {
  private offset = 0;
  private line = 1;
  private lineStart = 0;
  private text = '';
  /** Whether the text holds a `\r`. */
  private returns = false;
  /** The first lone `\r` at or after `loneFrom` (-1: none). */
  private lone = -1;
  private loneFrom = Number.MAX_SAFE_INTEGER;

  /** Points the counter at a new batch text whose offset 0 is where the previous one was cut. */
  reset(text: string): void {
    this.text = text;
    // Carriage returns are rare: without one, native searches for `\n` count every line.
    this.returns = text.indexOf('\r') >= 0;
    this.loneFrom = Number.MAX_SAFE_INTEGER;
  }

  /** Line/column of `offset` in the current text; offsets must not go backwards within a batch. */
  at(offset: number): LineColumn {
    this.advance(offset);
    return { line: this.line, column: offset - this.lineStart + 1 };
  }

  /**
   * Line/column of the end of `range`, whose start is at `start`, without moving the counter (the
   * next range may start before this one ends, as nested diagnostics do).
   */
  endOf(range: TextRange, start: LineColumn): LineColumn {
    let line = start.line;
    let lineStart = range.start - (start.column - 1);
    for (let nl = this.nextBreak(range.start); nl >= 0 && nl < range.end; nl = this.nextBreak(nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    return { line, column: range.end - lineStart + 1 };
  }

  /** Moves to `offset`, counting line breaks on the way. */
  private advance(offset: number): void {
    for (let nl = this.nextBreak(this.offset); nl >= 0 && nl < offset; nl = this.nextBreak(nl + 1)) {
      this.line++;
      this.lineStart = nl + 1;
    }
    this.offset = Math.max(this.offset, offset);
  }

  /**
   * The first line break at or after `from`: the last character of `\n`, `\r\n` or a lone `\r`
   * (as editors count lines); -1 when there is none.
   */
  private nextBreak(from: number): number {
    const newline = this.text.indexOf('\n', from);
    if (!this.returns) return newline;
    const cr = this.nextLoneReturn(from);
    return cr >= 0 && (newline < 0 || cr < newline) ? cr : newline;
  }

  /** The first `\r` not followed by `\n` at or after `from`, or -1; remembered for a forward walk. */
  private nextLoneReturn(from: number): number {
    if (from < this.loneFrom || (this.lone >= 0 && from > this.lone)) {
      let cr = this.text.indexOf('\r', from);
      while (cr >= 0 && this.text.charCodeAt(cr + 1) === 10) cr = this.text.indexOf('\r', cr + 1);
      this.loneFrom = from;
      this.lone = cr;
    }
    return this.lone;
  }

  /** Drops the text before `cut`: later offsets count from there. */
  cut(cut: number): void {
    this.advance(cut);
    this.offset -= cut;
    this.lineStart -= cut;
    this.loneFrom = Number.MAX_SAFE_INTEGER;
  }
}
