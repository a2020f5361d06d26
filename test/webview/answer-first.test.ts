/**
 * The visualizer's first screen answers the question it was opened with: the sizes, the padding,
 * the dimension that causes it and the fix stand at the top, above the legend and the controls and
 * inside the first viewport, and the logical view opens on the whole first tile (not cut at the
 * panel's right edge). Screenshots: test-results/webview/answer-first-*.png.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS, show, usePageRig } from './harness';
import { LOGICAL, drawn } from './pixels';

/** The buffer of finding 08 (module_0042 line 50): T(4,128) pads dim 1 from 1 to 4, 1 GiB → 4 GiB. */
const BROADCAST = 'bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}';

/** The bounding box of `selector` in CSS px of the viewport. */
async function box(
  page: Page,
  selector: string,
): Promise<{ x: number; y: number; right: number; bottom: number }> {
  const b = await page.locator(selector).boundingBox();
  assert.ok(b, `${selector} is laid out`);
  return { x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height };
}

describe('visualizer: the answer first (headless Chromium)', function () {
  this.timeout(120_000);
  const rig = usePageRig();
  let page: Page | undefined;

  afterEach(async () => {
    await page?.context().close();
    page = undefined;
  });

  for (const [width, height] of [
    [1280, 720],
    [750, 720],
  ] as const) {
    it(`puts the sizes, the padded dim and the fix first, and fits the first tile, at ${width}x${height}`, async () => {
      page = (await rig.open({ width, height })).page;
      await show(page, BROADCAST, { source: { name: 'module_0042.txt:50' } });
      await page.screenshot({ path: join(RESULTS, `answer-first-${width}x${height}.png`) });
      assert.deepEqual(await page.$$eval('#answer-a > *', (parts) => parts.map((p) => p.textContent)), [
        '1 GiB logical → 4 GiB physical (4x, 75% padding)',
        'T(4,128) pads dim 1 (size 1) to 4',
        'Fix: use minor_to_major {0,3,1,2} instead of {0,1,3,2} → 1 GiB, saves 3 GiB',
      ]);
      // Seen without scrolling, and before the legend and the slice controls.
      const answer = await box(page, '#answer-a');
      assert.ok(answer.y >= 0 && answer.bottom <= height && answer.right <= width, JSON.stringify(answer));
      assert.ok(answer.bottom <= (await box(page, '#legend')).y, 'the answer comes before the legend');
      // The first tile (4 rows x 128 columns) is drawn whole inside the canvas, from its left margin.
      const view = await drawn(page, LOGICAL());
      const right = (128 - view.x0) * view.scale;
      assert.ok(view.x0 <= 0 && right <= view.width, `tile ends at ${right} px of ${view.width}`);
      const canvas = await box(page, LOGICAL());
      assert.ok(canvas.y < height, 'the logical view starts in the first viewport');
    });
  }
});
