/**
 * Benchmark: first paint of the layout visualizer in headless Chromium, from the `show` message to
 * both canvases drawn (the page's own `data-first-paint-ms`), from Figure 1's 15 elements (the
 * reference, measured in the same run) through the OOM buffer bf16[1024,1,1024,512]{0,1,3,2:
 * T(4,128)(2,1)} (opened on its padded slice, with the buffer strip) and the TPU layout
 * bf16[4096,4096]{1,0:T(8,128)(2,1)} to the 10^12-element f32[1000000,1000000]{1,0:T(8,128)}, each
 * with the target 500 ms; plus the mean frame time of panning the large layout with the wheel.
 * Each paint is the median of `runs` fresh pages.
 * Run alone: `npx tsx bench/webview.bench.ts`; bench/run.ts imports {@link runWebviewBench}.
 */
import type { Page } from 'playwright-core';
import { buildWebview, launchChromium, openPage, servePage, show } from '../test/webview/harness';
import { median } from './stats';

export interface WebviewBenchResult {
  readonly name: string;
  readonly ms: number;
  readonly referenceMs?: number;
  readonly targetMs?: number;
}

const OOM = 'bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}';
const LARGE = 'bf16[4096,4096]{1,0:T(8,128)(2,1)}';
const HUGE = 'f32[1000000,1000000]{1,0:T(8,128)}';
const SMALL = 'f32[3,5]{1,0:T(2,2)}';

async function firstPaint(page: Page, shape: string): Promise<number> {
  await show(page, shape);
  return Number(await page.evaluate(() => document.getElementById('app')!.dataset.firstPaintMs));
}

/**
 * Mean interval between frames while the large layout is panned by wheel events dispatched inside
 * the page, one per animation frame (so ~16.7 ms means every frame kept up with the display).
 */
async function panFrameMs(page: Page, frames: number): Promise<number> {
  return page.evaluate(async (n) => {
    const canvas = document.querySelector<HTMLCanvasElement>(
      '#pane-a .canvas-host.logical canvas:not(.overlay)',
    )!;
    const r = canvas.getBoundingClientRect();
    // (No local helper functions: the bundler would wrap them in a helper the page does not have.)
    await new Promise((done) => requestAnimationFrame(done));
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      canvas.dispatchEvent(
        new WheelEvent('wheel', {
          deltaY: 40,
          deltaX: 25,
          clientX: r.x + r.width / 2,
          clientY: r.y + r.height / 2,
          bubbles: true,
          cancelable: true,
        }),
      );
      await new Promise((done) => requestAnimationFrame(done));
    }
    return (performance.now() - t0) / n;
  }, frames);
}

/** Runs the webview benchmarks (builds dist/webview.js first). */
export async function runWebviewBench(runs = 5): Promise<WebviewBenchResult[]> {
  await buildWebview();
  const server = await servePage();
  const browser = await launchChromium();
  try {
    const times: Record<string, number[]> = { [SMALL]: [], [OOM]: [], [LARGE]: [], [HUGE]: [] };
    let pan = 0;
    for (let i = 0; i < runs; i++) {
      for (const shape of [SMALL, OOM, LARGE, HUGE]) {
        const { page } = await openPage(browser, server.origin);
        times[shape].push(await firstPaint(page, shape));
        if (shape === LARGE && i === 0) {
          // Zoom in to numbered cells first: the most expensive level of detail to pan.
          await page.focus('#pane-a .canvas-host.logical canvas:not(.overlay)');
          for (let z = 0; z < 24; z++) await page.keyboard.press('+');
          pan = await panFrameMs(page, 30);
        }
        await page.close();
      }
    }
    const reference = median(times[SMALL]);
    return [
      { name: `webview first paint ${SMALL}`, ms: reference, targetMs: 500 },
      { name: `webview first paint ${OOM}`, ms: median(times[OOM]), referenceMs: reference, targetMs: 500 },
      {
        name: `webview first paint ${LARGE}`,
        ms: median(times[LARGE]),
        referenceMs: reference,
        targetMs: 500,
      },
      { name: `webview first paint ${HUGE}`, ms: median(times[HUGE]), referenceMs: reference, targetMs: 500 },
      { name: `webview pan frame ${LARGE} (zoomed in, wheel)`, ms: pan, targetMs: 1000 / 30 },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}

if (require.main === module) {
  runWebviewBench().then(
    (rows) => console.table(rows),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
