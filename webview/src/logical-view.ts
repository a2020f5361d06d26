/**
 * The logical view: the 2-D slice as a grid, each cell labelled with its linear index, coloured by
 * its first-level tile, later tile levels outlined, and the padded extent hatched.
 *
 * It opens fitted to the whole grid, unless the padding would then be a band too thin to see while
 * the first tile already pads (a dim smaller than its tile entry, like bf16[…,1,…] under T(4,128)):
 * then it opens on the whole first tile, fitted to the view (a tile cut at the view's edge hid
 * where it ends), where the padding is plain.
 */
import type { ElementMapper } from '../../core/src';
import { CanvasView, type Cell, type Extent } from './canvas-view';
import { CELL_MODE_MIN_SCALE, LABEL_MIN_SCALE, drawCells, hatchPattern, outlineCell } from './grid-draw';
import type { GridWindow } from './grid-window';
import { drawLogicalOverview, type TileGrid } from './logical-overview';
import { logicalWindow, type LogicalGeometry } from './logical-window';
import type { Selection } from './selection';
import { tileColourIndex, type Theme } from './theme';

/** A padded band thinner than this (CSS px) at the whole-grid fit counts as invisible. */
const MIN_BAND_PX = 6;

/** First-level tile spans along the slice's rows and columns (undefined: untiled, or `*` merges). */
export interface TileSpans {
  readonly rows: number | undefined;
  readonly cols: number | undefined;
}

/** The ARIA table lists the window only while it is this small (a DOM node per cell otherwise). */
export const ACCESSIBLE_CELLS = 4096;

export class LogicalView extends CanvasView {
  private mapper: ElementMapper | undefined;
  private geometry: LogicalGeometry = { rows: 0, cols: 0, paddedRows: 0, paddedCols: 0 };
  private spans: TileSpans = { rows: undefined, cols: undefined };
  /** The window last drawn cell by cell (undefined when zoomed out to blocks). */
  window: GridWindow | undefined;

  constructor(
    host: HTMLElement,
    theme: Theme,
    private readonly selection: Selection,
  ) {
    super(host, theme, 'Logical view: the array slice as a grid of linear indices');
    selection.onChange((what, origin) => {
      // A cell picked in another view is brought into this one too.
      if (what === 'select' && origin !== this && this.selection.selected !== undefined)
        this.revealCell(this.selection.selected);
      this.requestDraw();
    });
  }

  setData(mapper: ElementMapper, geometry: LogicalGeometry, spans: TileSpans, refit: boolean): void {
    this.mapper = mapper;
    this.geometry = geometry;
    this.spans = spans;
    this.setGrid(geometry.paddedRows, geometry.paddedCols, refit);
  }

  protected fitCap(): number {
    return 44;
  }

  protected override defaultExtent(): Extent | undefined {
    const g = this.geometry;
    const { rows: rowSpan, cols: colSpan } = this.spans;
    if (rowSpan === undefined || colSpan === undefined) return undefined;
    const whole = this.fitScaleFor('whole');
    const thin = (padded: number, size: number): boolean =>
      padded > size && (padded - size) * whole < MIN_BAND_PX;
    const visible = (padded: number, size: number): boolean => padded > size && !thin(padded, size);
    if (visible(g.paddedRows, g.rows) || visible(g.paddedCols, g.cols)) return undefined;
    // Opening on the first tile helps only when that tile pads.
    if (!(g.rows < rowSpan || g.cols < colSpan)) return undefined;
    return { rows: Math.min(g.paddedRows, rowSpan), cols: Math.min(g.paddedCols, colSpan) };
  }

  /** First-level tiles along the slice, for the zoomed-out picture. */
  private tileGrid(): TileGrid | undefined {
    const mapper = this.mapper;
    const { rows, cols } = this.spans;
    if (mapper === undefined || mapper.levels === 0 || rows === undefined || cols === undefined)
      return undefined;
    return { rowSpan: rows, colSpan: cols, colourAt: (r, c) => tileColourIndex(mapper.tileId(0, r, c)) };
  }

  protected override zoomAnchor(): Cell | undefined {
    return this.selection.selected;
  }

  /** Pans so that `cell` is visible. */
  revealCell(cell: Cell): void {
    this.revealGridCell(cell.row, cell.col);
  }

  protected renderBase(ctx: CanvasRenderingContext2D): void {
    const mapper = this.mapper;
    this.window = undefined;
    if (mapper === undefined) return;
    const vp = this.vp;
    if (vp.scale >= CELL_MODE_MIN_SCALE) {
      const range = vp.visible();
      const count = (range.row1 - range.row0) * (range.col1 - range.col0);
      const win = logicalWindow(
        mapper,
        this.geometry,
        range,
        vp.scale >= LABEL_MIN_SCALE || count <= ACCESSIBLE_CELLS,
      );
      this.labelPx = drawCells(ctx, vp, this.theme, win, hatchPattern(ctx, this.theme));
      this.window = win;
    } else {
      drawLogicalOverview(ctx, vp, this.theme, this.geometry, this.tileGrid());
    }
  }

  protected renderOverlay(ctx: CanvasRenderingContext2D): void {
    const { hovered, selected } = this.selection;
    if (hovered !== undefined) outlineCell(ctx, this.vp, hovered.row, hovered.col, this.theme.hover, 2);
    if (selected !== undefined)
      outlineCell(ctx, this.vp, selected.row, selected.col, this.theme.selection, 3);
  }

  private inBounds(cell: Cell | undefined): Cell | undefined {
    return cell !== undefined && cell.row < this.geometry.rows && cell.col < this.geometry.cols
      ? cell
      : undefined;
  }

  protected pointerCell(cell: Cell | undefined, click: boolean): void {
    const inside = this.inBounds(cell);
    if (click) this.selection.select(inside, this);
    else this.selection.hover(inside, this);
  }

  protected key(event: KeyboardEvent): boolean {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    const move = moves[event.key];
    if (move === undefined) return false;
    const { rows, cols } = this.geometry;
    if (rows === 0 || cols === 0) return true;
    const current = this.selection.selected ?? { row: 0, col: 0 };
    const step = event.ctrlKey || event.metaKey ? 8 : 1;
    const next = {
      row: Math.min(rows - 1, Math.max(0, current.row + move[0] * (this.selection.selected ? step : 0))),
      col: Math.min(cols - 1, Math.max(0, current.col + move[1] * (this.selection.selected ? step : 0))),
    };
    this.revealCell(next);
    this.selection.select(next, this);
    return true;
  }
}
