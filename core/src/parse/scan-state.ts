/**
 * What scanning one text for shapes keeps between calls, held by the caller rather than by the
 * module: a scratch parser state, where block comments close, the next `"`, `(`, `/`, `[` and `'` from
 * where the shape finder last looked, and the hash of the last shape key read. Walking one text
 * statement by statement with one ScanState looks at each character a bounded number of times in
 * all; dropping the object drops its reference to the text. Functions given none use a fresh one.
 */
import { CommentSearch } from './chars';
import { NextOccurrences } from './next-occurrence';
import { ParserState } from './parser-state';

/** The characters the finder's walk stops at, by index; everything between them is plain. */
const STOPS = ['"', '(', '/', '[', "'"] as const;

export class ScanState {
  readonly comments = new CommentSearch();
  /** Scratch for one parse at a time: reset before it, released after it. */
  readonly parser = new ParserState(this.comments);
  /** `regionHash` of the key the last `shapeKeyEnd` call with this state returned. */
  keyHash = 0;
  /** Where the last array key read ended as a tuple element would: after `]` or the layout `}`. */
  elementEnd = 0;

  private readonly stops = new NextOccurrences(STOPS);

  /**
   * The first stop of kind `k` at or after `pos`, remembered across walks: a walk per statement
   * through one text moves forward, so each stretch is searched once per character however many
   * statements it spans (and a character that never occurs is searched for once, not once per
   * statement).
   */
  nextStop(text: string, k: number, pos: number): number {
    return this.stops.find(text, k, pos);
  }

  /** Records that in `text` the first stop of kind `k` at or after `pos` is at `found` (see {@link NextOccurrences.remember}). */
  rememberStop(text: string, k: number, pos: number, found: number): void {
    this.stops.remember(text, k, pos, found);
  }
}
