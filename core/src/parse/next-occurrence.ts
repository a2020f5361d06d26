/**
 * Where the next `"`, `/`, line break... is, remembered across the calls of a walk: walking one
 * text forward, asking at each step for the next occurrence of a few strings, has the engine
 * search each stretch once however often it asks. The splitter, the shape finder and the lexical
 * checks each keep one such memo.
 */

/** Texts up to this length (a statement taken out on its own) are remembered apart from longer ones. */
const SHORT_TEXT = 16_384;
/**
 * Texts longer than this (a document, not a region taken out of one) are remembered apart too, and
 * get each string's last occurrence remembered: a lookup far from where the last walk went (a
 * hover) does not read the rest of the text for a string it never holds again.
 */
const LONG_TEXT = 1 << 20;
/** How far back of its last search a lookup reads character by character rather than searching afresh. */
const BACK_STEP = 1 << 16;
/** Marks a last occurrence not looked for yet. */
const UNKNOWN = -2;

/** The first `needle` at or after `pos`, or `text.length` when there is none. */
export function nextAt(text: string, needle: string, pos: number): number {
  const at = text.indexOf(needle, pos);
  return at < 0 ? text.length : at;
}

/** What one text's walk has found: per needle, the position searched from and the occurrence found. */
class Found {
  text = '';
  readonly from: number[];
  readonly at: number[];
  readonly last: number[];

  constructor(kinds: number) {
    this.from = new Array<number>(kinds).fill(-1);
    this.at = new Array<number>(kinds).fill(-1);
    this.last = new Array<number>(kinds).fill(UNKNOWN);
  }

  /** Starts over on `text`; element by element, as `fill` is a runtime call and this runs per statement. */
  reset(text: string): void {
    this.text = text;
    for (let k = 0; k < this.at.length; k++) {
      this.from[k] = -1;
      this.at[k] = -1;
      this.last[k] = UNKNOWN;
    }
  }
}

/**
 * The next occurrence of each of a few strings (`needles`, asked for by index) at or after a
 * position. One text of each size is remembered at once (a statement, a region, a document), so
 * that statements and regions taken out of a document as strings of their own, walked between
 * steps through the document, do not make the document's walk search again from scratch.
 */
export class NextOccurrences {
  private readonly statement: Found;
  private readonly region: Found;
  private readonly document: Found;

  constructor(private readonly needles: readonly string[]) {
    this.statement = new Found(needles.length);
    this.region = new Found(needles.length);
    this.document = new Found(needles.length);
  }

  /** Where a text of this length is remembered. */
  private slot(length: number): Found {
    return length > LONG_TEXT ? this.document : length > SHORT_TEXT ? this.region : this.statement;
  }

  /** The first occurrence of needle `k` at or after `pos` in `text` (`text.length` when there is none). */
  find(text: string, k: number, pos: number): number {
    // Kept small so that the engine inlines it in the walks: the answer is mostly remembered.
    const found = this.slot(text.length);
    if (text === found.text) {
      // Keep this very string: two equal strings that are distinct objects (a document reopened)
      // compare by reading them whole, and would on every call.
      found.text = text;
      const at = found.at[k];
      if (pos <= at && pos >= found.from[k]) return at;
    }
    return this.search(found, text, k, pos);
  }

  private search(found: Found, text: string, k: number, pos: number): number {
    if (text !== found.text) found.reset(text);
    const from = found.from[k];
    const at = found.at[k];
    if (pos >= from && pos <= at) return at;
    found.from[k] = pos;
    // Past a string's last occurrence in a long text there is none, whatever was asked before.
    if (text.length > LONG_TEXT && pos > this.lastOf(found, k)) return (found.at[k] = text.length);
    if (pos < from && from - pos <= BACK_STEP) {
      // A step back (a look at the lines above): only the stretch up to `from` is new; searching
      // afresh would read on to the next occurrence, the whole text for a string never used.
      const needle = this.needles[k];
      const first = needle.charCodeAt(0);
      for (let i = pos; i < from; i++)
        if (text.charCodeAt(i) === first && text.startsWith(needle, i)) return (found.at[k] = i);
      return at;
    }
    return (found.at[k] = nextAt(text, this.needles[k], pos));
  }

  /**
   * Records that needle `k` occurs first at `at` from `pos` on, found by a caller's own search
   * (a walk that keeps the next occurrences in locals); ignored when `text` is not one remembered.
   */
  remember(text: string, k: number, pos: number, at: number): void {
    const found = this.slot(text.length);
    if (text !== found.text) return;
    found.text = text;
    found.from[k] = pos;
    found.at[k] = at;
  }

  /** Drops the texts remembered: a memo that outlives a document must not keep its text alive. */
  forget(): void {
    this.statement.reset('');
    this.region.reset('');
    this.document.reset('');
  }

  /** The last occurrence of needle `k` in the long text `found` holds (-1: none), looked for once. */
  private lastOf(found: Found, k: number): number {
    if (found.last[k] === UNKNOWN) {
      // A forward search runs at memory speed, a backward one about ten times slower: a needle the
      // text never holds (`'`, `\r` in a dump) is found absent forwards.
      const needle = this.needles[k];
      found.last[k] = found.text.indexOf(needle) < 0 ? -1 : found.text.lastIndexOf(needle);
    }
    return found.last[k];
  }
}

/** The memos that live as long as the process (one per walk of a module, not per text). */
const shared: NextOccurrences[] = [];

/** A memo for the life of the process, whose texts {@link forgetSharedTexts} drops. */
export function sharedNextOccurrences(needles: readonly string[]): NextOccurrences {
  const memo = new NextOccurrences(needles);
  shared.push(memo);
  return memo;
}

/**
 * Makes the process-wide memos, and the engine's record of the last match, forget their texts: a
 * language server calls it when a document closes, which would otherwise stay in memory until
 * another text as long is walked.
 */
export function forgetSharedTexts(): void {
  for (const memo of shared) memo.forget();
  // The engine keeps the subject of the last regular expression match (`RegExp.input`) too.
  /^/.exec('');
}
