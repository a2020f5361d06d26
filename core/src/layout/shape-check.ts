/**
 * The guard every layout function runs first. `toArrayShape` only builds valid shapes, but the
 * math accepts any {@link ArrayShape} value (tests, hand-built shapes, the assumed-tiling copy), so
 * it re-checks the few facts it depends on and turns violations into errors instead of throwing.
 */
import type { ArrayShape } from '../model';
import { primitiveType, type PrimitiveTypeInfo } from '../primitive-types';
import { layoutError, type LayoutError } from './errors';

/** Returns an error when `shape` cannot be laid out; `undefined` when the math may proceed. */
export function checkArrayShape(shape: ArrayShape): LayoutError | undefined {
  const type = primitiveType(shape.elementType);
  if (type === undefined || !type.isArray) {
    return layoutError('not-array-type', `'${shape.elementType}' is not an array element type`);
  }
  const rank = shape.dims.length;
  for (let i = 0; i < rank; i++) {
    if (shape.dims[i] < 0n)
      return layoutError('negative-dimension', `dimension ${i} has negative size ${shape.dims[i]}`);
  }
  if (shape.minorToMajor.length !== rank) {
    return layoutError(
      'minor-to-major-length',
      `minor_to_major has ${shape.minorToMajor.length} entries but the shape has rank ${rank}`,
    );
  }
  if (!isPermutation(shape.minorToMajor)) {
    return layoutError(
      'minor-to-major-permutation',
      `minor_to_major {${shape.minorToMajor.join(',')}} is not a permutation of 0..${rank - 1}`,
    );
  }
  for (let level = 0; level < shape.tiles.length; level++) {
    const tile = shape.tiles[level];
    if (tile.length === 0) return layoutError('empty-tile', `tile ${level + 1} is empty`);
    for (let j = 0; j < tile.length; j++) {
      const t = tile[j];
      if (t !== 'combine' && t <= 0n)
        return layoutError('non-positive-tile', `tile ${level + 1} has a non-positive entry ${t}`);
    }
    // The doc merges a '*' dimension into the next more-minor one; the minor-most entry has none.
    if (tile[tile.length - 1] === 'combine') {
      return layoutError(
        'tile-ends-in-combine',
        `tile ${level + 1} ends in '*': there is no more-minor dimension to combine into`,
      );
    }
  }
  if (!Number.isInteger(shape.elementSizeBits) || shape.elementSizeBits < 0) {
    return layoutError('invalid-element-size', `E(${shape.elementSizeBits}) is not a valid element size`);
  }
  // The model keeps E as a number: past 2^53 it is no longer the value written, and byte sizes
  // computed from it would be silently wrong.
  if (!Number.isSafeInteger(shape.elementSizeBits)) {
    return layoutError(
      'element-size-too-large',
      'E(n) beyond 2^53 bits per element cannot be computed with exactly',
    );
  }
  if (shape.tailPaddingAlignment < 1n)
    return layoutError('tail-alignment-below-one', `L(${shape.tailPaddingAlignment}) must be at least 1`);
  return undefined;
}

/**
 * Whether `order` holds each of 0..length−1 once. Every layout function runs this guard, so the
 * common ranks (up to 31) track what they have seen in a bit mask instead of allocating.
 */
function isPermutation(order: readonly number[]): boolean {
  const n = order.length;
  if (n <= 31) {
    let seen = 0;
    for (let i = 0; i < n; i++) {
      const d = order[i];
      if (!Number.isInteger(d) || d < 0 || d >= n || (seen & (1 << d)) !== 0) return false;
      seen |= 1 << d;
    }
    return true;
  }
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const d = order[i];
    if (!Number.isInteger(d) || d < 0 || d >= n || seen[d] !== 0) return false;
    seen[d] = 1;
  }
  return true;
}

/** The primitive type of a shape already accepted by {@link checkArrayShape}. */
function elementTypeOf(shape: ArrayShape): PrimitiveTypeInfo {
  return primitiveType(shape.elementType)!;
}

/** XLA's `ElementSizeInBits`: the layout's E when non-zero, else ByteWidth × 8. */
export function elementSizeInBits(shape: ArrayShape): number {
  return shape.elementSizeBits !== 0 ? shape.elementSizeBits : elementTypeOf(shape).bytes * 8;
}

/** Bytes taken by `count` element slots: ceil(count × E / 8) with E, else count × ByteWidth. */
export function bytesForSlots(shape: ArrayShape, count: bigint): bigint {
  if (shape.elementSizeBits !== 0) return (count * BigInt(shape.elementSizeBits) + 7n) / 8n;
  return count * BigInt(elementTypeOf(shape).bytes);
}
