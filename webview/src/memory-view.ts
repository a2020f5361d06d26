/**
 * The memory view: element slots in offset order, folded into rows of whole tiles. A slot shows
 * the logical index of the element it holds; padding is hatched; elements of other slices of an
 * N-D array are dimmed. Hovering or selecting a slot selects its element in the logical view.
 */
import { CanvasView, type Cell } from './canvas-view';
import {
  CELL_MODE_MIN_SCALE,
  LABEL_MIN_SCALE,
  drawBlocks,
  drawCells,
  hatchPattern,
  outlineCell,
  type BlockContent,
} from './grid-draw';
import { OTHER, type GridWindow } from './grid-window';
import { ACCESSIBLE_CELLS } from './logical-view';
import {
  memoryWindow,
  type IndexLabel,
  type MemoryGeometry,
  type SlotInfo,
  type SlotResolver,
} from './memory-window';
import type { Selection } from './selection';
import type { SlotCounter } from './slot-counter';
import { tileColourIndex, type Theme } from './theme';

/** A zoomed-out block adds up the padding of at most this many of its memory rows (spread evenly). */
const MAX_BLOCK_ROWS = 64;

export class MemoryView extends CanvasView {
  private resolver: SlotResolver | undefined;
  private counter: SlotCounter | undefined;
  private geometry: MemoryGeometry = { wrap: 1, totalSlots: 0, rows: 0 };
  private cellLabel: IndexLabel = (r, c) => `${r},${c}`;
  /** The slot the keyboard cursor is on (it may hold padding, unlike the selection). */
  cursor: number | undefined;
  /** The slot under the pointer, for the status line. */
  hoveredSlot: { offset: number; info: SlotInfo } | undefined;
  onSlotHover: (() => void) | undefined;
  window: GridWindow | undefined;

  constructor(
    host: HTMLElement,
    theme: Theme,
    private readonly selection: Selection,
  ) {
    super(host, theme, 'Memory view: element slots in memory order');
    selection.onChange((what, origin) => {
      if (what === 'select' && origin !== this && this.selection.selected !== undefined) {
        const offset = this.offsetOf(this.selection.selected);
        if (offset !== undefined) {
          this.cursor = offset;
          this.revealSlot(offset);
        }
      }
      this.requestDraw();
    });
  }

  setData(
    resolver: SlotResolver,
    counter: SlotCounter,
    geometry: MemoryGeometry,
    cellLabel: IndexLabel,
    refit: boolean,
  ): void {
    this.resolver = resolver;
    this.counter = counter;
    this.geometry = geometry;
    this.cellLabel = cellLabel;
    this.cursor = undefined;
    this.setGrid(geometry.rows, geometry.wrap, refit);
  }

  protected fitCap(): number {
    return 44;
  }

  protected override fitWidthOnly(): boolean {
    return true;
  }

  protected override zoomAnchor(): Cell | undefined {
    return this.cursor !== undefined ? this.slotPosition(this.cursor) : undefined;
  }

  private offsetOf(cell: Cell): number | undefined {
    return this.resolver?.mapper.offset(cell.row, cell.col);
  }

  /** Shows slot `offset` (picked on the buffer strip) and puts the keyboard cursor on it. */
  revealOffset(offset: number): void {
    if (offset >= this.geometry.totalSlots) return;
    this.cursor = offset;
    this.revealSlot(offset);
    this.requestDraw();
  }

  private revealSlot(offset: number): void {
    this.revealGridCell(Math.floor(offset / this.geometry.wrap), offset % this.geometry.wrap);
  }

  /** The colour code of the element in slot `offset`, or undefined for padding. */
  private elementColour(offset: number): number | undefined {
    const resolver = this.resolver;
    if (resolver === undefined || offset >= this.geometry.totalSlots) return undefined;
    const slot = resolver.resolve(offset);
    if (slot.kind === 'cell')
      return resolver.mapper.levels > 0 ? tileColourIndex(resolver.mapper.tileId(0, slot.row, slot.col)) : 0;
    return slot.kind === 'element' ? OTHER : undefined;
  }

  /** A zoomed-out block: the padding share of every slot it covers, and its elements' colour. */
  private readonly blockContent: BlockContent = (row0, row1, col0, col1) => {
    const counter = this.counter;
    const { wrap, totalSlots } = this.geometry;
    if (counter === undefined || row0 * wrap + col0 >= totalSlots) return undefined;
    const step = Math.max(1, (row1 - row0) / MAX_BLOCK_ROWS);
    let slots = 0;
    let elements = 0;
    for (let r = row0; r < row1; r += step) {
      const row = Math.floor(r);
      const a = row * wrap + col0;
      const b = Math.min(row * wrap + col1, totalSlots);
      if (a >= b) break;
      slots += b - a;
      elements += counter.elementsIn(a, b);
    }
    if (slots === 0) return undefined;
    const centre = Math.floor((row0 + row1) / 2) * wrap + Math.floor((col0 + col1) / 2);
    const colour =
      this.elementColour(Math.min(centre, totalSlots - 1)) ?? this.elementColour(row0 * wrap + col0);
    return { padding: 1 - elements / slots, colour: colour ?? 0 };
  };

  protected renderBase(ctx: CanvasRenderingContext2D): void {
    this.window = undefined;
    const resolver = this.resolver;
    if (resolver === undefined) return;
    const vp = this.vp;
    if (vp.scale >= CELL_MODE_MIN_SCALE) {
      const range = vp.visible();
      const count = (range.row1 - range.row0) * (range.col1 - range.col0);
      const win = memoryWindow(
        resolver,
        this.geometry,
        range,
        vp.scale >= LABEL_MIN_SCALE || count <= ACCESSIBLE_CELLS,
        this.cellLabel,
      );
      this.labelPx = drawCells(ctx, vp, this.theme, win, hatchPattern(ctx, this.theme));
      this.window = win;
    } else {
      drawBlocks(ctx, vp, this.theme, this.blockContent, 4);
    }
  }

  private slotPosition(offset: number): Cell {
    return { row: Math.floor(offset / this.geometry.wrap), col: offset % this.geometry.wrap };
  }

  protected renderOverlay(ctx: CanvasRenderingContext2D): void {
    const { hovered, selected } = this.selection;
    const mark = (cell: Cell | undefined, colour: Theme['hover'], width: number): void => {
      if (cell === undefined) return;
      const offset = this.offsetOf(cell);
      if (offset === undefined) return;
      const p = this.slotPosition(offset);
      outlineCell(ctx, this.vp, p.row, p.col, colour, width);
    };
    if (this.cursor !== undefined && this.hoveredSlot === undefined) {
      const p = this.slotPosition(this.cursor);
      outlineCell(ctx, this.vp, p.row, p.col, this.theme.foreground, 1);
    }
    mark(hovered, this.theme.hover, 2);
    mark(selected, this.theme.selection, 3);
  }

  private slotAt(cell: Cell | undefined): { offset: number; info: SlotInfo } | undefined {
    if (cell === undefined || this.resolver === undefined) return undefined;
    const offset = cell.row * this.geometry.wrap + cell.col;
    if (offset >= this.geometry.totalSlots) return undefined;
    return { offset, info: this.resolver.resolve(offset) };
  }

  protected pointerCell(cell: Cell | undefined, click: boolean): void {
    const slot = this.slotAt(cell);
    const element = slot?.info.kind === 'cell' ? { row: slot.info.row, col: slot.info.col } : undefined;
    if (click) {
      this.cursor = slot?.offset;
      this.selection.select(element, this);
      this.requestDraw();
    } else {
      this.hoveredSlot = slot;
      this.selection.hover(element, this);
      this.onSlotHover?.();
    }
  }

  protected key(event: KeyboardEvent): boolean {
    const wrap = this.geometry.wrap;
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -wrap, ArrowDown: wrap };
    const move = moves[event.key];
    if (move === undefined || this.resolver === undefined || this.geometry.totalSlots === 0)
      return move !== undefined;
    const next =
      this.cursor === undefined ? 0 : Math.min(this.geometry.totalSlots - 1, Math.max(0, this.cursor + move));
    this.cursor = next;
    this.revealSlot(next);
    const info = this.resolver.resolve(next);
    this.hoveredSlot = { offset: next, info };
    if (info.kind === 'cell') this.selection.select({ row: info.row, col: info.col }, this);
    this.onSlotHover?.();
    this.requestDraw();
    return true;
  }
}
