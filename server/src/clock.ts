/**
 * The timers the server schedules work with, injectable so that tests can tell what is scheduled
 * and move time on instead of sleeping to see that nothing happens.
 */
export interface Clock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: the global timers. */
export const SYSTEM_CLOCK: Clock = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Yields to the event loop: setImmediate in Node (setTimeout would add its 1 ms minimum to every
 * 20 ms analysis slice), setTimeout in a web worker.
 */
export function pause(): Promise<void> {
  return new Promise<void>((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}
