/**
 * Lines of a text that arrives in chunks cut anywhere: the readers of XLA's buffer-assignment
 * files are line based, and a 40 MB file must stream without being held whole. `\r\n` and `\r`
 * end lines as `\n` does (files copied through Windows tools).
 */

/**
 * Called with each complete line, as `text.slice(start, end)` (without its line break; the slice is
 * left to the handler, which may not need it), and its 1-based line number.
 */
export type LineHandler = (text: string, start: number, end: number, lineNumber: number) => void;

/** A handler for readers that want each line as a string. */
export function byLine(f: (line: string, lineNumber: number) => void): LineHandler {
  return (text, start, end, n) => f(text.slice(start, end), n);
}

/** Where the line starting at `at` ends: the next `\n` or `\r`, or -1. */
function lineEnd(text: string, at: number): number {
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}

/** Incremental line splitter: {@link write} chunks in order, then {@link end} once. */
export class LineSplitter {
  private carry = '';
  private line = 0;
  private ended = false;
  /** The previous chunk ended in `\r`: a `\n` starting the next one belongs to that break. */
  private afterCr = false;

  constructor(private readonly onLine: LineHandler) {}

  /**
   * Feeds the next piece of text. Lines are handed on as ranges of the chunk itself (only the line
   * cut by the previous chunk's end is glued together), so readers index a flat string.
   */
  write(chunk: string): void {
    if (this.ended || chunk.length === 0) return;
    let at = 0;
    if (this.afterCr && chunk.charCodeAt(0) === 10) at = 1;
    this.afterCr = false;
    // A file without `\r` is searched for one once per chunk, not once per line.
    const anyCr = chunk.indexOf('\r', at) >= 0;
    if (this.carry.length > 0) {
      const end = anyCr ? lineEnd(chunk, at) : chunk.indexOf('\n', at);
      if (end < 0) {
        this.carry += chunk.slice(at);
        return;
      }
      const line = this.carry + chunk.slice(at, end);
      this.carry = '';
      this.onLine(line, 0, line.length, ++this.line);
      at = this.next(chunk, end);
      if (this.afterCr) return;
    }
    for (;;) {
      const end = anyCr ? lineEnd(chunk, at) : chunk.indexOf('\n', at);
      if (end < 0) break;
      this.onLine(chunk, at, end, ++this.line);
      at = this.next(chunk, end);
      if (this.afterCr) return;
    }
    this.carry = at < chunk.length ? chunk.slice(at) : '';
  }

  /** The start of the line after the break at `end`; notes a `\r` that ends the chunk. */
  private next(chunk: string, end: number): number {
    if (chunk.charCodeAt(end) !== 13) return end + 1;
    if (end + 1 === chunk.length) {
      this.afterCr = true;
      return end + 1;
    }
    return chunk.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
  }

  /** Ends the text: an unterminated last line is a line too. Later writes are ignored. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.carry.length > 0) this.onLine(this.carry, 0, this.carry.length, ++this.line);
    this.carry = '';
  }

  /** Lines handed on so far. */
  get lines(): number {
    return this.line;
  }
}
