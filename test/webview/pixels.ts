/**
 * Reading back what a canvas of the visualizer shows: its whole backing store in one round trip,
 * the transform it was drawn with (data-scale / data-x0 / data-y0), and theme tokens resolved by
 * the page's own CSS, so pixel checks compare against the colours the page really uses.
 */
import type { Page } from 'playwright-core';

export type Rgb = readonly [number, number, number];

export const LOGICAL = (pane = 'a'): string => `#pane-${pane} .canvas-host.logical canvas:not(.overlay)`;
export const MEMORY = (pane = 'a'): string => `#pane-${pane} .canvas-host.memory canvas:not(.overlay)`;

/** The transform a canvas was drawn with and its sizes. */
export interface Drawn {
  /** CSS px per cell, and the grid point at the top-left. */
  readonly scale: number;
  readonly x0: number;
  readonly y0: number;
  /** CSS size of the canvas and of its host's content box. */
  readonly width: number;
  readonly height: number;
  readonly hostWidth: number;
  readonly hostHeight: number;
  /** Backing-store size in device pixels, and the device pixel ratio. */
  readonly backingWidth: number;
  readonly backingHeight: number;
  readonly dpr: number;
  /** Label size the canvas drew at (0: no labels). */
  readonly labelPx: number;
}

export async function drawn(page: Page, selector = LOGICAL()): Promise<Drawn> {
  return page.evaluate((sel) => {
    const c = document.querySelector<HTMLCanvasElement>(sel)!;
    const host = c.parentElement!;
    return {
      scale: Number(c.dataset.scale),
      x0: Number(c.dataset.x0),
      y0: Number(c.dataset.y0),
      width: parseFloat(c.style.width),
      height: parseFloat(c.style.height),
      hostWidth: host.clientWidth,
      hostHeight: host.clientHeight,
      backingWidth: c.width,
      backingHeight: c.height,
      dpr: devicePixelRatio,
      labelPx: Number(c.dataset.labelPx),
    };
  }, selector);
}

/** How many times a pane has drawn its views. */
export async function draws(page: Page, pane = 'a'): Promise<number> {
  return page.evaluate((p) => Number(document.getElementById(`pane-${p}`)!.dataset.draws), pane);
}

export interface Snapshot {
  /** Backing-store size in device pixels, and the device pixel ratio. */
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
  /** The transform the grid was drawn with: CSS px per cell and the grid point at the top-left. */
  readonly scale: number;
  readonly x0: number;
  readonly y0: number;
  /** Label size the canvas drew at (0: no labels). */
  readonly labelPx: number;
  readonly data: Buffer;
  /** The colour at CSS point (x, y). */
  at(x: number, y: number): Rgb;
  /** Every colour in the CSS rectangle (x, y, w, h), one per device pixel. */
  area(x: number, y: number, w: number, h: number): Rgb[];
}

export async function snapshot(page: Page, selector: string): Promise<Snapshot> {
  const raw = await page.evaluate((sel) => {
    const c = document.querySelector<HTMLCanvasElement>(sel)!;
    const bytes = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return {
      width: c.width,
      height: c.height,
      dpr: devicePixelRatio,
      scale: Number(c.dataset.scale),
      x0: Number(c.dataset.x0),
      y0: Number(c.dataset.y0),
      labelPx: Number(c.dataset.labelPx ?? 0),
      base64: btoa(binary),
    };
  }, selector);
  const data = Buffer.from(raw.base64, 'base64');
  const pixel = (px: number, py: number): Rgb => {
    const k = (py * raw.width + px) * 4;
    return [data[k], data[k + 1], data[k + 2]];
  };
  return {
    ...raw,
    data,
    at: (x, y) => pixel(Math.floor(x * raw.dpr), Math.floor(y * raw.dpr)),
    area(x, y, w, h) {
      const out: Rgb[] = [];
      const [x0, y0] = [Math.ceil(x * raw.dpr), Math.ceil(y * raw.dpr)];
      const [x1, y1] = [Math.floor((x + w) * raw.dpr), Math.floor((y + h) * raw.dpr)];
      for (let py = Math.max(0, y0); py < Math.min(raw.height, y1); py++)
        for (let px = Math.max(0, x0); px < Math.min(raw.width, x1); px++) out.push(pixel(px, py));
      return out;
    },
  };
}

/** A theme token (`tile-3`, `padding`, `background`) resolved by the page's own CSS. */
export async function token(page: Page, name: string): Promise<Rgb> {
  const text = await page.evaluate((t) => {
    const probe = document.createElement('span');
    probe.className = 'xla-colour-probe';
    probe.dataset.token = t;
    document.body.appendChild(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, name);
  const n = text.match(/[\d.]+/g)!.map(Number);
  const scale = text.startsWith('color(') ? 255 : 1;
  return [Math.round(n[0] * scale), Math.round(n[1] * scale), Math.round(n[2] * scale)];
}

/** The eight tile colours of the palette (`tile-0` … `tile-7`). */
export async function palette(page: Page): Promise<Rgb[]> {
  return Promise.all(Array.from({ length: 8 }, (_, i) => token(page, `tile-${i}`)));
}

/** Padding's half-tone, as the page draws padding too small to hatch: half padding, half background. */
export async function paddingTone(page: Page): Promise<Rgb> {
  return mix(await token(page, 'padding'), await token(page, 'background'), 0.5);
}

export const near = (a: Rgb, b: Rgb, tolerance: number): boolean =>
  a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

/** `a` weighted `t` over `b`, rounded as the page's theme.ts blend does. */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i] * t + b[i] * (1 - t))) as unknown as Rgb;
}
