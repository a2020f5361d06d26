/**
 * A deliberately naive, independent reference for the layout math, written straight from the spec
 * (§3 sizes, §4.1 nested tiling, §4.4 `*` combining) without looking at core/src/layout. It favours
 * obviousness over speed: explicit index vectors, explicit floor/mod, explicit lists of split
 * pieces. Everything is bigint; nothing is ever converted to a Number.
 *
 * It takes the same plain-data description as the core's ArrayShape, so fuzz tests can feed both
 * the same value and compare.
 */

/** The fields of a shape the reference needs (structurally compatible with the core's ArrayShape). */
export interface RefShape {
  readonly elementType: string;
  readonly dims: readonly bigint[];
  readonly minorToMajor: readonly number[];
  readonly tiles: readonly (readonly (bigint | 'combine')[])[];
  readonly elementSizeBits: number;
  readonly tailPaddingAlignment: bigint;
  readonly splitConfigs: readonly { readonly dimension: number; readonly indices: readonly bigint[] }[];
}

/** ByteWidth per spec §1.2 (ceil(bits / 8)); only the types the fuzzers generate. */
export const BYTE_WIDTH: Readonly<Record<string, bigint>> = {
  pred: 1n,
  s1: 1n,
  u1: 1n,
  s2: 1n,
  u2: 1n,
  s4: 1n,
  u4: 1n,
  s8: 1n,
  u8: 1n,
  f8e4m3fn: 1n,
  f4e2m1fn: 1n,
  s16: 2n,
  u16: 2n,
  f16: 2n,
  bf16: 2n,
  s32: 4n,
  u32: 4n,
  f32: 4n,
  s64: 8n,
  u64: 8n,
  f64: 8n,
  c64: 8n,
  c128: 16n,
};

function floorDiv(a: bigint, b: bigint): bigint {
  // Operands are never negative here, so truncation is floor; spelled out for the reader.
  return a / b;
}

function ceilOfRatio(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b === a ? q : q + 1n;
}

function roundUpTo(a: bigint, m: bigint): bigint {
  return ceilOfRatio(a, m) * m;
}

function productOf(values: readonly bigint[]): bigint {
  let p = 1n;
  for (const v of values) p = p * v;
  return p;
}

/**
 * One tile applied to (shape, index) per §4.1 step 2, with `*` per §4.4: vector-pad with leading
 * 1s, merge every `*` dim into the next more-minor covered dim (size product, mixed-radix index),
 * then prefix ++ [ceil(d/t)] ++ [t] and prefix ++ [floor(e/t)] ++ [e mod t].
 */
function applyOneTile(
  tile: readonly (bigint | 'combine')[],
  shape: bigint[],
  index: bigint[],
): { shape: bigint[]; index: bigint[] } {
  const k = tile.length;
  while (shape.length < k) {
    shape.unshift(1n);
    index.unshift(0n);
  }
  const s = shape.length - k;
  const prefixShape = shape.slice(0, s);
  const prefixIndex = index.slice(0, s);
  const coveredShape: bigint[] = [];
  const coveredIndex: bigint[] = [];
  const coveredTile: bigint[] = [];
  let carrySize = 1n;
  let carryIndex = 0n;
  for (let j = 0; j < k; j++) {
    const d = shape[s + j];
    const e = index[s + j];
    const t = tile[j];
    // e' = e_major · d_minor + e_minor, folded left to right over a run of `*` entries.
    const mergedSize = carrySize * d;
    const mergedIndex = carryIndex * d + e;
    if (t === 'combine') {
      carrySize = mergedSize;
      carryIndex = mergedIndex;
      continue;
    }
    coveredShape.push(mergedSize);
    coveredIndex.push(mergedIndex);
    coveredTile.push(t);
    carrySize = 1n;
    carryIndex = 0n;
  }
  const outShape = [...prefixShape];
  const outIndex = [...prefixIndex];
  for (let j = 0; j < coveredTile.length; j++) {
    outShape.push(ceilOfRatio(coveredShape[j], coveredTile[j]));
    outIndex.push(floorDiv(coveredIndex[j], coveredTile[j]));
  }
  for (let j = 0; j < coveredTile.length; j++) {
    outShape.push(coveredTile[j]);
    outIndex.push(coveredIndex[j] % coveredTile[j]);
  }
  return { shape: outShape, index: outIndex };
}

/** Physical dims and index, major→minor: for i = rank−1 down to 0, dims[minor_to_major[i]] (§4.1 step 1). */
function physical(shape: RefShape, index: readonly bigint[]): { shape: bigint[]; index: bigint[] } {
  const dims: bigint[] = [];
  const idx: bigint[] = [];
  for (let i = shape.minorToMajor.length - 1; i >= 0; i--) {
    dims.push(shape.dims[shape.minorToMajor[i]]);
    idx.push(index[shape.minorToMajor[i]]);
  }
  return { shape: dims, index: idx };
}

/** The final expanded shape and the expanded index of `index` (zeros when omitted). */
export function refExpand(shape: RefShape, index?: readonly bigint[]): { shape: bigint[]; index: bigint[] } {
  let cur = physical(shape, index ?? shape.dims.map(() => 0n));
  for (const tile of shape.tiles) cur = applyOneTile(tile, cur.shape, cur.index);
  return cur;
}

/** §4.1 step 3: row-major linearization over the final expanded shape, Σ e_i × Π_{j>i} d_j. */
export function refLinearIndex(shape: RefShape, index: readonly bigint[]): bigint {
  const { shape: dims, index: e } = refExpand(shape, index);
  let li = 0n;
  for (let i = 0; i < dims.length; i++) {
    let stride = 1n;
    for (let j = i + 1; j < dims.length; j++) stride = stride * dims[j];
    li = li + e[i] * stride;
  }
  return li;
}

/** Product of the expanded shape: slots before L rounding. */
export function refExpandedElements(shape: RefShape): bigint {
  return productOf(refExpand(shape).shape);
}

/** All element slots: the expanded product rounded up to a multiple of L. */
export function refPhysicalElements(shape: RefShape): bigint {
  return roundUpTo(refExpandedElements(shape), shape.tailPaddingAlignment);
}

/** `ElementSizeInBits`: E when non-zero, else ByteWidth × 8. */
export function refElementSizeInBits(shape: RefShape): bigint {
  return shape.elementSizeBits !== 0 ? BigInt(shape.elementSizeBits) : BYTE_WIDTH[shape.elementType] * 8n;
}

/** Bytes for `n` slots: ceil(n × E / 8) with E, else n × ByteWidth (§3). */
export function refBytes(shape: RefShape, n: bigint): bigint {
  if (shape.elementSizeBits !== 0) return ceilOfRatio(n * BigInt(shape.elementSizeBits), 8n);
  return n * BYTE_WIDTH[shape.elementType];
}

/** `ShapeUtil::ElementsIn`. */
export function refLogicalElements(shape: RefShape): bigint {
  return productOf(shape.dims);
}

/** `ByteSizeOf` of an array = ByteSizeOfElements: tiles, L and splits ignored. */
export function refByteSizeOf(shape: RefShape): bigint {
  return refBytes(shape, refLogicalElements(shape));
}

/**
 * `LayoutUtil::MaxSplitSize`: the largest piece of logical dim `dim` when a split config splits
 * the physical dim holding it (physical p holds logical minor_to_major[rank−1−p]).
 */
export function refMaxSplitSize(shape: RefShape, dim: number): bigint {
  const rank = shape.dims.length;
  const config = shape.splitConfigs.find((c) => shape.minorToMajor[rank - 1 - c.dimension] === dim);
  if (config === undefined) return shape.dims[dim];
  const bounds = [0n, ...config.indices, shape.dims[dim]];
  let largest = 0n;
  for (let i = 1; i < bounds.length; i++) {
    const piece = bounds[i] - bounds[i - 1];
    if (piece > largest) largest = piece;
  }
  return largest;
}

/**
 * `ShapeUtil::ArraySize` (§3): untiled → ByteSizeOfElements; else the first tile only over
 * MaxSplitSize dims (i = 0 is the minor-most physical dim, tile entry t[k−1−i]), remaining dims
 * multiplied in, L rounding, E packing. `null` when the first tile has `*` (XLA does not handle it).
 */
export function refArraySize(shape: RefShape): bigint | null {
  if (shape.tiles.length === 0) return refByteSizeOf(shape);
  const tile = shape.tiles[0];
  if (tile.includes('combine')) return null;
  const rank = shape.dims.length;
  const k = tile.length;
  let n = 1n;
  let i = 0;
  for (; i < k; i++) {
    const size = i < rank ? refMaxSplitSize(shape, shape.minorToMajor[i]) : 1n;
    n = n * roundUpTo(size, tile[k - 1 - i] as bigint);
  }
  for (; i < rank; i++) n = n * refMaxSplitSize(shape, shape.minorToMajor[i]);
  if (shape.tailPaddingAlignment !== 1n) n = roundUpTo(n, shape.tailPaddingAlignment);
  return refBytes(shape, n);
}

/** Every logical index of a shape in row-major order (nothing when a dim is 0). */
export function* refAllIndices(dims: readonly bigint[]): Generator<bigint[]> {
  if (dims.some((d) => d === 0n)) return;
  const index = dims.map(() => 0n);
  for (;;) {
    yield [...index];
    let i = dims.length - 1;
    while (i >= 0) {
      index[i] = index[i] + 1n;
      if (index[i] < dims[i]) break;
      index[i] = 0n;
      i--;
    }
    if (i < 0) return;
  }
}
