/**
 * The browser entry (dist/browser/extension.js) in a real workbench: code-server's VS Code 1.100
 * in headless Chromium, with a copy of the extension whose manifest has no `main`, so that only
 * the web worker extension host can run it. Its language server is dist/browser/server.js in a
 * worker the extension host starts. Opens an HLO file, waits for the squiggle and the Problems
 * entry, hovers a shape and reads its sizes, opens the Memory View, applies the quick fix.
 * Screenshots: test-results/web/.
 *
 * Needs code-server and Chromium; scripts/setup.sh installs both. Without them the before hook
 * fails and says so.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Worker } from 'playwright-core';
import { buildExtension } from '../vscode/build';
import { launchChromium } from '../support/chromium';
import {
  REPO,
  missingPrerequisites,
  openWorkbench,
  startCodeServer,
  type CodeServer,
} from '../vscode/harness';
import {
  charPoint,
  closeWorkbenchAfterTests,
  focusCodeAction,
  goToSourceWithF12,
  hoverSettled,
  hoverText,
  leaveHover,
  openCodeActions,
  quickOpen,
  runCommand,
  webviewFrameWith,
} from '../vscode/workbench';
import { AnalyzeShapeRequest, type AnalyzeShapeResult } from '../../protocol/src/lsp';
import {
  extensionWorkers,
  requestInWorker,
  stageWebOnlyExtension,
  workerName,
  type WebOnlyExtension,
} from './web-extension-harness';

const SHOTS = join(REPO, 'test-results', 'web');
const FIXTURES = join(REPO, 'test', 'vscode', 'fixtures');

/** The first extension worker whose name `accept`s, once it exists. */
async function findWorker(page: Page, accept: (name: string) => boolean, timeoutMs: number): Promise<Worker> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const w of extensionWorkers(page)) {
      if (accept(await workerName(w))) return w;
    }
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(
        `no such worker among ${page
          .workers()
          .map((w) => w.url())
          .join(', ')}`,
      );
    await page.waitForEvent('worker', { timeout: left }).catch(() => undefined);
  }
}

describe('web: browser extension in the web worker extension host (code-server + Chromium)', function () {
  this.timeout(300_000);
  let extension: WebOnlyExtension;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  /** Console errors of the workbench, its iframes and workers that concern this extension. */
  const ourErrors: string[] = [];

  before(async function () {
    this.timeout(300_000);
    const missing = missingPrerequisites();
    if (missing !== undefined)
      throw new Error(`missing ${missing}. Run scripts/setup.sh to install code-server and Chromium.`);
    mkdirSync(SHOTS, { recursive: true });
    buildExtension();
    extension = stageWebOnlyExtension();
    server = await startCodeServer({ settings: { 'files.autoSave': 'off' } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error' && /xla-layout|xlaLayout|XLA Layout/i.test(m.text())) ourErrors.push(m.text());
    });
    page.on('pageerror', (e) => {
      if (/xla-layout|xlaLayout/i.test(e.stack ?? e.message)) ourErrors.push(e.stack ?? e.message);
    });
    await openWorkbench(page, server.workbenchUrl(FIXTURES, extension.path));
  });

  closeWorkbenchAfterTests(() => ({ server, browser, page }), SHOTS, join(SHOTS, 'logs'));
  // Registered after the hooks above, so it runs once code-server no longer serves the copy.
  after(() => extension?.remove());

  it('activates in the web worker host and shows the squiggle and the Problems entry', async () => {
    await quickOpen(page, 'tiles.hlo');
    await page.locator('.monaco-editor .view-line', { hasText: /ENTRY\s%main/ }).waitFor();
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, '1-squiggle.png') });
    // The squiggle came from our language server in a worker that the web worker extension host
    // started: asked directly, that worker analyses the open document's f32[8,4]{1,0:T(8,128)}...
    const worker = await findWorker(page, (name) => name.startsWith('ExtensionHostWorker -> '), 30_000);
    const uri = `vscode-remote://127.0.0.1:${server.port}${join(FIXTURES, 'tiles.hlo')}`;
    const answer = (await requestInWorker(worker, AnalyzeShapeRequest.method, {
      textDocument: { uri },
      position: { line: 3, character: 12 },
    })) as { result?: AnalyzeShapeResult };
    assert.equal(answer.result?.text, 'f32[8,4]{1,0:T(8,128)}', JSON.stringify(answer));
    assert.equal(answer.result?.owner, 'p0');
    assert.deepEqual(
      [
        answer.result?.analysis.arrays[0].sizes?.logicalBytes,
        answer.result?.analysis.arrays[0].sizes?.physicalBytes,
      ],
      ['128', '4096'],
    );
    // ...and not from a Node language server: nothing under code-server runs the extension's files.
    assert.deepEqual(
      server.processes().filter((cmd) => cmd.includes(extension.path) || cmd.includes(join(REPO, 'dist'))),
      [],
    );
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'tile-negative' }).first();
    await problem.waitFor({ timeout: 30_000 });
    const text = await problem.innerText();
    assert.match(
      text,
      /negative tile size -1 makes XLA abort: write `\*` to combine dimensions, or a positive size — XLA: Tile dimension size needs to be minimum int64_t value if it's negative\. Value is -1/,
      text,
    );
    assert.match(text, /xla-layout/, text);
    // Row and column of the -1 in `  %wide = f32[8,256]{1,0:T(-1,128)}`, 1-based as VS Code shows them.
    assert.match(text, /\[Ln 6, Col 28\]/, text);
    await page.screenshot({ path: join(SHOTS, '2-problems.png') });
    assert.deepEqual(ourErrors, []);
  });

  it('hovers a padded shape and reads its sizes in the hover widget', async () => {
    const text = await hoverText(page, 'p0 = f32[8,4]{1,0:T(8,128)}', 7);
    // 8×4 f32 = 128 bytes logical; T(8,128) stores 8×128 slots = 4,096 bytes: 32x. The answer comes first.
    assert.match(text, /^128 B → 4 KiB \(32x\) · dim 1 \(size 4\) pads to 128/, text);
    await hoverSettled(page);
    await page.screenshot({ path: join(SHOTS, '3-hover.png') });
    await leaveHover(page);
  });

  it('opens the Memory View, reading the dump through the workspace file system', async () => {
    await runCommand(page, 'XLA Layout: Memory View');
    const view = await webviewFrameWith(page, 'main#app[aria-label="XLA memory view"] #headline', 60_000);
    // No buffer assignment beside tiles.hlo: the estimate from its HLO (p0, p1 and neg).
    await view.waitForFunction(() =>
      (document.getElementById('headline')?.textContent ?? '').startsWith('About'),
    );
    assert.equal(
      await view.locator('#headline').innerText(),
      'About 16 KiB if each of its 3 values had a buffer of its own; 7.8 KiB of it (48.4%) is padding.',
    );
    await page.screenshot({ path: join(SHOTS, '4-memory-view.png') });
    await page.locator('.tab', { hasText: 'tiles.hlo' }).first().click();
    assert.deepEqual(ourErrors, []);
  });

  it('applies the quick fix that turns the -1 tile entry into *', async () => {
    const p = await charPoint(page, 'T(-1,128)', 2);
    await page.mouse.click(p.x, p.y);
    const fix = /Replace -1 with \*/;
    await openCodeActions(page);
    await page.screenshot({ path: join(SHOTS, '4-quick-fix-menu.png') });
    assert.match(await focusCodeAction(page, fix), fix);
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-line', { hasText: 'T(*,128)' }).waitFor();
    // The server saw the edit: the only error of the file is gone.
    await page.locator('.monaco-editor .squiggly-error').waitFor({ state: 'detached', timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, '5-quick-fix-applied.png') });
    assert.deepEqual(ourErrors, []);
    // The file on disk was never written: revert, so that closing the editor later asks nothing.
    await runCommand(page, 'File: Revert File');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
  });

  it('goes to the source line with F12, finding the recorded file in the remote workspace', async () => {
    // The server answers file:///home/builder/...; the web worker host cannot read file: URIs, so the
    // client finds proj/model/layers.py among the workspace's vscode-remote: files.
    await goToSourceWithF12(page);
    await page.screenshot({ path: join(SHOTS, '6-go-to-source.png') });
    assert.deepEqual(ourErrors, []);
  });
});
