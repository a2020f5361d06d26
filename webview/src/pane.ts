/**
 * One layout: its shape field with inline problems, the logical and memory views (with their
 * offscreen accessible tables), a status line for the selected / hovered element, and the steps
 * and sizes. Compare mode shows two panes sharing one slice and one selection.
 */
import { buildMemoryMap, createElementMapper, isLayoutError, type ElementMapper } from '../../core/src';
import { TableUpdater } from './accessible-grid';
import { analyzeShape, firstTile, paddedExtent, type Analysis, type Drawable } from './analyze';
import { sizesTable, stepsList } from './details';
import { groupDigits } from '../../core/src';
import { el, replaceChildren } from './dom';
import { LogicalView } from './logical-view';
import { MemoryView } from './memory-view';
import { SlotResolver, memoryGeometry, type SlotInfo } from './memory-window';
import type { Selection } from './selection';
import type { SliceControls } from './slice-controls';
import { ShapeField } from './shape-field';
import type { Theme } from './theme';

/** Slices up to this many cells get a full MemoryMap (typed arrays); larger ones use the mapper only. */
const MEMORY_MAP_CELLS = 1 << 22;

export type PaneStatus = 'empty' | 'drawn' | 'invalid' | 'unsupported';

export class LayoutPane {
  readonly root: HTMLElement;
  readonly field: ShapeField;
  readonly logical: LogicalView;
  readonly memory: MemoryView;
  analysis: Analysis | undefined;
  mapper: ElementMapper | undefined;
  private readonly message: HTMLElement;
  private readonly status: HTMLElement;
  private readonly details: HTMLElement;
  private readonly views: HTMLElement;
  private readonly logicalTable: HTMLTableElement;
  private readonly memoryTable: HTMLTableElement;
  /** How many times either view drew its grid. */
  draws = 0;
  /** Called after a view finished drawing the grid (tests and timing listen to this). */
  onDrawn: (() => void) | undefined;

  constructor(
    readonly id: string,
    theme: Theme,
    private readonly selection: Selection,
    private readonly slice: SliceControls,
    label: string,
  ) {
    this.field = new ShapeField(`shape-${id}`, label);
    this.message = el('div', { class: 'message', role: 'alert' });
    this.status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    const logicalHost = el('div', { class: 'canvas-host logical' });
    const memoryHost = el('div', { class: 'canvas-host memory' });
    this.logicalTable = el('table', { id: `logical-${id}`, 'aria-label': 'Logical view cells' });
    this.memoryTable = el('table', { id: `memory-${id}`, 'aria-label': 'Memory view slots' });
    this.details = el('div', { class: 'details' });
    this.views = el(
      'div',
      { class: 'views' },
      el('h3', {}, 'Logical view'),
      logicalHost,
      // Tables size to their content whatever their width says, so they are hidden in a box that does not.
      el('div', { class: 'sr-only' }, this.logicalTable),
      el('h3', {}, 'Memory (slot order)'),
      memoryHost,
      el('div', { class: 'sr-only' }, this.memoryTable),
    );
    this.root = el(
      'section',
      { class: 'pane', id: `pane-${id}`, 'data-status': 'empty' },
      this.field.root,
      this.message,
      this.views,
      this.status,
      this.details,
    );
    this.logical = new LogicalView(logicalHost, theme, selection);
    this.memory = new MemoryView(memoryHost, theme, selection);
    const logicalTable = new TableUpdater(this.logicalTable, () => this.logical.window, 'Logical view');
    const memoryTable = new TableUpdater(this.memoryTable, () => this.memory.window, 'Memory view');
    this.logical.onBaseDrawn = () => {
      logicalTable.update();
      this.drawn();
    };
    this.memory.onBaseDrawn = () => {
      memoryTable.update();
      this.drawn();
    };
    this.memory.onSlotHover = () => this.updateStatus();
    selection.onChange(() => this.updateStatus());
  }

  private drawn(): void {
    this.draws++;
    this.root.dataset.draws = String(this.draws);
    this.onDrawn?.();
  }

  /** Analyses `text` (also writing it into the field unless the field is its source). */
  analyze(text: string, fromField: boolean): Analysis {
    if (!fromField) this.field.value = text;
    const analysis = analyzeShape(text);
    this.analysis = analysis;
    this.field.showProblems(
      text,
      analysis.diagnostics,
      analysis.kind === 'array' ? undefined : analysis.message,
    );
    return analysis;
  }

  /** The drawable analysis, if the shape has a picture. */
  get drawable(): Drawable | undefined {
    return this.analysis?.kind === 'array' ? this.analysis : undefined;
  }

  /** The dims of the array last drawn, to tell a new layout of the same array from a new array. */
  private drawnDims: string | undefined;

  /**
   * Builds the mapper for the current slice and redraws. Both views are fitted to the grid when
   * `refit` says so or when the array is not the one drawn last; a new layout of the same array
   * keeps the view where the user left it.
   */
  build(refit: boolean): void {
    const d = this.drawable;
    this.mapper = undefined;
    if (d === undefined) {
      // The field's problem list already says why; the pane only hides its pictures.
      this.showMessage(
        this.analysis === undefined ? 'empty' : this.analysis.kind === 'invalid' ? 'invalid' : 'unsupported',
        '',
      );
      return;
    }
    const spec = this.slice.spec;
    const mapper = createElementMapper(d.shape, spec);
    if (isLayoutError(mapper)) {
      this.showMessage('unsupported', `Cannot draw this slice: ${mapper.message}`);
      return;
    }
    this.mapper = mapper;
    const dims = `${d.shape.elementType}[${d.shape.dims.join(',')}]`;
    refit ||= dims !== this.drawnDims;
    this.drawnDims = dims;
    const cells = mapper.rows * mapper.cols;
    const map = cells <= MEMORY_MAP_CELLS ? buildMemoryMap(d.shape, spec) : undefined;
    const resolver = new SlotResolver(mapper, map !== undefined && !isLayoutError(map) ? map : undefined);
    const geometry = {
      rows: mapper.rows,
      cols: mapper.cols,
      paddedRows: paddedExtent(d, mapper.rowDim, mapper.rows),
      paddedCols: paddedExtent(d, mapper.colDim, mapper.cols),
    };
    this.root.dataset.status = 'drawn';
    this.views.hidden = false;
    replaceChildren(this.message);
    this.logical.setData(mapper, geometry, refit);
    this.memory.setData(
      resolver,
      memoryGeometry(firstTile(d.shape), mapper.cols, mapper.totalSlots),
      (r, c) => this.indexText(r, c),
      refit,
    );
    replaceChildren(this.details, el('h3', {}, 'Steps'), stepsList(d), el('h3', {}, 'Sizes'), sizesTable(d));
    this.updateStatus();
  }

  /** Draws both views immediately (first paint), instead of on the next animation frame. */
  drawNow(): void {
    if (this.mapper === undefined) return;
    this.logical.drawNow();
    this.memory.drawNow();
  }

  private showMessage(status: PaneStatus, text: string): void {
    this.root.dataset.status = status;
    this.views.hidden = true;
    replaceChildren(this.details);
    replaceChildren(this.status);
    replaceChildren(this.message, text);
  }

  /** Logical index of slice cell (row, col): `r,c` in 2-D, every dim in N-D. */
  private indexText(row: number, col: number): string {
    return this.slice.indexOf(row, col).join(',');
  }

  private slotText(offset: number, info: SlotInfo): string {
    switch (info.kind) {
      case 'cell':
        return `slot ${groupDigits(offset)} holds element (${this.indexText(info.row, info.col)})`;
      case 'element':
        return `slot ${groupDigits(offset)} holds element (${info.index.join(',')}) of another slice`;
      case 'padding':
        return `slot ${groupDigits(offset)} is padding`;
      case 'out-of-range':
        return `slot ${groupDigits(offset)} is past the end`;
    }
  }

  private updateStatus(): void {
    const mapper = this.mapper;
    if (mapper === undefined) return;
    const parts: string[] = [];
    const cell = this.selection.hovered ?? this.selection.selected;
    if (cell !== undefined && cell.row < mapper.rows && cell.col < mapper.cols) {
      const offset = mapper.offsetExact(cell.row, cell.col);
      parts.push(
        `${this.selection.hovered ? 'hovered' : 'selected'} element (${this.indexText(cell.row, cell.col)}) → linear index ${groupDigits(offset)} of ${groupDigits(mapper.totalSlots)} slots`,
      );
    }
    const slot = this.memory.hoveredSlot;
    if (slot !== undefined && slot.info.kind !== 'cell') parts.push(this.slotText(slot.offset, slot.info));
    if (parts.length === 0)
      parts.push(
        `${groupDigits(mapper.rows)} × ${groupDigits(mapper.cols)} slice; ${groupDigits(mapper.totalSlots)} slots. Click a cell or slot; arrows move, +/- zoom, 0 fits.`,
      );
    this.status.textContent = parts.join(' · ');
    this.logical.canvas.setAttribute('aria-label', `Logical view. ${parts.join('. ')}`);
  }

  setTheme(theme: Theme): void {
    this.logical.setTheme(theme);
    this.memory.setTheme(theme);
  }
}
