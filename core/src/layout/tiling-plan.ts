/**
 * The tiling plan: how XLA's nested tiling turns the physical shape into the final expanded shape
 * whose row-major order is memory order (spec §4.1 `LayoutUtil::LinearIndexForNestedTiling`, plus
 * the doc-only `*` combine rule of §4.4). Every step keeps its intermediate shapes so a UI can
 * explain it as vector-pad → combine → pad → reshape → transpose.
 */
import type { ArrayShape, TileDim } from '../model';
import { ceilDiv, roundUp, rowMajorStrides } from './bigint-math';
import { groupDigits } from '../format';
import { layoutError, type LayoutError } from './errors';
import { checkArrayShape } from './shape-check';
import { SLOT_LIMIT, TOO_LARGE } from './tile-walk';

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
 * Most sizes one plan may hold: the physical shape plus every step's output shape. A plan keeps
 * every intermediate shape for explanations, so it costs tile levels × dims: 6,000 one-entry tiles
 * (an 18 KB line) would be 18 million sizes and gigabytes. Real layouts need a few dozen; past
 * this bound `planTiling` refuses and says why, while sizes, tile divisibility and the server's
 * diagnostics, which walk the levels in linear time (`walkTiles`), still answer.
 */
export const MAX_PLAN_SIZES = 1 << 16;

/**
 * The refusal for a plan of more than {@link MAX_PLAN_SIZES} sizes, or `undefined`. Follows only
 * the shapes' lengths: O(1) per level.
 */
function planTooBig(rank: number, tiles: readonly (readonly TileDim[])[]): LayoutError | undefined {
  let width = rank;
  let widest = rank;
  let total = rank;
  for (const tile of tiles) {
    let combines = 0;
    for (const t of tile) if (t === 'combine') combines++;
    // Vector padding, then `*` merging, then one count and one entry per effective entry.
    width = Math.max(width, tile.length) - combines + (tile.length - combines);
    widest = Math.max(widest, width);
    total += width;
  }
  if (total <= MAX_PLAN_SIZES) return undefined;
  const what =
    tiles.length === 0
      ? `the shape has ${groupDigits(rank)} dims`
      : `the layout has ${groupDigits(tiles.length)} tile level${tiles.length === 1 ? '' : 's'} over up to ${groupDigits(widest)} dims`;
  return layoutError(
    'plan-too-large',
    `${what}, too many to lay out step by step: its tiling plan would hold ${groupDigits(total)} sizes, ` +
      `more than the ${groupDigits(MAX_PLAN_SIZES)} this tool builds (a bound that keeps every answer fast)`,
  );
}

/**
 * Whether the sizes, zeros (and `*` entries of a tile) counted as 1, multiply past
 * {@link SLOT_LIMIT}; stops early, so cost stays bounded.
 */
function exceedsSlotLimit(sizes: readonly TileDim[]): boolean {
  let p = 1n;
  for (const d of sizes) {
    if (d !== 'combine' && d > 1n) p *= d;
    if (p > SLOT_LIMIT) return true;
  }
  return false;
}

/**
 * One-element lists `[i]` shared by every plan, for origins (logical dim i) and merge groups
 * (position i): nearly every position of every plan has exactly one, and a fresh list per position
 * was most of a plan's allocation. Frozen because they are shared; beyond the first 64 (ranks no
 * real shape reaches) lists are fresh, so a hostile 50,000-entry tile leaves nothing cached.
 */
const SINGLES: readonly (readonly number[])[] = Array.from({ length: 64 }, (_, i) => Object.freeze([i]));
const NO_ORIGIN: readonly number[] = Object.freeze([]);

/** `[i]`, shared when small. */
function single(i: number): readonly number[] {
  return i < SINGLES.length ? SINGLES[i] : [i];
}

/** Builds the tiling plan of `shape`, or says why the shape cannot be laid out. */
export function planTiling(shape: ArrayShape): TilingPlan | LayoutError {
  const bad = checkArrayShape(shape) ?? planTooBig(shape.dims.length, shape.tiles);
  if (bad !== undefined) return bad;
  const rank = shape.dims.length;
  const physicalToLogical = new Array<number>(rank);
  const physicalDims = new Array<bigint>(rank);
  const physicalOrigins = new Array<readonly number[]>(rank);
  for (let p = 0; p < rank; p++) {
    const d = shape.minorToMajor[rank - 1 - p];
    physicalToLogical[p] = d;
    physicalDims[p] = shape.dims[d];
    physicalOrigins[p] = single(d);
  }
  if (exceedsSlotLimit(physicalDims)) return TOO_LARGE;
  let current: readonly bigint[] = physicalDims;
  let origins: readonly (readonly number[])[] = physicalOrigins;
  const steps: TilingStep[] = [];
  for (let level = 0; level < shape.tiles.length; level++) {
    // The effective tile alone bounds the step's output from below: check it before building it.
    if (exceedsSlotLimit(shape.tiles[level])) return TOO_LARGE;
    const step = applyTile(level, shape.tiles[level], current, origins);
    if (exceedsSlotLimit(step.output)) return TOO_LARGE;
    steps.push(step);
    current = step.output;
    origins = step.outputOrigins;
  }
  const expandedStrides = rowMajorStrides(current);
  // The major-most stride is the product of the rest: one multiplication instead of a second pass.
  const expandedElements = current.length === 0 ? 1n : expandedStrides[0] * current[0];
  return {
    rank,
    physicalToLogical,
    physicalDims,
    steps,
    expandedShape: current,
    expandedStrides,
    expandedOrigins: origins,
    expandedElements,
    totalSlots: roundUp(expandedElements, shape.tailPaddingAlignment),
  };
}

/**
 * One tile level. Plain loops rather than spreads and maps: this runs for every distinct shape of a
 * dump. Without vector padding `vectorPadded` is `input` itself, and without `*` `combined` and
 * `combinedOrigins` are `vectorPadded` and the input origins (every group has one member, and a
 * union of one sorted list is that list): the arrays are shared, never copied.
 */
function applyTile(
  level: number,
  tile: readonly TileDim[],
  input: readonly bigint[],
  inputOrigins: readonly (readonly number[])[],
): TilingStep {
  const k = tile.length;
  const vectorPadding = k > input.length ? k - input.length : 0;
  let vectorPadded = input;
  let paddedOrigins = inputOrigins;
  if (vectorPadding > 0) {
    const sizes = new Array<bigint>(k);
    const origins = new Array<readonly number[]>(k);
    for (let p = 0; p < vectorPadding; p++) {
      sizes[p] = 1n;
      origins[p] = NO_ORIGIN;
    }
    for (let p = 0; p < input.length; p++) {
      sizes[vectorPadding + p] = input[p];
      origins[vectorPadding + p] = inputOrigins[p];
    }
    vectorPadded = sizes;
    paddedOrigins = origins;
  }
  const width = vectorPadded.length;
  const cover = width - k;

  let combines = 0;
  for (let j = 0; j < k; j++) if (tile[j] === 'combine') combines++;
  const effectiveTile = new Array<bigint>(k - combines);
  // Merge '*' dims into the next more-minor covered dim; the prefix is untouched.
  const mergedFrom = new Array<readonly number[]>(width - combines);
  for (let p = 0; p < cover; p++) mergedFrom[p] = single(p);
  let combined = vectorPadded;
  let combinedOrigins = paddedOrigins;
  if (combines === 0) {
    for (let j = 0; j < k; j++) {
      effectiveTile[j] = tile[j] as bigint;
      mergedFrom[cover + j] = single(cover + j);
    }
  } else {
    const sizes = vectorPadded.slice(0, cover);
    const origins = paddedOrigins.slice(0, cover);
    let pending: number[] = [];
    for (let j = 0; j < k; j++) {
      pending.push(cover + j);
      const t = tile[j];
      if (t === 'combine') continue;
      effectiveTile[sizes.length - cover] = t;
      mergedFrom[sizes.length] = pending;
      let size = 1n;
      for (const p of pending) size *= vectorPadded[p];
      sizes.push(size);
      origins.push(unionOf(pending, paddedOrigins));
      pending = [];
    }
    combined = sizes;
    combinedOrigins = origins;
  }

  const n = combined.length;
  const tiled = effectiveTile.length;
  const prefixLength = n - tiled;
  const padded = new Array<bigint>(n);
  const reshaped = new Array<bigint>(prefixLength + 2 * tiled);
  const output = new Array<bigint>(n + tiled);
  const outputOrigins = new Array<readonly number[]>(n + tiled);
  for (let p = 0; p < prefixLength; p++) {
    padded[p] = reshaped[p] = output[p] = combined[p];
    outputOrigins[p] = combinedOrigins[p];
  }
  for (let j = 0; j < tiled; j++) {
    const t = effectiveTile[j];
    const count = ceilDiv(combined[prefixLength + j], t);
    padded[prefixLength + j] = count * t;
    reshaped[prefixLength + 2 * j] = count;
    reshaped[prefixLength + 2 * j + 1] = t;
    output[prefixLength + j] = count;
    output[n + j] = t;
    outputOrigins[prefixLength + j] = outputOrigins[n + j] = combinedOrigins[prefixLength + j];
  }
  return {
    level,
    tile,
    input,
    vectorPadding,
    vectorPadded,
    mergedFrom,
    combined,
    effectiveTile,
    prefixLength,
    padded,
    reshaped,
    output,
    combinedOrigins,
    outputOrigins,
  };
}

/** The sorted union of the origin lists at `positions` (each list sorted and free of repeats). */
function unionOf(positions: readonly number[], origins: readonly (readonly number[])[]): readonly number[] {
  if (positions.length === 1) return origins[positions[0]];
  const out: number[] = [];
  for (const p of positions) for (const d of origins[p]) if (!out.includes(d)) out.push(d);
  return out.sort((a, b) => a - b);
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
