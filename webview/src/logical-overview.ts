/**
 * The logical view zoomed out (cells under a few pixels): drawn from geometry, not from samples.
 * In the logical slice padding is exactly the padded extent past the logical bounds, so it is two
 * rectangles; the canvas blends every pixel an edge crosses by the share of it each side covers,
 * which is the padding share of that pixel, however thin the padded band. Tiles are drawn one
 * rectangle each in their palette colour while they are big enough to tell apart, else the data
 * is one colour (tiny tiles in many colours would shimmer like a moiré).
 */
import type { LogicalGeometry } from './logical-window';
import type { Theme } from './theme';
import type { Viewport } from './viewport';

/** First-level tiles along the slice: how many rows / columns one spans, and a cell's palette slot. */
export interface TileGrid {
  readonly rowSpan: number;
  readonly colSpan: number;
  colourAt(row: number, col: number): number;
}

/** Tiles smaller than this (CSS px, either side) are not coloured one by one. */
const MIN_TILE_PX = 6;
/** First-level tile borders are drawn from this tile size up. */
const BORDER_TILE_PX = 10;

export function drawLogicalOverview(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  theme: Theme,
  g: LogicalGeometry,
  tiles: TileGrid | undefined,
): void {
  const s = vp.scale;
  const x = (col: number): number => vp.toScreenX(col);
  const y = (row: number): number => vp.toScreenY(row);
  ctx.fillStyle = theme.paddingTone.css;
  if (g.paddedCols > g.cols) ctx.fillRect(x(g.cols), y(0), (g.paddedCols - g.cols) * s, g.paddedRows * s);
  if (g.paddedRows > g.rows) ctx.fillRect(x(0), y(g.rows), g.cols * s, (g.paddedRows - g.rows) * s);
  const seen = tiles !== undefined && tiles.rowSpan * s >= MIN_TILE_PX && tiles.colSpan * s >= MIN_TILE_PX;
  if (!seen || tiles === undefined) {
    ctx.fillStyle = theme.tiles[0].css;
    ctx.fillRect(x(0), y(0), g.cols * s, g.rows * s);
  } else {
    const { row0, row1, col0, col1 } = vp.visible();
    ctx.save();
    ctx.beginPath();
    ctx.rect(x(0), y(0), g.cols * s, g.rows * s);
    ctx.clip();
    // Tile edges on whole pixels, so neighbouring tiles leave no seam; the logical bounds (the
    // clip) stay exact.
    const { rowSpan, colSpan } = tiles;
    for (let r = Math.floor(row0 / rowSpan) * rowSpan; r < Math.min(row1, g.rows); r += rowSpan) {
      for (let c = Math.floor(col0 / colSpan) * colSpan; c < Math.min(col1, g.cols); c += colSpan) {
        ctx.fillStyle = theme.tiles[tiles.colourAt(r, c)].css;
        const left = Math.round(x(c));
        const top = Math.round(y(r));
        ctx.fillRect(left, top, Math.round(x(c + colSpan)) - left, Math.round(y(r + rowSpan)) - top);
      }
    }
    ctx.restore();
    if (rowSpan * s >= BORDER_TILE_PX && colSpan * s >= BORDER_TILE_PX)
      drawTileLines(ctx, vp, theme, g, tiles);
  }
  // The logical bounds, so data stays distinguishable from padding at this zoom; not around data
  // a few pixels thin, which the line would hide.
  if (g.cols * s >= 4 && g.rows * s >= 4) {
    ctx.strokeStyle = theme.foreground.css;
    ctx.lineWidth = 1;
    ctx.strokeRect(x(0), y(0), g.cols * s, g.rows * s);
  }
}

/** Lines between first-level tiles (the grid's own edges are the outline's and the padding's). */
function drawTileLines(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  theme: Theme,
  g: LogicalGeometry,
  tiles: TileGrid,
): void {
  const { row0, row1, col0, col1 } = vp.visible();
  const top = vp.toScreenY(0);
  const bottom = vp.toScreenY(g.paddedRows);
  const left = vp.toScreenX(0);
  const right = vp.toScreenX(g.paddedCols);
  ctx.strokeStyle = theme.tileBorder.css;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  const firstCol = Math.max(1, Math.ceil(col0 / tiles.colSpan)) * tiles.colSpan;
  for (let c = firstCol; c <= col1 && c < g.paddedCols; c += tiles.colSpan) {
    const px = Math.round(vp.toScreenX(c));
    ctx.moveTo(px, top);
    ctx.lineTo(px, bottom);
  }
  const firstRow = Math.max(1, Math.ceil(row0 / tiles.rowSpan)) * tiles.rowSpan;
  for (let r = firstRow; r <= row1 && r < g.paddedRows; r += tiles.rowSpan) {
    const py = Math.round(vp.toScreenY(r));
    ctx.moveTo(left, py);
    ctx.lineTo(right, py);
  }
  ctx.stroke();
}
