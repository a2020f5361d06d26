/**
 * Runs the visualizer page in a real headless Chromium: builds dist/webview.js with the project's
 * esbuild script, serves the page over loopback HTTP with the same HTML and CSP the VS Code panel
 * uses (client/src/visualizer/html.ts), and drives it with messages like the extension host does.
 * Shared by test/webview/*.test.ts and bench/webview.bench.ts.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { visualizerHtml } from '../../client/src/visualizer/html';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../protocol/src/webview';
// Brings in the page's `window.xlaLayoutLensHost` declaration (the in-page stand-in for VS Code).
import type { FallbackHost } from '../../webview/src/host';

export type { FallbackHost };

export const ROOT = resolve(__dirname, '../..');
export const CHROMIUM = '/usr/bin/chromium';
export const RESULTS = join(ROOT, 'test-results', 'webview');

/** Builds every esbuild entry; fails only if dist/webview.js itself was not (re)built. */
export async function buildWebview(): Promise<void> {
  const out = join(ROOT, 'dist', 'webview.js');
  const before = existsSync(out) ? statSync(out).mtimeMs : 0;
  const { error, stderr } = await new Promise<{ error: Error | null; stderr: string }>((done) => {
    execFile(process.execPath, ['esbuild.js'], { cwd: ROOT }, (err, _stdout, errText) => done({ error: err, stderr: errText }));
  });
  // Other layers' entries may fail to build while they are being written; only ours matters here.
  if (!existsSync(out) || (statSync(out).mtimeMs <= before && error !== null)) {
    throw new Error(`esbuild did not produce dist/webview.js:\n${stderr}`);
  }
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };
/** The only files the page may load, like the panel's localResourceRoots. */
const SERVED = ['/dist/webview.js', '/dist/webview.js.map', '/webview/media/visualizer.css'];

export interface PageServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves the page at `/` (fresh nonce per load) and the allowed resources, on 127.0.0.1. */
export async function servePage(): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') {
      const origin = `http://${req.headers.host}`;
      const html = visualizerHtml({
        cspSource: origin,
        nonce: randomBytes(16).toString('hex'),
        scriptUri: `${origin}/dist/webview.js`,
        styleUri: `${origin}/webview/media/visualizer.css`,
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    if (path === '/favicon.ico') {
      // Chromium asks for it on its own; answering keeps the console free of a 404.
      res.writeHead(204);
      res.end();
      return;
    }
    if (SERVED.includes(path) && existsSync(join(ROOT, path))) {
      res.writeHead(200, { 'content-type': TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' });
      res.end(readFileSync(join(ROOT, path)));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Opens the page and waits until its script has said `ready`. Collects console errors and CSP violations. */
export async function openPage(browser: Browser, origin: string, viewport = { width: 1100, height: 900 }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.xlaLayoutLensHost?.sent.some((m) => m.type === 'ready') === true);
  return { page, errors };
}

/** Sends a host message the way VS Code delivers it (a window `message` event). */
export async function post(page: Page, message: HostToWebviewMessage | Record<string, unknown>): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, '*'), message);
}

/** Shows a shape and waits until the page handled it (and, when drawable, painted it). */
export async function show(page: Page, shape: string, extra: Record<string, unknown> = {}): Promise<void> {
  const before = await page.evaluate(() => Number(document.getElementById('app')!.dataset.shown ?? 0));
  await post(page, { type: 'show', shape, ...extra });
  await page.waitForFunction((n) => Number(document.getElementById('app')!.dataset.shown ?? 0) > n, before);
  const drawable = await page.evaluate(() => document.getElementById('pane-a')!.dataset.status === 'drawn');
  if (drawable) await page.waitForFunction(() => (document.getElementById('app')!.dataset.firstPaintMs ?? '') !== '');
}

/** The page's messages to the host so far. */
export async function sent(page: Page): Promise<WebviewToHostMessage[]> {
  return page.evaluate(() => window.xlaLayoutLensHost?.sent ?? []);
}

export interface TableCell {
  readonly row: number;
  readonly col: number;
  readonly kind: string;
  readonly text: string;
}

/** Reads the offscreen accessible table of a view (`logical-a`, `memory-b`, …). */
export async function readTable(page: Page, id: string): Promise<TableCell[]> {
  // The page refreshes its tables at most every 150 ms while the view moves; wait until current.
  await page.waitForFunction((tableId) => document.getElementById(tableId)?.dataset.pending === undefined, id);
  return page.evaluate((tableId) => {
    const cells = Array.from(document.querySelectorAll<HTMLTableCellElement>(`#${tableId} td`));
    return cells.map((td) => ({ row: Number(td.dataset.row), col: Number(td.dataset.col), kind: td.dataset.kind ?? '', text: td.textContent ?? '' }));
  }, id);
}

/** The `kind === 'cell'` entries of a table as a dense matrix of their texts. */
export function cellMatrix(cells: readonly TableCell[], rows: number, cols: number): string[][] {
  const m = Array.from({ length: rows }, () => new Array<string>(cols).fill(''));
  for (const c of cells) if (c.kind === 'cell' && c.row < rows && c.col < cols) m[c.row][c.col] = c.text;
  return m;
}
