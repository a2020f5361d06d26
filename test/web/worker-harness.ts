/**
 * Runs the browser build of the language server (dist/browser/server.js) the way vscode.dev does:
 * in a dedicated Web Worker of a real headless Chromium, speaking LSP JSON-RPC over postMessage.
 *
 * A loopback HTTP server serves a tiny page that does `new Worker('dist/browser/server.js')` and
 * relays messages both ways. The test side is a real vscode-jsonrpc connection whose reader and
 * writer are bridged through playwright: messages go in with `worker.postMessage(message)` (raw
 * JSON-RPC objects, the framing BrowserMessageReader expects) and come out through an exposed
 * function. Every worker error, console message and CSP violation is recorded, so a test can assert
 * that the worker never reached for a Node-only API (process, require, Buffer, …).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createMessageConnection,
  Disposable,
  type DataCallback,
  type Message,
  type MessageConnection,
  type MessageReader,
  type MessageWriter,
} from 'vscode-jsonrpc/node';
import { CHROMIUM } from '../support/chromium';
import { buildBundle } from '../support/esbuild';
import { serveLoopback, type LoopbackServer } from '../support/loopback-server';

export const ROOT = resolve(__dirname, '../..');

/** The page's relay, as the test sees it through `page.evaluate`. */
interface RelayPage {
  /** Posts one JSON-RPC message to the worker. */
  toServer(message: unknown): void;
  /** Errors the page saw on the Worker object (error and messageerror events). */
  workerErrors: string[];
}

/** Fails with the way to fix it when Chromium is not installed (no silent skip, locally or in CI). */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: run scripts/setup.sh (or scripts/install-system-deps.sh), or set XLA_LENS_CHROMIUM.`,
    );
  }
}

/** Runs the project's `node esbuild.js`; fails unless dist/browser/server.js was (re)built by it. */
export async function buildBrowserServer(): Promise<void> {
  await buildBundle('dist/browser/server.js');
}

// The page: one inline script (allowed by nonce), the worker from 'self'. No eval anywhere, like
// vscode.dev's CSP; the worker gets its own `default-src 'none'` policy from its response header.
const NONCE = 'xla-lens-web-test';
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>XLA Layout Lens web worker server</title></head>
<body><script nonce="${NONCE}">
  const workerErrors = [];
  const worker = new Worker('dist/browser/server.js');
  worker.onerror = (e) => workerErrors.push('error: ' + e.message + ' at ' + e.filename + ':' + e.lineno);
  worker.onmessageerror = () => workerErrors.push('messageerror: a message could not be deserialized');
  worker.onmessage = (e) => window.fromServer(e.data);
  window.workerErrors = workerErrors;
  window.toServer = (m) => worker.postMessage(m);
</script></body></html>`;
const PAGE_CSP = `default-src 'none'; script-src 'nonce-${NONCE}'; worker-src 'self'`;

export type WorkerPageServer = LoopbackServer;

/** Serves the page at `/` and the worker bundle (and its source map) on an ephemeral 127.0.0.1 port. */
export async function serveWorkerPage(): Promise<WorkerPageServer> {
  return serveLoopback((path) => {
    if (path === '/')
      return {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP },
        body: PAGE,
      };
    if (path === '/dist/browser/server.js' || path === '/dist/browser/server.js.map') {
      return {
        headers: {
          'content-type': path.endsWith('.js') ? 'text/javascript' : 'application/json',
          'content-security-policy': "default-src 'none'",
        },
        body: readFileSync(join(ROOT, path)),
      };
    }
    return undefined;
  });
}

/** Messages coming out of the worker, delivered to the connection once it listens. */
class PageReader extends AbstractMessageReader implements MessageReader {
  private callback: DataCallback | undefined;
  private readonly early: Message[] = [];

  deliver(message: Message): void {
    if (this.callback === undefined) this.early.push(message);
    else this.callback(message);
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    for (const m of this.early.splice(0)) callback(m);
    return Disposable.create(() => {
      this.callback = undefined;
    });
  }
}

/** Messages into the worker, one `page.evaluate` at a time so they arrive in the order written. */
class PageWriter extends AbstractMessageWriter implements MessageWriter {
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly page: Page) {
    super();
  }

  write(message: Message): Promise<void> {
    const sent = this.last.then(() =>
      this.page.evaluate((m) => (window as unknown as RelayPage).toServer(m), message as unknown),
    );
    this.last = sent.catch((e: unknown) =>
      this.fireError(e instanceof Error ? e : new Error(String(e)), message, 1),
    );
    return sent;
  }

  end(): void {}
}

/** What the page, its worker and Chromium reported besides LSP traffic. */
export interface Observed {
  /** Uncaught exceptions and unhandled rejections of the page or the worker (Chromium's pageerror). */
  readonly pageErrors: string[];
  /** Every console message of the page and the worker, as `type: text`. */
  readonly console: string[];
}

export interface WorkerSession {
  readonly page: Page;
  readonly rpc: MessageConnection;
  readonly observed: Observed;
  /** Errors the page's Worker object reported (error / messageerror events). */
  workerErrors(): Promise<string[]>;
  /** The URLs of the page's workers, as Chromium lists them. */
  workerUrls(): string[];
  close(): Promise<void>;
}

/**
 * Opens the page in a fresh tab (a fresh worker, so a fresh server) and connects a JSON-RPC
 * connection to it. The caller registers handlers, then calls `rpc.listen()`.
 */
export async function openWorkerSession(browser: Browser, origin: string): Promise<WorkerSession> {
  const page = await browser.newPage();
  const observed: Observed = { pageErrors: [], console: [] };
  // Chromium forwards a dedicated worker's console calls and uncaught exceptions to its page.
  page.on('console', (m) => observed.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => observed.pageErrors.push(e.stack ?? String(e)));
  const reader = new PageReader();
  // Bound before the page loads, so not even the worker's first message can be missed.
  await page.exposeFunction('fromServer', (m: Message) => reader.deliver(m));
  await page.goto(`${origin}/`);
  const rpc = createMessageConnection(reader, new PageWriter(page));
  return {
    page,
    rpc,
    observed,
    workerErrors: () => page.evaluate(() => [...(window as unknown as RelayPage).workerErrors]),
    workerUrls: () => page.workers().map((w) => w.url()),
    async close() {
      rpc.dispose();
      await page.close();
    },
  };
}
