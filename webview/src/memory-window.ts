/**
 * The memory view: the array's element slots in offset order, wrapped into rows. Each slot shows
 * the element it holds (its logical index), or padding. Lookups go through the core's MemoryMap
 * (typed arrays) where one was built for the slice, and through the ElementMapper otherwise,
 * which works for arrays far too large to enumerate.
 */
import type { ElementMapper, MemoryMap } from '../../core/src';
import { EMPTY, OTHER, PADDING, emptyWindow, type GridWindow } from './grid-window';
import { tileColourIndex } from './theme';
import type { VisibleRange } from './viewport';

export type SlotInfo =
  | { readonly kind: 'cell'; readonly row: number; readonly col: number }
  | { readonly kind: 'element'; readonly index: readonly bigint[] }
  | { readonly kind: 'padding' }
  | { readonly kind: 'out-of-range' };

/** Answers "what does slot `offset` hold" quickly for the slots on screen. */
export class SlotResolver {
  constructor(
    readonly mapper: ElementMapper,
    private readonly map: MemoryMap | undefined,
  ) {}

  resolve(offset: number): SlotInfo {
    const map = this.map;
    if (map !== undefined) {
      const i = offset - map.firstSlot;
      if (i >= 0 && i < map.slotCount) {
        const cell = map.slotToCell[i];
        if (cell >= 0) return { kind: 'cell', row: Math.floor(cell / map.cols), col: cell % map.cols };
        if (cell === -1) return { kind: 'padding' };
      }
    }
    const slot = this.mapper.slot(BigInt(offset));
    return slot.kind === 'padding' ? { kind: 'padding' } : slot;
  }
}

/** How the memory strip is folded into rows. */
export interface MemoryGeometry {
  /** Slots per row. */
  readonly wrap: number;
  /** Total slots of the whole array (as a double; exact below 2^53). */
  readonly totalSlots: number;
  readonly rows: number;
}

/** Tiles up to this many slots are laid whole into memory rows; larger ones one tile row at a time. */
const WHOLE_TILE_SLOTS = 256;

/**
 * Slots per row. Small first-level tiles: whole tiles, at least ~16 slots a row, so tiny tiles
 * still make a readable strip. Large tiles (T(8,128) is 1,024 slots): one row of the tile per
 * memory row, so a tile reads as the same block as in the logical view instead of a 1,024-slot
 * strip too thin to see. Untiled: the length of one slice row.
 */
export function memoryGeometry(
  tile: readonly number[] | undefined,
  sliceCols: number,
  totalSlots: bigint,
): MemoryGeometry {
  const slots = tile?.reduce((n, t) => n * t, 1);
  const minor = tile?.[tile.length - 1];
  let wrap: number;
  if (
    slots !== undefined &&
    minor !== undefined &&
    slots > WHOLE_TILE_SLOTS &&
    minor >= 16 &&
    minor <= 1 << 12
  )
    wrap = minor;
  else if (slots !== undefined && slots > 0 && slots <= 1 << 16)
    wrap = slots * Math.max(1, Math.floor(16 / slots));
  else wrap = Math.min(Math.max(1, sliceCols), 1 << 12);
  const total = Number(totalSlots);
  return { wrap, totalSlots: total, rows: Math.max(1, Math.ceil(total / wrap)) };
}

/** The labels a memory slot shows: the element's logical index, `r,c` for 2-D. */
export type IndexLabel = (row: number, col: number) => string;

/**
 * The visible window of memory. Slots of this slice take their tile's colour (matching the
 * logical view); elements of other slices are dimmed, padding hatched.
 */
export function memoryWindow(
  resolver: SlotResolver,
  geometry: MemoryGeometry,
  range: VisibleRange,
  withLabels: boolean,
  cellLabel: IndexLabel,
): GridWindow {
  const win = emptyWindow(range, 0);
  const { row0, col0, rows, cols } = win;
  const mapper = resolver.mapper;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const offset = (row0 + r) * geometry.wrap + col0 + c;
      const i = r * cols + c;
      if (offset >= geometry.totalSlots) continue;
      const slot = resolver.resolve(offset);
      switch (slot.kind) {
        case 'cell':
          win.colour[i] = mapper.levels > 0 ? tileColourIndex(mapper.tileId(0, slot.row, slot.col)) : 0;
          if (withLabels) win.labels[i] = cellLabel(slot.row, slot.col);
          break;
        case 'element':
          win.colour[i] = OTHER;
          if (withLabels) win.labels[i] = slot.index.join(',');
          break;
        case 'padding':
          win.colour[i] = PADDING;
          break;
        case 'out-of-range':
          win.colour[i] = EMPTY;
          break;
      }
    }
  }
  return win;
}
