/**
 * The Memory View page's HTML: the visualizer's CSP (nothing by default, the one script carrying a
 * fresh nonce) around an empty `main#app` that dist/memory-view.js fills. Free of `vscode` imports,
 * so the browser tests load the very same markup. Only the host's own URIs and the nonce are
 * interpolated; document text travels in messages and is rendered as text.
 */
import { webviewPageHtml, type VisualizerHtmlInput } from '../visualizer/html';

/** `input` gives the host's URIs of dist/memory-view.js and webview/media/memory-view.css. */
export function memoryViewHtml(input: VisualizerHtmlInput): string {
  return webviewPageHtml(input, 'XLA Memory View', 'XLA memory view');
}
