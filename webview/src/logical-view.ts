/**
 * The logical view: the 2-D slice as a grid, each cell labelled with its linear index, coloured by
 * its first-level tile, later tile levels outlined, and the padded extent hatched.
 */
import type { ElementMapper } from '../../core/src';
import { CanvasView, type Cell } from './canvas-view';
import {
  CELL_MODE_MIN_SCALE,
  LABEL_MIN_SCALE,
  drawBlocks,
  drawCells,
  hatchPattern,
  outlineCell,
} from './grid-draw';
import { PADDING, type GridWindow } from './grid-window';
import { logicalWindow, type LogicalGeometry } from './logical-window';
import type { Selection } from './selection';
import { tileColourIndex, type Theme } from './theme';

/** The ARIA table lists the window only while it is this small (a DOM node per cell otherwise). */
export const ACCESSIBLE_CELLS = 4096;

export class LogicalView extends CanvasView {
  private mapper: ElementMapper | undefined;
  private geometry: LogicalGeometry = { rows: 0, cols: 0, paddedRows: 0, paddedCols: 0 };
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

  setData(mapper: ElementMapper, geometry: LogicalGeometry, refit: boolean): void {
    this.mapper = mapper;
    this.geometry = geometry;
    this.setGrid(geometry.paddedRows, geometry.paddedCols, refit);
  }

  protected fitCap(): number {
    return 44;
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
    const { rows, cols } = this.geometry;
    if (vp.scale >= CELL_MODE_MIN_SCALE) {
      const range = vp.visible();
      const count = (range.row1 - range.row0) * (range.col1 - range.col0);
      const win = logicalWindow(
        mapper,
        this.geometry,
        range,
        vp.scale >= LABEL_MIN_SCALE || count <= ACCESSIBLE_CELLS,
      );
      drawCells(ctx, vp, this.theme, win, hatchPattern(ctx, this.theme));
      this.window = win;
    } else {
      const levels = mapper.levels;
      drawBlocks(
        ctx,
        vp,
        this.theme,
        (r, c) =>
          r >= rows || c >= cols ? PADDING : levels > 0 ? tileColourIndex(mapper.tileId(0, r, c)) : 0,
        2,
      );
      // The logical bounds, so padding stays distinguishable from data at this zoom.
      ctx.strokeStyle = this.theme.foreground.css;
      ctx.lineWidth = 1;
      ctx.strokeRect(vp.toScreenX(0), vp.toScreenY(0), cols * vp.scale, rows * vp.scale);
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
