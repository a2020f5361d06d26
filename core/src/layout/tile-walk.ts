/**
 * The tiling walk of spec §4.1 keeping only sizes, in time linear in the layout's text. A tile
 * level replaces the dims it covers (the minor-most ones, after vector padding and `*` merging) by
 * their tile counts and tile entries and leaves the rest alone, so the current shape is a stack and
 * one level costs as many steps as its tile has entries. `planTiling` keeps every intermediate
 * shape for explanations, which costs levels × dims: a layout of thousands of levels is sized here
 * but only explained step by step up to {@link MAX_PLAN_SIZES}.
 */
import type { ArrayShape } from '../model';
import { layoutError, type LayoutError } from './errors';

/**
 * Bound on the bit length of the expanded shape's size product (zero dims counted as 1, since they
 * do not shrink strides). Exact math is kept far beyond anything addressable (int64 is 63 bits),
 * but a 100 KB line such as `T(2,2,…,2)` with 50,000 entries would otherwise ask for 2^50000 slots.
 */
const MAX_SLOT_BITS = 1024;
export const SLOT_LIMIT = 1n << BigInt(MAX_SLOT_BITS);

export const TOO_LARGE: LayoutError = layoutError(
  'too-many-slots',
  `the tiled layout has more than 2^${MAX_SLOT_BITS} element slots; not computed`,
);

/** What one tile level does to the dims it covers. */
export interface CoveredDims {
  /** 0 = the first tile written. */
  readonly level: number;
  /** Leading dims of the level's combined shape that the tile leaves alone (`TilingStep.prefixLength`). */
  readonly prefixLength: number;
  /** Sizes of the covered dims after vector padding and `*` merging, major→minor: one per effective entry. */
  readonly sizes: readonly bigint[];
  /** The tile's entries without `*`, in the same order. */
  readonly tile: readonly bigint[];
}

/**
 * Element slots of the expanded shape of `shape` (before L rounding), calling `visit` for each tile
 * level; {@link TOO_LARGE} when the slot product passes 2^1024, for the same shapes `planTiling`
 * refuses so. `shape` has passed `checkArrayShape`.
 */
export function walkTiles(shape: ArrayShape, visit?: (level: CoveredDims) => void): bigint | LayoutError {
  const rank = shape.dims.length;
  const stack = new Array<bigint>(rank);
  // The product of the stack with zeros counted as 1, kept exact as dims come and go.
  let slots = 1n;
  for (let p = 0; p < rank; p++) {
    const d = shape.dims[shape.minorToMajor[rank - 1 - p]];
    stack[p] = d;
    if (d > 1n) slots *= d;
  }
  if (slots > SLOT_LIMIT) return TOO_LARGE;
  for (let level = 0; level < shape.tiles.length; level++) {
    const tile = shape.tiles[level];
    const k = tile.length;
    // A tile longer than the shape covers it all after `vectorPadding` leading 1s.
    const taken = Math.min(k, stack.length);
    const base = stack.length - taken;
    const vectorPadding = k - taken;
    const sizes: bigint[] = [];
    const entries: bigint[] = [];
    let group = 1n;
    for (let j = 0; j < k; j++) {
      if (j >= vectorPadding) {
        const d = stack[base + j - vectorPadding];
        group *= d;
        if (d > 1n) slots /= d;
      }
      const t = tile[j];
      if (t === 'combine') continue;
      sizes.push(group);
      entries.push(t);
      group = 1n;
    }
    stack.length = base;
    for (let j = 0; j < sizes.length; j++) {
      const count = (sizes[j] + entries[j] - 1n) / entries[j];
      stack.push(count);
      if (count > 1n) slots *= count;
    }
    for (const t of entries) {
      stack.push(t);
      if (t > 1n) slots *= t;
    }
    if (slots > SLOT_LIMIT) return TOO_LARGE;
    visit?.({ level, prefixLength: base, sizes, tile: entries });
  }
  let elements = 1n;
  for (const d of stack) elements *= d;
  return elements;
}
