/**
 * Exact linear index of an element under all tile levels, and its inverse. The forward direction
 * is `LayoutUtil::LinearIndexForNestedTiling` (spec §4.1) extended with `*` (§4.4); the inverse
 * follows `DelinearizeIndexForNestedTiling` and also says, for a slot that holds no element, which
 * tile level's padding it is and where it sits.
 */
import type { ArrayShape } from '../model';
import { isLayoutError, layoutError, type LayoutError } from './errors';
import { planTiling, toExpandedIndex, type TilingPlan, type TilingStep } from './tiling-plan';

/** Where a padding slot sits at one tile level. */
export interface TilePosition {
  readonly level: number;
  /** Index of the tile at this level: the level's prefix and tile-count coordinates. */
  readonly tile: readonly bigint[];
  /** Position inside that tile, one coordinate per effective tile entry. */
  readonly inTile: readonly bigint[];
}

/** A slot that holds no element. */
export interface PaddingSlot {
  readonly kind: 'padding';
  /** 'tile' = padding added to fill a tile; 'tail' = the L(n) rounding after the last tile. */
  readonly cause: 'tile' | 'tail';
  /** Tile level whose padding this is; -1 for tail padding. */
  readonly level: number;
  /**
   * Tile positions from the last level down to `level` (the levels that can still be named: below
   * the padding level the slot belongs to no tile). Empty for tail padding.
   */
  readonly tiles: readonly TilePosition[];
  /** Positions, in the padding level's combined shape, whose coordinate is past the dim's size. */
  readonly paddedPositions: readonly number[];
  /** Logical dims behind those positions ([] when only vector-padding dims are out of bounds). */
  readonly paddedDims: readonly number[];
}

export type ElementAtResult =
  { readonly kind: 'element'; readonly index: bigint[] } | PaddingSlot | { readonly kind: 'out-of-range' };

/** Checks that `index` is a valid logical index of `shape`. */
function checkIndex(shape: ArrayShape, index: readonly bigint[]): LayoutError | undefined {
  if (index.length !== shape.dims.length) {
    return layoutError(
      'index-rank',
      `index has ${index.length} coordinates but the shape has rank ${shape.dims.length}`,
    );
  }
  for (let i = 0; i < index.length; i++) {
    const e = index[i];
    if (typeof e !== 'bigint' || e < 0n || e >= shape.dims[i]) {
      return layoutError(
        'index-out-of-bounds',
        `index ${String(e)} is out of bounds for dimension ${i} of size ${shape.dims[i]}`,
      );
    }
  }
  return undefined;
}

/** Linear index (element slot offset) of a logical index, exact, under every tile level. */
export function linearIndex(shape: ArrayShape, index: readonly bigint[]): bigint | LayoutError {
  const plan = planTiling(shape);
  if (isLayoutError(plan)) return plan;
  const bad = checkIndex(shape, index);
  if (bad !== undefined) return bad;
  return linearIndexInPlan(plan, index);
}

/** {@link linearIndex} for a plan already built; `index` must be in bounds. */
export function linearIndexInPlan(plan: TilingPlan, index: readonly bigint[]): bigint {
  const expanded = toExpandedIndex(plan, index);
  let li = 0n;
  for (let i = 0; i < expanded.length; i++) li += expanded[i] * plan.expandedStrides[i];
  return li;
}

/** What the slot at `offset` holds: an element (its logical index), padding, or nothing (out of range). */
export function elementAt(shape: ArrayShape, offset: bigint): ElementAtResult | LayoutError {
  const plan = planTiling(shape);
  if (isLayoutError(plan)) return plan;
  return elementAtInPlan(plan, offset);
}

/** {@link elementAt} for a plan already built. */
export function elementAtInPlan(plan: TilingPlan, offset: bigint): ElementAtResult {
  if (offset < 0n || offset >= plan.totalSlots) return { kind: 'out-of-range' };
  if (offset >= plan.expandedElements) {
    return { kind: 'padding', cause: 'tail', level: -1, tiles: [], paddedPositions: [], paddedDims: [] };
  }
  let current = plan.expandedStrides.map((stride, i) => (offset / stride) % plan.expandedShape[i]);
  const tiles: TilePosition[] = [];
  for (let level = plan.steps.length - 1; level >= 0; level--) {
    const step = plan.steps[level];
    const k = step.effectiveTile.length;
    const s = step.prefixLength;
    tiles.push({ level, tile: current.slice(0, s + k), inTile: current.slice(s + k) });
    const combined = [...current.slice(0, s)];
    for (let j = 0; j < k; j++) combined.push(current[s + j] * step.effectiveTile[j] + current[s + k + j]);
    const paddedPositions: number[] = [];
    for (let p = s; p < combined.length; p++) if (combined[p] >= step.combined[p]) paddedPositions.push(p);
    if (paddedPositions.length > 0) {
      const dims = new Set(paddedPositions.flatMap((p) => step.combinedOrigins[p]));
      return {
        kind: 'padding',
        cause: 'tile',
        level,
        tiles,
        paddedPositions,
        paddedDims: [...dims].sort((a, b) => a - b),
      };
    }
    current = stepBackward(step, combined);
  }
  const index = new Array<bigint>(plan.rank);
  plan.physicalToLogical.forEach((d, p) => (index[d] = current[p]!));
  return { kind: 'element', index };
}

/** Undoes the combine and vector padding of a step for an in-bounds combined index. */
function stepBackward(step: TilingStep, combined: readonly bigint[]): bigint[] {
  const vectorPadded = new Array<bigint>(step.vectorPadded.length);
  step.mergedFrom.forEach((group, c) => {
    let e = combined[c];
    for (let m = group.length - 1; m >= 0; m--) {
      const p = group[m];
      const size = step.vectorPadded[p];
      // The major-most member keeps the quotient. No size is 0 here: a group with a 0-size member
      // has combined size 0, so every coordinate in it was reported as padding above.
      if (m === 0) {
        vectorPadded[p] = e;
        e = 0n;
      } else {
        vectorPadded[p] = e % size;
        e /= size;
      }
    }
  });
  return vectorPadded.slice(step.vectorPadding);
}
