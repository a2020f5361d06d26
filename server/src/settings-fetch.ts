/**
 * Asks the client for the `xlaLayout` settings without waiting on it for long. The fetch runs in the
 * document queue (in-order.ts) so that diagnostics honour the settings, which means an unanswered
 * workspace/configuration would hold every later edit and request; past a few seconds the current
 * settings stay, and the answer is still applied when it comes, unless a newer fetch was asked since.
 * While a fetch that timed out is still unanswered, later fetches do not wait at all: a client that
 * dropped one request would make every settings change cost the queue the full wait again.
 */
import type { Clock } from './clock';

/** How long the document queue waits for the client's answer. */
const CONFIGURATION_TIMEOUT_MS = 3000;

const LATE = Symbol('late');

/** The client's error answer to workspace/configuration. */
class Refused {
  readonly message: string;
  constructor(e: unknown) {
    this.message = e instanceof Error ? e.message : String(e);
  }
}

export interface SettingsFetchOptions {
  /** Sends workspace/configuration and resolves with the `xlaLayout` section. */
  readonly ask: () => Promise<unknown>;
  /** Takes the section in (runs inside the document queue). */
  readonly apply: (section: unknown) => Promise<void>;
  /** Queues a late answer's {@link apply} behind the documents' tasks. */
  readonly later: (task: () => Promise<void>) => void;
  readonly log: (message: string) => void;
  readonly clock: Clock;
  readonly timeoutMs?: number;
}

export class SettingsFetch {
  /** Fetches asked so far: a late answer counts only when no newer fetch was asked. */
  private asked = 0;
  /** Whether the current wait on an unanswering client was logged (once until it answers in time). */
  private warned = false;
  /** Whether a fetch that timed out has had no answer yet, so later fetches need not wait either. */
  private stalled = false;

  constructor(private readonly o: SettingsFetchOptions) {}

  async fetch(): Promise<void> {
    const ask = ++this.asked;
    const answer = this.o.ask();
    if (this.stalled) return this.applyWhenAnswered(answer, ask);
    const ms = this.o.timeoutMs ?? CONFIGURATION_TIMEOUT_MS;
    let timer: unknown;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = this.o.clock.setTimeout(() => resolve(LATE), ms);
    });
    const first = await Promise.race([answer, late])
      .catch((e: unknown) => new Refused(e))
      .finally(() => this.o.clock.clearTimeout(timer));
    if (first instanceof Refused) {
      // A protocol answer, not a fault of ours: one line, no stack.
      this.o.log(
        `The editor answered the request for settings with an error (${first.message}); the settings stay as they were.`,
      );
      return;
    }
    if (first !== LATE) {
      this.warned = false;
      return this.o.apply(first);
    }
    if (!this.warned) {
      this.warned = true;
      this.o.log(
        `The editor did not answer the request for settings (workspace/configuration) within ${ms / 1000} s; ` +
          'the server goes on with the settings it has and applies the answer when it comes.',
      );
    }
    this.applyWhenAnswered(answer, ask);
  }

  private applyWhenAnswered(answer: Promise<unknown>, ask: number): void {
    this.stalled = true;
    answer.then(
      (section) => {
        this.stalled = false;
        if (ask === this.asked) this.o.later(() => this.o.apply(section));
      },
      () => {
        this.stalled = false;
      },
    );
  }
}
