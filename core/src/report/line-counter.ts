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

  /** Points the counter at a new batch text whose offset 0 is where the previous one was cut. */
  reset(text: string): void {
    this.text = text;
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
    let nl = this.text.indexOf('\n', range.start);
    while (nl >= 0 && nl < range.end) {
      line++;
      lineStart = nl + 1;
      nl = this.text.indexOf('\n', nl + 1);
    }
    return { line, column: range.end - lineStart + 1 };
  }

  /** Moves to `offset`, counting line breaks on the way. */
  private advance(offset: number): void {
    let nl = this.text.indexOf('\n', this.offset);
    while (nl >= 0 && nl < offset) {
      this.line++;
      this.lineStart = nl + 1;
      nl = this.text.indexOf('\n', nl + 1);
    }
    this.offset = Math.max(this.offset, offset);
  }

  /** Drops the text before `cut`: later offsets count from there. */
  cut(cut: number): void {
    this.advance(cut);
    this.offset -= cut;
    this.lineStart -= cut;
  }
}
