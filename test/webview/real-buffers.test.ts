/**
 * The visualizer on the buffers users bring, in a real headless Chromium, read back pixel by pixel:
 * the OOM culprit bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)} opens on the slice where T(4,128)
 * pads and shows that padding at the default zoom, zoomed out (no moiré) and on the buffer strip;
 * the legend; the padding account the hover gives; compare mode with one zoom and readable labels;
 * tuples offering their elements; the messages behind the panel title, follow and export names.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createElementMapper, explainShapeText, isLayoutError } from '../../core/src';
import { analyzeShape } from '../../webview/src/analyze';
import { tileColourIndex } from '../../webview/src/theme';
import { RESULTS, readTable, show, usePagePerTest } from './harness';
import { LOGICAL, draws, mix, near, paddingTone, palette, snapshot, token, type Rgb } from './pixels';

const OOM = 'bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}';

async function redrawnSince(page: Page, before: number, pane = 'a'): Promise<void> {
  await page.waitForFunction(([p, n]) => Number(document.getElementById(`pane-${p}`)!.dataset.draws) > n, [
    pane,
    before,
  ] as const);
}

describe('visualizer on real buffers (headless Chromium)', function () {
  this.timeout(120_000);
  let page: Page;
  usePagePerTest((opened) => (page = opened.page));

  it('opens the OOM buffer on dims 1 and 0 with the other dims as index boxes, and says why', async () => {
    await show(page, OOM);
    assert.equal(await page.inputValue('#slice-rows'), '1');
    assert.equal(await page.inputValue('#slice-cols'), '0');
    assert.deepEqual(await page.$$eval('.slice-index', (inputs) => inputs.map((i) => i.id)), [
      'slice-index-2',
      'slice-index-3',
    ]);
    assert.equal(
      await page.textContent('#slice-reason'),
      'Showing dims 1 and 0, where the tiles pad: T(4,128) pads dim 1 from 1 to 4.',
    );
    // Another slice is one choice away, and the way back is offered.
    await page.selectOption('#slice-rows', '2');
    await page.waitForSelector('#slice-default');
    assert.match(
      (await page.textContent('#slice-reason')) ?? '',
      /^The default slice is dims 1 and 0, where/,
    );
    await page.click('#slice-default');
    await page.waitForFunction(() => document.getElementById('slice-default') === null);
    assert.equal(await page.inputValue('#slice-rows'), '1');
  });

  it('shows the padding of the OOM buffer at the default zoom: one data row, three hatched rows', async () => {
    await show(page, OOM);
    const shot = await snapshot(page, LOGICAL());
    assert.ok(shot.scale >= 5, `cells are drawn one by one (${shot.scale} px)`);
    const a = analyzeShape(OOM);
    assert.ok(a.kind === 'array');
    const mapper = createElementMapper(a.shape, { rowDim: 1, colDim: 0 });
    assert.ok(!isLayoutError(mapper));
    const tiles = await palette(page);
    const padding = await token(page, 'padding');
    const cells = await readTable(page, 'logical-a');
    let checked = 0;
    for (const cell of cells) {
      const x = (cell.col - shot.x0) * shot.scale;
      const y = (cell.row - shot.y0) * shot.scale;
      if (x < 0 || x + shot.scale > shot.width / shot.dpr) continue;
      assert.equal(cell.kind, cell.row === 0 ? 'cell' : 'padding', `(${cell.row},${cell.col})`);
      // Opened on the whole first tile, cells are about 8 px: inset 1 px still spans a hatch line (8 px apart).
      const inside = shot.area(x + 1, y + 1, shot.scale - 2, shot.scale - 2);
      if (cell.kind === 'cell') {
        assert.deepEqual(shot.at(x + 3, y + 3), tiles[tileColourIndex(mapper.tileId(0, 0, cell.col))]);
      } else {
        assert.ok(
          inside.some((p) => near(p, padding, 40)),
          `(${cell.row},${cell.col}) is hatched`,
        );
        assert.ok(
          !inside.some((p) => tiles.some((t) => near(p, t, 0))),
          `(${cell.row},${cell.col}) has no data colour`,
        );
      }
      checked++;
    }
    assert.ok(checked >= 4 * 20, `${checked} cells checked`);
    await page.screenshot({ path: join(RESULTS, 'oom-default.png') });
  });

  it('shows where the padding lies in the buffer: the strip and the memory view, 3 slots in 4', async () => {
    await show(page, OOM);
    const tone = await paddingTone(page);
    const data = (await palette(page))[0];
    // The strip is drawn on the frame after the views (it reads its width once laid out).
    await page.waitForFunction(() => Number(document.getElementById('strip-a')!.dataset.drawn ?? 0) > 0);
    const strip = await snapshot(page, '#strip-a');
    // Every T(4,128) tile is 512 slots of which 128 hold elements, so every part of the strip is 75% padding.
    const expected = mix(tone, data, 0.75);
    const middle = strip.area(20, 4, strip.width / strip.dpr - 40, 8);
    assert.ok(
      middle.every((p) => near(p, expected, 1)),
      `strip colour ${JSON.stringify(middle[0])} ~ ${JSON.stringify(expected)}`,
    );
    assert.match((await page.textContent('#pane-a .strip-caption')) ?? '', /grey is padding \(75%\)/);
    // The memory view lists the first tile: rows of 128 slots, (2,1) pairs a data row with a padding row.
    const slots = (await readTable(page, 'memory-a')).filter((s) => s.row < 4);
    assert.equal(slots.length, 512);
    assert.equal(slots.filter((s) => s.kind === 'padding').length, 384);
    assert.deepEqual(
      slots.filter((s) => s.row === 0 && s.col < 4).map((s) => [s.kind, s.text]),
      [
        ['cell', '0,0,0,0'],
        ['padding', 'padding'],
        ['cell', '1,0,0,0'],
        ['padding', 'padding'],
      ],
    );
    // Hovering the strip reads a byte range and its share.
    const box = (await page.locator('#strip-a').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() =>
      /75% padding/.test(document.querySelector('#pane-a .strip-readout')!.textContent ?? ''),
    );
  });

  it('zoomed out, colours by padding share: no moiré, the padded band stays visible', async () => {
    await show(page, OOM);
    const before = await draws(page);
    await page.click('#action-fit');
    await redrawnSince(page, before);
    const shot = await snapshot(page, LOGICAL());
    assert.ok(shot.scale < 2, `fitted to the whole 4 x 1,024 grid (${shot.scale} px)`);
    const tone = await paddingTone(page);
    const data = (await palette(page))[0];
    const y = (row: number): number => (row - shot.y0) * shot.scale;
    const x = (col: number): number => (col - shot.x0) * shot.scale;
    // Rows 1-3 are padding: every device pixel wholly inside them, across all 1,024 columns, is
    // the padding tone; the data row is one colour (tiles of 4 x 1 px are too small to colour apart).
    const band = shot.area(x(0), y(1), x(1024) - x(0), y(4) - y(1));
    assert.ok(band.length >= 1024 && band.every((p) => near(p, tone, 0)), 'padding band is the padding tone');
    const row = shot.area(x(0), y(0), x(1024) - x(0), y(1) - y(0));
    assert.ok(row.length >= 1024 && row.every((p) => near(p, data, 0)), 'the data row is one flat colour');
    await page.screenshot({ path: join(RESULTS, 'oom-fit.png') });
  });

  it('never draws a moiré of tile colours: a big TPU layout zoomed out is one flat colour', async () => {
    await show(page, 'f32[1000,1000]{1,0:T(8,128)}');
    const shot = await snapshot(page, LOGICAL());
    assert.ok(shot.scale < 1, `zoomed out (${shot.scale} px)`);
    const x = (col: number): number => (col - shot.x0) * shot.scale;
    const y = (row: number): number => (row - shot.y0) * shot.scale;
    const inside = shot.area(x(0) + 2, y(0) + 2, x(1000) - x(0) - 4, y(1000) - y(0) - 4);
    assert.equal(new Set(inside.map((p) => p.join(','))).size, 1, 'the data area is one colour');
    // Columns 1,000-1,023 are padding: a band of about 8 px at the right, in the padding tone.
    const tone = await paddingTone(page);
    const band = shot.area(x(1000) + 1, y(0) + 2, x(1024) - x(1000) - 2, y(1000) - y(0) - 4);
    assert.ok(
      band.length > 100 && band.every((p) => near(p, tone, 0)),
      'the padded columns are the padding tone',
    );
    await page.screenshot({ path: join(RESULTS, 'tpu-1000-fit.png') });
  });

  it('has a legend for the tile colours, the padding hatch, the padding share and the borders', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    const keys = await page.$$eval('#legend li', (items) => items.map((i) => (i as HTMLElement).dataset.key));
    assert.deepEqual(keys, ['element', 'padding', 'share', 'other', 'tile-border', 'sub-tile']);
    const swatch = async (key: string): Promise<Rgb[]> => {
      const s = await snapshot(page, `#legend li[data-key="${key}"] canvas`);
      return s.area(0, 0, s.width / s.dpr, s.height / s.dpr);
    };
    const padding = await token(page, 'padding');
    assert.ok(
      (await swatch('padding')).some((p) => near(p, padding, 40)),
      'the padding swatch is hatched',
    );
    const tiles = await palette(page);
    const element = await swatch('element');
    assert.ok(
      [0, 2, 4, 6].every((i) => element.some((p) => near(p, tiles[i], 0))),
      'four tile colours',
    );
    const share = await swatch('share');
    const tone = await paddingTone(page);
    assert.ok(
      share.some((p) => near(p, tiles[0], 1)) && share.some((p) => near(p, tone, 1)),
      'data to padding',
    );
    assert.ok(
      (await swatch('tile-border')).some((p) => near(p, [211, 47, 47], 60)),
      'tile border is the border red',
    );
  });

  it("lists every padded dim as the hover does (Figure 1: dim 0, 3 → 4 and dim 1, 5 → 6) and the hover's fix", async () => {
    for (const shape of ['f32[3,5]{1,0:T(2,2)}', OOM, 'f32[8,4]{1,0:T(8,128)}']) {
      await show(page, shape);
      const lines = await page.$$eval('#pane-a .padding-lines li', (items) =>
        items.map((i) => i.textContent ?? ''),
      );
      // The hover lists, from the same core explanation, every dim with a cause and the fix.
      const explained = explainShapeText(shape).arrays[0];
      const expected = (explained.padding?.dimensions ?? []).flatMap((d) =>
        d.causes.length > 0 ? [`${d.dim} ${d.causes[0].from} ${d.causes[0].to}`] : [],
      );
      const listed = lines.flatMap((t) => {
        const m = /^dim (\d+)\b.*pads ([\d,]+) to ([\d,]+)/.exec(t);
        return m === null ? [] : [`${m[1]} ${m[2].replace(/,/g, '')} ${m[3].replace(/,/g, '')}`];
      });
      assert.deepEqual(listed, expected, shape);
      assert.equal(
        lines.some((l) => l.startsWith('Fix: ')),
        explained.fix !== undefined,
        shape,
      );
    }
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    const lines = await page.$$eval('#pane-a .padding-lines li', (items) =>
      items.map((i) => i.textContent ?? ''),
    );
    assert.deepEqual(lines, [
      'dim 0 (size 3): T(2,2) pads 3 to 4 — 1.33x',
      'dim 1 (size 5, minor-most): T(2,2) pads 5 to 6 — 1.2x',
    ]);
  });
});
