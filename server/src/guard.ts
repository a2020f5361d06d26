/**
 * Keeps one failing feature from taking the server down: every request handler runs inside
 * {@link guarded}, which answers cancelled requests with RequestCancelled, and turns an exception
 * into a log line plus the feature's empty result. Long handlers tick a {@link TimeSlice} in their
 * loops so cancellation (and other messages) get a chance to arrive.
 */
import { LSPErrorCodes, ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver';

/** A handler that may be cancelled; `T` is its empty result. */
export type Handler<P, R> = (params: P, token: CancellationToken) => R | Promise<R>;

/** Thrown by {@link TimeSlice.tick} when the request was cancelled; {@link guarded} turns it into the LSP error. */
export class Cancelled extends Error {
  constructor() {
    super('request cancelled');
  }
}

/** Wraps `handler`: cancellation → RequestCancelled; exceptions → logged, `empty` returned. */
export function guarded<P, R>(connection: Connection, name: string, empty: R, handler: Handler<P, R>): Handler<P, R | ResponseError<void>> {
  return async (params, token) => {
    if (token.isCancellationRequested) return cancelled();
    try {
      return await handler(params, token);
    } catch (e) {
      if (e instanceof Cancelled) return cancelled();
      connection.console.error(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return empty;
    }
  };
}

function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
}

/** Runs `fn` and logs instead of throwing (for notification handlers, which have no result). */
export function logged(connection: Connection, name: string, fn: () => void | Promise<void>): void {
  const report = (e: unknown) => connection.console.error(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  try {
    const r = fn();
    if (r instanceof Promise) r.catch(report);
  } catch (e) {
    report(e);
  }
}

/**
 * A time-sliced loop helper: call `await slice.tick(token)` often; every ~15 ms it yields to the
 * event loop (so a $/cancelRequest can be read) and throws {@link Cancelled} once cancelled.
 */
export class TimeSlice {
  private last = Date.now();

  async tick(token: CancellationToken): Promise<void> {
    if (Date.now() - this.last < 15) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.last = Date.now();
    if (token.isCancellationRequested) throw new Cancelled();
  }
}
