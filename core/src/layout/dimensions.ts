/**
 * Dimension vocabulary from the XLA docs (seed 002 "Shapes and layout"): true rank, negative
 * dimension numbers, physical order, and `LayoutUtil::IsUntiledLayout` (spec §2.4). Dimensions
 * are named by number (dim 0, dim 1, …) as XLA names them.
 */
import type { ArrayShape } from '../model';
import type { LayoutError } from './errors';
import { isLayoutError } from './errors';
import { checkArrayShape } from './shape-check';
import { walkTiles } from './tile-walk';

/** "True rank": the number of dimensions of size greater than 1. */
export function trueRank(shape: ArrayShape): number {
  return shape.dims.filter((d) => d > 1n).length;
}

/**
 * Resolves a possibly negative dimension number Python-style (-1 = last). `undefined` when it
 * does not name a dimension of a rank-`rank` array.
 */
export function normalizeDimension(rank: number, dim: number): number | undefined {
  if (!Number.isInteger(dim)) return undefined;
  const d = dim < 0 ? rank + dim : dim;
  return d >= 0 && d < rank ? d : undefined;
}

/** Logical dims in physical order, major→minor (the reverse of minor_to_major). */
export function physicalOrder(shape: ArrayShape): number[] {
  return [...shape.minorToMajor].reverse();
}

/**
 * `LayoutUtil::IsUntiledLayout` semantics: true when the tiling is provably the same memory order
 * as no tiling. Every tiled dim must be divisible by its tile entry, and scanning a tile's entries
 * major→minor, once an entry ≠ 1 has been seen every later tile-count dim must be 1. Tiles apply in
 * sequence to the current expanded shape; a `*` merge is a reshape and never changes order by
 * itself (XLA does not handle `*` at all). An untiled shape is trivially untiled.
 */
export function isUntiled(shape: ArrayShape): boolean | LayoutError {
  const bad = checkArrayShape(shape);
  if (bad !== undefined) return bad;
  let untiled = true;
  const slots = walkTiles(shape, (c) => {
    let seenNonUnit = false;
    for (let j = 0; j < c.tile.length && untiled; j++) {
      const t = c.tile[j];
      const d = c.sizes[j];
      if (d % t !== 0n || (seenNonUnit && d / t !== 1n)) untiled = false;
      if (t !== 1n) seenNonUnit = true;
    }
  });
  return isLayoutError(slots) ? slots : untiled;
}
