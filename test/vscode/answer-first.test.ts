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
import {
  charPoint,
  closeWorkbenchAfterTests,
  hoverSettled,
  hoverText,
  leaveHover,
  lineText,
  quickOpen,
  runCommand,
  webviewFrames,
} from './workbench';

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

    it('shows the problems of tpu_padding.hlo, and both hints of a tuple uncut', async () => {
      await page.locator('.tab', { hasText: 'tpu_padding.hlo' }).first().click();
      await page.keyboard.press('Control+Shift+M');
      const rows = page.locator('.markers-panel .monaco-list-row', { hasText: 'padding-overhead' });
      await rows.first().waitFor({ timeout: 30_000 });
      // The buffers XLA allocates, as test/server/examples.test.ts lists them: the 32x f32[1024,4]
      // parameter, the 128x bf16[4096,1] and copy-start's 32x copy (its other element aliases the parameter).
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('.markers-panel .monaco-list-row')].filter((r) =>
            r.textContent?.includes('padding-overhead'),
          ).length === 3,
        undefined,
        { timeout: 30_000 },
      );
      // %copy-start.5's tuple holds two 32x buffers: their hints fit the line, as factors.
      const line = (await lineText(page, '%copy-start.5')) ?? '';
      assert.match(line, /S\(1\)\}\s*32x,.*\{1,0:T\(8,128\)\}\s*32x,/, line);
      assert.doesNotMatch(line, /…/, line);
      await page.screenshot({ path: join(SHOTS, 'answer-problems.png') });
      await page.keyboard.press('Control+Shift+M');
    });

    let ruleTries = 0;
    it('opens the rule of a code link rendered at its section, in one tab', async function () {
      // The markdown preview is VS Code's: once in CI it did not show the second rule's heading at
      // the top in 30 s (not seen locally, loaded or not). A second try starts from what the first
      // left, so a rule link that never works still fails.
      this.retries(1);
      if (++ruleTries > 1) {
        // The rules preview beside goes; the first group keeps its files, as the next tests expect.
        await runCommand(page, 'View: Focus First Editor Group');
        await runCommand(page, 'View: Close Editors in Other Groups');
      }
      await quickOpen(page, 'invalid_layouts.hlo');
      if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
      const link = (code: string) =>
        page
          .locator('.markers-panel .monaco-list-row', { hasText: code })
          .locator('a', { hasText: code })
          .first();
      await link('tile-negative').waitFor({ timeout: 30_000 });
      await link('tile-negative').click();
      // The preview scrolls to the heading: it is at the top of the view. The markdown preview may
      // replace its frame while it loads, so every webview frame is asked again until one says so.
      const heading = async (id: string): Promise<void> => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          for (const frame of webviewFrames(page)) {
            const top = await frame
              .evaluate((h) => document.getElementById(h)?.getBoundingClientRect().top, id)
              .catch(() => undefined);
            if (top !== undefined && top >= -5 && top < 120) return;
          }
          if (Date.now() > deadline) {
            const shown = await Promise.all(
              webviewFrames(page).map((f) =>
                f
                  .evaluate(
                    () =>
                      [...document.querySelectorAll('h2[id]')].find(
                        (h) => h.getBoundingClientRect().top >= -5,
                      )?.id,
                  )
                  .catch(() => 'detached'),
              ),
            );
            throw new Error(`no preview shows #${id} at its top; the previews show ${JSON.stringify(shown)}`);
          }
          await page.waitForTimeout(250);
        }
      };
      await heading('tile-negative');
      await page.screenshot({ path: join(SHOTS, 'answer-rule.png') });
      await link('minor-to-major-duplicate').click();
      await heading('minor-to-major-duplicate');
      assert.equal(await page.locator('.tab', { hasText: 'Preview rules.md' }).count(), 1);
      assert.equal(await page.locator('.tab', { hasText: /^rules\.md/ }).count(), 0, 'not the page as text');
      await page.locator('.tab', { hasText: 'Preview rules.md' }).first().click();
      await page.keyboard.press('Control+W');
      await page.keyboard.press('Control+Shift+M');
    });

    it('finds the element at a byte offset, as Linear Index answers it', async () => {
      await quickOpen(page, 'tpu_padding.hlo');
      const p = await charPoint(page, '%param_0.1 = f32[1024,4]{1,0:T(8,128)}', 14);
      await page.mouse.click(p.x, p.y);
      await runCommand(page, 'XLA Layout: Element at Offset…');
      const box = page.locator('.quick-input-widget', { hasText: 'byte offset (68B, 68 B, byte 68)' });
      await box.waitFor({ timeout: 30_000 });
      // Slot 129 of the (8,128) tile is row 1, column 1: byte 516 of f32.
      await page.locator('.quick-input-widget input').fill('516B');
      await page.keyboard.press('Enter');
      const toast = page
        .locator('.notifications-toasts .notification-list-item', { hasText: 'holds element' })
        .first();
      await toast.waitFor({ timeout: 30_000 });
      assert.match(
        await toast.innerText(),
        /Slot 129 \(byte 516\) of f32\[1024,4\]\{1,0:T\(8,128\)\} holds element \[1,1\]/,
      );
      await page.screenshot({ path: join(SHOTS, 'answer-element-at-offset.png') });
      await page.keyboard.press('Escape');
    });

    it('asks Check File which file, the open one first', async () => {
      await page.locator('.tab', { hasText: 'tpu_padding.hlo' }).first().click();
      await runCommand(page, 'XLA Layout: Check File…');
      const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
      await rows.first().waitFor({ timeout: 30_000 });
      const labels = (await rows.allInnerTexts()).map((t) => t.split('\n')[0]);
      assert.match(labels[0] ?? '', /^tpu_padding\.hlo/, labels.join(' | '));
      assert.match(labels[labels.length - 1] ?? '', /^Browse…/, labels.join(' | '));
      await page.screenshot({ path: join(SHOTS, 'answer-check-file.png') });
      await page.keyboard.press('Enter');
      await page
        .locator('.notification-list-item-message', {
          hasText: 'tpu_padding.hlo is open and checked as you type',
        })
        .first()
        .waitFor({ timeout: 30_000 });
    });
  });
}
