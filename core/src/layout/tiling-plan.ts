/**
 * The tiling plan: how XLA's nested tiling turns the physical shape into the final expanded shape
 * whose row-major order is memory order (spec §4.1 `LayoutUtil::LinearIndexForNestedTiling`, plus
 * the doc-only `*` combine rule of §4.4). Every step keeps its intermediate shapes so a UI can
 * explain it as vector-pad → combine → pad → reshape → transpose.
 */
import type { ArrayShape, TileDim } from '../model';
import { ceilDiv, product, roundUp, rowMajorStrides } from './bigint-math';
import type { LayoutError } from './errors';
import { checkArrayShape } from './shape-check';

/** One tile level applied to the current expanded shape. */
export interface TilingStep {
  /** 0 = the first tile written. */
  readonly level: number;
  /** The tile as written, major→minor, `'combine'` for `*`. */
  readonly tile: readonly TileDim[];
  /** The shape this tile is applied to (the previous step's output). */
  readonly input: readonly bigint[];
  /** Leading size-1 dims prepended because the tile has more dims than `input` ("vector padding"). */
  readonly vectorPadding: number;
  /** `input` with the vector padding prepended. */
  readonly vectorPadded: readonly bigint[];
  /**
   * For each position of `combined`, the positions of `vectorPadded` merged into it, major→minor.
   * A `*` entry merges its dim into the next more-minor one (spec §4.4); without `*` every group has one member.
   */
  readonly mergedFrom: readonly (readonly number[])[];
  /** `vectorPadded` after merging the `*` dims. */
  readonly combined: readonly bigint[];
  /** The tile without its `*` entries: the tile actually applied to `combined`. */
  readonly effectiveTile: readonly bigint[];
  /** How many leading dims of `combined` the tile leaves alone (it covers the rest). */
  readonly prefixLength: number;
  /** Pad: `combined` with each covered dim rounded up to a multiple of its tile entry. */
  readonly padded: readonly bigint[];
  /** Reshape: prefix ++ [ceil(d_0/t_0), t_0, ceil(d_1/t_1), t_1, …] (a bitcast of `padded`). */
  readonly reshaped: readonly bigint[];
  /** Transpose: prefix ++ [ceil(d_j/t_j)…] ++ [t_j…]: tile counts major, tile contents minor. */
  readonly output: readonly bigint[];
  /** Logical dims each position of `combined` derives from ([] for a vector-padding dim). */
  readonly combinedOrigins: readonly (readonly number[])[];
  /** Logical dims each position of `output` derives from. */
  readonly outputOrigins: readonly (readonly number[])[];
}

/** The whole plan for one shape. */
export interface TilingPlan {
  readonly rank: number;
  /** Logical dim at each physical position, major→minor (reverse of minor_to_major). */
  readonly physicalToLogical: readonly number[];
  /** Sizes in physical order, major→minor. */
  readonly physicalDims: readonly bigint[];
  /** One step per tile level; empty when untiled. */
  readonly steps: readonly TilingStep[];
  /** The final expanded shape; its row-major order is memory order. Equals `physicalDims` when untiled. */
  readonly expandedShape: readonly bigint[];
  /** Row-major strides of `expandedShape`. */
  readonly expandedStrides: readonly bigint[];
  /** Logical dims each position of `expandedShape` derives from. */
  readonly expandedOrigins: readonly (readonly number[])[];
  /** Product of `expandedShape`: element slots before L rounding. */
  readonly expandedElements: bigint;
  /** `expandedElements` rounded up to a multiple of L: all element slots of the array. */
  readonly totalSlots: bigint;
}

/**
 * Bound on the bit length of the expanded shape's size product (zero dims counted as 1, since they
 * do not shrink strides). Exact math is kept far beyond anything addressable (int64 is 63 bits),
 * but a 100 KB line such as `T(2,2,…,2)` with 50,000 entries would otherwise ask for 2^50000 slots
 * and build 100,000 strides of up to 50,000 bits each: gigabytes for one hover.
 */
const MAX_SLOT_BITS = 1024;
const SLOT_LIMIT = 1n << BigInt(MAX_SLOT_BITS);

/** Whether the sizes, zeros counted as 1, multiply past {@link SLOT_LIMIT}; stops early, so cost stays bounded. */
function exceedsSlotLimit(sizes: readonly bigint[]): boolean {
  let p = 1n;
  for (const d of sizes) {
    if (d > 1n) p *= d;
    if (p > SLOT_LIMIT) return true;
  }
  return false;
}

const TOO_LARGE: LayoutError = { error: `the tiled layout has more than 2^${MAX_SLOT_BITS} element slots; not computed` };

/** Builds the tiling plan of `shape`, or says why the shape cannot be laid out. */
export function planTiling(shape: ArrayShape): TilingPlan | LayoutError {
  const bad = checkArrayShape(shape);
  if (bad !== undefined) return bad;
  const rank = shape.dims.length;
  const physicalToLogical = [...shape.minorToMajor].reverse();
  const physicalDims = physicalToLogical.map((d) => shape.dims[d]);
  if (exceedsSlotLimit(physicalDims)) return TOO_LARGE;
  let current: readonly bigint[] = physicalDims;
  let origins: readonly (readonly number[])[] = physicalToLogical.map((d) => [d]);
  const steps: TilingStep[] = [];
  for (let level = 0; level < shape.tiles.length; level++) {
    // The effective tile alone bounds the step's output from below: check it before building it.
    if (exceedsSlotLimit(shape.tiles[level].filter((t): t is bigint => t !== 'combine'))) return TOO_LARGE;
    const step = applyTile(level, shape.tiles[level], current, origins);
    if (exceedsSlotLimit(step.output)) return TOO_LARGE;
    steps.push(step);
    current = step.output;
    origins = step.outputOrigins;
  }
  const expandedElements = product(current);
  return {
    rank,
    physicalToLogical,
    physicalDims,
    steps,
    expandedShape: current,
    expandedStrides: rowMajorStrides(current),
    expandedOrigins: origins,
    expandedElements,
    totalSlots: roundUp(expandedElements, shape.tailPaddingAlignment),
  };
}

function applyTile(
  level: number,
  tile: readonly TileDim[],
  input: readonly bigint[],
  inputOrigins: readonly (readonly number[])[],
): TilingStep {
  const k = tile.length;
  const vectorPadding = Math.max(0, k - input.length);
  const vectorPadded = [...new Array<bigint>(vectorPadding).fill(1n), ...input];
  const paddedOrigins: (readonly number[])[] = [...new Array<number[]>(vectorPadding).fill([]), ...inputOrigins];
  const cover = vectorPadded.length - k;

  // Merge '*' dims into the next more-minor covered dim; the prefix is untouched.
  const mergedFrom: number[][] = [];
  for (let p = 0; p < cover; p++) mergedFrom.push([p]);
  let pending: number[] = [];
  const effectiveTile: bigint[] = [];
  for (let j = 0; j < k; j++) {
    pending.push(cover + j);
    const t = tile[j];
    if (t === 'combine') continue;
    mergedFrom.push(pending);
    effectiveTile.push(t);
    pending = [];
  }
  const combined = mergedFrom.map((group) => product(group.map((p) => vectorPadded[p])));
  const combinedOrigins = mergedFrom.map((group) => unionOf(group.map((p) => paddedOrigins[p])));

  const prefixLength = combined.length - effectiveTile.length;
  const prefix = combined.slice(0, prefixLength);
  const covered = combined.slice(prefixLength);
  const counts = covered.map((d, j) => ceilDiv(d, effectiveTile[j]));
  const padded = [...prefix, ...covered.map((d, j) => roundUp(d, effectiveTile[j]))];
  const reshaped = [...prefix, ...counts.flatMap((c, j) => [c, effectiveTile[j]])];
  const output = [...prefix, ...counts, ...effectiveTile];
  const coveredOrigins = combinedOrigins.slice(prefixLength);
  const outputOrigins = [...combinedOrigins.slice(0, prefixLength), ...coveredOrigins, ...coveredOrigins];
  return {
    level, tile, input, vectorPadding, vectorPadded, mergedFrom, combined, effectiveTile, prefixLength,
    padded, reshaped, output, combinedOrigins, outputOrigins,
  };
}

function unionOf(lists: readonly (readonly number[])[]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

/**
 * Maps an index of a step's `input` shape to the index of its `output` shape: prepend zeros for
 * vector padding, combine merged coordinates (e' = e_i·d_next + e_next, spec §4.4), then split each
 * covered coordinate into (⌊e/t⌋, e mod t).
 */
export function stepForward(step: TilingStep, index: readonly bigint[]): bigint[] {
  const padded = [...new Array<bigint>(step.vectorPadding).fill(0n), ...index];
  const combined = step.mergedFrom.map((group) => {
    let e = 0n;
    for (const p of group) e = e * step.vectorPadded[p] + padded[p];
    return e;
  });
  const outer: bigint[] = [];
  const inner: bigint[] = [];
  step.effectiveTile.forEach((t, j) => {
    const e = combined[step.prefixLength + j];
    outer.push(e / t);
    inner.push(e % t);
  });
  return [...combined.slice(0, step.prefixLength), ...outer, ...inner];
}

/** Logical index → physical index (major→minor). */
export function toPhysicalIndex(plan: TilingPlan, index: readonly bigint[]): bigint[] {
  return plan.physicalToLogical.map((d) => index[d]);
}

/** Logical index → index in the final expanded shape. Assumes `index` is in bounds. */
export function toExpandedIndex(plan: TilingPlan, index: readonly bigint[]): bigint[] {
  let current = toPhysicalIndex(plan, index);
  for (const step of plan.steps) current = stepForward(step, current);
  return current;
}
