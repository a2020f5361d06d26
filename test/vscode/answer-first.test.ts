/**
 * What the editor says first, in a real VS Code (code-server + Chromium) with the repository's
 * examples/ folder open: the hover on `f32[1024,4]{1,0:T(8,128)}` of examples/tpu_padding.hlo
 * leads with its verdict and fits without scrolling, and its `+` shows the rest. The pictures are
 * the README's: docs/images/hover.png is test-results/vscode/answer-hover.png copied, and
 * docs/images/hover-more.png is answer-hover-more.png.
 *
 * Needs code-server (scripts/install-code-server.sh) and Chromium (scripts/install-system-deps.sh).
 * Without them the suite is not registered (a line says why); with CI set it fails instead.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildExtension } from './build';
import { launchChromium } from '../support/chromium';
import { REPO, missingPrerequisites, openWorkbench, startCodeServer, type CodeServer } from './harness';
import { closeWorkbenchAfterTests, hoverSettled, hoverText, leaveHover, quickOpen } from './workbench';

const SHOTS = join(REPO, 'test-results', 'vscode');
const EXAMPLES = join(REPO, 'examples');
const missing = missingPrerequisites();

if (missing !== undefined && process.env.CI === undefined) {
  console.log(`[vscode answer first] not registered: missing ${missing}`);
} else {
  describe('VS Code: the answer first (examples/ in code-server + Chromium)', function () {
    this.timeout(300_000);
    let server: CodeServer;
    let browser: Browser;
    let page: Page;

    before(async function () {
      this.timeout(300_000);
      assert.equal(missing, undefined, `prerequisites missing: ${missing}`);
      mkdirSync(SHOTS, { recursive: true });
      buildExtension();
      server = await startCodeServer({ settings: { 'files.autoSave': 'off' } });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openWorkbench(page, server.workbenchUrl(EXAMPLES, REPO));
    });

    closeWorkbenchAfterTests(() => ({ server, browser, page }), SHOTS, join(SHOTS, 'logs-answer'));

    it('leads the hover on f32[1024,4]{1,0:T(8,128)} with its sizes, the padded dimension and the fix', async () => {
      await quickOpen(page, 'tpu_padding.hlo');
      // The language server answers once the line shows its inlay hint.
      await page
        .locator('.monaco-editor .view-line', { hasText: /%param_0\.1\s=\sf32.*16\sKiB\s→\s512\sKiB/ })
        .waitFor({ timeout: 60_000 });
      // On the element type of %param_0.1's result shape (the inlay hint after it is part of the line).
      const text = await hoverText(page, '%param_0.1 = f32[1024,4]{1,0:T(8,128)}', 14);
      await hoverSettled(page);
      await page.screenshot({ path: join(SHOTS, 'answer-hover.png') });
      const [first = '', ...rest] = text.split('\n');
      assert.match(
        first,
        /^16 KiB → 512 KiB \(32x\) · dim 1 \(size 4\) pads to 128 · fix: \{0,1\} → 32 KiB · Open Visualizer$/,
        text,
      );
      assert.match(rest.join('\n'), /Fix: use minor_to_major \{0,1\} instead of \{1,0\}/, text);
      // All of it above the fold: the hover does not scroll.
      const content = page.locator('.monaco-hover-content:visible').first();
      const [scroll, client] = await content.evaluate((e) => [e.scrollHeight, e.clientHeight]);
      assert.ok(scroll <= client, `the hover scrolls: ${scroll} > ${client}`);
    });

    it("shows how the layout works out with the hover's + and goes back with -", async () => {
      const more = page.locator('.monaco-hover:visible .codicon-hover-increase-verbosity.enabled').first();
      if (!(await more.isVisible())) await hoverText(page, '%param_0.1 = f32[1024,4]{1,0:T(8,128)}', 14);
      await more.click();
      const content = page.locator('.monaco-hover-content:visible').first();
      await page.locator('.monaco-hover:visible', { hasText: 'Physical order' }).waitFor({ timeout: 30_000 });
      const text = await content.innerText();
      assert.match(text, /^16 KiB → 512 KiB \(32x\)/, text);
      assert.match(text, /T\(8,128\) on \[1024, 4\]: pad → \[1024, 128\]/, text);
      await hoverSettled(page);
      await page.screenshot({ path: join(SHOTS, 'answer-hover-more.png') });
      await page.locator('.monaco-hover:visible .codicon-hover-decrease-verbosity.enabled').first().click();
      await page
        .locator('.monaco-hover:visible', { hasText: 'Physical order' })
        .waitFor({ state: 'detached', timeout: 30_000 });
      assert.match(await content.innerText(), /^16 KiB → 512 KiB \(32x\)/);
      await leaveHover(page);
    });
  });
}
