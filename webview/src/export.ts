/**
 * The pictures the Export buttons send to the host: the shape and its cost written on top (a
 * picture passed around without its shape says nothing), then each shown pane's views as drawn,
 * then the legend. The file name is made from the shape, so saved pictures tell themselves apart.
 */
import { el } from './dom';
import type { GridWindow } from './grid-window';
import { drawLegend } from './legend';
import type { LayoutPane } from './pane';
import { windowsToSvg, type SvgPart } from './svg-export';
import type { Theme } from './theme';

/** Longest file name stem; protocol/src/webview.ts accepts at most 120 characters in all. */
const MAX_STEM = 100;

/**
 * A plain file name for pictures of `panes`: `bf16_1024x1x1024x512_0-1-3-2_T4x128_2x1.png`, with
 * `_vs_` and the second layout in compare mode. Only letters, digits, `.`, `_` and `-`.
 */
export function exportFileName(panes: readonly LayoutPane[], format: 'png' | 'svg'): string {
  const stems = panes.map((p) => {
    const d = p.drawable;
    if (d === undefined) return p.field.value.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
    const s = d.shape;
    const tiles = s.tiles.map((t) => t.map((e) => (e === 'combine' ? 'c' : String(e))).join('x'));
    return [
      `${s.elementType}_${s.dims.join('x') || 'scalar'}`,
      s.minorToMajor.length > 0 ? s.minorToMajor.join('-') : '',
      tiles.length > 0 ? `T${tiles.join('_')}` : '',
    ]
      .filter((x) => x !== '')
      .join('_');
  });
  const stem =
    stems
      .filter((x) => x !== '')
      .join('_vs_')
      .slice(0, MAX_STEM) || 'layout';
  return `${stem}.${format}`;
}

const PAD = 12;
const LINE = 18;

/** The shown panes stacked side by side under a header, with the legend below, as one canvas. */
export function picture(panes: readonly LayoutPane[], theme: Theme): HTMLCanvasElement | undefined {
  const drawn = panes.filter((p) => p.mapper !== undefined);
  if (drawn.length === 0) return undefined;
  const columns = drawn.map((p) => [p.logical.canvas, p.strip.canvas, p.memory.canvas] as const);
  const dpr = window.devicePixelRatio || 1;
  const widths = columns.map((c) => Math.max(...c.map((x) => x.width)));
  const width = Math.max(600 * dpr, widths.reduce((a, b) => a + b, 0) + PAD * dpr * (columns.length + 1));
  const header = drawn.map((p) => p.summary() ?? p.field.value);
  const headerHeight = (PAD + header.length * LINE + PAD / 2) * dpr;
  const bodyHeight = Math.max(...columns.map((c) => c.reduce((h, x) => h + x.height + 6 * dpr, 0)));
  const legendHeight = 60 * dpr;
  const out = el('canvas', {
    width: Math.ceil(width),
    height: Math.ceil(headerHeight + bodyHeight + legendHeight),
  });
  const ctx = out.getContext('2d');
  if (ctx === null) return undefined;
  ctx.fillStyle = theme.background.css;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.save();
  ctx.scale(dpr, dpr);
  ctx.fillStyle = theme.foreground.css;
  ctx.font = `13px ${theme.fontFamily}`;
  ctx.textBaseline = 'top';
  header.forEach((line, i) => ctx.fillText(line, PAD, PAD + i * LINE));
  ctx.restore();
  let x = PAD * dpr;
  columns.forEach((canvases, i) => {
    let y = headerHeight;
    for (const c of canvases) {
      ctx.drawImage(c, x, y);
      y += c.height + 6 * dpr;
    }
    x += widths[i] + PAD * dpr;
  });
  ctx.save();
  ctx.scale(dpr, dpr);
  drawLegend(ctx, theme, PAD, (headerHeight + bodyHeight) / dpr + 8, width / dpr - 2 * PAD);
  ctx.restore();
  return out;
}

/** The canvas as base64 PNG bytes (what the export message carries). */
export async function pngBase64(canvas: HTMLCanvasElement): Promise<string | undefined> {
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (blob === null) return undefined;
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The SVG of the cells on screen (undefined while zoomed out to blocks), headed by the shapes. */
export function svgDocument(panes: readonly LayoutPane[], theme: Theme): string | undefined {
  const parts: SvgPart[] = [];
  for (const p of panes) {
    const add = (title: string, win: GridWindow | undefined): void => {
      if (win !== undefined) parts.push({ title, window: win });
    };
    add(`${p.field.value} — logical view`, p.logical.window);
    add(`${p.field.value} — memory`, p.memory.window);
  }
  if (parts.length === 0) return undefined;
  const header = panes.map((p) => p.summary() ?? p.field.value);
  return windowsToSvg(parts, theme, header);
}
