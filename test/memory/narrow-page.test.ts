/**
 * The Memory View page in a real headless Chromium at half a laptop screen (a 750-pixel panel, as
 * beside an editor): every column of a table can be read, either within the panel or by scrolling
 * the table (not the page) sideways, and the treemap's tile of gathered small allocations says
 * what it is rather than looking like one more allocation number.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { memoryFromTexts, memoryModuleJson } from '../../core/src';
import type { ShowMemoryMessage } from '../../protocol/src/memory';
import { RESULTS, post, showMessage, usePageRig } from './page-harness';
import { pagePerTest } from '../support/browser-pages';

const TPU = join(__dirname, 'fixtures', 'tpu', 'module_0042.jit_train_step.after_optimizations.txt');
const WIDTH = 750;

/** A CPU-like module: one large temp arena with long value names, and 5,982 small outputs. */
function manySmall(): ShowMemoryMessage {
  const arena = Array.from(
    { length: 8 },
    (_, i) =>
      ` value: <${i} broadcast_subtract_multiply_fusion.${i} @0> (size=25000000,offset=${i * 25_000_000}): f32[4,16,16,8,2,3,5,7]{7,6,5,4,3,2,1,0}`,
  );
  const small = Array.from(
    { length: 5982 },
    (_, i) =>
      `allocation ${i + 1}: size 26000, maybe-live-out:\n value: <${i + 8} transpose_copy_fusion.${i} @0> (size=26000,offset=0): f32[26,250]{1,0}`,
  );
  const bufferAssignment = `allocation 0: size 200000000, preallocated-temp:\n${arena.join('\n')}\n${small.join('\n')}\n`;
  return {
    type: 'show',
    uri: 'file:///many-small.txt',
    name: 'many-small.txt',
    files: [],
    module: memoryModuleJson(memoryFromTexts({ bufferAssignment })!),
  };
}

/** Where the table's last column ends against the panel, and who scrolls sideways. */
function geometry(page: Page, id: 'allocations' | 'values') {
  return page.evaluate((tableId) => {
    const table = document.getElementById(tableId)!;
    const box = table.parentElement!;
    // No local functions: the test's compiler would wrap them in a helper the page lacks.
    const last = table.querySelector('thead th:last-child')!;
    const root = document.documentElement;
    const before = last.getBoundingClientRect().right;
    box.scrollLeft = box.scrollWidth;
    const scrolled = last.getBoundingClientRect().right;
    box.scrollLeft = 0;
    return {
      panel: root.clientWidth,
      pageScrollsSideways: root.scrollWidth > root.clientWidth,
      boxRight: box.getBoundingClientRect().right,
      boxScrolls:
        box.scrollWidth > box.clientWidth && ['auto', 'scroll'].includes(getComputedStyle(box).overflowX),
      lastRight: before,
      lastRightScrolled: scrolled,
    };
  }, id);
}

describe('memory view page in a half-width panel (headless Chromium)', function () {
  this.timeout(120_000);
  const rig = usePageRig();
  let page: Page;

  before(() => mkdirSync(RESULTS, { recursive: true }));
  pagePerTest(
    () => rig.open({ width: WIDTH, height: 900 }),
    (opened) => (page = opened.page),
  );

  it('shows every column of the allocations table inside the panel', async () => {
    for (const message of [showMessage(TPU), manySmall()]) {
      await post(page, message);
      const g = await geometry(page, 'allocations');
      assert.equal(g.pageScrollsSideways, false, `${message.name}: the page does not scroll sideways`);
      assert.ok(
        g.lastRight <= g.panel,
        `${message.name}: "Largest value" ends at ${g.lastRight} of ${g.panel}`,
      );
    }
    await page.locator('#allocations').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(RESULTS, 'narrow-allocations.png') });
  });

  it('scrolls the values table, not the page, sideways to its last column', async () => {
    await post(page, showMessage(TPU));
    await page.click('#tab-values');
    const g = await geometry(page, 'values');
    assert.equal(g.pageScrollsSideways, false, 'the page does not scroll sideways');
    // The answer (how much, how much of it is padding) is read without scrolling.
    const wastedRight = await page.evaluate(
      () =>
        document
          .querySelector('#values thead [data-column="padding"]')
          ?.closest('th')
          ?.getBoundingClientRect().right,
    );
    assert.ok(
      wastedRight !== undefined && wastedRight <= g.boxRight,
      `"Wasted" ends at ${wastedRight} of ${g.boxRight}`,
    );
    assert.ok(
      g.lastRight <= g.boxRight || (g.boxScrolls && g.lastRightScrolled <= g.boxRight + 1),
      `"Source" ends at ${g.lastRight} (scrolled: ${g.lastRightScrolled}) of the table's box ${g.boxRight}`,
    );
    await page.locator('#values').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(RESULTS, 'narrow-values.png') });
  });

  it('labels the tile of gathered small allocations as their count and total', async () => {
    await post(page, manySmall());
    const tile = page.locator('.treemap .tile[data-allocation="small"]');
    assert.equal(await tile.getAttribute('aria-label'), '5,982 smaller allocations, 148 MiB in all');
    const texts = await tile.locator('text').allTextContents();
    assert.ok(
      texts.some((t) => /^5,982 smaller/.test(t)),
      `the tile's label says what it is: ${JSON.stringify(texts)}`,
    );
    assert.ok(!texts.some((t) => /^\d+ small$/.test(t)), JSON.stringify(texts));
    await page.locator('.treemap').screenshot({ path: join(RESULTS, 'narrow-treemap.png') });
  });
});
