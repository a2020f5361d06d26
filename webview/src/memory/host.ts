/**
 * The Memory View's channel to the extension host: `acquireVsCodeApi()` inside VS Code; in a plain
 * browser page (tests) an in-page stand-in that records what the page sends, on
 * `window.xlaMemoryViewHost`.
 */
import type { MemoryToHostMessage } from '../../../protocol/src/memory';

export interface MemoryHost {
  postMessage(message: MemoryToHostMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** What the stand-in exposes for tests. */
export interface MemoryFallbackHost {
  readonly sent: MemoryToHostMessage[];
  state: unknown;
}

declare global {
  interface Window {
    xlaMemoryViewHost?: MemoryFallbackHost;
  }
}

export function acquireMemoryHost(): MemoryHost {
  const acquire = (window as unknown as { acquireVsCodeApi?: () => VsCodeApi }).acquireVsCodeApi;
  if (typeof acquire === 'function') {
    const api = acquire();
    return {
      postMessage: (m) => api.postMessage(m),
      getState: () => api.getState(),
      setState: (s) => api.setState(s),
    };
  }
  const fallback: MemoryFallbackHost = { sent: [], state: undefined };
  window.xlaMemoryViewHost = fallback;
  return {
    postMessage: (m) => {
      fallback.sent.push(m);
      window.dispatchEvent(new CustomEvent('xla-memory-view-sent', { detail: m }));
    },
    getState: () => fallback.state,
    setState: (s) => {
      fallback.state = s;
    },
  };
}
