/**
 * What scanning one text for shapes keeps between calls, held by the caller rather than by the
 * module: a scratch parser state, where block comments close, the next `"`, `(`, `/`, `[` and `'` from
 * where the shape finder last looked, and the hash of the last shape key read. Walking one text
 * statement by statement with one ScanState looks at each character a bounded number of times in
 * all; dropping the object drops its reference to the text. Functions given none use a fresh one.
 */
import { CommentSearch } from './chars';
import { ParserState } from './parser-state';

/** The characters the finder's walk stops at, by index; everything between them is plain. */
const STOPS = ['"', '(', '/', '[', "'"] as const;

/**
 * Texts longer than this get their stops' last occurrences remembered (see {@link ScanState.nextStop}):
 * a document, not a statement taken out on its own, which would replace the document's.
 */
const LONG_TEXT = 1 << 20;
/** Marks a last occurrence not looked for yet. */
const UNKNOWN = -2;

export class ScanState {
  readonly comments = new CommentSearch();
  /** Scratch for one parse at a time: reset before it, released after it. */
  readonly parser = new ParserState(this.comments);
  /** `regionHash` of the key the last `shapeKeyEnd` call with this state returned. */
  keyHash = 0;
  /** Where the last array key read ended as a tuple element would: after `]` or the layout `}`. */
  elementEnd = 0;

  private stopsText = '';
  /** Per stop kind: the position searched from, and the first occurrence there or later (text.length if none). */
  private readonly since = [0, 0, 0, 0, 0];
  private readonly at = [-1, -1, -1, -1, -1];
  /**
   * The long text whose stops' last occurrences {@link last} holds: kept apart from the memo
   * above, which statements and shapes taken out as strings of their own replace.
   */
  private lastText = '';
  private readonly last = [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN];

  /**
   * The first stop of kind `k` at or after `pos`, remembered across walks: a walk per statement
   * through one text moves forward, so each stretch is searched once per character however many
   * statements it spans (and a character that never occurs is searched for once, not once per
   * statement).
   */
  nextStop(text: string, k: number, pos: number): number {
    const at = this.at[k];
    if (pos >= this.since[k] && pos <= at && text === this.stopsText) return at;
    if (text !== this.stopsText) this.forgetStops(text);
    // Past a character's last occurrence there is none: a lookup far from where the last walk
    // went (a hover) does not read the rest of a long text for a character it never holds.
    const found =
      text.length > LONG_TEXT && pos > this.lastOf(text, k) ? text.length : nextAt(text, STOPS[k], pos);
    return this.rememberStop(text, k, pos, found);
  }

  /** The last stop of kind `k` in the long `text` (-1: none), looked for once per text. */
  private lastOf(text: string, k: number): number {
    if (text !== this.lastText) {
      this.lastText = text;
      for (let i = 0; i < STOPS.length; i++) this.last[i] = UNKNOWN;
    }
    if (this.last[k] === UNKNOWN) this.last[k] = text.lastIndexOf(STOPS[k]);
    return this.last[k];
  }

  /**
   * Records that in `text` the first stop of kind `k` at or after `pos` is at `found`; ignored
   * when another text was searched since (a visitor that walked a text of its own).
   */
  rememberStop(text: string, k: number, pos: number, found: number): number {
    if (text !== this.stopsText) return found;
    this.since[k] = pos;
    return (this.at[k] = found);
  }

  private forgetStops(text: string): void {
    this.stopsText = text;
    // Element by element: `fill` is a runtime call, and callers that walk statements as strings
    // of their own (hovers, the full statement analysis) come here once per statement.
    for (let k = 0; k < STOPS.length; k++) this.at[k] = -1;
  }
}

/** The first `ch` at or after `pos`, or `text.length` when there is none. */
export function nextAt(text: string, ch: string, pos: number): number {
  const at = text.indexOf(ch, pos);
  return at < 0 ? text.length : at;
}
