/**
 * Compare mode with one zoom and readable labels, tuples offering their elements, and what the
 * page tells the host (title, follow, export names with the shape on the picture), in a real
 * headless Chromium.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { validateWebviewToHost, type WebviewToHostMessage } from '../../protocol/src/webview';
import { RESULTS, post, readTable, sent, show, usePagePerTest } from './harness';
import { LOGICAL, MEMORY, drawn, snapshot } from './pixels';

const OOM = 'bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}';

/** Waits until both panes' views have the same scale, different from `not`. */
async function sameScale(page: Page, selector: (pane: string) => string, not?: number): Promise<number> {
  await page.waitForFunction(
    // (No local helper functions in page code: the test bundler wraps them in a helper the page lacks.)
    ([a, b, old]) => {
      const sa = Number(document.querySelector<HTMLCanvasElement>(a)!.dataset.scale);
      const sb = Number(document.querySelector<HTMLCanvasElement>(b)!.dataset.scale);
      return sa === sb && sa !== old;
    },
    [selector('a'), selector('b'), not ?? -1] as const,
  );
  return (await drawn(page, selector('a'))).scale;
}

async function messages(page: Page, type: WebviewToHostMessage['type']): Promise<WebviewToHostMessage[]> {
  return (await sent(page)).filter((m) => m.type === type);
}

describe('visualizer compare, tuples and host messages (headless Chromium)', function () {
  this.timeout(120_000);
  let page: Page;
  usePagePerTest((opened) => (page = opened.page));

  it('compares with one zoom for both sides, fitted together, never clipped', async () => {
    await show(page, 'f32[1024,4]{1,0:T(8,128)}');
    // Zoom the first pane in before comparing: compare fits both afresh (the left once kept its zoom).
    for (let i = 0; i < 4; i++) await page.click('#action-zoom-in');
    await page.click('#action-compare');
    const fitted = await sameScale(page, LOGICAL);
    for (const pane of ['a', 'b']) {
      const d = await drawn(page, LOGICAL(pane));
      const cols = pane === 'a' ? 128 : 8;
      assert.ok(d.scale * cols + 8 <= d.width + 1e-9, `pane ${pane}: all ${cols} columns fit`);
      assert.ok(d.scale * 1024 + 8 <= d.height + 1e-9, `pane ${pane}: all 1,024 rows fit`);
    }
    await page.click('#action-zoom-in');
    const zoomed = await sameScale(page, LOGICAL, fitted);
    assert.ok(Math.abs(zoomed - fitted * 1.25) < 1e-9, 'one zoom step, on both sides');
    // Panning one side pans the other.
    await page.locator(LOGICAL('b')).hover();
    await page.mouse.wheel(0, 300);
    await page.waitForFunction(
      ([a, b]) => {
        const ya = Number(document.querySelector<HTMLCanvasElement>(a)!.dataset.y0);
        const yb = Number(document.querySelector<HTMLCanvasElement>(b)!.dataset.y0);
        return ya > 0 && ya === yb;
      },
      [LOGICAL('a'), LOGICAL('b')] as const,
    );
    await page.screenshot({ path: join(RESULTS, 'compare-one-zoom.png') });
  });

  it('draws memory labels in compare mode at a readable size or not at all', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}', { compareWith: 'f32[3,5]{0,1:T(2,2)}' });
    await page.waitForFunction(() => document.getElementById('pane-b')!.dataset.status === 'drawn');
    await sameScale(page, MEMORY);
    const labelPx = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.className = 'xla-colour-probe';
      probe.dataset.token = 'label';
      document.body.appendChild(probe);
      const px = parseFloat(getComputedStyle(probe).fontSize);
      probe.remove();
      return px;
    });
    assert.ok(labelPx >= 11, `labels are ${labelPx} px`);
    for (const pane of ['a', 'b']) {
      const d = await drawn(page, MEMORY(pane));
      assert.equal(
        d.labelPx,
        labelPx,
        `pane ${pane}'s memory labels at ${d.labelPx} px (cells ${d.scale} px)`,
      );
    }
    // A strip too narrow for its labels draws none rather than shrinking them.
    await show(page, 'f32[1024,4]{1,0:T(8,128)}', { compareWith: 'f32[1024,4]{0,1:T(8,128)}' });
    await page.waitForFunction(() => document.getElementById('pane-b')!.dataset.status === 'drawn');
    for (const pane of ['a', 'b']) {
      const d = await drawn(page, MEMORY(pane));
      assert.ok(d.labelPx === 0 || d.labelPx >= 11, `pane ${pane}: ${d.labelPx} px`);
    }
    await page.screenshot({ path: join(RESULTS, 'compare-labels.png') });
  });

  it('offers the elements of a tuple, and shows the one picked', async () => {
    const tuple = `(${OOM}, (f32[3,5]{1,0:T(2,2)}, s32[]))`;
    await show(page, tuple, {
      source: {
        name: 'm.hlo:6',
        uri: 'file:///m.hlo',
        range: { start: { line: 5, character: 10 }, end: { line: 5, character: 10 + tuple.length } },
      },
    });
    assert.equal(await page.getAttribute('#pane-a', 'data-status'), 'tuple');
    assert.match((await page.textContent('#shape-a-problems')) ?? '', /pick one of its 3 array elements/);
    const items = await page.$$eval('#elements-a button.tuple-element', (buttons) =>
      buttons.map((b) => [(b as HTMLElement).dataset.path, b.querySelector('code')!.textContent]),
    );
    assert.deepEqual(items, [
      ['0', OOM],
      ['1,0', 'f32[3,5]{1,0:T(2,2)}'],
      ['1,1', 's32[]'],
    ]);
    assert.match((await page.textContent('#elements-a [data-path="0"]')) ?? '', /1 GiB → 4 GiB \(4x\)/);
    await page.click('#elements-a [data-path="1,0"]');
    await page.waitForFunction(() => document.getElementById('pane-a')!.dataset.status === 'drawn');
    assert.equal(await page.inputValue('#shape-a'), 'f32[3,5]{1,0:T(2,2)}');
    assert.equal(await page.textContent('#source-name'), 'Source: m.hlo:6, element {1,0}');
    assert.equal((await readTable(page, 'logical-a')).find((c) => c.row === 2 && c.col === 3)?.text, '17');
    // The host learns what is shown (for the title) and where the element lies in the text it sent.
    const start = tuple.indexOf('f32[3,5]');
    await page.waitForFunction(() =>
      window.xlaLayoutLensHost!.sent.some((m) => m.type === 'showing' && m.element),
    );
    const showing = (await messages(page, 'showing')).at(-1);
    assert.deepEqual(showing, {
      type: 'showing',
      shape: 'f32[3,5]{1,0:T(2,2)}',
      element: { start, end: start + 'f32[3,5]{1,0:T(2,2)}'.length },
    });
  });

  it('tells the host the shape typed into the Shape box, for the panel title', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    await page.fill('#shape-a', 'f32[8,4]{1,0:T(8,128)}');
    await page.waitForFunction(() =>
      window.xlaLayoutLensHost!.sent.some(
        (m) => m.type === 'showing' && m.shape === 'f32[8,4]{1,0:T(8,128)}',
      ),
    );
    for (const m of await sent(page)) assert.equal(validateWebviewToHost(m).ok, true, JSON.stringify(m));
  });

  it('toggles following the editor and shows the state the host reports', async () => {
    await show(page, 'f32[3,5]{1,0:T(2,2)}');
    assert.equal(await page.getAttribute('#action-follow', 'aria-pressed'), 'true');
    await page.click('#action-follow');
    assert.equal(await page.getAttribute('#action-follow', 'aria-pressed'), 'false');
    assert.deepEqual(await messages(page, 'follow'), [{ type: 'follow', on: false }]);
    await post(page, { type: 'follow', on: true });
    await page.waitForFunction(
      () => document.getElementById('action-follow')!.getAttribute('aria-pressed') === 'true',
    );
  });

  it('names exported pictures after the shape and writes the shape on them', async () => {
    await show(page, OOM);
    await page.waitForFunction(() => Number(document.getElementById('strip-a')!.dataset.drawn ?? 0) > 0);
    await page.click('#action-export-png');
    await page.waitForFunction(() => window.xlaLayoutLensHost!.sent.some((m) => m.type === 'export'));
    const png = (await messages(page, 'export'))[0];
    assert.ok(png.type === 'export' && png.format === 'png');
    assert.equal(png.fileName, 'bf16_1024x1x1024x512_0-1-3-2_T4x128_2x1.png');
    assert.equal(validateWebviewToHost(png).ok, true);
    // The picture is taller than the views by the header and the legend.
    const bytes = Buffer.from(png.data, 'base64');
    const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    const views = await Promise.all([LOGICAL(), '#strip-a', MEMORY()].map((s) => snapshot(page, s)));
    assert.ok(width >= views[0].width, `${width} px wide`);
    assert.ok(height > views.reduce((h, v) => h + v.height, 0) + 60, `${height} px tall`);
    // SVG of the cells on screen, headed by the shape and its cost, with the legend.
    await page.click('#action-export-svg');
    await page.waitForFunction(
      () => window.xlaLayoutLensHost!.sent.filter((m) => m.type === 'export').length === 2,
    );
    const svg = (await messages(page, 'export'))[1];
    assert.ok(svg.type === 'export' && svg.format === 'svg');
    assert.equal(svg.fileName, 'bf16_1024x1x1024x512_0-1-3-2_T4x128_2x1.svg');
    assert.match(
      svg.data,
      /<text[^>]*font-weight="bold"[^>]*>bf16\[1024,1,1024,512\]\{0,1,3,2:T\(4,128\)\(2,1\)\} {2}— {2}1 GiB logical → 4 GiB physical \(4x, 75% padding\)<\/text>/,
    );
    assert.match(svg.data, />padding<\/text>/);
    // Compare mode names both layouts.
    await page.click('#action-compare');
    await page.waitForFunction(() => document.getElementById('pane-b')!.dataset.status === 'drawn');
    await page.click('#action-export-png');
    await page.waitForFunction(
      () => window.xlaLayoutLensHost!.sent.filter((m) => m.type === 'export').length === 3,
    );
    const both = (await messages(page, 'export'))[2];
    assert.ok(both.type === 'export');
    assert.equal(
      both.fileName,
      'bf16_1024x1x1024x512_0-1-3-2_T4x128_2x1_vs_bf16_1024x1x1024x512_1-0-3-2_T4x128_2x1.png',
    );
  });
});
