/**
 * Pages of the headless browser as the page tests drive them: the suite's browser and page server,
 * each page in a browser context of its own with what it logs as an error collected, and (for
 * suites that want it) a fresh page for each test that must log no error by the end of it.
 */
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import type { LoopbackServer } from './loopback-server';

/** A page and the console errors and uncaught exceptions (CSP violations among them) it logged. */
export interface OpenedPage {
  readonly page: Page;
  readonly errors: string[];
}

/**
 * Registers the suite's `before` hook, which starts its page server with `serve` (building what it
 * serves first) and launches Chromium, and its `after` hook, which closes both. The returned
 * function gives tests and hooks the two, and throws when the `before` hook did not start them.
 */
export function useBrowserAndServer(
  serve: () => Promise<LoopbackServer>,
): () => { browser: Browser; server: LoopbackServer } {
  let server: LoopbackServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await serve();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return () => {
    if (browser === undefined || server === undefined)
      throw new Error("the suite's before hook did not start the browser and the page server");
    return { browser, server };
  };
}

/** Opens `url` in a new tab of its own browser context, collecting what the page logs as an error. */
export async function openCollectingErrors(
  browser: Browser,
  url: string,
  options: { viewport: { width: number; height: number }; deviceScaleFactor?: number },
): Promise<OpenedPage> {
  const page = await browser.newPage(options);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return { page, errors };
}

/**
 * Registers a `beforeEach` hook that opens a page with `open` and hands it to `use`, and an
 * `afterEach` hook that closes it and, with `assertNoErrors` (the default), asserts that it logged
 * no console error or CSP violation. Suites whose tests provoke errors on purpose pass false and
 * check `errors` themselves.
 */
export function pagePerTest(
  open: () => Promise<OpenedPage>,
  use: (opened: OpenedPage) => void,
  { assertNoErrors = true } = {},
): void {
  let current: OpenedPage | undefined;
  beforeEach(async () => {
    current = await open();
    use(current);
  });
  afterEach(async () => {
    if (current === undefined) return;
    const { page, errors } = current;
    current = undefined;
    await page.close();
    if (assertNoErrors) assert.deepEqual(errors, [], 'no console errors or CSP violations');
  });
}
