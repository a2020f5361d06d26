/**
 * The statements of one document as parallel arrays (start, end, summary), kept in step with the
 * text under incremental edits. An edit re-splits only the statements it touches (plus the one
 * before, whose continuation depends on the next line) and shifts the rest; everything a feature
 * needs beyond the summary is re-parsed on demand from the statement's text, so memory stays a
 * small multiple of the text even for 50 MB dumps.
 */
import { skipTrivia, splitStatements, statementBounds } from '../../core/src';
import type { TextRange } from '../../core/src';
import { StatementMarks } from './statement-marks';
import { spliceLarge, splicedInt32 } from './text-store';

/**
 * Produces the retained summary of the statement `text[start, end)`, where `text` is the part of
 * the document starting at offset `origin` (the whole document at open, a window around an edit later).
 */
export type Summarize<S> = (text: string, start: number, end: number, origin: number) => S;

/** Read access to the document text by range, without a flat copy of the whole of it. */
export interface TextSource {
  readonly length: number;
  slice(start: number, end: number): string;
}

/**
 * The statements of `text` (the document from `origin` on), with ranges made absolute, and where
 * the first of them starts whose reading depends on text after `text` (a string nothing in `text`
 * closes, a block comment running to its end), or -1.
 */
function splitAt(text: string, origin: number): { ranges: TextRange[]; open: number } {
  const endState = { openFrom: -1, strayFrom: -1 };
  const ranges = splitStatements(text, 0, text.length, { endState });
  if (origin !== 0) {
    for (let i = 0; i < ranges.length; i++)
      ranges[i] = { start: ranges[i].start + origin, end: ranges[i].end + origin };
  }
  const open = firstOpen(endState);
  return { ranges, open: open < 0 ? -1 : open + origin };
}

/** The first statement whose reading text after it may change: an open string or comment, or a cut string. */
function firstOpen(endState: { openFrom: number; strayFrom: number }): number {
  const { openFrom, strayFrom } = endState;
  return openFrom < 0 ? strayFrom : strayFrom < 0 ? openFrom : Math.min(openFrom, strayFrom);
}

/** Whether the text around an edit holds a quote, which may close a string opened before the edit. */
function mayCloseString(source: TextSource, at: number, insertedLength: number): boolean {
  return /["']/.test(source.slice(Math.max(0, at - 1), Math.min(source.length, at + insertedLength + 1)));
}

/** What {@link StatementTable.applyEdit} replaced: the summaries of the re-split window, before and after. */
export interface TableEdit<S> {
  readonly removed: readonly S[];
  readonly added: readonly S[];
}

export class StatementTable<S> {
  private starts: Int32Array = new Int32Array(0);
  private ends: Int32Array = new Int32Array(0);
  private summaries: S[] = [];
  /** The statements with diagnostics (`mark`), and those that shape computations (`structural`). */
  private readonly picked: readonly [StatementMarks<S>, StatementMarks<S>];
  /**
   * Start of the first statement whose split depends on text far after it (a string no quote on
   * its line closes, a comment running to the end), or -1: a quote typed anywhere later may make
   * that string run on. Only broken text has one.
   */
  private openStart = -1;

  /**
   * @param mark picks the statements to index (those with diagnostics) with a number other than 0,
   * kept beside the index: a document of 358,000 statements has a few thousand, and reading every
   * summary, or even every marked one, per publish costs more than keeping these in step with edits.
   * @param structural picks a second index the same way (the statements that begin, end or call computations).
   */
  constructor(
    private readonly summarize: Summarize<S>,
    mark: (summary: S) => number = () => 0,
    structural: (summary: S) => number = () => 0,
  ) {
    this.picked = [new StatementMarks(mark), new StatementMarks(structural)];
  }

  /** Indexes of the marked statements, ascending (valid until the next change of the table). */
  get marks(): readonly number[] {
    return this.picked[0].indexes;
  }

  /** What `mark` gave each of {@link marks}, at the same place (valid until the next change). */
  get markValues(): readonly number[] {
    return this.picked[0].values;
  }

  /** Indexes of the statements `structural` picks, ascending (valid until the next change of the table). */
  get structure(): readonly number[] {
    return this.picked[1].indexes;
  }

  /** Marks every statement summarized, again when `mark` now answers differently. */
  remark(): void {
    for (const marks of this.picked) marks.clear();
    // A new text under analysis has its first statements summarized only (resetSliced).
    for (let i = 0; i < this.summaries.length && i in this.summaries; i++) this.markOne(i, this.summaries[i]);
  }

  private markOne(i: number, summary: S): void {
    for (const marks of this.picked) marks.add(i, summary);
  }

  get count(): number {
    return this.starts.length;
  }

  start(i: number): number {
    return this.starts[i];
  }

  end(i: number): number {
    return this.ends[i];
  }

  summary(i: number): S {
    return this.summaries[i];
  }

  /** Splits and summarizes all of `text`. */
  reset(text: string): void {
    this.split(text);
    this.summaries = Array.from(this.starts, (start, i) => this.summarize(text, start, this.ends[i], 0));
    this.remark();
  }

  /**
   * Splits and summarizes all of `text`, calling `pause` between slices of about 20 ms so that a
   * large document does not block the connection (progress notifications get written, other
   * requests and cancellations get read). `pause` is told how many statements are summarized (never
   * all: there is no pause after the last).
   * With `keepBoundaries`, only re-summarizes, and the table keeps its old summaries until all the
   * new ones are ready. Otherwise (a new text) the table reads as its first `done` statements at
   * every pause: their summaries and marks are in place, so what they found can be shown already.
   */
  async resetSliced(
    text: string,
    pause: (done: number) => Promise<void>,
    keepBoundaries = false,
  ): Promise<void> {
    if (!keepBoundaries) this.split(text);
    const { starts, ends } = this;
    const summaries: S[] = new Array<S>(this.starts.length);
    if (!keepBoundaries) {
      this.summaries = summaries;
      for (const marks of this.picked) marks.clear();
    }
    let last = Date.now();
    for (let i = 0; i < starts.length; i++) {
      const summary = this.summarize(text, starts[i], ends[i], 0);
      summaries[i] = summary;
      // A new text is marked as it goes (a remark at a pause covers what is summarized so far).
      if (!keepBoundaries) this.markOne(i, summary);
      if ((i & 255) === 0 && i + 1 < summaries.length && Date.now() - last > 20) {
        await pause(i + 1);
        last = Date.now();
      }
    }
    this.summaries = summaries;
    if (keepBoundaries) this.remark();
  }

  private split(text: string): void {
    const endState = { openFrom: -1, strayFrom: -1 };
    const { starts, ends } = statementBounds(text, 0, text.length, { endState });
    this.starts = Int32Array.from(starts);
    this.ends = Int32Array.from(ends);
    this.openStart = firstOpen(endState);
  }

  /** Index of the statement whose range contains `offset` (end inclusive), or -1. */
  indexAt(offset: number): number {
    const i = this.lastStartingAtOrBefore(offset);
    return i >= 0 && offset <= this.ends[i] ? i : -1;
  }

  /** Largest index whose start <= offset, or -1. */
  lastStartingAtOrBefore(offset: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /**
   * Brings the table in line with `source`, which is the old text with [oldStart, oldEnd) replaced
   * by `insertedLength` characters. Only a window around the edit is read (as its own string).
   * Statements of the re-split window whose text the edit did not touch keep their summaries.
   */
  applyEdit(source: TextSource, oldStart: number, oldEnd: number, insertedLength: number): TableEdit<S> {
    const n = this.starts.length;
    const delta = insertedLength - (oldEnd - oldStart);
    // First statement whose end reaches the edit; re-splitting starts one earlier because a
    // statement's continuation depends on the first line of the next one.
    let first = this.lastStartingAtOrBefore(oldStart);
    if (first < 0) first = 0;
    else if (this.ends[first] < oldStart && first + 1 < n) first++;
    first = Math.max(0, first - 1);
    // Blank and comment lines before the edit: the statement above them may go on past them (a `{` typed there).
    while (first > 0 && this.trivia(source, first, oldStart, oldEnd, delta)) first--;
    // A quote may close a string left open far above, which then takes in the lines down to it.
    if (
      this.openStart >= 0 &&
      this.openStart < this.starts[first] &&
      mayCloseString(source, oldStart, insertedLength)
    )
      first = this.lastStartingAtOrBefore(this.openStart);
    const regionStart = n === 0 ? 0 : this.starts[first];
    // Old statements [first, k) are replaced; k is the first one starting after the edit.
    let k = Math.max(first, this.lastStartingAtOrBefore(oldEnd) + 1);
    const oldWindowEnd = k < n ? this.starts[k] : source.length - delta;
    let windowEnd = k < n ? this.starts[k] + delta : source.length;
    let { ranges, open } = splitAt(source.slice(regionStart, windowEnd), regionStart);
    let toEndInOne = windowEnd === source.length;
    // The split stopped at windowEnd; if the statement before it would have continued past the
    // boundary in a full split, take in the next old statement and try again.
    while (k < n && ranges.length > 0) {
      // Blank and comment statements are taken in together with the one after them, which may
      // open with a `{` that the statement before them goes on with: the probe starts before them.
      let from = ranges.length - 1;
      while (from > 0 && triviaRange(source, ranges[from])) from--;
      const last = ranges[from];
      let m = k;
      while (m + 1 < n && this.trivia(source, m, oldStart, oldEnd, delta)) m++;
      const nextEnd = m + 1 < n ? this.starts[m + 1] + delta : source.length;
      const probe = splitAt(source.slice(last.start, nextEnd), last.start);
      const kept = ranges.length - from;
      if (
        probe.ranges.length > kept &&
        ranges.slice(from).every((r, i) => r.start === probe.ranges[i].start && r.end === probe.ranges[i].end)
      )
        break;
      ranges.length = from;
      for (const r of probe.ranges) ranges.push(r);
      if (open < 0 || open >= last.start) open = probe.open;
      k = m + 1;
      windowEnd = nextEnd;
      toEndInOne = false;
    }
    // A string or comment open in the window, before or after the edit, may run past it: rare
    // (broken text), so the rest of the document is split again rather than followed piecewise.
    const wasOpenHere = this.openStart >= regionStart && this.openStart < oldWindowEnd;
    if ((open >= 0 || wasOpenHere) && !toEndInOne) {
      ({ ranges, open } = splitAt(source.slice(regionStart, source.length), regionStart));
      k = n;
      windowEnd = source.length;
    }
    // An open statement above the window stays the first one: its text did not change.
    if (windowEnd === source.length)
      this.openStart = this.openStart >= 0 && this.openStart < regionStart ? this.openStart : open;
    else if (this.openStart >= oldWindowEnd) this.openStart += delta;
    const window = source.slice(regionStart, windowEnd);
    const removed = this.summaries.slice(first, k);
    const summaries: S[] = [];
    let j = first;
    for (const r of ranges) {
      // Old statements are in text order, as are the new ranges: advance to the first old one that could match.
      while (j < k && this.oldStartInNewText(j, oldEnd, delta) < r.start) j++;
      summaries.push(
        j < k && this.unchangedAs(j, r, oldStart, oldEnd, delta)
          ? this.summaries[j]
          : this.summarize(window, r.start - regionStart, r.end - regionStart, regionStart),
      );
    }
    if (delta !== 0) {
      for (let i = k; i < n; i++) {
        this.starts[i] += delta;
        this.ends[i] += delta;
      }
    }
    this.starts = splicedInt32(
      this.starts,
      first,
      k - first,
      ranges.map((r) => r.start),
    );
    this.ends = splicedInt32(
      this.ends,
      first,
      k - first,
      ranges.map((r) => r.end),
    );
    spliceLarge(this.summaries, first, k - first, summaries);
    for (const marks of this.picked) marks.splice(first, k, summaries);
    return { removed, added: summaries };
  }

  /** Whether old statement `i` holds only blanks and comments, read in `source` (the text after the edit) where it lies outside the edit. */
  private trivia(source: TextSource, i: number, oldStart: number, oldEnd: number, delta: number): boolean {
    const start = this.starts[i];
    const end = this.ends[i];
    if (end - start > 4096 || (end >= oldStart && start < oldEnd)) return false;
    const shift = start >= oldEnd ? delta : 0;
    const slice = source.slice(start + shift, end + shift);
    return skipTrivia(slice, 0, slice.length) >= slice.length;
  }

  /** Where old statement `j` starts after the edit (statements overlapping the edit: their old start). */
  private oldStartInNewText(j: number, oldEnd: number, delta: number): number {
    return this.starts[j] >= oldEnd ? this.starts[j] + delta : this.starts[j];
  }

  /**
   * Whether old statement `j` has the same text as the new statement `r` and the same character
   * after it (a summary's line positions look at the character after a trailing `\r`): it lies
   * wholly before the edit, or wholly after it, at the same shifted place.
   */
  private unchangedAs(j: number, r: TextRange, oldStart: number, oldEnd: number, delta: number): boolean {
    const start = this.starts[j];
    const end = this.ends[j];
    if (end < oldStart) return start === r.start && end === r.end;
    return start >= oldEnd && start + delta === r.start && end + delta === r.end;
  }
}

/** Whether the new statement `r` of `source` holds only blanks and comments (a long one counts as holding more). */
function triviaRange(source: TextSource, r: TextRange): boolean {
  if (r.end - r.start > 4096) return false;
  const slice = source.slice(r.start, r.end);
  return skipTrivia(slice, 0, slice.length) >= slice.length;
}
