/**
 * Runs the Memory View page in a real headless Chromium, as the visualizer's tests do: builds
 * dist/memory-view.js with the project's esbuild script, serves the page with the panel's own
 * HTML and CSP (client/src/memory-view/html.ts) over loopback HTTP, and drives it with the host's
 * messages. Also builds those messages from a dump's files with core, as the extension does.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { memoryViewHtml } from '../../client/src/memory-view/html';
import { companionNames, memoryFromTexts, memoryModuleJson } from '../../core/src';
import type { MemoryToHostMessage, ShowMemoryMessage } from '../../protocol/src/memory';
// Brings in the page's `window.xlaMemoryViewHost` declaration.
import type { MemoryFallbackHost } from '../../webview/src/memory/host';
import { openCollectingErrors, useBrowserAndServer, type OpenedPage } from '../support/browser-pages';
import { buildBundle } from '../support/esbuild';
import { serveLoopback, type LoopbackServer } from '../support/loopback-server';

export type { MemoryFallbackHost };

export const ROOT = resolve(__dirname, '../..');
export const RESULTS = join(ROOT, 'test-results', 'memory');

const SERVED: Record<string, string> = {
  '/dist/memory-view.js': 'text/javascript',
  '/dist/memory-view.js.map': 'application/json',
  '/webview/media/memory-view.css': 'text/css',
};

/** Serves the page at `/` (fresh nonce per load) and its two resources. */
export async function servePage(): Promise<LoopbackServer> {
  return serveLoopback((path, req) => {
    if (path === '/') {
      const origin = `http://${req.headers.host}`;
      return {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: memoryViewHtml({
          cspSource: origin,
          nonce: randomBytes(16).toString('hex'),
          scriptUri: `${origin}/dist/memory-view.js`,
          styleUri: `${origin}/webview/media/memory-view.css`,
        }),
      };
    }
    const type = SERVED[path];
    if (type !== undefined && existsSync(join(ROOT, path)))
      return { headers: { 'content-type': type }, body: readFileSync(join(ROOT, path)) };
    return undefined;
  });
}

/** The `show` message for the dump `hlo` (its companions read from beside it, when there). */
export function showMessage(hlo: string, maxValues?: number): ShowMemoryMessage {
  const names = companionNames(hlo.slice(hlo.lastIndexOf('/') + 1))!;
  const dir = hlo.slice(0, hlo.lastIndexOf('/') + 1);
  const read = (name: string) => (existsSync(dir + name) ? readFileSync(dir + name, 'utf8') : undefined);
  const texts = {
    hlo: read(names.hlo),
    bufferAssignment: read(names.companions['buffer-assignment']),
    values: read(names.companions['buffer-assignment-values']),
    usageReport: read(names.companions['memory-usage-report']),
    liveRange: read(names.companions['live-range']),
  };
  const model = memoryFromTexts(texts)!;
  return {
    type: 'show',
    uri: `file://${dir}${names.hlo}`,
    name: names.hlo,
    files: Object.values(names.companions).filter((n) => existsSync(dir + n)),
    module: memoryModuleJson(model, maxValues !== undefined ? { maxValues } : {}),
  };
}

export interface PageRig {
  open(viewport?: { width: number; height: number }): Promise<OpenedPage>;
}

/** The suite's browser and page server, started in `before` and closed in `after`. */
export function usePageRig(): PageRig {
  const started = useBrowserAndServer(async () => {
    await buildBundle('dist/memory-view.js');
    return servePage();
  });
  return {
    async open(viewport = { width: 1200, height: 900 }) {
      const { browser, server } = started();
      const opened = await openCollectingErrors(browser, `${server.origin}/`, { viewport });
      await opened.page.waitForFunction(
        () => window.xlaMemoryViewHost?.sent.some((m) => m.type === 'ready') === true,
      );
      return opened;
    },
  };
}

/** Posts a host message and waits until the page handled it. */
export async function post(page: Page, message: unknown): Promise<void> {
  const before = await page.evaluate(() => Number(document.getElementById('app')!.dataset.shown ?? 0));
  await page.evaluate((m) => window.postMessage(m, '*'), message);
  await page.waitForFunction((n) => Number(document.getElementById('app')!.dataset.shown ?? 0) > n, before);
}

/** What the page sent the host so far (after `ready`). */
export async function sent(page: Page): Promise<MemoryToHostMessage[]> {
  return page.evaluate(() => (window.xlaMemoryViewHost?.sent ?? []).filter((m) => m.type !== 'ready'));
}

/** The visible table's cells, row by row, as text. */
export async function tableCells(page: Page, id: 'allocations' | 'values'): Promise<string[][]> {
  return page.evaluate(
    (tableId) =>
      Array.from(document.querySelectorAll(`#${tableId} tbody tr`)).map((tr) =>
        Array.from(tr.querySelectorAll('td')).map(
          (td) => td.querySelector('.main, .source-link')?.textContent ?? '',
        ),
      ),
    id,
  );
}
