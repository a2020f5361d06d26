/**
 * Entry point of the Memory View webview (bundled to dist/memory-view.js). Every message from the
 * host is validated before use; the page says `ready` and waits for `show`. What the user set up
 * (tab, filter, sorting) is kept in the webview state, which VS Code also hands back to the
 * extension when it restores the panel after a reload.
 */
import { validateHostToMemory } from '../../../protocol/src/memory';
import { MemoryApp, type MemoryPageState } from './app';
import { onHostMessage } from '../host';
import { acquireMemoryHost } from './host';

function isPageState(value: unknown): value is MemoryPageState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const sort = (s: unknown) =>
    typeof s === 'object' && s !== null && typeof (s as Record<string, unknown>).column === 'string';
  return (
    typeof v.uri === 'string' &&
    typeof v.name === 'string' &&
    (v.tab === 'allocations' || v.tab === 'values') &&
    typeof v.filter === 'string' &&
    (v.allocation === undefined || Number.isSafeInteger(v.allocation)) &&
    sort(v.allocationSort) &&
    sort(v.valueSort)
  );
}

function start(): void {
  const root = document.getElementById('app');
  if (root === null) return;
  const host = acquireMemoryHost();
  const app = new MemoryApp(
    root,
    (m) => host.postMessage(m),
    (s) => host.setState(s),
  );
  onHostMessage(validateHostToMemory, 'memory view', (message) => {
    if (message.type === 'error') {
      app.error(message.message);
      return;
    }
    if (message.type === 'showFolder') {
      app.showFolder(message);
      return;
    }
    const saved = host.getState();
    app.show(message, isPageState(saved) ? saved : undefined);
  });
  host.postMessage({ type: 'ready' });
}

start();
