/**
 * An offscreen table mirroring the drawn window, for screen readers and for tests: it is built
 * from the same GridWindow the canvas just drew, so it lists exactly what is on screen.
 */
import { el, replaceChildren } from './dom';
import { EMPTY, OTHER, PADDING, type GridWindow } from './grid-window';
import { ACCESSIBLE_CELLS } from './logical-view';

function kindOf(code: number): string {
  if (code === PADDING) return 'padding';
  if (code === OTHER) return 'other';
  if (code === EMPTY) return 'empty';
  return 'cell';
}

/**
 * Rewrites `table` for `win`. Cells carry `data-row`/`data-col` (grid coordinates), `data-kind`
 * (cell, padding, other, empty) and their label as text. `what` names the grid ("Logical view").
 */
function renderAccessibleGrid(table: HTMLTableElement, win: GridWindow | undefined, what: string): void {
  if (win === undefined || win.rows * win.cols > ACCESSIBLE_CELLS) {
    table.dataset.state = 'overview';
    replaceChildren(table, el('caption', {}, `${what}: zoomed out; zoom in to list cells.`));
    return;
  }
  table.dataset.state = 'cells';
  const body = el('tbody');
  for (let r = 0; r < win.rows; r++) {
    const tr = el('tr', { 'aria-rowindex': win.row0 + r + 1 });
    for (let c = 0; c < win.cols; c++) {
      const i = r * win.cols + c;
      const code = win.colour[i];
      const kind = kindOf(code);
      const text = kind === 'padding' ? 'padding' : kind === 'empty' ? '' : win.labels[i];
      tr.appendChild(
        el(
          'td',
          {
            'data-row': win.row0 + r,
            'data-col': win.col0 + c,
            'data-kind': kind,
            'aria-colindex': win.col0 + c + 1,
          },
          text,
        ),
      );
    }
    body.appendChild(tr);
  }
  replaceChildren(
    table,
    el(
      'caption',
      {},
      `${what}: rows ${win.row0 + 1}–${win.row0 + win.rows}, columns ${win.col0 + 1}–${win.col0 + win.cols}`,
    ),
    body,
  );
}

/** Rebuilding the table costs a DOM node per cell, so while the user pans it is refreshed at most this often. */
const MIN_INTERVAL_MS = 150;

/**
 * Keeps one table in step with its view. The first update after a pause is immediate; updates
 * during continuous panning are coalesced into one trailing update. `data-pending` is set while an
 * update is waiting, so tests can wait for the table to be current.
 */
export class TableUpdater {
  private last = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly table: HTMLTableElement,
    private readonly window: () => GridWindow | undefined,
    private readonly what: string,
  ) {}

  update(): void {
    const wait = this.last + MIN_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      this.render();
      return;
    }
    if (this.timer !== undefined) return;
    this.table.dataset.pending = 'true';
    this.timer = setTimeout(() => this.render(), wait);
  }

  private render(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    delete this.table.dataset.pending;
    this.last = performance.now();
    renderAccessibleGrid(this.table, this.window(), this.what);
  }
}
