/**
 * Draws grids on a canvas at two levels of detail: cell by cell (colour, hatched padding, label,
 * tile borders) when cells are big enough to see, and zoomed out as blocks of a few screen pixels
 * whose colour mixes data and padding by the share of padding among all the slots the block
 * covers (never one sample of a periodic pattern, which would draw a moiré), so a frame costs the
 * same however large the array is.
 */
import { BOTTOM, EMPTY, LEFT, OTHER, PADDING, RIGHT, TOP, type GridWindow } from './grid-window';
import { blend, type Rgb, type Theme } from './theme';
import type { Viewport } from './viewport';

/** Below this many CSS pixels per cell the view switches to blocks. */
export const CELL_MODE_MIN_SCALE = 5;
/** Labels are drawn only when cells are at least this wide (and then only those that fit). */
export const LABEL_MIN_SCALE = 14;
/** Cell grid lines and inner tile levels are drawn from this cell size up (denser is just noise). */
const DETAIL_MIN_SCALE = 10;

/** A diagonal hatch in the theme's padding colour, as a canvas pattern. */
export function hatchPattern(ctx: CanvasRenderingContext2D, theme: Theme): CanvasPattern | string {
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const t = tile.getContext('2d');
  if (t === null) return theme.padding.css;
  t.fillStyle = theme.background.css;
  t.fillRect(0, 0, 8, 8);
  t.strokeStyle = theme.padding.css;
  t.lineWidth = 1.25;
  t.beginPath();
  t.moveTo(-2, 10);
  t.lineTo(10, -2);
  t.moveTo(-2, 2);
  t.lineTo(2, -2);
  t.moveTo(6, 10);
  t.lineTo(10, 6);
  t.stroke();
  return ctx.createPattern(tile, 'repeat') ?? theme.padding.css;
}

function fillFor(
  code: number,
  theme: Theme,
  hatch: CanvasPattern | string,
): CanvasPattern | string | undefined {
  if (code >= 0) return theme.tiles[code].css;
  if (code === PADDING) return hatch;
  if (code === OTHER) return theme.otherSlice.css;
  return undefined;
}

/** Draws a window cell by cell; returns the CSS pixel size its labels were drawn at (0: none). */
export function drawCells(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  theme: Theme,
  win: GridWindow,
  hatch: CanvasPattern | string,
): number {
  const s = vp.scale;
  const x0 = vp.toScreenX(win.col0);
  const y0 = vp.toScreenY(win.row0);
  for (let r = 0; r < win.rows; r++) {
    for (let c = 0; c < win.cols; c++) {
      const fill = fillFor(win.colour[r * win.cols + c], theme, hatch);
      if (fill === undefined) continue;
      ctx.fillStyle = fill;
      ctx.fillRect(x0 + c * s, y0 + r * s, s, s);
    }
  }
  // Thin cell grid, only over cells that exist.
  if (s >= DETAIL_MIN_SCALE) drawGrid(ctx, s, x0, y0, theme, win);
  const labelPx = s >= LABEL_MIN_SCALE ? drawLabels(ctx, s, x0, y0, theme, win) : 0;
  // Borders from the innermost level out, so first-level tiles stay on top.
  // Memory windows have no border levels at all; zoomed out, only the first level is drawn.
  const innermost = s >= DETAIL_MIN_SCALE ? win.borders.length - 1 : Math.min(0, win.borders.length - 1);
  for (let level = innermost; level >= 0; level--) {
    drawBorders(
      ctx,
      s,
      x0,
      y0,
      win,
      win.borders[level],
      level === 0 ? theme.tileBorder : theme.subTileBorder,
      level === 0 ? 2 : 1.5,
      level > 0,
    );
  }
  return labelPx;
}

function drawGrid(
  ctx: CanvasRenderingContext2D,
  s: number,
  x0: number,
  y0: number,
  theme: Theme,
  win: GridWindow,
): void {
  ctx.strokeStyle = theme.grid.css;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let r = 0; r < win.rows; r++) {
    for (let c = 0; c < win.cols; c++) {
      if (win.colour[r * win.cols + c] === EMPTY) continue;
      ctx.rect(Math.round(x0 + c * s) + 0.5, Math.round(y0 + r * s) + 0.5, Math.round(s), Math.round(s));
    }
  }
  ctx.stroke();
}

function drawLabels(
  ctx: CanvasRenderingContext2D,
  s: number,
  x0: number,
  y0: number,
  theme: Theme,
  win: GridWindow,
): number {
  ctx.fillStyle = theme.foreground.css;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // One readable size in the editor's font. When the longest label on screen does not fit its
  // cell none is drawn (the status line and the accessible table still give them): labels shrunk
  // below legibility, or only the short ones, read worse than none.
  const px = theme.labelPx;
  if (px > s - 2) return 0;
  ctx.font = `${px}px ${theme.fontFamily}`;
  let longest = 0;
  for (const label of win.labels) longest = Math.max(longest, label.length);
  // Digits and commas are (nearly) one width in the editor's monospace font.
  if (longest === 0 || ctx.measureText('0'.repeat(longest)).width > s - 4) return 0;
  for (let r = 0; r < win.rows; r++) {
    for (let c = 0; c < win.cols; c++) {
      const label = win.labels[r * win.cols + c];
      if (label !== '') ctx.fillText(label, x0 + c * s + s / 2, y0 + r * s + s / 2 + 0.5);
    }
  }
  return px;
}

function drawBorders(
  ctx: CanvasRenderingContext2D,
  s: number,
  x0: number,
  y0: number,
  win: GridWindow,
  bits: Uint8Array,
  colour: Rgb,
  width: number,
  dashed: boolean,
): void {
  ctx.strokeStyle = colour.css;
  ctx.lineWidth = width;
  ctx.setLineDash(dashed ? [Math.max(2, s / 6), Math.max(2, s / 8)] : []);
  ctx.beginPath();
  for (let r = 0; r < win.rows; r++) {
    for (let c = 0; c < win.cols; c++) {
      const b = bits[r * win.cols + c];
      if (b === 0) continue;
      const x = Math.round(x0 + c * s);
      const y = Math.round(y0 + r * s);
      const x1 = Math.round(x0 + (c + 1) * s);
      const y1 = Math.round(y0 + (r + 1) * s);
      if (b & RIGHT) {
        ctx.moveTo(x1, y);
        ctx.lineTo(x1, y1);
      }
      if (b & BOTTOM) {
        ctx.moveTo(x, y1);
        ctx.lineTo(x1, y1);
      }
      if (b & LEFT) {
        ctx.moveTo(x, y);
        ctx.lineTo(x, y1);
      }
      if (b & TOP) {
        ctx.moveTo(x, y);
        ctx.lineTo(x1, y);
      }
    }
  }
  ctx.stroke();
  ctx.setLineDash([]);
}

/**
 * What the slots under one block are: the share that is padding (0..1, over every slot the block
 * covers) and the colour code of its elements (a palette index or OTHER); undefined off the grid.
 */
export type BlockContent = (
  row0: number,
  row1: number,
  col0: number,
  col1: number,
) => { padding: number; colour: number } | undefined;

/**
 * Zoomed-out drawing of the memory view: one colour per `blockPixels` CSS pixels, the elements'
 * colour blended toward the padding tone by the block's padding share, written into an ImageData
 * and scaled up, so the cost depends on the canvas size only, never on the array size.
 */
export function drawBlocks(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  theme: Theme,
  content: BlockContent,
  blockPixels: number,
): void {
  const nx = Math.max(1, Math.ceil(vp.width / blockPixels));
  const ny = Math.max(1, Math.ceil(vp.height / blockPixels));
  const image = new ImageData(nx, ny);
  const data = image.data;
  const cellsPerBlock = blockPixels / vp.scale;
  for (let j = 0; j < ny; j++) {
    const gy = vp.y0 + j * cellsPerBlock;
    const row0 = Math.max(0, Math.floor(gy));
    const row1 = Math.min(vp.rows, Math.max(row0 + 1, Math.floor(gy + cellsPerBlock)));
    for (let i = 0; i < nx; i++) {
      const gx = vp.x0 + i * cellsPerBlock;
      const col0 = Math.max(0, Math.floor(gx));
      const col1 = Math.min(vp.cols, Math.max(col0 + 1, Math.floor(gx + cellsPerBlock)));
      let rgb = theme.background;
      const inside = gy + cellsPerBlock > 0 && gx + cellsPerBlock > 0 && row0 < vp.rows && col0 < vp.cols;
      const block = inside ? content(row0, row1, col0, col1) : undefined;
      if (block !== undefined) {
        const element = block.colour >= 0 ? theme.tiles[block.colour] : theme.otherSlice;
        rgb = blend(theme.paddingTone, element, block.padding);
      }
      const k = (j * nx + i) * 4;
      data[k] = rgb.r;
      data[k + 1] = rgb.g;
      data[k + 2] = rgb.b;
      data[k + 3] = 255;
    }
  }
  const scratch = document.createElement('canvas');
  scratch.width = nx;
  scratch.height = ny;
  scratch.getContext('2d')?.putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(scratch, 0, 0, nx * blockPixels, ny * blockPixels);
  ctx.imageSmoothingEnabled = true;
}

/** Outlines one cell (selection / hover), at least 6 px so it shows when zoomed far out. */
export function outlineCell(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  row: number,
  col: number,
  colour: Rgb,
  width: number,
): void {
  const size = Math.max(vp.scale, 6);
  const x = vp.toScreenX(col) + vp.scale / 2 - size / 2;
  const y = vp.toScreenY(row) + vp.scale / 2 - size / 2;
  ctx.strokeStyle = colour.css;
  ctx.lineWidth = width;
  ctx.strokeRect(x + width / 2, y + width / 2, size - width, size - width);
}
