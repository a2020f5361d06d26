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

/** Incremental line splitter: {@link write} chunks in order, then {@link end} once. */
export class LineSplitter {
  private carry = '';
  private line = 0;
  private ended = false;
  /** The previous chunk ended in `\r`: a `\n` starting the next one belongs to that break. */
  private afterCr = false;

  constructor(private readonly onLine: LineHandler) {}

  /** Feeds the next piece of text. */
  write(chunk: string): void {
    if (this.ended || chunk.length === 0) return;
    let start = 0;
    if (this.afterCr && chunk.charCodeAt(0) === 10) start = 1;
    this.afterCr = false;
    const text = this.carry.length > 0 ? this.carry + chunk.slice(start) : chunk;
    if (this.carry.length > 0) start = 0;
    let at = start;
    // The next `\r`, searched again only once passed: a file without any is scanned for one once.
    let cr = text.indexOf('\r', at);
    for (;;) {
      const nl = text.indexOf('\n', at);
      if (cr >= 0 && cr < at) cr = text.indexOf('\r', at);
      const end = cr >= 0 && (nl < 0 || cr < nl) ? cr : nl;
      if (end < 0) break;
      this.onLine(text, at, end, ++this.line);
      if (end === cr) {
        if (end + 1 === text.length) {
          this.afterCr = true;
          at = end + 1;
          break;
        }
        at = text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      } else at = end + 1;
    }
    this.carry = at < text.length ? text.slice(at) : '';
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
