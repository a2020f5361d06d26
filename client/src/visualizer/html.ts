/**
 * The visualizer page's HTML. Kept free of `vscode` imports so that the browser tests load the very
 * same markup and CSP as the panel does. Only the host's own URIs and the nonce are interpolated;
 * document text never goes into this HTML (it travels in messages and is rendered as text).
 */

export interface VisualizerHtmlInput {
  /** `webview.cspSource`: the origin the page may load styles and images from. */
  readonly cspSource: string;
  /** A fresh random nonce; the only script allowed to run carries it. */
  readonly nonce: string;
  /** URI of dist/webview.js as the webview sees it. */
  readonly scriptUri: string;
  /** URI of webview/media/visualizer.css as the webview sees it. */
  readonly styleUri: string;
}

/** The Content-Security-Policy of the page: nothing by default, scripts only with the nonce. */
export function visualizerCsp(cspSource: string, nonce: string): string {
  return `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; script-src 'nonce-${nonce}'`;
}

/** 32 random hex characters from the platform's CSPRNG (Node 20 and browsers both have `crypto`). */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Escapes a value for an HTML attribute; used for the host's own URIs, as defence in depth. */
function attr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A webview page of this extension: the CSP above, the stylesheet, and an empty `main#app` that the
 * one nonce-carrying script fills. The visualizer and the Memory View differ only in their names.
 */
export function webviewPageHtml(input: VisualizerHtmlInput, title: string, label: string): string {
  const csp = visualizerCsp(input.cspSource, input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(input.styleUri)}">
<title>${title}</title>
</head>
<body>
<main id="app" aria-label="${label}"></main>
<script nonce="${attr(input.nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}

/** The complete page. The body is filled in by dist/webview.js. */
export function visualizerHtml(input: VisualizerHtmlInput): string {
  return webviewPageHtml(input, 'XLA Layout Visualizer', 'XLA layout visualizer');
}
