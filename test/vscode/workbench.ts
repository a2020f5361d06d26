/**
 * Driving code-server's workbench like a person — keyboard, mouse, reading what is on screen — for
 * the end-to-end tests of the Node build (test/vscode/e2e.test.ts) and of the browser build
 * (test/web/web-extension.test.ts). Kept out of the *.test.ts files because importing one of those
 * would register its suite a second time.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import type { CodeServer } from './harness';

/** Centre of the character `delta` after the start of `needle` on the visible editor line that contains it. */
export async function charPoint(
  page: Page,
  needle: string,
  delta: number,
): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(
    ([n, d]) => {
      for (const line of document.querySelectorAll<HTMLElement>('.monaco-editor .view-line')) {
        // Monaco renders spaces as U+00A0; map them back (one character each, offsets unchanged).
        const at = (line.textContent ?? '').replace(/\u00a0/g, ' ').indexOf(n);
        if (at < 0) continue;
        // Walk the line's text nodes to the character and measure it with a DOM range.
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

/** Text of the editor line containing `needle` (Monaco renders spaces as U+00A0). */
export async function lineText(page: Page, needle: string): Promise<string | undefined> {
  const lines = await page.locator('.monaco-editor .view-line').allTextContents();
  return lines.map((l) => l.replace(/\u00a0/g, ' ')).find((l) => l.includes(needle));
}

/**
 * Moves the mouse onto the character `delta` into `needle` and returns the text of the hover that
 * appears. The workbench can still shift the editor after the text is drawn (Restricted Mode's
 * banner arrives late and pushes every line down), leaving the mouse on another line: so the point
 * is measured again and the mouse moved off the text and there again, every 5 s, until the hover
 * shows (30 s in all).
 */
export async function hoverText(page: Page, needle: string, delta: number): Promise<string> {
  // Monaco keeps hidden hover widgets in the DOM; the one on screen is the visible one.
  const hover = page.locator('.monaco-hover-content:visible').first();
  for (let attempt = 1; ; attempt++) {
    const p = await charPoint(page, needle, delta);
    // Off the text first on a retry: Monaco does not ask again for a position whose hover came back
    // empty (asked before the language server could answer) while the mouse stays on it.
    if (attempt > 1) await page.mouse.move(0, 0);
    // From one pixel beside the character onto it: Monaco shows hovers on mouse moves.
    await page.mouse.move(p.x + 1, p.y);
    await page.mouse.move(p.x, p.y);
    try {
      await hover.waitFor({ state: 'visible', timeout: 5_000 });
      return await hover.innerText();
    } catch (e) {
      if (attempt === 6) throw e;
    }
  }
}

/**
 * Waits until the hover's fade-in has finished: a picture taken during the fade shows the code
 * through the hover.
 */
export async function hoverSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => {
      const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
      return (
        !(
          target instanceof Element &&
          target.closest('.monaco-hover, .monaco-hover-content, .workbench-hover')
        ) || a.playState === 'finished'
      );
    }),
  );
}

/** Moves the mouse off the text (to empty editor space near the bottom) and presses Escape, so a hover closes. */
export async function leaveHover(page: Page): Promise<void> {
  const editor = await page.locator('.monaco-editor .view-lines').first().boundingBox();
  assert.ok(editor, 'the editor is on screen');
  await page.mouse.move(editor.x + editor.width / 2, editor.y + editor.height - 20);
  await page.keyboard.press('Escape');
}

/** Runs a command by its title from the command palette (F1). */
export async function runCommand(page: Page, title: string): Promise<void> {
  // Keys typed while a webview's iframe has focus may never reach the workbench; blurring the
  // iframe hands focus back to the workbench without moving the editor's cursor.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/**
 * Chooses `item` from the context menu of `target`. The item is highlighted with the mouse and
 * chosen with Enter: under load, VS Code's menus can drop a click that lands right after they
 * open, leaving the item highlighted and nothing run. Returns once Enter was pressed.
 */
export async function chooseFromContextMenu(page: Page, target: Locator, item: string): Promise<void> {
  await target.click({ button: 'right', timeout: 30_000 });
  const entry = page.getByRole('menuitem', { name: item }).first();
  await entry.waitFor({ state: 'visible', timeout: 30_000 });
  await entry.hover();
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
}

/**
 * Moves the cursor to line `line` (1-based) with Go to Line (Ctrl+G), which scrolls it into view.
 * Right after a file opens in a fresh workbench the first Go to Line can find no editor to move
 * (seen once in three runs of a single test): then it is done again.
 */
export async function goToLine(page: Page, line: number): Promise<void> {
  const status = page.locator('.statusbar-item', { hasText: `Ln ${line},` }).first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+G');
    // Go to Line opens the quick input with ':' in it; typed before that, the digits would go elsewhere.
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    for (let i = 0; i < 50 && (await input.inputValue()) !== ':'; i++) await page.waitForTimeout(100);
    await page.keyboard.type(String(line));
    await page.keyboard.press('Enter');
    try {
      await status.waitFor({ timeout: 10_000 });
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/** Closes what is open over the editor and reverts the active file `fileName` to its text on disk. */
export async function revertFile(page: Page, fileName: string): Promise<void> {
  await page.keyboard.press('Escape');
  await runCommand(page, 'File: Revert File');
  await page.locator('.tab.active:not(.dirty)', { hasText: fileName }).waitFor({ timeout: 10_000 });
}

/**
 * Opens a file of the workspace by name with Quick Open (Ctrl+P) and waits for its tab. Enter waits
 * for the focused row to be the file: the list shows recently opened files before it applies the
 * typed filter, and an Enter then opened the previous file (seen once in CI); and Ctrl+P pressed
 * right after a webview tab closed opened nothing. Tries three times.
 */
export async function quickOpen(page: Page, fileName: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      // As in runCommand: a key pressed while a webview's iframe (or a closed one) holds focus may
      // never reach the workbench, so focus goes back to the workbench first.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Control+P');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(fileName);
      await page
        .locator('.quick-input-list .monaco-list-row.focused', { hasText: fileName })
        .first()
        .waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.tab.active', { hasText: fileName }).waitFor({ timeout: 10_000 });
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * Go to source like a person: opens the fixture source.hlo alone in the window, clicks into its
 * `source_file` path and presses F12; resolves once the workspace's proj/model/layers.py is the
 * active tab with the cursor on line 4 (the dump recorded /home/builder/src/proj/model/layers.py).
 */
export async function goToSourceWithF12(page: Page): Promise<void> {
  // One editor group, full width: the path sits at column 90 of its line.
  await runCommand(page, 'View: Close All Editor Groups');
  await quickOpen(page, 'source.hlo');
  await page.locator('.monaco-editor .view-line', { hasText: 'layers.py' }).waitFor();
  const p = await charPoint(page, 'layers.py', 2);
  await page.mouse.click(p.x, p.y);
  // The server has the document once the breadcrumbs show its symbols (on a first HLO file the
  // extension is still starting when the tab opens, and F12 would find no definition provider).
  await page.locator('.breadcrumbs-control', { hasText: 'main' }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('F12');
  await page.locator('.tab.active', { hasText: 'layers.py' }).waitFor({ timeout: 30_000 });
  await page
    .locator('.statusbar-item', { hasText: /Ln 4, Col 1/ })
    .first()
    .waitFor({ timeout: 10_000 });
  assert.match((await lineText(page, 'def scale')) ?? '', /def scale\(x\)/);
}

/** Opens the code-action menu at the cursor (Ctrl+.) and waits until it lists actions. */
export async function openCodeActions(page: Page): Promise<void> {
  await page.keyboard.press('Control+.');
  await page.locator('.action-widget .monaco-list-row.action').first().waitFor({ timeout: 30_000 });
}

/**
 * Moves the focus in the open code-action menu with the arrow keys, as a person would, until the
 * focused action's label matches `wanted` (at most once round the list). Returns the label then
 * focused ('' when none) for the caller to check.
 */
export async function focusCodeAction(page: Page, wanted: RegExp): Promise<string> {
  const rows = page.locator('.action-widget .monaco-list-row.action');
  const focused = async (): Promise<string> =>
    (await page.locator('.action-widget .monaco-list-row.focused').getAttribute('aria-label')) ?? '';
  for (let i = 0; i < (await rows.count()); i++) {
    if (wanted.test(await focused())) break;
    await page.keyboard.press('ArrowDown');
  }
  return focused();
}

/** What a workbench suite's hooks clean up; any part is missing when its `before` hook failed early. */
export interface WorkbenchParts {
  readonly server?: CodeServer;
  readonly browser?: Browser;
  readonly page?: Page;
}

/**
 * Registers a workbench suite's afterEach and after hooks. After each test: a failed one leaves a
 * screenshot in `shots`, and Escape closes any menu or hover before the next. After the suite:
 * when a test failed, code-server's and the workbench's logs are copied to `logs`; then Chromium
 * and code-server stop. `parts` is read when the hooks run, so it sees what `before` assigned.
 */
export function closeWorkbenchAfterTests(parts: () => WorkbenchParts, shots: string, logs: string): void {
  afterEach(async function () {
    const { page } = parts();
    if (this.currentTest?.state === 'failed' && page !== undefined) {
      await page.screenshot({
        path: join(shots, `failed-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-')}.png`),
      });
    }
    await page?.keyboard.press('Escape');
  });

  after(async function () {
    const { server, browser } = parts();
    const failed = this.test?.parent?.tests.some((t) => t.state === 'failed') ?? false;
    if (failed) server?.saveLogs(logs);
    await browser?.close();
    await server?.stop();
  });
}

/**
 * Types `keys` at the end of line `line` of the open file (`back` characters before its end), once
 * the breadcrumbs show `computation` (the language server answers there), and returns the labels of
 * the suggest widget that opens. Pressed earlier, while the server starts, the keys can reach an
 * editor that offers nothing yet.
 */
export async function typeForSuggestions(
  page: Page,
  line: number,
  computation: string,
  keys: string,
  back = 0,
): Promise<string[]> {
  await goToLine(page, line);
  await page.locator('.breadcrumbs-control', { hasText: computation }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('End');
  for (let i = 0; i < back; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.type(keys);
  const rows = page.locator('.suggest-widget .monaco-list-row');
  await rows.first().waitFor({ timeout: 30_000 });
  return (await rows.locator('.label-name').allTextContents()).map((l) => l.trim());
}

/**
 * Content frames of the workbench's webviews. Webviews nest two iframes: VS Code's host page
 * (index.html) and, inside it, the extension's content, loaded as `fake.html`.
 */
export function webviewFrames(page: Page): Frame[] {
  return page
    .frames()
    .filter((f) => f.url().includes('fake.html') && f.parentFrame()?.url().includes('index.html'));
}

/** The first webview content frame with an element matching `selector`, waiting up to `timeoutMs`. */
export async function webviewFrameWith(page: Page, selector: string, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of webviewFrames(page)) {
      if (
        (await f
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    }
    if (Date.now() > deadline)
      throw new Error(
        `no webview has ${selector} among ${page
          .frames()
          .map((f) => f.url())
          .join(', ')}`,
      );
    await page.waitForTimeout(250);
  }
}
