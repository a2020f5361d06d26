/**
 * The Memory View page in a real headless Chromium, with the panel's HTML and CSP: the answer on
 * top, totals, the treemap, sorting and filtering the tables, a row click as a message to the host,
 * the theme's colours, state kept across reloads, and document text that stays inert.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { companionNames, humanBytes, memoryFromTexts, memoryModuleJson } from '../../core/src';
import type { ShowMemoryMessage } from '../../protocol/src/memory';
import { RESULTS, post, sent, showMessage, tableCells, usePageRig } from './page-harness';
import { pagePerTest } from '../support/browser-pages';
import { realDumpDir, realXla } from '../support/real-xla';

const TPU = join(__dirname, 'fixtures', 'tpu', 'module_0042.jit_train_step.after_optimizations.txt');
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

/** `rgb(r, g, b)` or `color(srgb r g b)` (what color-mix computes to) as three 0-255 integers. */
function rgb(css: string): number[] {
  const n = (css.match(/[\d.]+/g) ?? []).map(Number);
  return css.startsWith('color(') ? n.slice(0, 3).map((x) => Math.round(x * 255)) : n.slice(0, 3);
}

async function text(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => document.querySelector(s)?.textContent ?? '', selector);
}

describe('memory view page (headless Chromium)', function () {
  this.timeout(120_000);
  const rig = usePageRig();
  let page: Page;

  before(() => mkdirSync(RESULTS, { recursive: true }));
  pagePerTest(
    () => rig.open(),
    (opened) => (page = opened.page),
  );

  it('answers first: how much, how much is padding, the worst offender and the change; then the totals', async () => {
    await post(page, showMessage(TPU));
    assert.equal(
      await text(page, '#headline'),
      'XLA allocates 40.1 GiB (43,050,405,904 B) in 9 allocations; 37 GiB of it (92.2%) is padding.',
    );
    assert.match(
      await text(page, '.facts .worst'),
      /^Most padding: %copy\.40488 .* T\(8,128\) pads 4 to 128 \(32x\)\.$/,
    );
    assert.match(
      await text(page, '.facts .change'),
      /^Change: use minor_to_major \{0,1,2\} instead of \{2,1,0\}/,
    );
    assert.equal(await text(page, '#total .stat-value'), '40.1 GiB');
    assert.equal(await text(page, '#padding .stat-detail'), '92.2% of the total');
    assert.equal(await text(page, '#peak .stat-detail'), 'step 6 of 15');
    assert.equal(
      await text(page, '.files'),
      'From module_0042.jit_train_step.after_optimizations.txt and its buffer assignment, values, memory-usage report and live ranges.',
    );
    // The treemap: one tile per visible allocation, the arena's colour mostly "padding".
    const tiles = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.treemap .tile')).map(
        (g) => (g as HTMLElement).dataset.allocation,
      ),
    );
    assert.equal(tiles[0], '8');
    await page.screenshot({ path: join(RESULTS, 'answer.png'), fullPage: true });
  });

  it('sorts by a column on click, reverses on a second click, and says so in aria-sort', async () => {
    await post(page, showMessage(TPU));
    const first = async () => (await tableCells(page, 'allocations')).map((r) => r[0]);
    assert.deepEqual(await first(), ['8', '0', '1', '2', '7', '3', '4', '6', '5'], 'largest first');
    await page.click('#allocations th button[data-column="size"]');
    assert.deepEqual((await first()).slice(0, 3), ['5', '4', '6']);
    assert.equal(
      await page.getAttribute('#allocations th:has(button[data-column="size"])', 'aria-sort'),
      'ascending',
    );
    await page.click('#allocations th button[data-column="padding"]');
    assert.deepEqual((await first()).slice(0, 2), ['8', '7'], 'most wasted first');
    await page.click('#tab-values');
    const names = async () => (await tableCells(page, 'values')).map((r) => r[0]);
    // Values largest first by default, as the allocations are, whatever order XLA listed them in.
    assert.deepEqual(
      (await names()).slice(0, 6),
      ['%copy.40488', '%fusion.44044', '%broadcast.6042', '%param.1', '%fusion.6237', '%param.2'],
      'values largest first',
    );
    assert.equal(
      await page.getAttribute('#values th:has(button[data-column="xla"])', 'aria-sort'),
      'descending',
    );
    await page.click('#values th button[data-column="padding"]');
    assert.deepEqual(
      (await names()).slice(0, 4),
      ['%copy.40488', '%fusion.44044', '%broadcast.6042', '%reduce-window.4'],
      'values by wasted bytes',
    );
    await page.click('#values th button[data-column="name"]');
    assert.equal((await tableCells(page, 'values'))[0][0], '%broadcast.6042');
  });

  it('filters rows by any word of name, shape, kind or source', async () => {
    await post(page, showMessage(TPU));
    await page.fill('#filter', 'parameter');
    assert.equal((await tableCells(page, 'allocations')).length, 4);
    assert.equal(await text(page, '#row-count'), '4 of 9');
    await page.click('#tab-values');
    await page.fill('#filter', 'cic.py t(8,128)');
    assert.deepEqual(
      (await tableCells(page, 'values')).map((r) => r[0]),
      ['%copy.40488', '%fusion.44044'],
    );
    await page.fill('#filter', 'no such thing');
    assert.equal((await tableCells(page, 'values')).length, 0);
    assert.equal(await text(page, '#row-count'), '0 of 15');
  });

  it('opens an allocation into its values; a value row and its source link are messages to the host', async () => {
    await post(page, showMessage(TPU));
    await page.click('#allocations tbody tr[data-allocation="0"]');
    assert.equal(await page.getAttribute('#tab-values', 'aria-selected'), 'true');
    assert.equal(await text(page, '#allocation-chip'), 'allocation 0 ✕');
    assert.deepEqual(
      (await tableCells(page, 'values')).map((r) => r[0]),
      ['%param.1', '%fusion.6237'],
    );
    await page.click('#values tbody tr:has-text("%fusion.6237") td[data-column="name"]');
    await page.click('#values tbody tr:has-text("%fusion.6237") .source-link');
    // From the keyboard too.
    await page.focus('#values tbody tr:has-text("%param.1")');
    await page.keyboard.press('Enter');
    assert.deepEqual(await sent(page), [
      { type: 'reveal', allocation: 0, value: 1 },
      { type: 'openSource', allocation: 0, value: 1 },
      { type: 'reveal', allocation: 0, value: 0 },
    ]);
    await page.click('#allocation-chip');
    assert.equal((await tableCells(page, 'values')).length, 15);
    // A treemap tile opens its allocation as well.
    await page.click('.treemap .tile[data-allocation="8"]');
    assert.equal(await text(page, '#allocation-chip'), 'allocation 8 ✕');
    assert.equal((await tableCells(page, 'values')).length, 6);
  });

  it('says where else a value is and when it is live', async () => {
    await post(page, showMessage(TPU));
    await page.click('#tab-values');
    const detail = (column: string) =>
      page.evaluate((c) => {
        const row = Array.from(document.querySelectorAll('#values tbody tr')).find(
          (tr) => tr.querySelector('td[data-column="name"] .main')?.textContent === '%fusion.10062{0}',
        );
        return row?.querySelector(`td[data-column="${c}"] .detail`)?.textContent;
      }, column);
    assert.equal(await detail('name'), 'fusion · also get-tuple-element.1');
    assert.equal(await detail('allocation'), '@4,294,967,296 · live 8–13');
  });

  it('follows the theme: colours come from the VS Code theme variables', async () => {
    await post(page, showMessage(TPU));
    const colours = () =>
      page.evaluate(() => ({
        body: getComputedStyle(document.body).backgroundColor,
        arena: getComputedStyle(document.querySelector('.tile[data-allocation="8"] rect.part')!).fill,
        parameter: getComputedStyle(document.querySelector('.tile[data-allocation="0"] rect')!).fill,
      }));
    const light = await colours();
    assert.equal(light.body, 'rgb(255, 255, 255)');
    await page.evaluate(() => {
      const s = document.documentElement.style;
      s.setProperty('--vscode-editor-background', '#1e1e1e');
      s.setProperty('--vscode-foreground', '#cccccc');
      s.setProperty('--vscode-charts-red', '#f14c4c');
      s.setProperty('--vscode-charts-blue', '#3794ff');
      document.body.classList.add('vscode-dark');
    });
    const dark = await colours();
    assert.equal(dark.body, 'rgb(30, 30, 30)');
    // No padding: the theme's blue; the copy in the arena, 97% padding, nearly its red.
    assert.deepEqual(rgb(dark.parameter), [55, 148, 255]);
    const [r, , b] = rgb(dark.arena);
    assert.ok(r > 200 && b < 100, dark.arena);
    assert.notEqual(dark.arena, light.arena);
    await page.screenshot({ path: join(RESULTS, 'dark.png'), fullPage: true });
  });

  it('keeps the tab, filter and order across a reload of the same dump, and starts afresh on another', async () => {
    const message = showMessage(TPU);
    await post(page, message);
    await page.click('#tab-values');
    await page.fill('#filter', 'fusion');
    await page.click('#values th button[data-column="logical"]');
    const state = await page.evaluate(() => window.xlaMemoryViewHost!.state);
    // A new page with the state VS Code keeps, as after a reload.
    const { page: again } = await rig.open();
    await again.evaluate((s) => (window.xlaMemoryViewHost!.state = s), state);
    await post(again, message);
    assert.equal(await again.getAttribute('#tab-values', 'aria-selected'), 'true');
    assert.equal(await again.inputValue('#filter'), 'fusion');
    assert.equal(
      await again.getAttribute('#values th:has(button[data-column="logical"])', 'aria-sort'),
      'descending',
    );
    await post(again, { ...message, uri: 'file:///elsewhere.txt' });
    assert.equal(await again.getAttribute('#tab-allocations', 'aria-selected'), 'true');
    assert.equal(await again.inputValue('#filter'), '');
    await again.close();
  });

  it('labels an estimate as one', async () => {
    const module = memoryModuleJson(
      memoryFromTexts({ hlo: (await import('node:fs')).readFileSync(TPU, 'utf8') })!,
    );
    await post(page, {
      type: 'show',
      uri: 'file:///x.txt',
      name: 'x.txt',
      files: [],
      module,
    } satisfies ShowMemoryMessage);
    assert.equal(await page.evaluate(() => document.getElementById('app')!.dataset.basis), 'estimate');
    assert.equal(await text(page, '.basis'), 'Estimate from the HLO');
    assert.match(
      await text(page, '#headline'),
      /^About .* if each of its \d+ values had a buffer of its own/,
    );
    assert.match(await text(page, '#estimate-note'), /^Estimate from the HLO alone/);
    assert.equal(await text(page, '#total .stat-label'), 'Estimated total');
  });

  it('renders document text as inert text and ignores malformed messages', async () => {
    const message = showMessage(TPU);
    const first = message.module.allocations[0];
    const hostile: ShowMemoryMessage = {
      ...message,
      name: HOSTILE,
      module: {
        ...message.module,
        module: HOSTILE,
        allocations: [{ ...first, values: [{ ...first.values[0], name: HOSTILE, shape: HOSTILE }] }],
      },
    };
    await post(page, hostile);
    await page.click('#tab-values');
    assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.equal((await tableCells(page, 'values'))[0][0], `%${HOSTILE}`);
    const shown = await page.evaluate(() => document.getElementById('app')!.dataset.shown);
    for (const bad of [
      null,
      { type: 'show' },
      { ...message, module: { ...message.module, totalBytes: 12 } },
      { ...message, module: { ...message.module, allocations: [{ index: -1 }] } },
      { type: 'nonsense' },
    ])
      await page.evaluate((m) => window.postMessage(m, '*'), bad);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    assert.equal(await page.evaluate(() => document.getElementById('app')!.dataset.shown), shown);
  });

  const xla = realXla();
  if (xla !== undefined)
    it('leads with the peak where nothing pads: what is live then, by source line, each a link', async () => {
      const message = showMessage(join(realDumpDir(xla), 'module_0032.jit_step.cpu_after_optimizations.txt'));
      await post(page, message);
      assert.match(
        await text(page, '#headline'),
        /^Peak: 2\.1 MiB live at step 38 of 42, at %ynn_fusion\.1 \(dump_programs\.py:\d+\); none of it is padding\.$/,
      );
      assert.match(await text(page, '.facts .peak-why'), /^Live then: 53\.2% inputs \(8 parameters\), /);
      assert.match(
        await text(page, '.facts .xla-peak'),
        /^XLA's live-range file names step 39 \(2\.8 MiB live\)/,
      );
      assert.equal(
        await text(page, '#peak-breakdown h2'),
        'Live at the peak: 2.1 MiB at step 38 of 42, at %ynn_fusion.1',
      );
      const rows = await page.evaluate(() =>
        Array.from(document.querySelectorAll('#peak-groups tbody tr')).map((tr) =>
          Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''),
        ),
      );
      const peak = message.module.peak!;
      assert.equal(rows.length, peak.groups.length);
      assert.deepEqual(rows[0].slice(0, 3), ['53.2%', '1.1 MiB', 'inputs (8 parameters)']);
      // The page's tables look alike: the same headings, cells and rules.
      const looks = await page.evaluate(() =>
        ['#peak-groups', '#allocations'].map((table) => {
          const th = getComputedStyle(document.querySelector(`${table} thead th:last-child`)!);
          const td = getComputedStyle(document.querySelector(`${table} tbody td:last-child`)!);
          return [th.color, th.fontWeight, th.borderBottom, td.borderBottom, td.paddingLeft];
        }),
      );
      assert.deepEqual(looks[0], looks[1], 'the peak table and the allocations table');
      // The rows are the model's groups, and those add up to the peak.
      let sum = 0n;
      for (const g of peak.groups) sum += BigInt(g.bytes);
      assert.equal(sum, BigInt(peak.bytes));
      // A source line opens the program; a value, its instruction in the HLO.
      await page.click('#peak-groups tbody tr[data-group="1"] .source-link');
      await page.click('#peak-groups tbody tr[data-group="1"] .value-link');
      assert.deepEqual(await sent(page), [
        { type: 'openSource', peakGroup: 1 },
        { type: 'reveal', peakGroup: 1 },
      ]);
      await page.screenshot({ path: join(RESULTS, 'peak.png'), fullPage: true });
    });

  if (xla !== undefined)
    it('shows a dump folder as its modules, largest first; a row opens its module', async () => {
      const dir = realDumpDir(xla);
      const modules = readdirSync(dir)
        .filter((f) => f.endsWith('-buffer-assignment.txt'))
        .map((f) => {
          const m = showMessage(join(dir, companionNames(f)!.hlo)).module;
          return {
            module: m.module,
            name: companionNames(f)!.hlo,
            basis: m.basis,
            totalBytes: m.totalBytes,
            ...(m.peak ? { peakBytes: m.peak.bytes } : {}),
            paddingBytes: m.paddingBytes,
            allocations: m.allocations.length,
          };
        })
        .sort((a, b) => Number(BigInt(b.totalBytes) - BigInt(a.totalBytes)));
      await post(page, { type: 'showFolder', uri: `file://${dir}`, name: 'real-dumps', modules });
      assert.equal(
        await text(page, '#headline'),
        `${modules.length} modules, largest first: ${modules[0].module} allocates ${humanBytes(BigInt(modules[0].totalBytes))}.`,
      );
      const rows = await page.evaluate(() =>
        Array.from(document.querySelectorAll('#modules tbody tr')).map((tr) =>
          Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''),
        ),
      );
      assert.deepEqual(
        rows.map((r) => r[5]),
        modules.map((m) => m.module),
      );
      assert.equal(await page.isVisible('#totals, .totals'), false);
      await page.screenshot({ path: join(RESULTS, 'folder.png'), fullPage: true });
      await page.click('#modules tbody tr[data-module="0"]');
      await page.focus('#modules tbody tr[data-module="1"]');
      await page.keyboard.press('Enter');
      assert.deepEqual(await sent(page), [
        { type: 'openModule', module: 0 },
        { type: 'openModule', module: 1 },
      ]);
      // The host answers with the module: the folder gives way to its view.
      await post(page, showMessage(join(dir, 'module_0032.jit_step.cpu_after_optimizations.txt')));
      assert.equal(await page.isVisible('#folder'), false);
      assert.equal(await page.isVisible('.totals'), true);
    });

  if (xla !== undefined)
    it('shows a real jax dump, and pages a module with thousands of values', async () => {
      const dir = realDumpDir(xla);
      await post(page, showMessage(join(dir, 'module_0032.jit_step.cpu_after_optimizations.txt')));
      assert.equal(
        await text(page, '.facts .memory'),
        'XLA allocates 2.2 MiB (2,319,100 B) in 45 allocations; none of it is padding.',
      );
      await page.click('#tab-values');
      const rows = await tableCells(page, 'values');
      assert.equal(rows.length, 69);
      assert.ok(
        // Columns: Value, Alloc., Shape, XLA bytes, Wasted, Physical, ...
        rows.every((r) => r[3] === r[5] && r[4] === '—'),
        'XLA bytes equal physical bytes on every value',
      );
      await page.screenshot({ path: join(RESULTS, 'real-jax.png'), fullPage: true });
      // A synthetic arena of 5,000 values: the first 400 rows, then a button for more.
      const big = memoryFromTexts({
        bufferAssignment: `allocation 0: size 4096000, preallocated-temp:\n${Array.from(
          { length: 5000 },
          (_, i) =>
            ` value: <${i} f.${i} @0> (size=4096,offset=${(i % 1000) * 4096}): f32[8,4]{1,0:T(8,128)}`,
        ).join('\n')}\n`,
      })!;
      await post(page, {
        type: 'show',
        uri: 'file:///big.txt',
        name: 'big.txt',
        files: [],
        module: memoryModuleJson(big),
      });
      await page.click('#tab-values');
      assert.equal((await tableCells(page, 'values')).length, 400);
      assert.equal(await text(page, '.show-more'), 'Show 400 more of 4600');
      await page.click('.show-more');
      assert.equal((await tableCells(page, 'values')).length, 800);
    });
});
