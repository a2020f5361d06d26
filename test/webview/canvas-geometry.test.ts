/**
 * What the canvas really shows, read back pixel by pixel, in the situations of a VS Code panel:
 * a narrow view, a resize after the first paint, devicePixelRatio 2, zooming. Every check maps a
 * cell to pixels with the transform the canvas reports it drew with (data-scale / data-x0 /
 * data-y0) and compares the colour there with the cell's kind in the accessible table, so the
 * picture and the table cannot drift apart unnoticed.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createElementMapper, isLayoutError, type ElementMapper } from '../../core/src/layout';
import { analyzeShape } from '../../webview/src/analyze';
import { tileColourIndex } from '../../webview/src/theme';
import { RESULTS, readTable, show, tableState, usePageRig, type TableCell } from './harness';
import {
  LOGICAL,
  MEMORY,
  draws,
  drawn,
  near,
  paddingTone,
  palette,
  snapshot,
  token,
  type Drawn,
  type Rgb,
} from './pixels';

/** Waits until both views have redrawn since draw count `before` at their host's current size. */
async function redrawn(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => {
    const pane = document.getElementById('pane-a')!;
    const sized = [...pane.querySelectorAll<HTMLCanvasElement>('.canvas-host canvas:not(.overlay)')].every(
      (c) =>
        c.width === Math.round(c.parentElement!.clientWidth * devicePixelRatio) &&
        c.height === Math.round(c.parentElement!.clientHeight * devicePixelRatio),
    );
    return sized && Number(pane.dataset.draws) > n;
  }, before);
}

/** The backing-store pixels under the CSS rectangle (x, y, w, h) of the canvas, as RGB triples. */
async function pixels(page: Page, x: number, y: number, w = 1, h = 1, selector = LOGICAL()): Promise<Rgb[]> {
  return page.evaluate(
    ([sel, px, py, pw, ph]) => {
      const c = document.querySelector<HTMLCanvasElement>(sel)!;
      const r = devicePixelRatio;
      const x0 = Math.ceil(px * r);
      const y0 = Math.ceil(py * r);
      const data = c
        .getContext('2d')!
        .getImageData(
          x0,
          y0,
          Math.max(1, Math.floor((px + pw) * r) - x0),
          Math.max(1, Math.floor((py + ph) * r) - y0),
        ).data;
      const out: [number, number, number][] = [];
      for (let i = 0; i < data.length; i += 4) out.push([data[i], data[i + 1], data[i + 2]]);
      return out;
    },
    [selector, x, y, w, h] as const,
  );
}

function mapperOf(shape: string): ElementMapper {
  const a = analyzeShape(shape);
  assert.equal(a.kind, 'array', shape);
  assert.ok(a.kind === 'array');
  const m = createElementMapper(a.shape);
  assert.ok(!isLayoutError(m));
  return m;
}

/** Colour of a data cell: its first-level tile's palette entry, as the page resolves it. */
async function tileRgb(page: Page, mapper: ElementMapper, row: number, col: number): Promise<Rgb> {
  return token(page, `tile-${tileColourIndex(mapper.tileId(0, row, col))}`);
}

/**
 * Checks every listed cell that lies wholly inside the canvas: a data cell's top-left interior
 * (3 px in from the corner, clear of grid lines, borders and its centred label) has its tile's
 * colour; a padding cell's interior shows the hatch's padding colour and no tile colour.
 */
async function checkCellsAgainstPixels(
  page: Page,
  mapper: ElementMapper,
  cells: readonly TableCell[],
  d: Drawn,
): Promise<number> {
  const padding = await token(page, 'padding');
  const tiles = await palette(page);
  const shot = await snapshot(page, LOGICAL());
  const at = (x: number, y: number): Rgb => {
    const k = (Math.ceil(y * shot.dpr) * shot.width + Math.ceil(x * shot.dpr)) * 4;
    return [shot.data[k], shot.data[k + 1], shot.data[k + 2]];
  };
  let checked = 0;
  for (const cell of cells) {
    const x = (cell.col - d.x0) * d.scale;
    const y = (cell.row - d.y0) * d.scale;
    if (x < 0 || y < 0 || x + d.scale > d.width || y + d.scale > d.height) continue;
    if (cell.kind === 'cell') {
      const tile = tiles[tileColourIndex(mapper.tileId(0, cell.row, cell.col))];
      assert.deepEqual(
        at(x + 3, y + 3),
        tile,
        `cell (${cell.row},${cell.col}) at ${x.toFixed(1)},${y.toFixed(1)}`,
      );
    } else {
      assert.equal(cell.kind, 'padding');
      const inside: Rgb[] = [];
      for (let py = y + 3; py < y + d.scale - 3; py += 1 / shot.dpr)
        for (let px = x + 3; px < x + d.scale - 3; px += 1 / shot.dpr) inside.push(at(px, py));
      assert.ok(
        inside.some((p) => near(p, padding, 40)),
        `padding (${cell.row},${cell.col}) is hatched`,
      );
      assert.ok(
        !inside.some((p) => tiles.some((t) => near(p, t, 0))),
        `padding (${cell.row},${cell.col}) has no tile colour`,
      );
    }
    checked++;
  }
  return checked;
}

describe('visualizer canvas geometry in a panel-sized view (headless Chromium)', function () {
  this.timeout(120_000);
  const rig = usePageRig();
  let page: Page;
  let errors: string[];

  async function open(width: number, height: number, deviceScaleFactor: number): Promise<void> {
    ({ page, errors } = await rig.open({ width, height }, deviceScaleFactor));
  }

  afterEach(async () => {
    // The page owns its browser context (Browser.newPage), so this closes the context too.
    await page?.close();
    assert.deepEqual(errors, [], 'no console errors');
  });

  it('re-fits f32[8,4]{1,0:T(8,128)} when the panel shrinks after the first paint, not cut off at the right', async () => {
    await open(1100, 900, 1);
    await show(page, 'f32[8,4]{1,0:T(8,128)}');
    const wide = await drawn(page);
    // The padded extent is 8 x 128 cells, fitted to the width with a 4 px margin.
    assert.equal(wide.scale, (wide.width - 8) / 128);
    const before = await draws(page);
    await page.setViewportSize({ width: 500, height: 700 });
    await redrawn(page, before);
    const d = await drawn(page);
    assert.ok(
      d.width < wide.width && d.width === d.hostWidth,
      `canvas ${d.width} px fills its ${d.hostWidth} px host`,
    );
    assert.deepEqual([d.backingWidth, d.backingHeight], [d.width, d.height]);
    assert.equal(d.scale, (d.width - 8) / 128, 'fitted to the new width');
    assert.equal(d.x0 * d.scale, -4, 'cell (0,0) starts 4 px from the left');
    assert.equal(d.y0 * d.scale, -4, 'and 4 px from the top');
    // Too small for cells one by one: tile blocks, padding as its half-tone, background after the grid.
    const mapper = mapperOf('f32[8,4]{1,0:T(8,128)}');
    const centre = (r: number, c: number): Promise<Rgb[]> =>
      pixels(page, 4 + (c + 0.5) * d.scale, 4 + (r + 0.5) * d.scale);
    assert.deepEqual((await centre(0, 0))[0], await tileRgb(page, mapper, 0, 0));
    // (7,3) touches the outline of the logical bounds; (6,2) is the last cell clear of it.
    assert.deepEqual((await centre(6, 2))[0], await tileRgb(page, mapper, 6, 2));
    assert.deepEqual(
      (await centre(0, 127))[0],
      await paddingTone(page),
      'the last padded column is on the canvas',
    );
    assert.deepEqual(
      (await pixels(page, d.width - 2, 4 + 9 * d.scale))[0],
      await token(page, 'background'),
      'background right of and below the grid',
    );
    await page.screenshot({ path: join(RESULTS, 'panel-resized-500.png') });
  });

  it('draws cell (0,0) at the top-left of a narrow view at devicePixelRatio 2', async () => {
    await open(500, 700, 2);
    await show(page, 'f32[8,4]{1,0:T(8,128)}');
    const d = await drawn(page);
    assert.equal(d.dpr, 2);
    assert.deepEqual(
      [d.backingWidth, d.backingHeight],
      [d.width * 2, d.height * 2],
      'backing store at device pixels',
    );
    assert.equal(d.width, d.hostWidth);
    assert.equal(d.x0 * d.scale, -4);
    const mapper = mapperOf('f32[8,4]{1,0:T(8,128)}');
    assert.deepEqual(
      (await pixels(page, 4 + d.scale / 2, 4 + d.scale / 2))[0],
      await tileRgb(page, mapper, 0, 0),
      'cell (0,0) at the top-left',
    );
    assert.deepEqual(
      (await pixels(page, 1, 1))[0],
      await token(page, 'background'),
      'only the margin before it',
    );
    // The memory view folds T(8,128) tiles one tile row (128 slots) per line: 8 lines of 128.
    const memory = await drawn(page, MEMORY());
    assert.equal(memory.scale, (memory.width - 8) / 128);
    assert.deepEqual(
      (await pixels(page, 4 + memory.scale / 2, 4 + 7.5 * memory.scale, 1, 1, MEMORY()))[0],
      await tileRgb(page, mapper, 7, 0),
      'slot 896 holds element (7,0)',
    );
  });

  it('zooms the drawn picture and the table together, and keeps the zoom through a resize', async () => {
    const shape = 'f32[20,200]{1,0:T(8,128)}';
    const mapper = mapperOf(shape);
    await open(500, 700, 2);
    await show(page, shape);
    const fitted = await drawn(page);
    // Padded extent 24 x 256.
    assert.equal(fitted.scale, (fitted.width - 8) / 256);
    assert.equal(await tableState(page, 'logical-a'), 'overview');
    let zooms = 0;
    let d = fitted;
    while (d.scale < 10) {
      const before = await draws(page);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      zooms++;
      await page.waitForFunction((n) => Number(document.getElementById('pane-a')!.dataset.draws) > n, before);
      d = await drawn(page);
      // The fitted grid grows from its top-left corner instead of sliding out of view.
      assert.ok(Math.abs(d.scale - fitted.scale * 1.25 ** zooms) < 1e-9, `zoom ${zooms}: scale ${d.scale}`);
      assert.ok(
        Math.abs(d.x0 * d.scale + 4) < 1e-9 && Math.abs(d.y0 * d.scale + 4) < 1e-9,
        `zoom ${zooms}: cell (0,0) stays at the top-left`,
      );
    }
    let cells = await readTable(page, 'logical-a');
    const window = (t: readonly TableCell[]): number[] => [
      Math.min(...t.map((c) => c.row)),
      Math.max(...t.map((c) => c.row)),
      Math.min(...t.map((c) => c.col)),
      Math.max(...t.map((c) => c.col)),
    ];
    // The table lists exactly the cells the drawn transform puts on the canvas.
    assert.deepEqual(window(cells), [
      0,
      Math.min(24, Math.ceil(d.y0 + d.height / d.scale)) - 1,
      0,
      Math.ceil(d.x0 + d.width / d.scale) - 1,
    ]);
    assert.ok((await checkCellsAgainstPixels(page, mapper, cells, d)) > 100);
    await page.screenshot({ path: join(RESULTS, 'panel-zoomed-dpr2.png') });

    // Pan right with the wheel, then narrow the panel: the zoom and the position are kept.
    await page.mouse.move(100, 400);
    const beforePan = await draws(page);
    await page.locator(LOGICAL()).hover();
    await page.mouse.wheel(200, 0);
    await page.waitForFunction(
      (n) => Number(document.getElementById('pane-a')!.dataset.draws) > n,
      beforePan,
    );
    const panned = await drawn(page);
    assert.ok(panned.x0 > 0, `panned right to column ${panned.x0}`);
    const beforeResize = await draws(page);
    await page.setViewportSize({ width: 420, height: 700 });
    await redrawn(page, beforeResize);
    d = await drawn(page);
    assert.ok(d.width < panned.width);
    assert.deepEqual(
      [d.scale, d.x0, d.y0],
      [panned.scale, panned.x0, panned.y0],
      'a resize does not undo the zoom',
    );
    cells = await readTable(page, 'logical-a');
    assert.equal(window(cells)[2], Math.floor(d.x0), 'the table follows the pan');
    assert.ok((await checkCellsAgainstPixels(page, mapper, cells, d)) > 100);

    // Fit returns to the whole grid at the new width; later resizes re-fit again.
    await page.click('#action-fit');
    await page.waitForFunction(
      (w) =>
        Number(
          document.querySelector<HTMLCanvasElement>('#pane-a .canvas-host.logical canvas')!.dataset.scale,
        ) ===
        (w - 8) / 256,
      d.width,
    );
    const beforeWiden = await draws(page);
    await page.setViewportSize({ width: 700, height: 700 });
    await redrawn(page, beforeWiden);
    d = await drawn(page);
    assert.equal(d.scale, (d.width - 8) / 256);
  });
});
