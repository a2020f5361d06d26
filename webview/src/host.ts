/**
 * The channel to the extension host. Inside VS Code that is `acquireVsCodeApi()`; in a plain
 * browser page (tests, benchmarks) a small in-page stand-in records what the page sends, so the
 * same script runs unchanged in both.
 */
import type { WebviewToHostMessage } from '../../protocol/src/webview';

export interface HostApi {
  postMessage(message: WebviewToHostMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** What the in-page stand-in exposes on `window.xlaLayoutLensHost` for tests to read. */
export interface FallbackHost {
  readonly sent: WebviewToHostMessage[];
}

declare global {
  interface Window {
    acquireVsCodeApi?: () => VsCodeApi;
    xlaLayoutLensHost?: FallbackHost;
  }
}

/** Returns VS Code's API when the page runs in a webview, otherwise the in-page stand-in. */
export function acquireHost(): HostApi {
  if (typeof window.acquireVsCodeApi === 'function') {
    const api = window.acquireVsCodeApi();
    return {
      postMessage: (message) => api.postMessage(message),
      getState: () => api.getState(),
      setState: (state) => api.setState(state),
    };
  }
  const fallback: FallbackHost = { sent: [] };
  window.xlaLayoutLensHost = fallback;
  let state: unknown;
  return {
    postMessage: (message) => {
      fallback.sent.push(message);
      window.dispatchEvent(new CustomEvent('xla-layout-lens-sent', { detail: message }));
    },
    getState: () => state,
    setState: (next) => {
      state = next;
    },
  };
}
