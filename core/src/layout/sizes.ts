/**
 * Sizes of an array, exact in bigint (spec §3): XLA's ByteSizeOf and ArraySize, and the full
 * nested-tiling physical size that XLA does not compute but the memory actually needs.
 */
import type { ArrayShape } from '../model';
import { product, ratio, roundUp, type Ratio } from './bigint-math';
import type { LayoutError } from './errors';
import { isLayoutError } from './errors';
import { bytesForSlots, checkArrayShape, elementSizeInBits } from './shape-check';
import { walkTiles } from './tile-walk';

export interface LayoutSizes {
  /** `ShapeUtil::ElementsIn`: product of dims, `<=N` counted as N. */
  readonly logicalElements: bigint;
  /** `ShapeUtil::ByteSizeOf` (= ByteSizeOfElements): E packing, tiles and L ignored. */
  readonly logicalBytes: bigint;
  /** Element slots under ALL tile levels (product of the expanded shape), rounded up to L. */
  readonly physicalElements: bigint;
  /** Bytes of `physicalElements`: ceil(slots × E / 8) with E, else slots × ByteWidth. */
  readonly physicalBytes: bigint;
  /**
   * XLA's `ShapeUtil::ArraySize`: first tile only, MaxSplitSize for split dims, L rounding, E packing.
   * `null` when XLA's value is meaningless (the first tile contains `*`, which XLA does not handle).
   */
  readonly arraySizeBytes: bigint | null;
  /** `ElementSizeInBits`: E, or ByteWidth × 8. */
  readonly elementSizeBits: number;
  /** physicalBytes / logicalBytes; `undefined` for an empty array. */
  readonly expansion: Ratio | undefined;
  /** (physicalBytes − logicalBytes) / physicalBytes, the share of memory that is padding; `undefined` when 0 bytes. */
  readonly overhead: Ratio | undefined;
}

/**
 * All sizes of `shape`, or why they cannot be computed. Needs no tiling plan (the slots come from
 * the linear `walkTiles`), so layouts too large to explain step by step are still sized.
 */
export function sizes(shape: ArrayShape): LayoutSizes | LayoutError {
  const bad = checkArrayShape(shape);
  if (bad !== undefined) return bad;
  const slots = walkTiles(shape);
  if (isLayoutError(slots)) return slots;
  const logicalElements = product(shape.dims);
  const logicalBytes = bytesForSlots(shape, logicalElements);
  const physicalElements = roundUp(slots, shape.tailPaddingAlignment);
  const physicalBytes = bytesForSlots(shape, physicalElements);
  return {
    logicalElements,
    logicalBytes,
    physicalElements,
    physicalBytes,
    arraySizeBytes: arraySizeBytes(shape),
    elementSizeBits: elementSizeInBits(shape),
    expansion: ratio(physicalBytes, logicalBytes),
    overhead: ratio(physicalBytes - logicalBytes, physicalBytes),
  };
}

/**
 * `LayoutUtil::MaxSplitSize`: the size of logical dim `dim`, or of its largest piece when a split
 * config splits the physical dim it occupies.
 */
export function maxSplitSize(shape: ArrayShape, dim: number): bigint {
  const rank = shape.dims.length;
  const size = shape.dims[dim];
  if (shape.splitConfigs.length === 0) return size;
  const config = shape.splitConfigs.find((c) => shape.minorToMajor[rank - 1 - c.dimension] === dim);
  if (config === undefined) return size;
  let largest = 0n;
  let last = 0n;
  for (const index of config.indices) {
    if (index - last > largest) largest = index - last;
    last = index;
  }
  return size - last > largest ? size - last : largest;
}

/** XLA's `ShapeUtil::ArraySize` (spec §3); `null` when the first tile contains `*`. Shape must be valid. */
function arraySizeBytes(shape: ArrayShape): bigint | null {
  const first = shape.tiles[0];
  if (first === undefined) return bytesForSlots(shape, product(shape.dims));
  if (first.includes('combine')) return null;
  const rank = shape.dims.length;
  const k = first.length;
  let n = 1n;
  for (let i = 0; i < Math.max(k, rank); i++) {
    const size = i < rank ? maxSplitSize(shape, shape.minorToMajor[i]) : 1n;
    n *= i < k ? roundUp(size, first[k - 1 - i] as bigint) : size;
  }
  n = roundUp(n, shape.tailPaddingAlignment);
  return bytesForSlots(shape, n);
}
