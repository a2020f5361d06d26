/**
 * The meaning of an array shape, free of syntax: what the layout math works on. Produced from an
 * {@link ArrayShapeNode} by `toArrayShape` once the shape is valid enough to compute with.
 */

/** A tile entry: a positive size, or `COMBINE` for `*` (XLA's kCombineDimension). */
export type TileDim = bigint | 'combine';

export interface SplitConfig {
  /** Physical dimension, 0 = major-most. */
  readonly dimension: number;
  readonly indices: readonly bigint[];
}

export interface ArrayShape {
  readonly elementType: string;
  /** Logical dimension sizes; a `<=N` dimension counts as N, as it does for every XLA size. */
  readonly dims: readonly bigint[];
  readonly dynamic: readonly ('static' | 'bounded' | 'unbounded')[];
  /** Entry 0 is the most minor logical dimension. Always a permutation of 0..rank-1. */
  readonly minorToMajor: readonly number[];
  /** Tiles applied in order; empty when untiled. Entries are positive or 'combine'. */
  readonly tiles: readonly (readonly TileDim[])[];
  /** `E(n)`; 0 means the type's own byte width. */
  readonly elementSizeBits: number;
  /** `L(n)`; 1 by default. */
  readonly tailPaddingAlignment: bigint;
  /** `S(n)`; 0 by default. */
  readonly memorySpace: number;
  readonly splitConfigs: readonly SplitConfig[];
  /** `M(n)`; 0 by default. */
  readonly dynamicMetadataBytes: bigint;
}
