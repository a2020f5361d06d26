/**
 * A sortable, filterable table: headings are buttons (click again to reverse; `aria-sort` says the
 * order), rows are focusable and open on click or Enter. Only the first rows are drawn, with a
 * button for more: a dump's temp arena can hold thousands of values.
 */
import { el } from '../dom';
import type { Column, Row } from './rows';

/** Rows drawn before "Show more". */
const PAGE_ROWS = 400;

export interface SortState {
  readonly column: string;
  readonly descending: boolean;
}

export interface TableOptions<R extends Row> {
  readonly id: string;
  readonly caption: string;
  readonly columns: readonly Column<R>[];
  /** Called when a row is opened (click, Enter). */
  readonly open: (row: R) => void;
  /** Called when a row's source cell is clicked. */
  readonly openSource?: (row: R) => void;
  /** Called after the user sorts, so the page can remember it. */
  readonly sorted?: (sort: SortState) => void;
}

export class SortableTable<R extends Row> {
  readonly element: HTMLTableElement;
  private readonly body: HTMLTableSectionElement;
  private readonly more: HTMLButtonElement;
  private readonly headings = new Map<string, HTMLTableCellElement>();
  private rows: readonly R[] = [];
  private shown: R[] = [];
  private limit = PAGE_ROWS;
  private sort: SortState;

  constructor(
    private readonly options: TableOptions<R>,
    sort: SortState,
  ) {
    this.sort = sort;
    const head = el('tr');
    for (const c of options.columns) {
      const button = el('button', { type: 'button', title: c.help, 'data-column': c.id }, c.title);
      button.addEventListener('click', () => this.sortBy(c.id));
      const th = el('th', { scope: 'col', class: c.numeric ? 'numeric' : undefined }, button);
      this.headings.set(c.id, th);
      head.append(th);
    }
    this.body = el('tbody');
    this.element = el(
      'table',
      { id: options.id, class: 'data-table memory-table' },
      el('caption', { class: 'visually-hidden' }, options.caption),
      el('thead', {}, head),
      this.body,
    );
    this.more = el('button', { type: 'button', class: 'show-more', hidden: true });
    this.more.addEventListener('click', () => {
      this.limit += PAGE_ROWS;
      this.draw();
    });
    this.body.addEventListener('click', (e) => this.clicked(e));
    this.body.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const row = this.rowOf(e.target);
      if (row) this.options.open(row);
    });
  }

  /** The "show more" button, placed by the page under the table. */
  get moreButton(): HTMLButtonElement {
    return this.more;
  }

  get sortState(): SortState {
    return this.sort;
  }

  /** Replaces the rows (already filtered) and redraws, keeping the order chosen. */
  setRows(rows: readonly R[]): void {
    this.rows = rows;
    this.limit = PAGE_ROWS;
    this.draw();
  }

  /** Sorts by `column`: a click on the current column reverses the order. */
  sortBy(column: string, descending?: boolean): void {
    const c = this.options.columns.find((x) => x.id === column);
    if (!c) return;
    this.sort = {
      column,
      descending: descending ?? (this.sort.column === column ? !this.sort.descending : c.numeric),
    };
    this.draw();
    this.options.sorted?.(this.sort);
  }

  private rowOf(target: EventTarget | null): R | undefined {
    const tr = target instanceof Element ? target.closest('tr') : null;
    const i = tr ? Number(tr.dataset.row) : NaN;
    return Number.isInteger(i) ? this.shown[i] : undefined;
  }

  private clicked(e: MouseEvent): void {
    const row = this.rowOf(e.target);
    if (!row) return;
    if (e.target instanceof Element && e.target.closest('.source-link') && this.options.openSource) {
      e.preventDefault();
      this.options.openSource(row);
      return;
    }
    this.options.open(row);
  }

  private draw(): void {
    const c = this.options.columns.find((x) => x.id === this.sort.column) ?? this.options.columns[0];
    const sign = this.sort.descending ? -1 : 1;
    // Array.prototype.sort is stable: rows equal by this column keep the model's order.
    const sorted = [...this.rows].sort((a, b) => sign * c.compare(a, b));
    for (const [id, th] of this.headings)
      th.setAttribute(
        'aria-sort',
        id === c.id ? (this.sort.descending ? 'descending' : 'ascending') : 'none',
      );
    this.shown = sorted.slice(0, this.limit);
    this.body.replaceChildren(...this.shown.map((row, i) => this.rowElement(row, i)));
    const rest = sorted.length - this.shown.length;
    this.more.hidden = rest <= 0;
    this.more.textContent = rest > 0 ? `Show ${Math.min(rest, PAGE_ROWS)} more of ${rest}` : '';
    this.element.dataset.rows = String(sorted.length);
  }

  private rowElement(row: R, i: number): HTMLTableRowElement {
    const tr = el('tr', {
      tabindex: 0,
      'data-row': i,
      'data-allocation': row.allocation.index,
      'data-value': row.kind === 'value' ? row.position : undefined,
      class: row.kind === 'value' && row.value.disagreement ? 'disagrees' : undefined,
    });
    // How much of the row is padding: the wasted cell's bar and the row's tint (CSSOM, allowed by the CSP).
    tr.style.setProperty('--share', `${Math.round(row.share * 1000) / 10}%`);
    for (const c of this.options.columns) {
      const text = c.text(row);
      const detail = c.detail?.(row);
      const source = c.id === 'source' && text !== '' && this.options.openSource !== undefined;
      const main = source
        ? el('a', { href: '#', class: 'source-link', title: 'Open this line of the program' }, text)
        : el('span', { class: 'main' }, text);
      const td = el(
        'td',
        { class: [c.numeric ? 'numeric' : '', `col-${c.id}`].join(' ').trim(), 'data-column': c.id },
        c.id === 'padding' && row.padding > 0n
          ? el('span', { class: 'waste-bar', 'aria-hidden': 'true' })
          : undefined,
        main,
        detail ? el('span', { class: 'detail' }, detail) : undefined,
      );
      tr.append(td);
    }
    return tr;
  }
}
