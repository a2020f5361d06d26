/**
 * The selected and hovered cell of the logical slice, shared by the logical view, the memory view
 * and, in compare mode, both panes (they show the same array, so a cell means the same element).
 */
import type { Cell } from './canvas-view';

/** `what` says which of the two changed; `origin` is the view that changed it. */
export type SelectionListener = (what: 'select' | 'hover', origin: object | undefined) => void;

export class Selection {
  selected: Cell | undefined;
  hovered: Cell | undefined;
  private readonly listeners: SelectionListener[] = [];

  /** `origin` is the view that caused the change; it may skip revealing the cell itself. */
  onChange(listener: SelectionListener): void {
    this.listeners.push(listener);
  }

  select(cell: Cell | undefined, origin?: object): void {
    if (same(cell, this.selected)) return;
    this.selected = cell;
    this.emit('select', origin);
  }

  hover(cell: Cell | undefined, origin?: object): void {
    if (same(cell, this.hovered)) return;
    this.hovered = cell;
    this.emit('hover', origin);
  }

  /** Forgets both (the slice changed shape). */
  reset(): void {
    this.selected = undefined;
    this.hovered = undefined;
    this.emit('select', undefined);
  }

  private emit(what: 'select' | 'hover', origin: object | undefined): void {
    for (const l of this.listeners) l(what, origin);
  }
}

function same(a: Cell | undefined, b: Cell | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.row === b.row && a.col === b.col);
}
