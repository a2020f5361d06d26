/**
 * The Memory View's channel to the extension host (see ../host.ts); in a plain browser page (tests)
 * its stand-in records what the page sends on `window.xlaMemoryViewHost`.
 */
import type { MemoryToHostMessage } from '../../../protocol/src/memory';
import { connectHost, type Host, type InPageHost } from '../host';

/** What the Memory View's stand-in exposes on `window.xlaMemoryViewHost`. */
export type MemoryFallbackHost = InPageHost<MemoryToHostMessage>;

declare global {
  interface Window {
    xlaMemoryViewHost?: MemoryFallbackHost;
  }
}

export function acquireMemoryHost(): Host<MemoryToHostMessage> {
  return connectHost((record) => (window.xlaMemoryViewHost = record), 'xla-memory-view-sent');
}
