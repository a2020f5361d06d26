/**
 * The byte counts of an array without its tiling plan: what the language server and `xla-layout
 * report` need for every distinct shape of a dump, where building the plan (every intermediate
 * shape of every step, for explanations) was most of the cost. Results equal those of
 * `sizes(shape)` and `tileDivisibility`, and the plan's slot count; the property tests hold them to it.
 *
 * The walk runs on doubles while every size stays below 2^53, where doubles are exact integers
 * (the bound is checked as it goes, see {@link expandedSlots}); past that it runs in bigint
 * ({@link walkTiles}). Both take time linear in the layout's text, whatever the number of levels.
 */
import type { ArrayShape } from '../model';
import { divideToNumber, product, roundUp } from './bigint-math';
import type { LayoutError } from './errors';
import { isLayoutError } from './errors';
import { bytesForSlots, checkArrayShape } from './shape-check';
import { walkTiles } from './tile-walk';

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
 * {@link walkTiles} on doubles. Exactness: every value is bounded by the product of its shape's
 * sizes with zeros counted as 1 (the "slot product"), which is kept as dims come and go and checked
 * against 2^53 − 1 after each level. A product of exact integers whose true value passes 2^53 − 1
 * rounds to at least 2^53, so the check never misses; while it holds, dividing out a covered dim
 * is exact (an integer quotient of exact values), and every size, group product and count × tile
 * entry is exact; `Math.ceil(g / t)` is exact for g < 2^53 (the rounding error of g / t stays below
 * 1/t, its distance to any integer it does not equal). Returns `undefined` when the bound does not
 * hold: the caller falls back to bigint. `shape` has passed `checkArrayShape`.
 */
function expandedSlots(shape: ArrayShape): ExpandedSlots | undefined {
  const rank = shape.dims.length;
  // The current shape as a stack, and one level's covered sizes and effective entries (the counts
  // replace the covered dims first). Sizes past the used length are stale and never read.
  const stack: number[] = [];
  const sizes: number[] = [];
  const entries: number[] = [];
  let length = 0;
  let slotProduct = 1;
  for (let p = 0; p < rank; p++) {
    const size = shape.dims[shape.minorToMajor[rank - 1 - p]];
    if (size > MAX_EXACT_BIG) return undefined;
    const n = Number(size);
    stack[length++] = n;
    if (n > 1) slotProduct *= n;
  }
  if (slotProduct > MAX_EXACT) return undefined;
  let beyond = false;
  for (let level = 0; level < shape.tiles.length; level++) {
    const tile = shape.tiles[level];
    const k = tile.length;
    const taken = Math.min(k, length);
    const base = length - taken;
    const vectorPadding = k - taken;
    let effective = 0;
    let group = 1;
    for (let j = 0; j < k; j++) {
      if (j >= vectorPadding) {
        const d = stack[base + j - vectorPadding];
        group *= d;
        if (d > 1) slotProduct /= d;
      }
      const t = tile[j];
      if (t === 'combine') continue;
      if (t > MAX_EXACT_BIG) return undefined;
      sizes[effective] = group;
      entries[effective++] = Number(t);
      group = 1;
    }
    length = base;
    for (let j = 0; j < effective; j++) {
      const entry = entries[j];
      const count = Math.ceil(sizes[j] / entry);
      // Only levels after the first can pad beyond XLA's ArraySize (tileDivisibility's levels).
      if (level > 0 && count * entry !== sizes[j]) beyond = true;
      stack[length++] = count;
      if (count > 1) slotProduct *= count;
    }
    for (let j = 0; j < effective; j++) {
      stack[length++] = entries[j];
      if (entries[j] > 1) slotProduct *= entries[j];
    }
    if (slotProduct > MAX_EXACT) return undefined;
  }
  let elements = 1;
  for (let p = 0; p < length; p++) elements *= stack[p];
  return { elements, paddingBeyondArraySize: beyond };
}

/**
 * Logical and physical bytes of `shape`, its expansion, and whether later tile levels pad, or why
 * the shape cannot be laid out (the refusals of `walkTiles`). Use `sizes` and `planTiling`
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
    let beyond = false;
    const slots = walkTiles(shape, (c) => {
      if (c.level > 0 && !beyond) beyond = c.sizes.some((size, j) => size % c.tile[j] !== 0n);
    });
    if (isLayoutError(slots)) return slots;
    expandedElements = slots;
    paddingBeyondArraySize = beyond;
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
