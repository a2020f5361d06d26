/**
 * The visible part of a grid as plain typed arrays: what the canvas draws, what the offscreen
 * ARIA table lists and what the SVG export writes all come from one {@link GridWindow}, so the
 * accessible and exported pictures cannot drift from the drawn one.
 */
import type { VisibleRange } from './viewport';

/** Colour code of a cell that is padding (drawn hatched). */
export const PADDING = -1;
/** Colour code of a memory slot holding an element of another slice (drawn dimmed). */
export const OTHER = -2;
/** Colour code of a slot past the end of the array (drawn empty). */
export const EMPTY = -3;

export interface GridWindow {
  /** First row / column of the window in grid coordinates. */
  readonly row0: number;
  readonly col0: number;
  readonly rows: number;
  readonly cols: number;
  /** Per cell (row-major in the window): a palette index >= 0, or PADDING / OTHER / EMPTY. */
  readonly colour: Int16Array;
  /** Per cell: the text drawn in it ('' for none). */
  readonly labels: readonly string[];
  /**
   * Tile borders, one entry per tile level: bit 1 = border on the right edge of the cell,
   * bit 2 = border on the bottom edge, bit 4 = on the left edge, bit 8 = on the top edge.
   */
  readonly borders: readonly Uint8Array[];
}

export const RIGHT = 1;
export const BOTTOM = 2;
export const LEFT = 4;
export const TOP = 8;

/** Allocates an empty window over `range` (everything EMPTY, no labels, `levels` border layers). */
export function emptyWindow(range: VisibleRange, levels: number): GridWindow & { labels: string[] } {
  const { row0, col0 } = range;
  const rows = range.row1 - row0;
  const cols = range.col1 - col0;
  const n = rows * cols;
  return {
    row0,
    col0,
    rows,
    cols,
    colour: new Int16Array(n).fill(EMPTY),
    labels: new Array<string>(n).fill(''),
    borders: Array.from({ length: levels }, () => new Uint8Array(n)),
  };
}
