/**
 * Settings fetches and document notifications run one after another in arrival order: the first
 * diagnostics already honour the user's settings (clients send `initialized` before any didOpen),
 * no change overtakes its open, and no edit lands in the middle of a sliced re-analysis. Requests
 * wait for the tasks queued before them ({@link InOrder.settled}), so they read the text the client
 * had when it asked.
 */
export class InOrder {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly logError: (message: string) => void) {}

  /** Queues `task`; when it fails, the failure is logged and the next task runs. */
  run(name: string, task: () => void | Promise<void>): void {
    this.tail = this.tail
      .then(task)
      .catch((e: unknown) =>
        this.logError(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
      );
  }

  /** Resolves once every task queued so far has run. */
  settled(): Promise<void> {
    return this.tail;
  }
}
