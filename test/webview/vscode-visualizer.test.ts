/**
 * The visualizer panel in a real VS Code (code-server's workbench in Chromium), driven like a
 * person: it follows the cursor of the HLO editor (the shape under it, a tuple's elements to pick,
 * the tab title after the shape), stops following when told, names the tab after a shape typed on
 * the page, reveals a picked tuple element in the editor, and exports through a save dialog that
 * opens outside the workspace with a file name made from the shape. Screenshots in
 * test-results/webview/vscode-*.png.
 *
 * Needs code-server (scripts/install-code-server.sh) and Chromium; without them the suite is not
 * registered (a line says why), and with CI set it fails instead.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { buildExtension } from '../vscode/build';
import {
  REPO,
  missingPrerequisites,
  openWorkbench,
  startCodeServer,
  type CodeServer,
} from '../vscode/harness';
import { charPoint, closeWorkbenchAfterTests, quickOpen, runCommand } from '../vscode/workbench';
import { RESULTS } from './harness';

const FIXTURES = join(REPO, 'test', 'webview', 'fixtures');
const OOM = 'bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}';
const SMALL = 'f32[3,5]{1,0:T(2,2)}';
const missing = missingPrerequisites();

/** The visualizer's content frame (webviews nest VS Code's index.html and the extension's fake.html). */
async function visualizerFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const f of page.frames()) {
      if (!f.url().includes('fake.html')) continue;
      if (
        (await f
          .locator('main#app[aria-label="XLA layout visualizer"]')
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    }
    if (Date.now() > deadline) throw new Error('no visualizer webview');
    await page.waitForTimeout(250);
  }
}

/** Waits until the page's Shape box holds `shape`. */
async function showing(frame: Frame, shape: string): Promise<void> {
  await frame.waitForFunction(
    (want) => document.querySelector<HTMLInputElement>('#shape-a')?.value === want,
    shape,
    { timeout: 30_000 },
  );
}

/** Waits until the visualizer's tab is titled after `shape` (cut at 40 characters as the panel does). */
async function titled(page: Page, shape: string): Promise<void> {
  const title = `Layout: ${shape.length > 40 ? shape.slice(0, 39) : shape}`;
  await page.locator('.tab', { hasText: title }).first().waitFor({ timeout: 30_000 });
}

if (missing !== undefined && process.env.CI === undefined) {
  console.log(`[visualizer in VS Code] not registered: missing ${missing}`);
} else {
  describe('visualizer in VS Code (code-server + Chromium)', function () {
    this.timeout(300_000);
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let frame: Frame;
    /** The extension host's home folder: where the export dialog opens. */
    let home: string;

    before(async function () {
      this.timeout(300_000);
      assert.equal(missing, undefined, `prerequisites missing: ${missing}`);
      mkdirSync(RESULTS, { recursive: true });
      home = mkdtempSync(join(tmpdir(), 'xla-lens-home-'));
      buildExtension();
      server = await startCodeServer({ settings: { 'files.autoSave': 'off' }, env: { HOME: home } });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openWorkbench(page, server.workbenchUrl(FIXTURES, REPO));
    });

    closeWorkbenchAfterTests(() => ({ server, browser, page }), RESULTS, join(RESULTS, 'vscode-logs'));
    after(() => rmSync(home, { recursive: true, force: true }));

    it('follows the cursor: the shape under it, a tuple element, the tab named after it', async () => {
      await quickOpen(page, 'oom.hlo');
      // The server has the document once its inlay hints (sizes after shapes) are drawn.
      await page
        .locator('.monaco-editor .view-line', { hasText: '1 GiB → 4 GiB (4x)' })
        .first()
        .waitFor({ timeout: 60_000 });
      let p = await charPoint(page, '%p0 = bf16', 9);
      await page.mouse.click(p.x, p.y);
      await runCommand(page, 'XLA Layout: Open Visualizer');
      frame = await visualizerFrame(page);
      await showing(frame, OOM);
      await titled(page, OOM);
      assert.equal(
        await frame.locator('#slice-reason').textContent(),
        'Showing dims 1 and 0, where the tiles pad: T(4,128) pads dim 1 from 1 to 4.',
      );
      await page.screenshot({ path: join(RESULTS, 'vscode-follow-oom.png') });
      // Another shape under the cursor: the panel follows, the tab too.
      p = await charPoint(page, '%p1 = f32', 9);
      await page.mouse.click(p.x, p.y);
      await showing(frame, SMALL);
      await titled(page, SMALL);
      // Inside a tuple, the element under the cursor.
      p = await charPoint(page, '= (bf16', 6);
      await page.mouse.click(p.x, p.y);
      await showing(frame, OOM);
      // On the tuple's name, the tuple: its elements are offered.
      p = await charPoint(page, 'ROOT %t', 6);
      await page.mouse.click(p.x, p.y);
      await frame.locator('#elements-a button.tuple-element').nth(1).waitFor({ timeout: 30_000 });
      await titled(page, `(${OOM}, ${SMALL})`);
      await page.screenshot({ path: join(RESULTS, 'vscode-follow-tuple.png') });
      await frame.locator('#elements-a [data-path="1"]').click();
      await showing(frame, SMALL);
      await titled(page, SMALL);
      // Reveal selects the picked element in the editor: line 6, the 20 characters of f32[3,5]{1,0:T(2,2)}.
      // A click on a loaded machine can land before the webview's handler is ready: click again.
      const selected = page.locator('.statusbar-item', { hasText: /Ln 6, Col \d+ \(20 selected\)/ }).first();
      for (let attempt = 1; ; attempt++) {
        await frame.getByRole('button', { name: 'Reveal in editor' }).click();
        try {
          await selected.waitFor({ timeout: 10_000 });
          break;
        } catch (e) {
          if (attempt === 3) throw e;
        }
      }
    });

    it('keeps its shape while following is off, and names the tab after a typed shape', async () => {
      frame = await visualizerFrame(page);
      await frame.locator('#action-follow').click();
      assert.equal(await frame.locator('#action-follow').getAttribute('aria-pressed'), 'false');
      // Back to the editor's top-left (the reveal scrolled it right), then onto p0's shape.
      await page.locator('.tab', { hasText: 'oom.hlo' }).first().click();
      await page.keyboard.press('Control+Home');
      await page
        .locator('.statusbar-item', { hasText: /Ln 1, Col 1/ })
        .first()
        .waitFor();
      const p = await charPoint(page, '%p0 = bf16', 9);
      await page.mouse.click(p.x, p.y);
      await page
        .locator('.statusbar-item', { hasText: /Ln 4, Col/ })
        .first()
        .waitFor();
      // Following settles 150 ms after the cursor stops; a second later it must still show f32[3,5].
      await page.waitForTimeout(1000);
      assert.equal(await frame.locator('#shape-a').inputValue(), SMALL);
      // The command turns it back on and the page's toggle says so.
      await runCommand(page, 'XLA Layout: Toggle Visualizer Following the Cursor');
      await frame.waitForFunction(
        () => document.getElementById('action-follow')?.getAttribute('aria-pressed') === 'true',
      );
      await frame.locator('#shape-a').fill('f32[8,4]{1,0:T(8,128)}');
      await titled(page, 'f32[8,4]{1,0:T(8,128)}');
    });

    it('exports through a save dialog opened outside the workspace, named after the shape', async () => {
      frame = await visualizerFrame(page);
      const before = readdirSync(FIXTURES);
      await frame.locator('#action-export-png').click();
      // code-server's save dialog is a quick input holding the proposed path.
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      const target = join(home, 'f32_8x4_1-0_T8x128.png');
      await page.waitForFunction(
        (want) => document.querySelector<HTMLInputElement>('.quick-input-widget input')?.value === want,
        target,
      );
      await page.screenshot({ path: join(RESULTS, 'vscode-export-dialog.png') });
      await page.keyboard.press('Enter');
      await frame.waitForFunction(
        (want) => document.getElementById('notice')?.textContent === `Saved ${want}`,
        target,
        { timeout: 30_000 },
      );
      assert.ok(existsSync(target));
      assert.equal(readFileSync(target).subarray(1, 4).toString('latin1'), 'PNG');
      assert.deepEqual(readdirSync(FIXTURES), before, 'nothing was written into the workspace');
    });
  });
}
