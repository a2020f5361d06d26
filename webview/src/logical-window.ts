/**
 * Builds the visible window of the logical view from the core's ElementMapper: each cell's linear
 * index (its memory slot), its first-level tile colour, and the tile borders of every level (a
 * border wherever neighbouring cells lie in different tiles at that level).
 */
import type { ElementMapper } from '../../core/src';
import { BOTTOM, LEFT, PADDING, RIGHT, TOP, emptyWindow, type GridWindow } from './grid-window';
import { tileColourIndex } from './theme';
import type { VisibleRange } from './viewport';

/** The logical grid: the slice's rows and columns, and the extent padding adds to them. */
export interface LogicalGeometry {
  readonly rows: number;
  readonly cols: number;
  /** Rows including the padding that tiling adds to the row dimension (>= rows). */
  readonly paddedRows: number;
  readonly paddedCols: number;
}

/** Offsets lose precision as doubles past 2^53; labels then come from the exact bigint. */
const EXACT_LIMIT = BigInt(Number.MAX_SAFE_INTEGER);

/** The text of a cell: its linear index (slot offset). */
function offsetLabel(mapper: ElementMapper, row: number, col: number): string {
  return mapper.totalSlots > EXACT_LIMIT
    ? mapper.offsetExact(row, col).toString()
    : String(mapper.offset(row, col));
}

/**
 * The window `range` of the padded grid. Cells in the padded extent are PADDING; their tile (for
 * borders) is that of the nearest logical cell, which is right: padding never reaches past the
 * last tile of a dimension.
 */
export function logicalWindow(
  mapper: ElementMapper,
  geometry: LogicalGeometry,
  range: VisibleRange,
  withLabels: boolean,
): GridWindow {
  const levels = mapper.levels;
  const win = emptyWindow(range, levels);
  const { row0, col0, rows, cols } = win;
  if (rows === 0 || cols === 0 || geometry.rows === 0 || geometry.cols === 0) return win;
  const lastRow = geometry.rows - 1;
  const lastCol = geometry.cols - 1;
  for (let r = 0; r < rows; r++) {
    const row = row0 + r;
    for (let c = 0; c < cols; c++) {
      const col = col0 + c;
      const i = r * cols + c;
      if (row > lastRow || col > lastCol) {
        win.colour[i] = PADDING;
        continue;
      }
      win.colour[i] = levels > 0 ? tileColourIndex(mapper.tileId(0, row, col)) : 0;
      if (withLabels) win.labels[i] = offsetLabel(mapper, row, col);
    }
  }
  // Tile ids over the window plus one extra row and column, to compare each cell with its
  // right and lower neighbours; clamped to the logical grid (see above).
  const w = cols + 1;
  const ids = new Float64Array((rows + 1) * w);
  for (let level = 0; level < levels; level++) {
    for (let r = 0; r <= rows; r++) {
      const row = Math.min(row0 + r, lastRow);
      for (let c = 0; c <= cols; c++) ids[r * w + c] = mapper.tileId(level, row, Math.min(col0 + c, lastCol));
    }
    const border = win.borders[level];
    for (let r = 0; r < rows; r++) {
      const row = row0 + r;
      for (let c = 0; c < cols; c++) {
        const col = col0 + c;
        const id = ids[r * w + c];
        let bits = 0;
        if (col + 1 >= geometry.paddedCols || ids[r * w + c + 1] !== id) bits |= RIGHT;
        if (row + 1 >= geometry.paddedRows || ids[(r + 1) * w + c] !== id) bits |= BOTTOM;
        if (col === 0) bits |= LEFT;
        if (row === 0) bits |= TOP;
        border[r * cols + c] = bits;
      }
    }
  }
  return win;
}
