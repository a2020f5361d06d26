/**
 * A full garbage collection once the server has sent nothing large for a while. A publish of many
 * diagnostics, or an outline or folding answer of many items, leaves tens of MiB of garbage (the
 * LSP objects and their JSON) that a burst of edits promotes to the old generation faster than V8
 * collects it; collecting when the user has stopped typing, not between keystrokes, gives that
 * memory back without slowing typing down (figures in docs/performance.md).
 */
import type { Clock } from './clock';

/** A result with at least this many items schedules a collection. */
const LARGE_PUBLISH = 10_000;
/** Quiet time after the last large result before the collection runs. */
export const IDLE_COLLECTION_MS = 2000;

export class IdleCollection {
  private timer: unknown;
  private scheduled = false;

  constructor(
    private readonly collect: (() => void) | undefined,
    private readonly clock: Clock,
    private readonly idleMs = IDLE_COLLECTION_MS,
  ) {}

  /** Notes that a result of `count` items was sent; a large one (re)starts the wait for quiet. */
  sent(count: number): void {
    const collect = this.collect;
    if (collect === undefined || count < LARGE_PUBLISH) return;
    this.cancel();
    this.scheduled = true;
    this.timer = this.clock.setTimeout(() => {
      this.scheduled = false;
      collect();
    }, this.idleMs);
  }

  /** Drops a scheduled collection (a collection that just ran stands for it). */
  cancel(): void {
    if (this.scheduled) this.clock.clearTimeout(this.timer);
    this.scheduled = false;
  }
}
