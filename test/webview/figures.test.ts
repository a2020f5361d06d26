/**
 * The spec's Figures 1 and 2, read back cell for cell from the rendered page in a real headless
 * Chromium, plus screenshots (test-results/webview/*.png) of them and of a large TPU layout.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS, cellMatrix, readTable, show, tableState, usePageRig } from './harness';

describe('visualizer figures (headless Chromium)', function () {
  this.timeout(120_000);
  const rig = usePageRig();
  let page: Page;
  let errors: string[];

  before(async () => {
    ({ page, errors } = await rig.open());
  });

  afterEach(() => {
    assert.deepEqual(errors, [], 'no console errors or CSP violations');
  });

  it('Figure 1: f32[3,5]{1,0:T(2,2)} logical cells are the spec table, padding to 4x6 is hatched', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    const cells = await readTable(page, 'logical-a');
    assert.deepEqual(cellMatrix(cells, 3, 5), [
      ['0', '1', '4', '5', '8'],
      ['2', '3', '6', '7', '10'],
      ['12', '13', '16', '17', '20'],
    ]);
    const padding = cells
      .filter((c) => c.kind === 'padding')
      .map((c) => `${c.row},${c.col}`)
      .sort();
    assert.deepEqual(padding, ['0,5', '1,5', '2,5', '3,0', '3,1', '3,2', '3,3', '3,4', '3,5']);
    await page.screenshot({ path: join(RESULTS, 'figure1.png'), fullPage: true });
  });

  it('Figure 1: memory holds (0,0) (0,1) (1,0) (1,1) (0,2) … with padding slots 9,11,14,15,18,19,21,22,23', async () => {
    const slots = (await readTable(page, 'memory-a')).filter((c) => c.kind !== 'empty');
    const wrap = Math.max(...slots.map((c) => c.col)) + 1;
    const byOffset = new Map(slots.map((c) => [c.row * wrap + c.col, c]));
    assert.equal(byOffset.size, 24, '24 slots');
    const expected = [
      '0,0',
      '0,1',
      '1,0',
      '1,1',
      '0,2',
      '0,3',
      '1,2',
      '1,3',
      '0,4',
      '',
      '1,4',
      '',
      '2,0',
      '2,1',
      '',
      '',
      '2,2',
      '2,3',
      '',
      '',
      '2,4',
      '',
      '',
      '',
    ];
    expected.forEach((label, offset) => {
      const slot = byOffset.get(offset)!;
      if (label === '') assert.equal(slot.kind, 'padding', `slot ${offset} is padding`);
      else assert.deepEqual([slot.kind, slot.text], ['cell', label], `slot ${offset}`);
    });
  });

  it('Figure 2: f32[4,8]{1,0:T(2,4)(2,1)} logical cells are the spec table', async () => {
    await show(page, 'f32[4,8]{1,0:T(2,4)(2,1)}');
    const cells = await readTable(page, 'logical-a');
    assert.deepEqual(cellMatrix(cells, 4, 8), [
      ['0', '2', '4', '6', '8', '10', '12', '14'],
      ['1', '3', '5', '7', '9', '11', '13', '15'],
      ['16', '18', '20', '22', '24', '26', '28', '30'],
      ['17', '19', '21', '23', '25', '27', '29', '31'],
    ]);
    assert.equal(cells.filter((c) => c.kind === 'padding').length, 0, 'T(2,4) divides 4x8: no padding');
    await page.screenshot({ path: join(RESULTS, 'figure2.png'), fullPage: true });
  });

  it('follows the VS Code theme: canvas colours come from --vscode-* variables', async () => {
    // VS Code sets the variables on <html> and the theme class on <body>; the page watches the class.
    await page.evaluate(() => {
      const root = document.documentElement.style;
      root.setProperty('--vscode-editor-background', '#1e1e1e');
      root.setProperty('--vscode-editor-foreground', '#d4d4d4');
      document.body.className = 'vscode-dark';
    });
    const pixel = (): Promise<number[]> =>
      page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>(
          '#pane-a .canvas-host.logical canvas:not(.overlay)',
        )!;
        // The bottom-right corner is background (the 4x8 grid sits at the top-left).
        return Array.from(
          canvas.getContext('2d')!.getImageData(canvas.width - 2, canvas.height - 2, 1, 1).data,
        );
      });
    await page.waitForFunction(() => {
      const canvas = document.querySelector<HTMLCanvasElement>(
        '#pane-a .canvas-host.logical canvas:not(.overlay)',
      )!;
      return canvas.getContext('2d')!.getImageData(canvas.width - 2, canvas.height - 2, 1, 1).data[0] === 30;
    });
    assert.deepEqual(await pixel(), [30, 30, 30, 255]);
    await page.screenshot({ path: join(RESULTS, 'figure2-dark.png'), fullPage: true });
    await page.evaluate(() => {
      document.documentElement.removeAttribute('style');
      document.body.className = '';
    });
    await page.waitForFunction(() => {
      const canvas = document.querySelector<HTMLCanvasElement>(
        '#pane-a .canvas-host.logical canvas:not(.overlay)',
      )!;
      return canvas.getContext('2d')!.getImageData(canvas.width - 2, canvas.height - 2, 1, 1).data[0] === 255;
    });
  });

  it('draws bf16[4096,4096]{1,0:T(8,128)(2,1)} zoomed out as tile blocks and zoomed in with numbers', async () => {
    await show(page, 'bf16[4096,4096]{1,0:T(8,128)(2,1)}');
    const firstPaint = Number(
      await page.evaluate(() => document.getElementById('app')!.dataset.firstPaintMs),
    );
    assert.ok(firstPaint > 0, `first paint measured (${firstPaint} ms)`);
    assert.equal(await tableState(page, 'logical-a'), 'overview');
    await page.screenshot({ path: join(RESULTS, 'tpu-bf16-4096-overview.png'), fullPage: true });
    // Select (0,0) with the keyboard (the first arrow press picks it), then zoom in around it
    // until cells carry numbers; the accessible table then lists them.
    await page.focus('#pane-a .canvas-host.logical canvas:not(.overlay)');
    await page.keyboard.press('ArrowDown');
    for (let i = 0; i < 40; i++) {
      // The table's state once it shows the current picture: read before its refresh, a stale
      // 'overview' would zoom in further than needed, and row 8 would leave the view.
      if ((await tableState(page, 'logical-a')) === 'cells') break;
      await page.keyboard.press('+');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    }
    // A few steps more, so the screenshot shows numbers (labels start at 14 px cells).
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('+');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    }
    const status = await page.evaluate(() => document.querySelector('#pane-a .status')!.textContent);
    assert.match(status ?? '', /selected element \(0,0\) → linear index 0 of 16,777,216 slots/);
    const cells = await readTable(page, 'logical-a');
    const at = (r: number, c: number): string | undefined =>
      cells.find((x) => x.row === r && x.col === c)?.text;
    // (8,128)(2,1): rows 0 and 1 of a column share a 32-bit word (offsets 0, 1; (0,1) is 2); row 2
    // starts the next row pair after 128 pairs (256); row 8 is the next row of 32 tiles of 1024 slots.
    assert.deepEqual([at(0, 0), at(1, 0), at(0, 1), at(2, 0), at(8, 0)], ['0', '1', '2', '256', '32768']);
    await page.screenshot({ path: join(RESULTS, 'tpu-bf16-4096-zoomed.png'), fullPage: true });
  });
});
