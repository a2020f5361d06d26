/**
 * Keeps one failing feature from taking the server down: every request handler runs inside
 * {@link guarded}, which answers cancelled requests with RequestCancelled, requests whose document
 * was edited under them with ContentModified, passes on a ResponseError the handler throws, and
 * turns any other exception into a log line plus the feature's empty result. Long handlers tick a
 * {@link TimeSlice} in their loops so cancellation (and other messages) get a chance to arrive.
 */
import {
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
} from 'vscode-languageserver';

/** A handler that may be cancelled; `T` is its empty result. */
export type Handler<P, R> = (params: P, token: CancellationToken) => R | Promise<R>;

/** Thrown by {@link TimeSlice.tick} when the request was cancelled; {@link guarded} turns it into the LSP error. */
export class Cancelled extends Error {
  constructor() {
    super('request cancelled');
  }
}

/** Wraps `handler`: cancellation → RequestCancelled; exceptions → logged, `empty` returned. */
export function guarded<P, R>(
  connection: Connection,
  name: string,
  empty: R,
  handler: Handler<P, R>,
): Handler<P, R | ResponseError<void>> {
  return async (params, token) => {
    if (token.isCancellationRequested) return cancelled();
    try {
      return await handler(params, token);
    } catch (e) {
      if (e instanceof Cancelled) return cancelled();
      // A handler's own answer in error form (a refused rename says why); malformed params are
      // the client's fault, worth one line in the log.
      if (e instanceof ResponseError) {
        if (e.code === ErrorCodes.InvalidParams) connection.console.warn(e.message);
        return e as ResponseError<void>;
      }
      if (e instanceof ContentModified) return new ResponseError(LSPErrorCodes.ContentModified, e.message);
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
  const report = (e: unknown) =>
    connection.console.error(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  try {
    const r = fn();
    if (r instanceof Promise) r.catch(report);
  } catch (e) {
    report(e);
  }
}

/**
 * Thrown by {@link TimeSlice.tick} when a document the request reads was edited while it yielded:
 * its statement indexes and offsets no longer hold, so the request answers ContentModified, as
 * LSP prescribes, and the client asks again.
 */
export class ContentModified extends Error {
  constructor() {
    super('the document changed while the request ran');
  }
}

/**
 * A time-sliced loop helper: call `await slice.tick(token)` often; every ~15 ms it yields to the
 * event loop (so a $/cancelRequest can be read, and edits applied), throws {@link Cancelled} once
 * cancelled and {@link ContentModified} once one of the `documents` given has a new version.
 */
export class TimeSlice {
  private last = Date.now();
  private readonly versions: readonly number[];

  constructor(private readonly documents: readonly { readonly version: number }[] = []) {
    this.versions = documents.map((d) => d.version);
  }

  async tick(token: CancellationToken): Promise<void> {
    if (Date.now() - this.last < 15) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.last = Date.now();
    if (token.isCancellationRequested) throw new Cancelled();
    if (this.documents.some((d, i) => d.version !== this.versions[i])) throw new ContentModified();
  }
}
