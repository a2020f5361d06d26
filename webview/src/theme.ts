/**
 * Canvas colours come from the VS Code theme: visualizer.css defines `--xla-*` tokens from
 * `--vscode-*` variables (with fallbacks for a plain browser), and this module resolves them to
 * concrete colours through hidden probe elements, because a canvas cannot use CSS variables.
 */

/** Number of distinct first-level tile colours (`--xla-tile-0` … `--xla-tile-7`). */
const TILE_COLOURS = 8;

/** An opaque colour as the canvas and ImageData need it. */
export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  /** `rgb(r, g, b)`, for fillStyle / SVG. */
  readonly css: string;
}

export interface Theme {
  readonly background: Rgb;
  readonly foreground: Rgb;
  readonly grid: Rgb;
  readonly tiles: readonly Rgb[];
  readonly tileBorder: Rgb;
  readonly subTileBorder: Rgb;
  readonly padding: Rgb;
  readonly otherSlice: Rgb;
  readonly selection: Rgb;
  readonly hover: Rgb;
  /** What a slot that is all padding looks like zoomed out: the padding colour half on the background. */
  readonly paddingTone: Rgb;
  readonly fontFamily: string;
  /** CSS pixels of cell labels: the editor's font size, kept between 11 and 13 so labels stay readable. */
  readonly labelPx: number;
}

const TOKENS = [
  'background',
  'foreground',
  'grid',
  'tile-border',
  'subtile-border',
  'padding',
  'other-slice',
  'selection',
  'hover',
] as const;

function parseRgb(text: string): Rgb {
  // Computed colours come back as `rgb(r, g, b)`, `rgba(r, g, b, a)` or `color(srgb r g b)`.
  const numbers = text.match(/[\d.]+/g)?.map(Number) ?? [];
  const srgb = text.startsWith('color(');
  const scale = srgb ? 255 : 1;
  const [r = 0, g = 0, b = 0] = numbers.map((n) => Math.round(n * scale));
  return { r, g, b, css: `rgb(${r}, ${g}, ${b})` };
}

/** Reads the current theme. Cheap enough to call on every theme change. */
export function readTheme(root: HTMLElement): Theme {
  const probe = document.createElement('span');
  probe.className = 'xla-colour-probe';
  root.appendChild(probe);
  const read = (token: string): Rgb => {
    probe.dataset.token = token;
    return parseRgb(getComputedStyle(probe).color);
  };
  const values = Object.fromEntries(TOKENS.map((t) => [t, read(t)])) as Record<(typeof TOKENS)[number], Rgb>;
  const tiles = Array.from({ length: TILE_COLOURS }, (_, i) => read(`tile-${i}`));
  const fontFamily = getComputedStyle(root).getPropertyValue('--xla-font').trim() || 'monospace';
  probe.dataset.token = 'label';
  const labelPx = parseFloat(getComputedStyle(probe).fontSize) || 12;
  probe.remove();
  return {
    background: values.background,
    foreground: values.foreground,
    grid: values.grid,
    tiles,
    tileBorder: values['tile-border'],
    subTileBorder: values['subtile-border'],
    padding: values.padding,
    otherSlice: values['other-slice'],
    selection: values.selection,
    hover: values.hover,
    paddingTone: blend(values.padding, values.background, 0.5),
    fontFamily,
    labelPx,
  };
}

/** `a` weighted `t` over `b` (t = 1: all `a`). */
export function blend(a: Rgb, b: Rgb, t: number): Rgb {
  const mixChannel = (x: number, y: number): number => Math.round(x * t + y * (1 - t));
  const r = mixChannel(a.r, b.r);
  const g = mixChannel(a.g, b.g);
  const bl = mixChannel(a.b, b.b);
  return { r, g, b: bl, css: `rgb(${r}, ${g}, ${bl})` };
}

/** Calls `onChange` when VS Code switches theme (it rewrites the body's class and style). */
export function watchTheme(onChange: () => void): void {
  new MutationObserver(onChange).observe(document.body, {
    attributes: true,
    attributeFilter: ['class', 'style'],
  });
}

/**
 * Palette slot of a first-level tile. Tile ids are opaque, but neighbouring tiles usually have ids
 * that differ by 1 (along a row) or by the tiles per row (down a column); stepping by the golden
 * ratio spreads any such run over the palette, so neighbours rarely share a colour.
 */
export function tileColourIndex(tileId: number): number {
  if (tileId < 0) return 0;
  const golden = 0.6180339887498949;
  const frac = (tileId * golden) % 1;
  return Math.min(TILE_COLOURS - 1, Math.floor(frac * TILE_COLOURS));
}
