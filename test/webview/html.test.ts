/**
 * The panel's page (client/src/visualizer/html.ts): a strict CSP with a fresh nonce per load, one
 * script (the bundle, carrying the nonce), and nothing interpolated unescaped.
 */
import { strict as assert } from 'node:assert';
import { createNonce, visualizerCsp, visualizerHtml } from '../../client/src/visualizer/html';

describe('visualizer page HTML and CSP', () => {
  const source = 'https://file+.vscode-resource.vscode-cdn.net';

  it('builds the CSP the brief prescribes', () => {
    assert.equal(
      visualizerCsp(source, 'abc123'),
      `default-src 'none'; img-src ${source} data:; style-src ${source}; script-src 'nonce-abc123'`,
    );
  });

  it('makes a fresh 128-bit nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => createNonce()));
    assert.equal(nonces.size, 100);
    for (const n of nonces) assert.match(n, /^[0-9a-f]{32}$/);
  });

  it('loads one script with the nonce and one stylesheet, with the URIs escaped', () => {
    const html = visualizerHtml({
      cspSource: source,
      nonce: 'n0nce',
      scriptUri: `${source}/dist/webview.js?a="b"`,
      styleUri: `${source}/webview/media/visualizer.css`,
    });
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.match(
      html,
      /<script nonce="n0nce" src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/dist\/webview\.js\?a=&#34;b&#34;"><\/script>/,
    );
    assert.match(
      html,
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src [^"]+ data:; style-src [^"]+; script-src &#39;nonce-n0nce&#39;">/,
    );
    assert.match(
      html,
      /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/webview\/media\/visualizer\.css">/,
    );
  });
});
