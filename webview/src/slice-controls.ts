/**
 * Chooses the 2-D slice of an N-D array: which logical dim runs down the rows, which across the
 * columns, and the index of every other dim.
 */
import type { SliceSpec } from '../../core/src';
import { el, replaceChildren } from './dom';

export class SliceControls {
  readonly root: HTMLElement;
  private dims: readonly bigint[] = [];
  private rowDim: number | undefined;
  private colDim: number | undefined;
  private fixed: bigint[] = [];
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

  /** Sets the array's dims; keeps the current choice when the rank is unchanged and it still fits. */
  setDims(dims: readonly bigint[]): void {
    const rank = dims.length;
    const keep = rank === this.dims.length && this.fixed.every((v, i) => v < (dims[i] ?? 0n) || v === 0n);
    this.dims = dims;
    if (!keep) {
      this.rowDim = rank >= 2 ? rank - 2 : undefined;
      this.colDim = rank >= 1 ? rank - 1 : undefined;
      this.fixed = dims.map(() => 0n);
    }
    this.render();
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
    replaceChildren(
      this.root,
      el('legend', {}, 'Slice'),
      el('label', {}, 'rows ', rowSelect),
      el('label', {}, 'columns ', colSelect),
      ...others,
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
