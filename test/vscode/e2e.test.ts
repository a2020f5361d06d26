/**
 * End to end in a real VS Code: code-server's workbench in Chromium, driven like a person would —
 * keyboard and mouse, reading what is on screen. Opens an HLO fixture, waits for the squiggle and
 * the Problems entry, hovers a shape, applies a quick fix, opens the visualizer from the command
 * palette and reads cells from its (nested) webview frame, follows links to source lines, shows a
 * call hierarchy, renames, completes names and attribute keys, hovers an attribute key, reads the
 * language status of a cut outline, and checks that a 28,000-character module header is coloured
 * from start to end. Screenshots: test-results/vscode/*.png.
 *
 * Needs code-server (scripts/install-code-server.sh) and Chromium (scripts/install-system-deps.sh).
 * Without them the suite is not registered (a line says why); with CI set it fails instead, since
 * CI installs both.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { SERVER_NODE_ARGS } from '../../protocol/src/server-environment';
import { buildExtension } from './build';
import { launchChromium } from '../support/chromium';
import { REPO, missingPrerequisites, openWorkbench, startCodeServer, type CodeServer } from './harness';
import {
  charPoint,
  closeWorkbenchAfterTests,
  focusCodeAction,
  goToLine,
  goToSourceWithF12,
  hoverSettled,
  hoverText,
  leaveHover,
  lineText,
  openCodeActions,
  quickOpen,
  revertFile,
  runCommand,
  typeForSuggestions,
  webviewFrameWith,
} from './workbench';

const SHOTS = join(REPO, 'test-results', 'vscode');
const FIXTURES = join(REPO, 'test', 'vscode', 'fixtures');
const missing = missingPrerequisites();

/** The visualizer's content frame: the webview whose page is the visualizer's `main#app`. */
async function visualizerFrame(page: Page, timeoutMs: number): Promise<Frame> {
  return webviewFrameWith(page, 'main#app[aria-label="XLA layout visualizer"]', timeoutMs);
}

if (missing !== undefined && process.env.CI === undefined) {
  console.log(`[vscode e2e] not registered: missing ${missing}`);
} else {
  describe('VS Code end to end (code-server + Chromium)', function () {
    this.timeout(300_000);
    let server: CodeServer;
    let browser: Browser;
    let page: Page;

    before(async function () {
      this.timeout(300_000);
      assert.equal(missing, undefined, `prerequisites missing: ${missing}`);
      mkdirSync(SHOTS, { recursive: true });
      buildExtension();
      // calls.hlo's outline has 29 items (5 computations, 24 instructions): a limit of 20 cuts it.
      server = await startCodeServer({
        settings: { 'files.autoSave': 'off', 'xlaLayout.outline.maxItems': 20 },
      });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openWorkbench(page, server.workbenchUrl(FIXTURES, REPO));
    });

    closeWorkbenchAfterTests(() => ({ server, browser, page }), SHOTS, join(SHOTS, 'logs-node'));

    it('opens an HLO file and shows the squiggle and the Problems entry', async () => {
      // The Node build: the language server runs as a child of the Node extension host.
      await quickOpen(page, 'tiles.hlo');
      await page.locator('.monaco-editor .view-line', { hasText: /ENTRY\s%main/ }).waitFor();
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: join(SHOTS, '1-squiggle.png') });
      await page.keyboard.press('Control+Shift+M');
      const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'tile' }).first();
      await problem.waitFor({ timeout: 30_000 });
      // Started as the client starts it: with the node options that keep a large document's memory down.
      const started = server.processes().filter((cmd) => cmd.includes(join(REPO, 'dist', 'server.js')));
      assert.equal(started.length, 1, `dist/server.js runs under code-server: ${started.join('; ')}`);
      for (const option of SERVER_NODE_ARGS)
        assert.ok(started[0].split(' ').includes(option), `${option} in ${started[0]}`);
      const text = await problem.innerText();
      assert.match(text, /tile/i, text);
      await page.screenshot({ path: join(SHOTS, '2-problems.png') });
    });

    it('hovers a padded shape and reads its sizes in the hover widget', async () => {
      // Needles avoid spanning the shape's end: the inlay hint after it is part of the line's text.
      const text = await hoverText(page, 'p0 = f32[8,4]{1,0:T(8,128)}', 7);
      // 8×4 f32 = 128 bytes logical; T(8,128) stores 8×128 slots = 4,096 bytes: 32x. The answer comes first.
      assert.match(text, /^128 B → 4 KiB \(32x\) · dim 1 \(size 4\) pads to 128/, text);
      await hoverSettled(page);
      await page.screenshot({ path: join(SHOTS, '3-hover.png') });
      // Move off the shape (to empty editor space) so the hover closes and stops covering lines.
      await leaveHover(page);
      await page
        .locator('.monaco-hover-content:visible')
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
      assert.equal(await page.locator('.monaco-hover-content:visible').count(), 0, 'the hover closed');
    });

    it('applies the quick fix that turns the -1 tile entry into *', async () => {
      const p = await charPoint(page, 'T(-1,128)', 2);
      await page.mouse.click(p.x, p.y);
      await openCodeActions(page);
      await page.screenshot({ path: join(SHOTS, '4-quick-fix-menu.png') });
      // Like a person with the keyboard: move the focus to the fix that writes '*', then Enter.
      const wanted = /Replace -1 with \*/;
      assert.match(await focusCodeAction(page, wanted), wanted);
      await page.keyboard.press('Enter');
      await page.locator('.monaco-editor .view-line', { hasText: 'T(*,128)' }).waitFor();
      assert.match((await lineText(page, '%wide')) ?? '', /f32\[8,256\]\{1,0:T\(\*,128\)\}/);
      await page.locator('.monaco-editor .squiggly-error').waitFor({ state: 'detached', timeout: 30_000 });
      await page.screenshot({ path: join(SHOTS, '5-quick-fix-applied.png') });
      // Put the fixture back (the file on disk was never written) so later windows see the error again.
      await runCommand(page, 'File: Revert File');
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    });

    it('opens the visualizer from the command palette and reads its cells', async () => {
      // Cursor on the parameter's shape: f32[8,4] under T(8,128) puts (r,c) at slot r*128 + c.
      const p = await charPoint(page, 'p0 = f32[8,4]{1,0:T(8,128)}', 9);
      await page.mouse.click(p.x, p.y);
      await runCommand(page, 'XLA Layout: Open Visualizer');
      const frame = await visualizerFrame(page, 60_000);
      const table = frame.locator('table[id^="logical-"]').first();
      await table.waitFor({ state: 'attached', timeout: 30_000 });
      // The padded 8×128 extent first fits the pane, too small for numbers; zoom in like a person
      // until the view lists cells (each click re-renders and rewrites the table's caption).
      for (let i = 0; i < 10 && (await table.getAttribute('data-state')) !== 'cells'; i++) {
        const caption = await table.locator('caption').textContent();
        await frame.getByRole('button', { name: 'Zoom in' }).click();
        await frame
          .waitForFunction(
            ([sel, before]) => document.querySelector(sel)?.querySelector('caption')?.textContent !== before,
            ['table[id^="logical-"]', caption] as const,
            { timeout: 5000 },
          )
          .catch(() => undefined);
      }
      assert.equal(await table.getAttribute('data-state'), 'cells');
      // Zooming keeps the centre; scroll back to the top-left corner with the wheel over the canvas.
      const canvas = await frame.locator('canvas[aria-label^="Logical view"]').first().boundingBox();
      assert.ok(canvas, 'the logical view canvas is on screen');
      await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
      const caption = table.locator('caption');
      const atTopLeft = /rows 1–\d+, columns 1–/;
      for (let i = 0; i < 40 && !atTopLeft.test((await caption.textContent()) ?? ''); i++) {
        const before = await caption.textContent();
        await page.mouse.wheel(-200, -200);
        await frame
          .waitForFunction(
            ([sel, b]) => document.querySelector(sel)?.querySelector('caption')?.textContent !== b,
            ['table[id^="logical-"]', before] as const,
            { timeout: 5000 },
          )
          .catch(() => undefined);
      }
      assert.match((await caption.textContent()) ?? '', atTopLeft);
      const listed = `${await table.locator('caption').textContent()}: ${(await table.innerHTML()).slice(0, 400)}`;
      assert.equal(await table.locator('td[data-row="0"][data-col="0"]').count(), 1, listed);
      const cell = (r: number, c: number) => table.locator(`td[data-row="${r}"][data-col="${c}"]`).first();
      const read = async (r: number, c: number) => (await cell(r, c).textContent())?.replace(/[^\d]/g, '');
      assert.equal(await read(0, 0), '0');
      assert.equal(await read(1, 2), '130');
      assert.equal(await read(7, 3), '899');
      await page.screenshot({ path: join(SHOTS, '6-visualizer.png') });
    });

    it('computes a linear index from the command palette and shows the steps', async () => {
      const p = await charPoint(page, 'p0 = f32[8,4]{1,0:T(8,128)}', 9);
      await page.mouse.click(p.x, p.y);
      await runCommand(page, 'XLA Layout: Linear Index of Element…');
      const input = page.locator('.quick-input-widget input');
      await page
        .locator('.quick-input-widget', { hasText: 'Linear index in f32[8,4]{1,0:T(8,128)}' })
        .waitFor();
      await input.fill('1,9');
      // The box validates as you type: column 9 is outside dimension 1 (size 4).
      await page
        .locator('.quick-input-widget', { hasText: 'Index 9 is outside dimension 1 (size 4)' })
        .waitFor();
      await input.fill('1,2');
      await page.keyboard.press('Enter');
      // (1,2) → tile (0,0), row 1, column 2 of the 8×128 tile: slot 130, byte 520.
      const toast = page
        .locator('.notifications-toasts .notification-list-item', { hasText: 'linear index 130' })
        .first();
      await toast.waitFor({ timeout: 30_000 });
      assert.match(
        await toast.innerText(),
        /\[1,2\] of f32\[8,4\]\{1,0:T\(8,128\)\} is at linear index 130 \(byte 520\)/,
      );
      await page.screenshot({ path: join(SHOTS, '7-linear-index.png') });
      await toast.getByRole('button', { name: 'Show steps' }).click();
      // The steps open rendered in the markdown preview: bold and lists drawn, not markdown source.
      const preview = await webviewFrameWith(page, 'strong:has-text("Result: slot 130")', 30_000);
      assert.match(await preview.locator('body').innerText(), /physical slots 1,024 \(992 padding\)/);
      await page.screenshot({ path: join(SHOTS, '8-linear-index-steps.png') });
    });

    it('opens the Memory View from the Padding Report: an estimate of the file, a row reveals its instruction', async () => {
      await page.locator('.tab', { hasText: 'tiles.hlo' }).first().click();
      // Start from line 1 so that revealing the picked value visibly moves the cursor.
      await page.keyboard.press('Control+Home');
      await page
        .locator('.statusbar-item', { hasText: /Ln 1, Col 1/ })
        .first()
        .waitFor({ timeout: 10_000 });
      await runCommand(page, 'XLA Layout: Padding Report');
      const view = await webviewFrameWith(page, 'main#app[aria-label="XLA memory view"] #headline', 60_000);
      // No buffer assignment beside tiles.hlo: an estimate, every value its own buffer. The valid
      // buffers are p0 and neg, f32[8,4] under T(8,128) (128 B in 4 KiB), and p1, bf16[16,256].
      assert.equal(await view.locator('.basis').innerText(), 'Estimate from the HLO');
      assert.equal(
        await view.locator('#headline').innerText(),
        'About 16 KiB if each of its 3 values had a buffer of its own; 7.8 KiB of it (48.4%) is padding.',
      );
      await page.screenshot({ path: join(SHOTS, '9-padding-report.png') });
      await view.locator('#tab-values').click();
      // Largest first: p1 (8 KiB) leads; p0 is the padded one.
      const p0 = view.locator('#values tbody tr', { hasText: '%p0' }).first();
      assert.match(await p0.innerText(), /%p0[\s\S]*3\.9 KiB · 96\.9%/);
      await p0.locator('td[data-column="name"]').click();
      await page
        .locator('.statusbar-item', { hasText: /Ln 4, Col/ })
        .first()
        .waitFor({ timeout: 10_000 });
      await page.locator('.tab.active', { hasText: 'tiles.hlo' }).first().waitFor({ timeout: 10_000 });
      // Close the view: the tests after this one read tiles.hlo's lines across the whole window.
      const memoryTab = page.locator('.tab', { hasText: 'Memory: tiles' }).first();
      await memoryTab.hover();
      await memoryTab.locator('.codicon-close').click();
      await page
        .locator('.tab', { hasText: 'Memory: tiles' })
        .waitFor({ state: 'detached', timeout: 10_000 });
    });

    it("opens the visualizer from the hover's command link", async () => {
      await page.locator('.tab', { hasText: 'tiles.hlo' }).first().click();
      const p = await charPoint(page, 'p1 = bf16[16,256]', 8);
      await page.mouse.move(p.x, p.y);
      const link = page.locator('.monaco-hover-content:visible a', { hasText: 'Open Visualizer' }).first();
      await link.waitFor({ timeout: 30_000 });
      await link.click();
      // The link's JSON arguments reach the command (validated there) and the reused panel shows p1's shape.
      const frame = await visualizerFrame(page, 60_000);
      await frame.waitForFunction(
        (want) => [...document.querySelectorAll('input')].some((i) => i.value === want),
        'bf16[16,256]{1,0:T(8,128)(2,1)}',
        { timeout: 30_000 },
      );
      await page.screenshot({ path: join(SHOTS, '10-visualizer-from-hover.png') });
    });

    it('goes to the source line with F12 on source_file, in the workspace copy of the file', async () => {
      await goToSourceWithF12(page);
      await page.screenshot({ path: join(SHOTS, '11-go-to-source.png') });
    });

    it("opens the source line from the hover's link on source_file", async () => {
      await page.locator('.tab', { hasText: 'source.hlo' }).first().click();
      await page.keyboard.press('Control+Home');
      const p = await charPoint(page, 'layers.py', 2);
      await page.mouse.move(p.x, p.y);
      const link = page.locator('.monaco-hover-content:visible a', { hasText: 'layers.py:4' }).first();
      await link.waitFor({ timeout: 30_000 });
      await hoverSettled(page);
      await page.screenshot({ path: join(SHOTS, '12-source-hover.png') });
      await link.click();
      await page.locator('.tab.active', { hasText: 'layers.py' }).waitFor({ timeout: 30_000 });
      await page
        .locator('.statusbar-item', { hasText: /Ln 4, Col 1/ })
        .first()
        .waitFor({ timeout: 10_000 });
    });

    it('lists the HLO instructions of the source line from the palette and reveals the picked one', async () => {
      // The cursor is on line 4 of layers.py (the hover link put it there), which %s of source.hlo records.
      await page.locator('.tab.active', { hasText: 'layers.py' }).waitFor();
      await runCommand(page, 'XLA Layout: Show HLO Instructions for Source Line');
      const quick = page.locator('.quick-input-widget');
      const row = quick.locator('.quick-input-list .monaco-list-row').first();
      await row.waitFor({ timeout: 30_000 });
      assert.match(await quick.innerText(), /layers\.py:4: 1 instruction in the open HLO documents/);
      // Label "1x  s" (nothing pads), then logical → physical bytes; shape, computation and dump below.
      assert.match(
        await row.innerText(),
        /^1x\s+s\s*32 B → 32 B\s+f32\[8\]\{0\}\s+·\s+main\s+·\s+source\.hlo$/,
      );
      await page.screenshot({ path: join(SHOTS, '13-hlo-for-source-line.png') });
      await page.keyboard.press('Enter');
      await page.locator('.tab.active', { hasText: 'source.hlo' }).waitFor({ timeout: 30_000 });
      await page
        .locator('.statusbar-item', { hasText: /Ln 5, Col/ })
        .first()
        .waitFor({ timeout: 10_000 });
    });

    it('shows the callers of a fused computation with Show Call Hierarchy', async () => {
      await quickOpen(page, 'calls.hlo');
      await page.locator('.monaco-editor .view-line', { hasText: /%fused\s\(p/ }).waitFor();
      const p = await charPoint(page, '%fused (p', 3);
      await page.mouse.click(p.x, p.y);
      // Shift+Alt+H in a desktop VS Code; a browser gives Alt+H to the menu bar, so the palette here.
      await runCommand(page, 'Calls: Show Call Hierarchy');
      // The call hierarchy (VS Code's References view, or its peek widget) lists body, the caller, twice called.
      const caller = page.locator('.monaco-list-row', { hasText: /^\s*body/ }).first();
      await caller.waitFor({ timeout: 30_000 });
      // Expanding body asks for its callers in turn: the ENTRY computation's while loop.
      await caller.locator('.monaco-tl-twistie').click();
      await page
        .locator('.monaco-list-row', { hasText: /^\s*main/ })
        .first()
        .waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(SHOTS, '15-call-hierarchy.png') });
      await page.keyboard.press('Escape');
    });

    it('renames a fused computation with F2, every call site following, and says why a taken name is refused', async () => {
      await quickOpen(page, 'calls.hlo');
      try {
        // F2 on the call site %f = ... calls=%fused (line 25): the rename box offers the name without its %.
        await goToLine(page, 25);
        const p = await charPoint(page, 'calls=%fused', 9);
        await page.mouse.click(p.x, p.y);
        // The breadcrumbs show the cursor's computation once the language server answers: F2 works from then on.
        await page.locator('.breadcrumbs-control', { hasText: 'body' }).first().waitFor({ timeout: 30_000 });
        await page.keyboard.press('F2');
        const box = page.locator('.rename-box input, .rename-box textarea').first();
        await box.waitFor({ timeout: 30_000 });
        assert.equal(await box.inputValue(), 'fused');
        await box.fill('negate_all');
        await page.screenshot({ path: join(SHOTS, '18-rename-box.png') });
        await page.keyboard.press('Enter');
        // Both call sites, next to the cursor, and the header, 16 lines up (Ctrl+G to bring it into view).
        await page
          .locator('.monaco-editor .view-line', { hasText: /%g\s=\s.*calls=%negate_all/ })
          .waitFor({ timeout: 30_000 });
        assert.match((await lineText(page, '%f = ')) ?? '', /calls=%negate_all$/);
        await goToLine(page, 9);
        await page
          .locator('.monaco-editor .view-line', { hasText: /%negate_all\s\(p/ })
          .waitFor({ timeout: 10_000 });
        await page.screenshot({ path: join(SHOTS, '19-renamed.png') });
        // A name the computation already has: VS Code shows the server's reason, and nothing changes.
        await goToLine(page, 25);
        const f = await charPoint(page, '%f = f32', 1);
        await page.mouse.click(f.x, f.y);
        await page.keyboard.press('F2');
        await box.waitFor({ timeout: 30_000 });
        await box.fill('g');
        await page.keyboard.press('Enter');
        const message = page.locator('.notification-list-item-message', { hasText: 'already names' }).first();
        await message.waitFor({ timeout: 30_000 });
        assert.match(
          await message.innerText(),
          /%g already names an instruction in this computation \(line 26\)/,
        );
        await page.waitForTimeout(800); // for the screenshot: the toast slides in
        await page.screenshot({ path: join(SHOTS, '20-rename-refused.png') });
        assert.match((await lineText(page, 'fusion(%v)')) ?? '', /^\s*%f = /);
      } finally {
        // Back to the file on disk, as the other tests expect it.
        await revertFile(page, 'calls.hlo');
      }
    });

    it('suggests the instructions of the computation when % is typed in an operand list', async () => {
      await quickOpen(page, 'calls.hlo');
      try {
        // Line 29: ROOT %t = (s32[], f32[8]{0}) tuple(%j, %g); type a third operand before the ).
        const labels = await typeForSuggestions(page, 29, 'body', ', %', 1);
        // Nearest definitions first: %j, %one, %g, ... of body, none of another computation (no %lt, %x).
        assert.deepEqual(labels.slice(0, 3), ['j', 'one', 'g'], labels.join(' '));
        assert.ok(!labels.includes('lt') && !labels.includes('x'), labels.join(' '));
        await page.screenshot({ path: join(SHOTS, '21-completion.png') });
        await page.keyboard.press('Enter');
        // The editor redraws the line a moment after Enter (CI's attribute test once read it before).
        await page
          .locator('.monaco-editor .view-line', { hasText: /%g,\s%j\)/ })
          .waitFor({ timeout: 10_000 });
        assert.match((await lineText(page, 'tuple(')) ?? '', /tuple\(%j, %g, %j\)$/);
      } finally {
        // Back to the file on disk, as the other tests expect it.
        await revertFile(page, 'calls.hlo');
      }
    });

    it("suggests the attribute keys XLA's parser takes on the opcode, and hovers a key with its form", async () => {
      await quickOpen(page, 'calls.hlo');
      try {
        // Line 26: %g = f32[8]{0} fusion(%f), kind=kLoop, calls=%fused; type a third attribute.
        const labels = await typeForSuggestions(page, 26, 'body', ', ou');
        // The fusion's own key first; kind= and calls= are written already.
        assert.equal(labels[0], 'output_to_operand_aliasing', labels.join(' '));
        assert.ok(!labels.includes('kind') && !labels.includes('calls'), labels.join(' '));
        await page.screenshot({ path: join(SHOTS, '22-attribute-completion.png') });
        await page.keyboard.press('Enter');
        // The editor redraws the line a moment after Enter (CI once read it before).
        await page
          .locator('.monaco-editor .view-line', { hasText: 'output_to_operand_aliasing=' })
          .waitFor({ timeout: 10_000 });
        assert.match((await lineText(page, '%g = ')) ?? '', /calls=%fused, output_to_operand_aliasing=$/);
        await page.keyboard.press('Escape');
        // Hovering a key: the form of its value, and that the fusion requires it.
        const text = await hoverText(page, 'kind=kLoop, calls=%fused, output', 1);
        assert.match(text, /kind \(attribute of fusion, required\): kLoop, kInput, kOutput or kCustom/, text);
        await hoverSettled(page);
        await page.screenshot({ path: join(SHOTS, '23-attribute-hover.png') });
        await leaveHover(page);
      } finally {
        await revertFile(page, 'calls.hlo');
      }
    });

    it('underlines a misspelt operand, says which name it means, and changes it to that name', async () => {
      await quickOpen(page, 'names.hlo');
      try {
        await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
        // The hover on the squiggle carries the diagnostic.
        const text = await hoverText(page, 'reduce(%inptu', 9);
        // The plain answer first, then XLA's words.
        assert.match(
          text,
          /`%inptu` is not defined in this computation; did you mean `%input`\? — XLA: instruction does not exist: inptu/,
          text,
        );
        await hoverSettled(page);
        await page.screenshot({ path: join(SHOTS, '24-name-diagnostic.png') });
        await leaveHover(page);
        const p = await charPoint(page, 'reduce(%inptu', 9);
        await page.mouse.click(p.x, p.y);
        await openCodeActions(page);
        const wanted = /Change to %input/;
        assert.match(await focusCodeAction(page, wanted), wanted);
        await page.screenshot({ path: join(SHOTS, '25-name-quick-fix.png') });
        await page.keyboard.press('Enter');
        await page.locator('.monaco-editor .view-line', { hasText: 'reduce(%input, %zero)' }).waitFor();
        await page.locator('.monaco-editor .squiggly-error').waitFor({ state: 'detached', timeout: 30_000 });
      } finally {
        await revertFile(page, 'names.hlo');
      }
    });

    it('explains the out-of-memory message of an open log from the palette, rendered beside it', async () => {
      await quickOpen(page, 'oom-hbm.log');
      await runCommand(page, 'XLA Layout: Explain Out-of-Memory Message');
      const preview = await webviewFrameWith(page, 'h2:has-text("1. 16.00G in hbm, line 19")', 30_000);
      const text = await preview.locator('body').innerText();
      assert.match(
        text,
        /^Out-of-memory message in oom-hbm\.log\s+92\.5% of the 22\.38G in the listed allocations is padding/,
      );
      assert.match(text, /logical 256\.00M -> physical 16\.00G \(64x\); the message's 16\.00G agrees/);
      assert.match(text, /pads: dim 2, size 2, minor-most: T\(8,128\) pads 2 to 128 \(64x\)/);
      assert.match(text, /under the ASSUMED tiling TPU 32-bit: \(8,128\)/);
      await page.screenshot({ path: join(SHOTS, '26-oom-message.png') });
      // Close the preview, and with it the group beside: later tests read lines as wide as one group draws them.
      await page.locator('.tab', { hasText: 'Out-of-memory message' }).first().click();
      await page.keyboard.press('Control+W');
      await page.locator('.editor-group-container').nth(1).waitFor({ state: 'detached', timeout: 10_000 });
    });

    it('says in the language status that the outline was cut, and links to the setting', async () => {
      await quickOpen(page, 'calls.hlo');
      await page.locator('.tab.active', { hasText: 'calls.hlo' }).waitFor();
      // The language status entry (`{}` next to the language name) shows its items in a hover.
      const entry = page.locator('[id="status.languageStatus"]');
      await entry.waitFor({ timeout: 30_000 });
      await entry.hover();
      const hover = page.locator('.monaco-hover', { hasText: 'Outline:' }).first();
      await hover.waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(SHOTS, '16-outline-status.png') });
      assert.match(await hover.innerText(), /Outline: 20 of 29 items/);
      // Configure opens the Settings editor on the setting, showing the limit in force. VS Code
      // may drop another item from this hover (an inline-suggestions status after typing) as the
      // click lands, moving the link away from it: then hover and click again.
      const setting = page.locator('.settings-editor .setting-item', { hasText: 'Max Items' }).first();
      for (let attempt = 1; ; attempt++) {
        await entry.hover();
        await hover.waitFor({ timeout: 30_000 });
        await hover
          .getByRole('button', { name: 'Configure' })
          .or(hover.locator('a', { hasText: 'Configure' }))
          .first()
          .click();
        try {
          await setting.waitFor({ timeout: 10_000 });
          break;
        } catch (e) {
          if (attempt === 3) throw e;
        }
      }
      assert.equal(await setting.locator('input').first().inputValue(), '20');
      await page.screenshot({ path: join(SHOTS, '17-outline-setting.png') });
      await page.keyboard.press('Control+W');
    });

    it('colours a module header longer than 20,000 characters', async () => {
      // VS Code leaves lines of 20,000 characters or more uncoloured unless the language raises
      // editor.maxTokenizationLineLength, as the extension does for hlo. The header is 28,386 characters.
      // Alone on the screen: a group left open beside it by an earlier test wraps the line sooner.
      await runCommand(page, 'View: Close All Editor Groups');
      await quickOpen(page, 'long-header.hlo');
      const header = page.locator('.monaco-editor .view-line', { hasText: 'HloModule' }).first();
      await header.waitFor();
      // Each token is drawn as a span with its colour class (mtk1 is the default foreground).
      const tokens = (line: Locator): Promise<[string, string][]> =>
        line.evaluate((l) =>
          [...l.querySelectorAll('span')]
            .filter((s) => /^mtk\d+$/.test(s.className))
            .map((s): [string, string] => [s.textContent ?? '', s.className]),
        );
      const colourOf = (spans: [string, string][], text: string): string | undefined =>
        spans.find(([t]) => t === text)?.[1];
      const deadline = Date.now() + 30_000;
      let head = await tokens(header);
      while (new Set(head.map(([, c]) => c)).size < 4 && Date.now() < deadline) {
        await page.waitForTimeout(250);
        head = await tokens(header);
      }
      await page.screenshot({ path: join(SHOTS, '14-long-header.png') });
      // The start of the line: element type, attribute name and numbers each coloured, apart.
      const type = colourOf(head, 'bf16');
      const attribute = colourOf(head, 'entry_computation_layout');
      const numbers = new Set(head.filter(([t]) => /^\d+$/.test(t)).map(([, c]) => c));
      assert.equal(numbers.size, 1, `numbers: ${JSON.stringify(head)}`);
      const [number] = numbers;
      assert.equal(
        new Set(['mtk1', type, attribute, number]).size,
        4,
        `start of the header: ${JSON.stringify(head)}`,
      );
      // The end of the line, 28,000 characters in (word wrap draws it as the last rows before line 2),
      // is coloured the same way: the whole line was tokenized, not only a prefix.
      await page.keyboard.press('Control+End');
      const end = page.locator('.monaco-editor .view-line', { hasText: 'is_scheduled' }).first();
      await end.waitFor({ timeout: 10_000 });
      // On a loaded machine the end of the line is drawn before its tokens arrive: wait for colour.
      let tail = await tokens(end);
      while (new Set(tail.map(([, c]) => c)).size < 3 && Date.now() < deadline + 30_000) {
        await page.waitForTimeout(250);
        tail = await tokens(end);
      }
      assert.deepEqual(
        [colourOf(tail, 'f32'), colourOf(tail, 'is_scheduled'), colourOf(tail, '128')],
        [type, attribute, number],
        `end of the header: ${JSON.stringify(tail)}`,
      );
    });
  });
}
