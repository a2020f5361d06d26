/**
 * The byte counts of an array without its tiling plan: what the language server and `xla-layout
 * report` need for every distinct shape of a dump, where building the plan (every intermediate
 * shape of every step, for explanations) was most of the cost. Results equal those of
 * `sizes(shape, planTiling(shape))` and `tileDivisibility`; the property tests hold them to it.
 *
 * The walk runs on doubles while every size stays below 2^53, where doubles are exact integers
 * (the bound is checked as it goes, see {@link expandedSlots}); past that it builds the plan and
 * works in bigint.
 */
import type { ArrayShape } from '../model';
import { divideToNumber, product, roundUp } from './bigint-math';
import type { LayoutError } from './errors';
import { isLayoutError } from './errors';
import { tileDivisibility } from './padding';
import { bytesForSlots, checkArrayShape } from './shape-check';
import { planTiling } from './tiling-plan';

/** Byte counts of one array. */
export interface PhysicalSizes {
  /** `ShapeUtil::ByteSizeOf`, as `sizes(shape).logicalBytes`. */
  readonly logicalBytes: bigint;
  /** Bytes under every tile level, L rounding included, as `sizes(shape).physicalBytes`. */
  readonly physicalBytes: bigint;
  /** physicalBytes / logicalBytes, as `sizes(shape).expansion?.value`; `undefined` for an empty array. */
  readonly expansion: number | undefined;
  /** Whether a tile level after the first pads: `tileDivisibility(shape).paddingBeyondArraySize`. */
  readonly paddingBeyondArraySize: boolean;
}

const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const MAX_EXACT_BIG = BigInt(MAX_EXACT);

/** Element slots of the expanded shape (before L) and whether a later level pads. */
interface ExpandedSlots {
  readonly elements: number;
  readonly paddingBeyondArraySize: boolean;
}

/**
 * The tiling walk of `planTiling` on doubles, keeping only the current shape. Exactness: every
 * value is bounded by the product of its shape's sizes with zeros counted as 1 (the "slot
 * product"), which is checked against 2^53 − 1 after each level. A product of exact integers
 * whose true value passes 2^53 − 1 rounds to at least 2^53, so the check never misses, and while
 * it holds every size, group product and count × tile entry is exact; `Math.ceil(g / t)` is exact
 * for g < 2^53 (the rounding error of g / t stays below 1/t, its distance to any integer it does
 * not equal). Returns `undefined` when the bound does not hold: the caller falls back to bigint.
 * `shape` has passed `checkArrayShape`.
 */
function expandedSlots(shape: ArrayShape): ExpandedSlots | undefined {
  const rank = shape.dims.length;
  // The current shape and the next, swapped after each level: no allocation per level. Sizes past
  // the used length are stale and never read.
  let from: number[] = [];
  let to: number[] = [];
  let length = rank;
  let slotProduct = 1;
  for (let p = 0; p < rank; p++) {
    const size = shape.dims[shape.minorToMajor[rank - 1 - p]];
    if (size > MAX_EXACT_BIG) return undefined;
    const n = Number(size);
    from[p] = n;
    if (n > 1) slotProduct *= n;
  }
  if (slotProduct > MAX_EXACT) return undefined;
  let beyond = false;
  for (let level = 0; level < shape.tiles.length; level++) {
    const tile = shape.tiles[level];
    const k = tile.length;
    let effective = 0;
    for (let j = 0; j < k; j++) if (tile[j] !== 'combine') effective++;
    const vectorPadding = k > length ? k - length : 0;
    const cover = length + vectorPadding - k;
    // Next shape: the prefix, one count per effective entry, then the effective entries.
    for (let p = 0; p < cover; p++) to[p] = p < vectorPadding ? 1 : from[p - vectorPadding];
    let counts = cover;
    let entries = cover + effective;
    let group = 1;
    for (let j = 0; j < k; j++) {
      const p = cover + j;
      group *= p < vectorPadding ? 1 : from[p - vectorPadding];
      const t = tile[j];
      if (t === 'combine') continue;
      if (t > MAX_EXACT_BIG) return undefined;
      const entry = Number(t);
      const count = Math.ceil(group / entry);
      // Only levels after the first can pad beyond XLA's ArraySize (tileDivisibility's levels).
      if (level > 0 && count * entry !== group) beyond = true;
      to[counts++] = count;
      to[entries++] = entry;
      group = 1;
    }
    length = entries;
    slotProduct = 1;
    for (let p = 0; p < length; p++) if (to[p] > 1) slotProduct *= to[p];
    if (slotProduct > MAX_EXACT) return undefined;
    const done = to;
    to = from;
    from = done;
  }
  let elements = 1;
  for (let p = 0; p < length; p++) elements *= from[p];
  return { elements, paddingBeyondArraySize: beyond };
}

/**
 * Logical and physical bytes of `shape`, its expansion, and whether later tile levels pad, or why
 * the shape cannot be laid out (the same refusal `planTiling` gives). Use `sizes` and `planTiling`
 * when the steps or XLA's ArraySize are wanted as well.
 */
export function physicalSizes(shape: ArrayShape): PhysicalSizes | LayoutError {
  const bad = checkArrayShape(shape);
  if (bad !== undefined) return bad;
  let expandedElements: bigint;
  let paddingBeyondArraySize: boolean;
  const fast = expandedSlots(shape);
  if (fast !== undefined) {
    expandedElements = BigInt(fast.elements);
    paddingBeyondArraySize = fast.paddingBeyondArraySize;
  } else {
    const plan = planTiling(shape);
    if (isLayoutError(plan)) return plan;
    expandedElements = plan.expandedElements;
    const fit = tileDivisibility(shape, plan);
    if (isLayoutError(fit)) return fit;
    paddingBeyondArraySize = fit.paddingBeyondArraySize;
  }
  const logicalBytes = bytesForSlots(shape, product(shape.dims));
  const physicalBytes = bytesForSlots(shape, roundUp(expandedElements, shape.tailPaddingAlignment));
  return {
    logicalBytes,
    physicalBytes,
    expansion: logicalBytes === 0n ? undefined : divideToNumber(physicalBytes, logicalBytes),
    paddingBeyondArraySize,
  };
}
