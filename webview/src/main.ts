/**
 * Entry point of the visualizer webview (bundled to dist/webview.js). Every message from the host
 * is validated before use; the page announces itself with `ready` and then waits for `show`.
 */
import { validateHostToWebview } from '../../protocol/src/webview';
import { App, type PageState } from './app';
import { acquireHost, onHostMessage } from './host';

function isPageState(value: unknown): value is PageState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    validateHostToWebview(v.shown).ok &&
    typeof v.edited === 'string' &&
    (v.compare === undefined || typeof v.compare === 'string')
  );
}

function start(): void {
  const root = document.getElementById('app');
  if (root === null) return;
  const host = acquireHost();
  const app = new App(
    root,
    (m) => host.postMessage(m),
    (s) => host.setState(s),
  );
  onHostMessage(validateHostToWebview, 'visualizer', (message) => {
    if (message.type === 'show') {
      // A reload (the panel was hidden) restores what the user typed over the same shape.
      const saved = host.getState();
      const restore = isPageState(saved) && saved.shown.shape === message.shape ? saved : undefined;
      app.show(message, restore?.edited, restore?.compare);
    } else if (message.type === 'follow') {
      app.setFollow(message.on, false);
    } else {
      app.exportResult(message.ok, message.detail);
    }
  });
  host.postMessage({ type: 'ready' });
}

start();
