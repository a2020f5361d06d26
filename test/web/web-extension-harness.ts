/**
 * What the web-extension test needs besides test/vscode/harness.ts (code-server + Chromium): a
 * browser-only copy of the extension, a way to find its language-server worker inside the web
 * worker extension host, and reading characters off Monaco's screen.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { REPO } from '../vscode/harness';

/** What a .vsix ships for the browser (see .vscodeignore), minus the Node bundles. */
const WEB_FILES = ['dist/browser/extension.js', 'dist/browser/server.js', 'dist/webview.js', 'syntaxes', 'webview/media', 'client/media/icon.png', 'language-configuration.json'];

export interface WebOnlyExtension {
  readonly path: string;
  remove(): void;
}

/**
 * Copies the built extension into a temporary folder with a manifest that has no `main` and no
 * `extensionKind`. VS Code then deduces the kind `web` only, so code-server's workbench can run it
 * nowhere but in its web worker extension host: the Node host has nothing to load.
 */
export function stageWebOnlyExtension(): WebOnlyExtension {
  const path = mkdtempSync(join(tmpdir(), 'xla-lens-web-ext-'));
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
  delete manifest.main;
  delete manifest.extensionKind;
  writeFileSync(join(path, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const f of WEB_FILES) cpSync(join(REPO, f), join(path, f), { recursive: true });
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Workers that the web worker extension host started. VS Code wraps every `new Worker(url)` of an
 * extension in a bootstrap named `<host name> -> <basename of url>`; the host is `ExtensionHostWorker`.
 */
export function extensionWorkers(page: Page): Worker[] {
  return page.workers().filter((w) => w.url().startsWith('blob:'));
}

/** Name of a worker (`self.name`), or '' when it is gone. */
export async function workerName(w: Worker): Promise<string> {
  return w.evaluate(() => self.name).catch(() => '');
}

/**
 * Sends one JSON-RPC request straight into a language-server worker, as if from its client, and
 * returns the answer. The server (vscode-jsonrpc's BrowserMessageReader/Writer) reads from
 * `self.onmessage` and writes with `self.postMessage`; the answer, marked by its own id, is taken
 * off before it reaches the real client, and everything else passes through untouched.
 */
export async function requestInWorker(worker: Worker, method: string, params: unknown): Promise<unknown> {
  return worker.evaluate(
    ([m, p]) =>
      new Promise((resolve) => {
        const id = `xla-lens-web-test-${Date.now()}`;
        const post = self.postMessage.bind(self) as (message: unknown) => void;
        (self as unknown as { postMessage: (message: unknown) => void }).postMessage = (message) => {
          if ((message as { id?: unknown }).id !== id) return post(message);
          (self as unknown as { postMessage: (message: unknown) => void }).postMessage = post;
          resolve(message);
        };
        const receive = self.onmessage as ((event: MessageEvent) => void) | null;
        if (receive === null) resolve({ error: 'the worker has no onmessage handler: not a vscode-jsonrpc browser server' });
        else receive(new MessageEvent('message', { data: { jsonrpc: '2.0', id, method: m, params: p } }));
      }),
    [method, params] as const,
  );
}

/** Centre of the character `delta` after the start of `needle` on the visible editor line that contains it. */
export async function charPoint(page: Page, needle: string, delta: number): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(
    ([n, d]) => {
      for (const line of document.querySelectorAll<HTMLElement>('.monaco-editor .view-line')) {
        // Monaco renders spaces as U+00A0 (one character each, so offsets are unchanged).
        const at = (line.textContent ?? '').replace(/\u00a0/g, ' ').indexOf(n);
        if (at < 0) continue;
        let offset = at + d;
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const len = node.textContent?.length ?? 0;
          if (offset < len) {
            const range = document.createRange();
            range.setStart(node, offset);
            range.setEnd(node, offset + 1);
            const r = range.getBoundingClientRect();
            return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
          }
          offset -= len;
        }
      }
      return null;
    },
    [needle, delta] as const,
  );
  if (point === null) throw new Error(`'${needle}' is not on a visible editor line`);
  return point;
}
