/**
 * The text of one open document, stored so that an incremental edit costs what the edit touches.
 *
 * vscode-languageserver-textdocument keeps the text as one string and builds `before + change +
 * after` per edit: a rope that V8 flattens into a fresh copy of the whole document on the next
 * read, so every keystroke in a 50 MB dump copied 50 MB and left the old copy to a major GC.
 * Here the text is a list of chunks of about {@link CHUNK} characters (at open, views into the
 * opened string: no copy), an edit rebuilds only the chunks it overlaps, and a flat string is
 * assembled only when a feature asks for the whole text (memoised until the next edit, and the
 * chunks are re-pointed into it so that older versions can be collected).
 *
 * The line index (offsets of line starts; `\n`, `\r\n` and a lone `\r` end a line, as in LSP) is
 * kept in step by recomputing only the line starts an edit can change. `positionAt`/`offsetAt`
 * behave exactly as TextDocument's (clamping, offsets inside a `\r\n` pair).
 */
import type { Position } from 'vscode-languageserver';
import { detach } from '../../core/src';

/** Target chunk length in UTF-16 units; chunks grow to twice this before they are split. */
export const CHUNK = 64 * 1024;

const LF = 10;
const CR = 13;

/**
 * Offsets of the line starts in `text[from, to)` (a line starts after `\n`, after `\r` not followed
 * by `\n`), each plus `shift`, appended to `out`. `to` may be `text.length`; a start at the very end
 * (text ending in a line break) is included.
 */
function lineStartsIn(text: string, from: number, to: number, shift: number, out: number[]): void {
  const cr = text.indexOf('\r', from);
  if (cr < 0 || cr >= to) {
    // No carriage return in range: native search for `\n` (the common case, and fast).
    for (let nl = text.indexOf('\n', from); nl >= 0 && nl < to; nl = text.indexOf('\n', nl + 1))
      out.push(nl + 1 + shift);
    return;
  }
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) out.push(i + 1 + shift);
  }
}

/** Largest index i with sorted[i] <= value (-1 if none). */
function lastAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** `array.splice(at, remove, ...items)` without spreading a large argument list onto the stack. */
export function spliceLarge<T>(array: T[], at: number, remove: number, items: readonly T[]): void {
  if (items.length < 10000) {
    array.splice(at, remove, ...items);
    return;
  }
  const tail = array.splice(at + remove);
  array.length = at;
  for (const x of items) array.push(x);
  for (const x of tail) array.push(x);
}

/**
 * `array` with its `remove` entries from `at` replaced by `items`: the same array when the length
 * stays, otherwise a new one. Offset tables (lines, statements) are Int32Arrays, half the size of
 * number arrays; V8 strings are shorter than 2^31.
 */
export function splicedInt32(
  array: Int32Array,
  at: number,
  remove: number,
  items: readonly number[],
): Int32Array {
  if (items.length === remove) {
    array.set(items, at);
    return array;
  }
  const out = new Int32Array(array.length - remove + items.length);
  out.set(array.subarray(0, at));
  out.set(items, at);
  out.set(array.subarray(at + remove), at + items.length);
  return out;
}

export class DocumentText {
  private chunks: string[] = [];
  /** Offset of each chunk's first character. */
  private chunkStarts: number[] = [];
  /** Offset of each line's first character; lineStarts[0] is 0. */
  private lineStarts: Int32Array = new Int32Array(1);
  private flat: string | undefined;
  private size = 0;

  /** `chunk` is the target chunk length (tests use tiny ones to put chunk seams everywhere). */
  constructor(
    readonly uri: string,
    readonly languageId: string,
    public version: number,
    content: string,
    private readonly chunk = CHUNK,
  ) {
    this.replaceAll(content, version);
  }

  /** Length of the text in UTF-16 units. */
  get length(): number {
    return this.size;
  }

  /** Number of lines (a text ending in a line break has an empty last line). */
  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** Replaces the whole text. */
  replaceAll(content: string, version: number): void {
    this.version = version;
    this.size = content.length;
    this.flat = content;
    this.chunkFrom(content);
    const starts = [0];
    lineStartsIn(content, 0, content.length, 0, starts);
    this.lineStarts = Int32Array.from(starts);
  }

  /** Points the chunks into `content` (views, no copy). */
  private chunkFrom(content: string): void {
    this.chunks = [];
    this.chunkStarts = [];
    for (let at = 0; at < content.length; at += this.chunk) {
      this.chunkStarts.push(at);
      this.chunks.push(content.slice(at, Math.min(content.length, at + this.chunk)));
    }
  }

  /** The whole text as one flat string (assembled on first use after an edit). */
  getText(): string {
    if (this.flat === undefined) {
      this.flat = this.chunks.join('');
      // The chunks become views of the new string: edited chunks and older versions can go.
      this.chunkFrom(this.flat);
    }
    return this.flat;
  }

  /** `text.slice(start, end)` without assembling the whole text. */
  slice(start: number, end: number): string {
    start = Math.max(0, Math.min(start, this.size));
    end = Math.max(start, Math.min(end, this.size));
    if (this.flat !== undefined) return this.flat.slice(start, end);
    if (start === end) return '';
    let c = lastAtOrBefore(this.chunkStarts, start);
    const first = this.chunkStarts[c];
    if (end - first <= this.chunks[c].length) return this.chunks[c].slice(start - first, end - first);
    const parts: string[] = [];
    for (; c < this.chunks.length && this.chunkStarts[c] < end; c++) {
      const s = this.chunkStarts[c];
      parts.push(this.chunks[c].slice(Math.max(0, start - s), Math.min(this.chunks[c].length, end - s)));
    }
    return parts.join('');
  }

  /** The UTF-16 unit at `offset` (NaN outside the text, like String.charCodeAt). */
  charCodeAt(offset: number): number {
    if (this.flat !== undefined) return this.flat.charCodeAt(offset);
    if (offset < 0 || offset >= this.size) return NaN;
    const c = lastAtOrBefore(this.chunkStarts, offset);
    return this.chunks[c].charCodeAt(offset - this.chunkStarts[c]);
  }

  /**
   * Replaces [start, end) (offsets, start <= end, within the text) by `inserted`: rebuilds the
   * chunks the range overlaps and the line starts it can change, shifts the rest.
   */
  update(start: number, end: number, inserted: string, version: number): void {
    this.version = version;
    const delta = inserted.length - (end - start);
    this.updateChunks(start, end, inserted);
    this.size += delta;
    this.flat = undefined;
    // A line start p depends on the characters at p-1 and p: old starts in [start, end+1] are
    // redone from the new text over [start, start+inserted.length+1]; later ones shift.
    const from = Math.max(1, start);
    const old = this.lineStarts;
    const first = lastAtOrBefore(old, from - 1) + 1;
    const after = lastAtOrBefore(old, end + 1) + 1;
    const windowStart = from - 1;
    const windowEnd = Math.min(this.size, start + inserted.length + 2);
    const window = this.slice(windowStart, windowEnd);
    const added: number[] = [];
    // Starts at p in [from, start+inserted.length+1]: the break is the character at p-1.
    lineStartsIn(
      window,
      0,
      Math.min(window.length, start + inserted.length + 1 - windowStart),
      windowStart,
      added,
    );
    const lines = (this.lineStarts = splicedInt32(old, first, after - first, added));
    if (delta !== 0) for (let i = first + added.length; i < lines.length; i++) lines[i] += delta;
  }

  private updateChunks(start: number, end: number, inserted: string): void {
    const chunks = this.chunks;
    const starts = this.chunkStarts;
    if (chunks.length === 0) {
      chunks.push('');
      starts.push(0);
    }
    // The chunk holding `start` (the last one for an insertion at the very end) and the one holding `end`.
    const ci = Math.max(0, lastAtOrBefore(starts, start));
    let cj = ci;
    while (cj + 1 < chunks.length && starts[cj + 1] < end) cj++;
    const merged = detach(
      chunks[ci].slice(0, start - starts[ci]) + inserted + chunks[cj].slice(end - starts[cj]),
    );
    chunks.splice(ci, cj - ci + 1, merged);
    starts.splice(ci, cj - ci + 1, starts[ci]);
    if (merged.length === 0 && chunks.length > 1) {
      chunks.splice(ci, 1);
      starts.splice(ci, 1);
    } else {
      this.splitLarge(ci);
    }
    // Chunks from the edit on move by its length change.
    for (
      let i = Math.min(ci, chunks.length - 1), at = i > 0 ? starts[i - 1] + chunks[i - 1].length : 0;
      i < chunks.length;
      i++
    ) {
      starts[i] = at;
      at += chunks[i].length;
    }
  }

  /** Splits chunk `c` if it grew past twice the chunk length (starts of the pieces are set by the caller). */
  private splitLarge(c: number): void {
    const text = this.chunks[c];
    if (text.length <= 2 * this.chunk) return;
    const pieces: string[] = [];
    const starts: number[] = [];
    for (let at = 0; at < text.length; at += this.chunk) {
      pieces.push(text.slice(at, Math.min(text.length, at + this.chunk)));
      starts.push(this.chunkStarts[c] + at);
    }
    spliceLarge(this.chunks, c, 1, pieces);
    spliceLarge(this.chunkStarts, c, 1, starts);
  }

  /** The LSP position of `offset`, clamped to the text (as TextDocument.positionAt). */
  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.size), 0);
    const line = lastAtOrBefore(this.lineStarts, offset);
    const lineStart = this.lineStarts[line];
    return { line, character: this.beforeLineBreak(offset, lineStart) - lineStart };
  }

  /** The offset of an LSP position, clamped to its line and the text (as TextDocument.offsetAt). */
  offsetAt(position: Position): number {
    const lines = this.lineStarts;
    if (position.line >= lines.length) return this.size;
    if (position.line < 0) return 0;
    const lineStart = lines[position.line];
    if (position.character <= 0) return lineStart;
    const next = position.line + 1 < lines.length ? lines[position.line + 1] : this.size;
    return this.beforeLineBreak(Math.min(lineStart + position.character, next), lineStart);
  }

  /** Moves `offset` back over line-break characters, not before `lineStart`. */
  private beforeLineBreak(offset: number, lineStart: number): number {
    while (offset > lineStart) {
      const c = this.charCodeAt(offset - 1);
      if (c !== LF && c !== CR) break;
      offset--;
    }
    return offset;
  }
}
