/**
 * The long statements of one document parsed last, kept until its text changes: a user moving
 * between two long tuples (hover here, definition there) would otherwise re-parse each on every
 * request, at the cost of its whole length.
 */
import type { HloStatement } from '../../core/src';

/** Most statements kept: what one user moves between. */
export const KEPT_STATEMENTS = 4;
/** Most characters of text the kept statements span together; the newest is kept whatever its size. */
export const KEPT_CHARS = 1 << 21;
/**
 * Shorter statements are parsed again each time, which costs little; so that a request walking
 * every statement (references, outline) does not push out the long ones.
 */
const KEPT_MIN_CHARS = 1024;

export class KeptParses {
  /** By start offset, oldest use first (a Map keeps insertion order). */
  private readonly kept = new Map<number, { end: number; statement: HloStatement }>();
  private chars = 0;

  /** The statement spanning [start, end), kept or parsed now by `parse`. */
  get(start: number, end: number, parse: () => HloStatement): HloStatement {
    const hit = this.kept.get(start);
    if (hit && hit.end === end) {
      this.kept.delete(start);
      this.kept.set(start, hit);
      return hit.statement;
    }
    const statement = parse();
    if (end - start < KEPT_MIN_CHARS) return statement;
    if (hit) this.drop(start);
    this.kept.set(start, { end, statement });
    this.chars += end - start;
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_STATEMENTS && this.chars <= KEPT_CHARS) break;
      if (oldest === start) break;
      this.drop(oldest);
    }
    return statement;
  }

  /** Forgets every statement (the text changed, or the document closed). */
  clear(): void {
    this.kept.clear();
    this.chars = 0;
  }

  private drop(start: number): void {
    const entry = this.kept.get(start);
    if (!entry) return;
    this.chars -= entry.end - start;
    this.kept.delete(start);
  }
}
