/**
 * The channel to the extension host. Inside VS Code that is `acquireVsCodeApi()`; in a plain
 * browser page (tests, benchmarks) a small in-page stand-in records what the page sends, so the
 * same script runs unchanged in both. The visualizer and the Memory View each name their stand-in.
 */
import type { Validated, WebviewToHostMessage } from '../../protocol/src/webview';

/** What a page sends its messages `M` through, and where it keeps its state across reloads. */
export interface Host<M> {
  postMessage(message: M): void;
  getState(): unknown;
  setState(state: unknown): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** The in-page stand-in's record, on a `window` property for tests to read (and set the state). */
export interface InPageHost<M> {
  readonly sent: M[];
  state: unknown;
}

/** What the visualizer's stand-in exposes on `window.xlaLayoutLensHost`. */
export type FallbackHost = InPageHost<WebviewToHostMessage>;

declare global {
  interface Window {
    acquireVsCodeApi?: () => VsCodeApi;
    xlaLayoutLensHost?: FallbackHost;
  }
}

/**
 * VS Code's API when the page runs in a webview; otherwise a stand-in that hands its record to
 * `expose` and announces each message as a `sentEvent` event on `window`.
 */
export function connectHost<M>(expose: (record: InPageHost<M>) => void, sentEvent: string): Host<M> {
  if (typeof window.acquireVsCodeApi === 'function') {
    const api = window.acquireVsCodeApi();
    return {
      postMessage: (message) => api.postMessage(message),
      getState: () => api.getState(),
      setState: (state) => api.setState(state),
    };
  }
  const record: InPageHost<M> = { sent: [], state: undefined };
  expose(record);
  return {
    postMessage: (message) => {
      record.sent.push(message);
      window.dispatchEvent(new CustomEvent(sentEvent, { detail: message }));
    },
    getState: () => record.state,
    setState: (state) => {
      record.state = state;
    },
  };
}

/**
 * Hands `handle` every message from the host that `validate` accepts; a malformed one is logged
 * (naming the `page`) and dropped.
 */
export function onHostMessage<T>(
  validate: (data: unknown) => Validated<T>,
  page: string,
  handle: (message: T) => void,
): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const checked = validate(event.data);
    if (!checked.ok) {
      console.warn(`XLA Layout ${page}: ignored a malformed message: ${checked.error}`);
      return;
    }
    handle(checked.value);
  });
}

/** The visualizer's channel. */
export function acquireHost(): Host<WebviewToHostMessage> {
  return connectHost((record) => (window.xlaLayoutLensHost = record), 'xla-layout-lens-sent');
}
