/**
 * The Memory View page's HTML: the visualizer's CSP (nothing by default, the one script carrying a
 * fresh nonce) around an empty `main#app` that dist/memory-view.js fills. Free of `vscode` imports,
 * so the browser tests load the very same markup. Only the host's own URIs and the nonce are
 * interpolated; document text travels in messages and is rendered as text.
 */
import { visualizerCsp } from '../visualizer/html';

export interface MemoryViewHtmlInput {
  readonly cspSource: string;
  readonly nonce: string;
  /** URI of dist/memory-view.js as the webview sees it. */
  readonly scriptUri: string;
  /** URI of webview/media/memory-view.css as the webview sees it. */
  readonly styleUri: string;
}

function attr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function memoryViewHtml(input: MemoryViewHtmlInput): string {
  const csp = visualizerCsp(input.cspSource, input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(input.styleUri)}">
<title>XLA Memory View</title>
</head>
<body>
<main id="app" aria-label="XLA memory view"></main>
<script nonce="${attr(input.nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}
