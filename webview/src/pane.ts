/**
 * One layout: its shape field with inline problems, the logical and memory views (with their
 * offscreen accessible tables), the strip of the whole buffer, a status line for the selected /
 * hovered element, and the steps and sizes. A tuple lists its array elements to pick instead.
 * Compare mode shows two panes sharing one slice, one selection and one zoom.
 */
import {
  buildMemoryMap,
  createElementMapper,
  formatFactor,
  formatPercent,
  groupDigits,
  humanBytes,
  isLayoutError,
  type ElementMapper,
} from '../../core/src';
import { TableUpdater } from './accessible-grid';
import { answerOf } from './answer';
import {
  analyzeShape,
  firstTile,
  paddedExtent,
  tileSpan,
  type Analysis,
  type Drawable,
  type TupleElement,
} from './analyze';
import { sizesTable, stepsList } from './details';
import { el, replaceChildren } from './dom';
import { LogicalView } from './logical-view';
import { MemoryStrip } from './memory-strip';
import { MemoryView } from './memory-view';
import { SlotResolver, memoryGeometry, type SlotInfo } from './memory-window';
import type { Selection } from './selection';
import type { SliceControls } from './slice-controls';
import { ShapeField } from './shape-field';
import { SlotCounter } from './slot-counter';
import type { Theme } from './theme';

/** Slices up to this many cells get a full MemoryMap (typed arrays); larger ones use the mapper only. */
const MEMORY_MAP_CELLS = 1 << 22;

export type PaneStatus = 'empty' | 'drawn' | 'invalid' | 'unsupported' | 'tuple';

export class LayoutPane {
  readonly root: HTMLElement;
  readonly field: ShapeField;
  readonly logical: LogicalView;
  readonly memory: MemoryView;
  readonly strip: MemoryStrip;
  /** The answer line (answer.ts); the page shows it at its top, above the controls. */
  readonly answer: HTMLElement;
  analysis: Analysis | undefined;
  mapper: ElementMapper | undefined;
  private readonly message: HTMLElement;
  private readonly elements: HTMLElement;
  private readonly status: HTMLElement;
  private readonly details: HTMLElement;
  private readonly views: HTMLElement;
  private readonly logicalTable: HTMLTableElement;
  private readonly memoryTable: HTMLTableElement;
  /** How many times either view drew its grid. */
  draws = 0;
  /** Called after a view finished drawing the grid (tests and timing listen to this). */
  onDrawn: (() => void) | undefined;
  /** Called when the user picks an element of the tuple shown. */
  onPick: ((element: TupleElement) => void) | undefined;

  constructor(
    readonly id: string,
    theme: Theme,
    private readonly selection: Selection,
    private readonly slice: SliceControls,
    label: string,
  ) {
    this.field = new ShapeField(`shape-${id}`, label);
    this.answer = el('p', { class: 'answer', id: `answer-${id}`, 'data-label': label });
    this.message = el('div', { class: 'message', role: 'alert' });
    this.elements = el('div', { class: 'tuple-elements', id: `elements-${id}` });
    this.strip = new MemoryStrip(theme, id);
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
      this.strip.root,
      memoryHost,
      el('div', { class: 'sr-only' }, this.memoryTable),
    );
    this.root = el(
      'section',
      { class: 'pane', id: `pane-${id}`, 'data-status': 'empty' },
      this.field.root,
      this.message,
      this.elements,
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
      const { row0, row1 } = this.memory.vp.visible();
      const wrap = this.memory.vp.cols;
      this.strip.setShown(row0 * wrap, row1 * wrap);
      this.drawn();
    };
    this.strip.onPick = (offset) => this.memory.revealOffset(offset);
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
    // A tuple is a valid shape: its sentence asks to pick an element, it reports no error.
    if (analysis.kind === 'tuple' && !analysis.diagnostics.some((d) => d.severity === 'error'))
      this.field.input.setAttribute('aria-invalid', 'false');
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
    if (this.analysis?.kind === 'tuple') {
      this.showMessage('tuple', '');
      this.listElements(this.analysis.elements);
      return;
    }
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
    replaceChildren(this.elements);
    const counter = new SlotCounter(d.plan);
    this.logical.setData(
      mapper,
      geometry,
      { rows: tileSpan(d.plan, mapper.rowDim), cols: tileSpan(d.plan, mapper.colDim) },
      refit,
    );
    this.memory.setData(
      resolver,
      counter,
      memoryGeometry(firstTile(d.shape), mapper.cols, mapper.totalSlots),
      (r, c) => this.indexText(r, c),
      refit,
    );
    this.strip.setData(counter, d.sizes);
    const answer = answerOf(d);
    replaceChildren(
      this.answer,
      el('strong', { class: 'answer-sizes' }, answer.sizes),
      answer.cause !== undefined ? el('span', { class: 'answer-cause' }, answer.cause) : undefined,
      answer.fix !== undefined ? el('span', { class: 'answer-fix' }, answer.fix) : undefined,
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
    replaceChildren(this.answer);
    replaceChildren(this.details);
    replaceChildren(this.status);
    replaceChildren(this.elements);
    replaceChildren(this.message, text);
  }

  /** The tuple's array elements, one button each, with their sizes. */
  private listElements(elements: readonly TupleElement[]): void {
    const items = elements.map((e) => {
      const pick = el(
        'button',
        { type: 'button', class: 'tuple-element', 'data-path': e.path.join(',') },
        el('span', { class: 'tuple-path' }, `{${e.path.join(',')}}`),
        ' ',
        el('code', {}, e.text),
        el('span', { class: 'note' }, ` ${e.summary}`),
      );
      pick.addEventListener('click', () => this.onPick?.(e));
      return el('li', {}, pick);
    });
    replaceChildren(this.elements, el('ul', { 'aria-label': 'Tuple elements' }, ...items));
  }

  /** One line for an exported picture: the shape and what its layout costs. */
  summary(): string | undefined {
    const d = this.drawable;
    if (d === undefined) return undefined;
    const s = d.sizes;
    const cost =
      s.expansion !== undefined && s.physicalBytes !== s.logicalBytes
        ? `${humanBytes(s.logicalBytes)} logical → ${humanBytes(s.physicalBytes)} physical (${formatFactor(s.expansion.value)}, ${formatPercent(s.overhead?.value ?? 0)} padding)`
        : `${humanBytes(s.physicalBytes)}, no padding`;
    return `${d.text}  —  ${cost}`;
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
    this.strip.setTheme(theme);
  }
}
