/**
 * Chooses the 2-D slice of an N-D array: which logical dim runs down the rows, which across the
 * columns, and the index of every other dim. It opens on the default slice (default-slice.ts),
 * says why, and offers to go back to it after the user picked other dims.
 */
import type { SliceSpec } from '../../core/src';
import type { SliceChoice } from './default-slice';
import { el, replaceChildren } from './dom';

export class SliceControls {
  readonly root: HTMLElement;
  private dims: readonly bigint[] = [];
  private rowDim: number | undefined;
  private colDim: number | undefined;
  private fixed: bigint[] = [];
  private preferred: SliceChoice = { rowDim: undefined, colDim: undefined, reason: '' };
  onChange: (() => void) | undefined;

  constructor() {
    this.root = el('fieldset', { class: 'slice', 'aria-label': 'Slice of the array' });
  }

  /** The slice as the core's mapper takes it. */
  get spec(): SliceSpec {
    return {
      ...(this.rowDim !== undefined ? { rowDim: this.rowDim } : {}),
      ...(this.colDim !== undefined ? { colDim: this.colDim } : {}),
      fixed: this.fixed,
    };
  }

  get rowDimension(): number | undefined {
    return this.rowDim;
  }

  get colDimension(): number | undefined {
    return this.colDim;
  }

  /** The full logical index of slice cell (row, col). */
  indexOf(row: number, col: number): bigint[] {
    const index = this.fixed.slice();
    if (this.rowDim !== undefined) index[this.rowDim] = BigInt(row);
    if (this.colDim !== undefined) index[this.colDim] = BigInt(col);
    return index;
  }

  /** Opens a new array on its default slice. */
  choose(dims: readonly bigint[], choice: SliceChoice): void {
    this.dims = dims;
    this.preferred = choice;
    this.rowDim = choice.rowDim;
    this.colDim = choice.colDim;
    this.fixed = dims.map(() => 0n);
    this.render();
  }

  /**
   * A new layout was typed: the same array keeps the slice the user is looking at (so a layout
   * change can be compared cell by cell); another array opens on its default slice.
   */
  retarget(dims: readonly bigint[], choice: SliceChoice): void {
    const same = dims.length === this.dims.length && dims.every((d, i) => d === this.dims[i]);
    if (!same) {
      this.choose(dims, choice);
      return;
    }
    this.preferred = choice;
    this.render();
  }

  /** Whether the slice shown is the default one. */
  get isPreferred(): boolean {
    return this.rowDim === this.preferred.rowDim && this.colDim === this.preferred.colDim;
  }

  private render(): void {
    const rank = this.dims.length;
    if (rank < 2) {
      replaceChildren(this.root);
      this.root.hidden = true;
      return;
    }
    this.root.hidden = false;
    const options = (selected: number | undefined): HTMLOptionElement[] =>
      this.dims.map((size, d) => el('option', { value: d, selected: d === selected }, `dim ${d} (${size})`));
    const rowSelect = el('select', { id: 'slice-rows' }, ...options(this.rowDim));
    const colSelect = el('select', { id: 'slice-cols' }, ...options(this.colDim));
    rowSelect.addEventListener('change', () => this.pick('row', Number(rowSelect.value)));
    colSelect.addEventListener('change', () => this.pick('col', Number(colSelect.value)));
    const others = this.dims.flatMap((size, d) => {
      if (d === this.rowDim || d === this.colDim) return [];
      const input = el('input', {
        type: 'number',
        min: 0,
        max: (size - 1n).toString(),
        value: this.fixed[d].toString(),
        class: 'slice-index',
        id: `slice-index-${d}`,
        'aria-label': `Index of dim ${d} (size ${size})`,
      });
      input.addEventListener('change', () => {
        const value = /^\d+$/.test(input.value) ? BigInt(input.value) : -1n;
        if (value < 0n || value >= size) {
          input.setAttribute('aria-invalid', 'true');
          return;
        }
        input.removeAttribute('aria-invalid');
        this.fixed[d] = value;
        this.onChange?.();
      });
      return [el('label', { class: 'slice-fixed' }, `dim ${d} = `, input)];
    });
    let back: HTMLButtonElement | undefined;
    const { rowDim, colDim } = this.preferred;
    if (!this.isPreferred && rowDim !== undefined && colDim !== undefined) {
      back = el('button', { type: 'button', id: 'slice-default' }, `Back to dims ${rowDim} and ${colDim}`);
      back.addEventListener('click', () => {
        this.rowDim = rowDim;
        this.colDim = colDim;
        this.render();
        this.onChange?.();
      });
    }
    replaceChildren(
      this.root,
      el('legend', {}, 'Slice'),
      el('label', {}, 'rows ', rowSelect),
      el('label', {}, 'columns ', colSelect),
      ...others,
      el(
        'p',
        { class: 'slice-reason', id: 'slice-reason' },
        `${this.isPreferred ? 'Showing' : 'The default slice is'} dims ${rowDim} and ${colDim}${this.preferred.reason}`,
        back !== undefined ? ' ' : undefined,
        back,
      ),
    );
  }

  private pick(which: 'row' | 'col', dim: number): void {
    if (which === 'row') {
      if (dim === this.colDim) this.colDim = this.rowDim;
      this.rowDim = dim;
    } else {
      if (dim === this.rowDim) this.rowDim = this.colDim;
      this.colDim = dim;
    }
    this.render();
    this.onChange?.();
  }
}
