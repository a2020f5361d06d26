/**
 * Runs the visualizer page in a real headless Chromium: builds dist/webview.js with the project's
 * esbuild script, serves the page over loopback HTTP with the same HTML and CSP the VS Code panel
 * uses (client/src/visualizer/html.ts), and drives it with messages like the extension host does.
 * Shared by test/webview/*.test.ts and bench/webview.bench.ts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { visualizerHtml } from '../../client/src/visualizer/html';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../protocol/src/webview';
// Brings in the page's `window.xlaLayoutLensHost` declaration (the in-page stand-in for VS Code).
import type { FallbackHost } from '../../webview/src/host';
import {
  openCollectingErrors,
  pagePerTest,
  useBrowserAndServer,
  type OpenedPage,
} from '../support/browser-pages';
import { launchChromium } from '../support/chromium';
import { buildBundle } from '../support/esbuild';
import { serveLoopback, type LoopbackServer } from '../support/loopback-server';

export type { FallbackHost };
export { launchChromium };

export const ROOT = resolve(__dirname, '../..');
export const RESULTS = join(ROOT, 'test-results', 'webview');

/** Builds every esbuild entry; fails only if dist/webview.js itself was not (re)built. */
export async function buildWebview(): Promise<void> {
  await buildBundle('dist/webview.js');
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
};
/** The only files the page may load, like the panel's localResourceRoots. */
const SERVED = ['/dist/webview.js', '/dist/webview.js.map', '/webview/media/visualizer.css'];

export type PageServer = LoopbackServer;

/** Serves the page at `/` (fresh nonce per load) and the allowed resources, on 127.0.0.1. */
export async function servePage(): Promise<PageServer> {
  return serveLoopback((path, req) => {
    if (path === '/') {
      const origin = `http://${req.headers.host}`;
      const html = visualizerHtml({
        cspSource: origin,
        nonce: randomBytes(16).toString('hex'),
        scriptUri: `${origin}/dist/webview.js`,
        styleUri: `${origin}/webview/media/visualizer.css`,
      });
      return { headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
    }
    if (SERVED.includes(path) && existsSync(join(ROOT, path))) {
      return {
        headers: { 'content-type': TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' },
        body: readFileSync(join(ROOT, path)),
      };
    }
    return undefined;
  });
}

/**
 * Opens the page in a new tab of its own browser context and waits until its script has said
 * `ready`. Collects console errors and CSP violations into `errors`.
 */
export async function openPage(
  browser: Browser,
  origin: string,
  viewport = { width: 1100, height: 900 },
  deviceScaleFactor = 1,
): Promise<OpenedPage> {
  const opened = await openCollectingErrors(browser, `${origin}/`, { viewport, deviceScaleFactor });
  await opened.page.waitForFunction(
    () => window.xlaLayoutLensHost?.sent.some((m) => m.type === 'ready') === true,
  );
  return opened;
}

/** Opens pages of the visualizer on the browser and server a suite shares. */
export interface PageRig {
  /** {@link openPage} on the suite's browser and server. */
  open(viewport?: { width: number; height: number }, deviceScaleFactor?: number): Promise<OpenedPage>;
}

/**
 * Registers the suite's `before` hook, which creates test-results/webview, builds dist/webview.js,
 * serves the page and launches Chromium, and its `after` hook, which closes both. Call it in the
 * describe block before any hook that opens a page.
 */
export function usePageRig(): PageRig {
  const started = useBrowserAndServer(async () => {
    mkdirSync(RESULTS, { recursive: true });
    await buildWebview();
    return servePage();
  });
  return {
    async open(viewport, deviceScaleFactor) {
      const { browser, server } = started();
      return openPage(browser, server.origin, viewport, deviceScaleFactor);
    },
  };
}

/**
 * {@link usePageRig}, and a fresh page for each test, handed to `use`; after the test the page is
 * closed and, unless `assertNoErrors` is false, must have logged no console error or CSP violation.
 */
export function usePagePerTest(
  use: (opened: OpenedPage) => void,
  options?: { assertNoErrors?: boolean },
): void {
  const rig = usePageRig();
  pagePerTest(() => rig.open(), use, options);
}

/** Sends a host message the way VS Code delivers it (a window `message` event). */
export async function post(
  page: Page,
  message: HostToWebviewMessage | Record<string, unknown>,
): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, '*'), message);
}

/** Shows a shape and waits until the page handled it (and, when drawable, painted it). */
export async function show(page: Page, shape: string, extra: Record<string, unknown> = {}): Promise<void> {
  const before = await page.evaluate(() => Number(document.getElementById('app')!.dataset.shown ?? 0));
  await post(page, { type: 'show', shape, ...extra });
  await page.waitForFunction((n) => Number(document.getElementById('app')!.dataset.shown ?? 0) > n, before);
  const drawable = await page.evaluate(() => document.getElementById('pane-a')!.dataset.status === 'drawn');
  if (drawable)
    await page.waitForFunction(() => (document.getElementById('app')!.dataset.firstPaintMs ?? '') !== '');
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

/** Waits until a view's table shows the current picture: the page refreshes tables at most every 150 ms. */
async function tableCurrent(page: Page, id: string): Promise<void> {
  await page.waitForFunction(
    (tableId) => document.getElementById(tableId)?.dataset.pending === undefined,
    id,
  );
}

/** Reads the offscreen accessible table of a view (`logical-a`, `memory-b`, …). */
export async function readTable(page: Page, id: string): Promise<TableCell[]> {
  await tableCurrent(page, id);
  return page.evaluate((tableId) => {
    const cells = Array.from(document.querySelectorAll<HTMLTableCellElement>(`#${tableId} td`));
    return cells.map((td) => ({
      row: Number(td.dataset.row),
      col: Number(td.dataset.col),
      kind: td.dataset.kind ?? '',
      text: td.textContent ?? '',
    }));
  }, id);
}

/** A view's table `data-state` ('overview' or 'cells') once the table is current. */
export async function tableState(page: Page, id: string): Promise<string | undefined> {
  await tableCurrent(page, id);
  return page.evaluate((tableId) => document.getElementById(tableId)?.dataset.state, id);
}

/** The `kind === 'cell'` entries of a table as a dense matrix of their texts. */
export function cellMatrix(cells: readonly TableCell[], rows: number, cols: number): string[][] {
  const m = Array.from({ length: rows }, () => new Array<string>(cols).fill(''));
  for (const c of cells) if (c.kind === 'cell' && c.row < rows && c.col < cols) m[c.row][c.col] = c.text;
  return m;
}
