/**
 * A clock for the server's timers that moves only when a test says so (`advance`), so a test can
 * see what is scheduled and that nothing runs early, without sleeping.
 */
import type { Clock } from '../../server/src/clock';

interface Timer {
  readonly at: number;
  readonly run: () => void;
}

export class ManualClock implements Clock {
  private time = 0;
  private next = 0;
  private readonly timers = new Map<number, Timer>();

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort(([a, ta], [b, tb]) => ta.at - tb.at || a - b)[0];
      if (due === undefined) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
  }
}
