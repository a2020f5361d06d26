/**
 * What the web-extension test needs besides test/vscode/harness.ts (code-server + Chromium) and
 * test/vscode/workbench.ts (driving the workbench): a browser-only copy of the extension, and a way
 * to find its language-server worker inside the web worker extension host and ask it directly.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { REPO } from '../vscode/harness';

/** What a .vsix ships for the browser (see .vscodeignore), minus the Node bundles. */
const WEB_FILES = [
  'dist/browser/extension.js',
  'dist/browser/server.js',
  'dist/webview.js',
  'dist/memory-view.js',
  'syntaxes',
  'webview/media',
  'client/media/icon.png',
  'language-configuration.json',
];

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
        if (receive === null)
          resolve({ error: 'the worker has no onmessage handler: not a vscode-jsonrpc browser server' });
        else receive(new MessageEvent('message', { data: { jsonrpc: '2.0', id, method: m, params: p } }));
      }),
    [method, params] as const,
  );
}
