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
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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

export const ROOT = resolve(__dirname, '../..');
export const CHROMIUM = process.env.XLA_LENS_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SERVER_JS = join(ROOT, 'dist', 'browser', 'server.js');

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
    throw new Error(`Chromium is missing at ${CHROMIUM}: run scripts/setup.sh (or scripts/install-system-deps.sh), or set XLA_LENS_CHROMIUM.`);
  }
}

/** Runs the project's `node esbuild.js`; fails unless dist/browser/server.js was (re)built by it. */
export async function buildBrowserServer(): Promise<void> {
  const before = existsSync(SERVER_JS) ? statSync(SERVER_JS).mtimeMs : 0;
  const { error, stderr } = await new Promise<{ error: Error | null; stderr: string }>((done) => {
    execFile(process.execPath, ['esbuild.js'], { cwd: ROOT }, (err, _stdout, errText) => done({ error: err, stderr: errText }));
  });
  // Other entries may fail while their owners edit them; only the worker bundle matters here.
  if (!existsSync(SERVER_JS) || (error !== null && statSync(SERVER_JS).mtimeMs <= before)) {
    throw new Error(`esbuild did not produce dist/browser/server.js:\n${stderr}`);
  }
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

export interface WorkerPageServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves the page at `/` and the worker bundle (and its source map) on an ephemeral 127.0.0.1 port. */
export async function serveWorkerPage(): Promise<WorkerPageServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP });
      res.end(PAGE);
    } else if (path === '/dist/browser/server.js' || path === '/dist/browser/server.js.map') {
      res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'application/json', 'content-security-policy': "default-src 'none'" });
      res.end(readFileSync(join(ROOT, path)));
    } else if (path === '/favicon.ico') {
      // Chromium asks on its own; answering keeps the console free of a 404.
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
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
    const sent = this.last.then(() => this.page.evaluate((m) => (window as unknown as RelayPage).toServer(m), message as unknown));
    this.last = sent.catch((e: unknown) => this.fireError(e instanceof Error ? e : new Error(String(e)), message, 1));
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
