/**
 * The visualizer page in a real headless Chromium: document text stays inert, malformed messages
 * are ignored, typing re-renders with inline problems, keyboard and memory-view selection agree,
 * compare mode, N-D slices, shapes with no picture, huge arrays, export and reveal messages.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { parseShapeText } from '../../core/src/parse';
import { validateShape } from '../../core/src/validate';
import { validateWebviewToHost } from '../../protocol/src/webview';
import { RESULTS, cellMatrix, post, readTable, sent, show, tableState, usePagePerTest } from './harness';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

async function frame(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

async function statusText(page: Page, pane = 'a'): Promise<string> {
  return page.evaluate((p) => document.querySelector(`#pane-${p} .status`)?.textContent ?? '', pane);
}

describe('visualizer page (headless Chromium)', function () {
  this.timeout(120_000);
  let page: Page;
  let errors: string[];
  // Some tests provoke errors on purpose, so each test checks `errors` itself where it must be empty.
  usePagePerTest((opened) => ({ page, errors } = opened), { assertNoErrors: false });

  it('renders a hostile shape and source name as inert text', async () => {
    await show(page, HOSTILE, {
      source: {
        name: HOSTILE,
        uri: 'file:///tmp/x.hlo',
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
      },
    });
    await page.fill('#shape-a', `f32[2]{0:T(${HOSTILE})}`);
    await page.waitForFunction(
      () => document.getElementById('shape-a')!.getAttribute('aria-invalid') === 'true',
    );
    const result = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned,
      images: document.querySelectorAll('img').length,
      source: document.getElementById('source-name')!.textContent,
      status: document.getElementById('pane-a')!.dataset.status,
    }));
    assert.deepEqual(result, {
      pwned: undefined,
      images: 0,
      source: `Source: ${HOSTILE}`,
      status: 'invalid',
    });
    await page.screenshot({ path: join(RESULTS, 'hostile.png') });
    assert.deepEqual(errors, []);
  });

  it('runs no inline script: the CSP allows only the nonce-carrying bundle', async () => {
    const refused = page.waitForEvent('console', (m) => /Content Security Policy/.test(m.text()));
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.body.appendChild(s);
      return (window as unknown as { __inline?: number }).__inline;
    });
    assert.equal(ran, undefined);
    assert.match(
      (await refused).text(),
      /inline script violates the following Content Security Policy directive 'script-src 'nonce-[0-9a-f]{32}''/,
    );
  });

  it('ignores malformed host messages and keeps what it shows', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    await post(page, { type: 'show', shape: 42 });
    await post(page, { type: 'show', shape: 'f32[1]', script: 'alert(1)' });
    await post(page, { type: 'nonsense' });
    await post(page, { type: 'exportResult', ok: true, detail: 'done' });
    // The exportResult is the last message: once it shows, the three before it were handled too.
    await page.waitForFunction(() => document.getElementById('notice')!.textContent === 'Saved done');
    assert.equal(await page.evaluate(() => document.getElementById('app')!.dataset.shown), '1');
    assert.equal(await page.inputValue('#shape-a'), 'f32[3,5]{1,0:T(2,2)}');
  });

  it('re-renders while typing and underlines the range of each problem', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    const text = 'f32[3,5]{1,0:T(2,-1)}';
    await page.fill('#shape-a', text);
    await page.waitForSelector('#shape-a-problems .problem[data-code="tile-negative"]');
    const parsed = parseShapeText(text);
    const expected = [...parsed.diagnostics, ...validateShape(parsed.shape!)][0];
    assert.equal(expected.code, 'tile-negative');
    const squiggle = await page.evaluate(() => {
      const s = document.querySelector<HTMLElement>('#shape-a-problems .problem .squiggle')!;
      return { start: Number(s.dataset.start), end: Number(s.dataset.end), text: s.textContent };
    });
    assert.deepEqual(squiggle, { start: expected.range.start, end: expected.range.end, text: '-1' });
    assert.equal(
      await page.evaluate(() => document.querySelector('.shape-mirror .squiggle.error')?.textContent),
      '-1',
    );
    await page.screenshot({ path: join(RESULTS, 'inline-error.png') });
    // Fixing the text draws again, with the new layout's numbers.
    await page.fill('#shape-a', 'f32[3,5]{0,1:T(2,2)}');
    await page.waitForFunction(
      () =>
        document.getElementById('pane-a')!.dataset.status === 'drawn' &&
        document.querySelector('#logical-a td[data-row="0"][data-col="1"]')?.textContent === '2',
    );
    // {0,1}: physical [5,3]; (r,c) → tile (c÷2, r÷2) of a 3x2 tile grid, inner (c mod 2, r mod 2).
    assert.deepEqual(cellMatrix(await readTable(page, 'logical-a'), 3, 5), [
      ['0', '2', '8', '10', '16'],
      ['1', '3', '9', '11', '17'],
      ['4', '6', '12', '14', '20'],
    ]);
  });

  it('moves the selection with arrow keys and shows it in the memory view', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    await page.focus('#pane-a .canvas-host.logical canvas:not(.overlay)');
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowRight'])
      await page.keyboard.press(key);
    assert.match(await statusText(page), /selected element \(2,3\) → linear index 17 of 24 slots/);
    // Clicking slot 9 (padding) in the memory strip says so; slot 10 selects element (1,4).
    const box = (await page.locator('#pane-a .canvas-host.memory canvas:not(.overlay)').boundingBox())!;
    const slots = await readTable(page, 'memory-a');
    const wrap = Math.max(...slots.map((s) => s.col)) + 1;
    assert.equal(wrap, 16, 'T(2,2) tiles of 4 slots, 4 tiles a row');
    const cellAt = (offset: number): { x: number; y: number } => {
      // The fitted strip: a 4 px margin, then square cells of (width - 8) / wrap px, at most 44.
      const size = Math.min(44, (box.width - 8) / wrap);
      return {
        x: box.x + 4 + (offset % wrap) * size + size / 2,
        y: box.y + 4 + Math.floor(offset / wrap) * size + size / 2,
      };
    };
    let p = cellAt(9);
    await page.mouse.move(p.x, p.y);
    await page.waitForFunction(() =>
      /slot 9 is padding/.test(document.querySelector('#pane-a .status')!.textContent ?? ''),
    );
    p = cellAt(10);
    await page.mouse.click(p.x, p.y);
    await page.mouse.move(box.x + box.width - 2, box.y + box.height - 2);
    await page.waitForFunction(() =>
      /selected element \(1,4\) → linear index 10 /.test(
        document.querySelector('#pane-a .status')!.textContent ?? '',
      ),
    );
    await page.screenshot({ path: join(RESULTS, 'selection.png') });
  });

  it('compares {1,0:T(8,128)} with {0,1:T(8,128)} side by side with their sizes', async () => {
    await show(page, 'f32[1024,4]{1,0:T(8,128)}', { compareWith: 'f32[1024,4]{0,1:T(8,128)}' });
    await page.waitForFunction(() => document.getElementById('pane-b')!.dataset.status === 'drawn');
    const sizes = await page.evaluate(() =>
      ['a', 'b'].map(
        (p) => document.querySelector(`#pane-${p} tr[data-size="physical"] .value`)!.textContent,
      ),
    );
    // 1024 rows padded to 1024, 4 columns padded to 128: 1024*128*4 B; transposed: [4→8, 1024] * 4 B.
    assert.deepEqual(sizes, ['524,288 B (512 KiB)', '32,768 B (32 KiB)']);
    assert.equal(await page.getAttribute('#action-compare', 'aria-pressed'), 'true');
    await page.screenshot({ path: join(RESULTS, 'compare.png') });
  });

  it('slices a 3-D array with the dimension selectors', async () => {
    await show(page, 'f32[2,3,5]{2,1,0:T(2,2)}');
    // Default slice: rows = dim 1, columns = dim 2, dim 0 = 0. Elements of dim 0 = 1 follow after 24 slots.
    // (The table is refreshed at most every 150 ms after the picture: read it once it is current.)
    assert.equal((await readTable(page, 'logical-a')).find((c) => c.row === 2 && c.col === 3)?.text, '17');
    await page.fill('#slice-index-0', '1');
    await page.dispatchEvent('#slice-index-0', 'change');
    await page.waitForFunction(
      () => document.querySelector('#logical-a td[data-row="2"][data-col="3"]')?.textContent === '41',
    );
    await page.selectOption('#slice-rows', '0');
    await page.waitForFunction(() => document.querySelectorAll('#logical-a tr').length === 2);
  });

  it('says why tuples, tokens and unbounded dims have no picture', async () => {
    for (const [shape, pattern] of [
      ['(f32[2], s32[])', /tuple/],
      ['token[]', /no array elements/],
      ['f32[?,4]', /unbounded/],
      ['f32[2,3]{0,0}', /XLA would reject/],
    ] as const) {
      await show(page, shape);
      const message = await page.evaluate(
        () => document.getElementById('shape-a-problems')!.textContent ?? '',
      );
      assert.match(message, pattern, shape);
      assert.notEqual(await page.evaluate(() => document.getElementById('pane-a')!.dataset.status), 'drawn');
    }
    assert.deepEqual(errors, []);
  });

  it('draws 10^12 elements (f32[1000000,1000000]{1,0:T(8,128)}) at tile granularity and stays responsive', async () => {
    await show(page, 'f32[1000000,1000000]{1,0:T(8,128)}');
    const ms = Number(await page.evaluate(() => document.getElementById('app')!.dataset.firstPaintMs));
    assert.ok(ms > 0);
    // Rows divide by 8; 1,000,000 columns pad to 7,813 tiles of 128 = 1,000,064.
    assert.match(await statusText(page), /1,000,000 × 1,000,000 slice; 1,000,064,000,000 slots/);
    await page.focus('#pane-a .canvas-host.logical canvas:not(.overlay)');
    await page.keyboard.press('ArrowDown');
    // The table's state and cells once it shows the current picture (it is refreshed at most every 150 ms).
    for (let i = 0; i < 60; i++) {
      if ((await tableState(page, 'logical-a')) === 'cells') break;
      await page.keyboard.press('+');
      await frame(page);
    }
    assert.equal((await readTable(page, 'logical-a')).find((c) => c.row === 1 && c.col === 0)?.text, '128');
    await page.screenshot({ path: join(RESULTS, 'huge-1e12.png') });
  });

  it('exports SVG and PNG through validated messages, and asks the host to reveal the source', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}', {
      source: { name: `m.hlo:3 ${HOSTILE}`, uri: 'file:///m.hlo' },
    });
    await page.click('#action-export-svg');
    await page.click('#action-export-png');
    // The PNG is encoded asynchronously (canvas toBlob): a click on reveal may be sent before it.
    await page.waitForFunction(() => (window.xlaLayoutLensHost?.sent.length ?? 0) >= 3);
    await page.click('#action-reveal');
    await page.waitForFunction(() => (window.xlaLayoutLensHost?.sent.length ?? 0) >= 4);
    const messages = await sent(page);
    assert.deepEqual(
      messages.map((m) => m.type),
      ['ready', 'export', 'export', 'reveal'],
    );
    for (const m of messages) assert.equal(validateWebviewToHost(m).ok, true, m.type);
    const svg = messages[1];
    const png = messages[2];
    assert.ok(svg.type === 'export' && svg.format === 'svg' && png.type === 'export' && png.format === 'png');
    assert.match(svg.data, /<text[^>]*>17<\/text>/, 'cell (2,3) is labelled 17');
    assert.ok(!svg.data.includes('<img'), 'no markup from the document');
    assert.equal(Buffer.from(png.data, 'base64').subarray(1, 4).toString('latin1'), 'PNG');
  });
});
