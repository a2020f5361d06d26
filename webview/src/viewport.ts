/**
 * Pan and zoom over a grid of cells, in CSS pixels. The grid may be far larger than 2^31 pixels
 * (a 10^6 x 10^6 array), so positions are kept in cell units and only the visible window is ever
 * turned into pixels.
 */

export interface VisibleRange {
  /** First visible row / column (clamped to the grid). */
  readonly row0: number;
  readonly col0: number;
  /** One past the last visible row / column (clamped). */
  readonly row1: number;
  readonly col1: number;
}

/** Empty CSS pixels kept between the grid's edges and the canvas's edges when fitted or panned to an end. */
const MARGIN = 4;

/** One axis of {@link Viewport.clamp}: the first visible grid coordinate for `cells` cells over `pixels`. */
function clampAxis(start: number, cells: number, pixels: number, scale: number): number {
  const margin = MARGIN / scale;
  const lowest = -margin;
  const highest = cells - pixels / scale + margin;
  if (highest <= lowest) return lowest;
  return Math.min(Math.max(start, lowest), highest);
}

export class Viewport {
  /** CSS pixels per cell. */
  scale = 24;
  /** Grid coordinates (in cells) of the canvas's top-left corner. */
  x0 = 0;
  y0 = 0;
  width = 0;
  height = 0;

  constructor(
    public rows: number,
    public cols: number,
    private readonly maxScale = 64,
  ) {}

  /**
   * Scale at which the whole grid (or `extent` of it, from the top-left) fits with a margin, never
   * above `cap`. With `widthOnly` only the columns must fit: a long memory strip is then read from
   * the top, not shrunk to a sliver.
   */
  fitScale(cap: number, widthOnly = false, extent?: { rows: number; cols: number }): number {
    if (this.width <= 0 || this.height <= 0) return cap;
    const rows = Math.min(this.rows, extent?.rows ?? this.rows);
    const cols = Math.min(this.cols, extent?.cols ?? this.cols);
    const byWidth = (this.width - 2 * MARGIN) / Math.max(1, cols);
    const fit = widthOnly ? byWidth : Math.min(byWidth, (this.height - 2 * MARGIN) / Math.max(1, rows));
    return Math.max(1e-9, Math.min(cap, fit));
  }

  get minScale(): number {
    return this.fitScale(this.maxScale) / 2;
  }

  /** Cells `scale` pixels wide, the grid's top-left corner at the margin. */
  fitAt(scale: number): void {
    this.scale = scale;
    this.x0 = -MARGIN / this.scale;
    this.y0 = -MARGIN / this.scale;
  }

  /** Zooms by `factor` keeping the grid point under (px, py) in place. */
  zoomAt(factor: number, px: number, py: number): void {
    const gx = this.x0 + px / this.scale;
    const gy = this.y0 + py / this.scale;
    this.scale = Math.min(this.maxScale, Math.max(this.minScale, this.scale * factor));
    this.x0 = gx - px / this.scale;
    this.y0 = gy - py / this.scale;
    this.clamp();
  }

  panBy(dxPixels: number, dyPixels: number): void {
    this.x0 -= dxPixels / this.scale;
    this.y0 -= dyPixels / this.scale;
    this.clamp();
  }

  /**
   * Keeps the view on the grid, axis by axis: a grid narrower than the view sits at the left (top)
   * margin, and a wider one can be panned until either edge is one margin inside the view. Empty
   * space beyond the margin is never shown, so the grid cannot drift into the middle of the canvas.
   */
  clamp(): void {
    this.x0 = clampAxis(this.x0, this.cols, this.width, this.scale);
    this.y0 = clampAxis(this.y0, this.rows, this.height, this.scale);
  }

  /** Pans the least needed to bring cell (row, col) fully into view. */
  reveal(row: number, col: number): void {
    const w = this.width / this.scale;
    const h = this.height / this.scale;
    if (col < this.x0) this.x0 = col - 0.5;
    else if (col + 1 > this.x0 + w) this.x0 = col + 1.5 - w;
    if (row < this.y0) this.y0 = row - 0.5;
    else if (row + 1 > this.y0 + h) this.y0 = row + 1.5 - h;
    this.clamp();
  }

  visible(): VisibleRange {
    const row0 = Math.max(0, Math.floor(this.y0));
    const col0 = Math.max(0, Math.floor(this.x0));
    const row1 = Math.min(this.rows, Math.ceil(this.y0 + this.height / this.scale));
    const col1 = Math.min(this.cols, Math.ceil(this.x0 + this.width / this.scale));
    return { row0, col0, row1: Math.max(row0, row1), col1: Math.max(col0, col1) };
  }

  /** Screen position of a grid coordinate. */
  toScreenX(col: number): number {
    return (col - this.x0) * this.scale;
  }

  toScreenY(row: number): number {
    return (row - this.y0) * this.scale;
  }

  /** The cell under a screen point, or undefined outside the grid. */
  cellAt(px: number, py: number): { row: number; col: number } | undefined {
    const col = Math.floor(this.x0 + px / this.scale);
    const row = Math.floor(this.y0 + py / this.scale);
    if (row < 0 || col < 0 || row >= this.rows || col >= this.cols) return undefined;
    return { row, col };
  }
}
