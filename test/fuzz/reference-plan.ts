/**
 * The tiling plan built the obvious way, for checking the optimised `planTiling` field by field:
 * spreads, maps and a set union per group, fresh arrays everywhere, exactly as the plan was first
 * written (before the allocation-free rewrite). Same refusals: the same guard, the same slot bound.
 */
import type { TilingPlan, TilingStep } from '../../core/src/layout';
import { layoutError, type LayoutError } from '../../core/src/layout';
import { checkArrayShape } from '../../core/src/layout/shape-check';
import type { ArrayShape, TileDim } from '../../core/src/model';

const SLOT_LIMIT = 1n << 1024n;
const TOO_LARGE = layoutError(
  'too-many-slots',
  'the tiled layout has more than 2^1024 element slots; not computed',
);

function product(values: readonly bigint[]): bigint {
  return values.reduce((p, v) => p * v, 1n);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function exceedsSlotLimit(sizes: readonly bigint[]): boolean {
  return product(sizes.map((d) => (d > 1n ? d : 1n))) > SLOT_LIMIT;
}

function unionOf(lists: readonly (readonly number[])[]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
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
  const paddedOrigins: (readonly number[])[] = [
    ...new Array<number[]>(vectorPadding).fill([]),
    ...inputOrigins,
  ];
  const cover = vectorPadded.length - k;
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
  const padded = [...prefix, ...covered.map((d, j) => ceilDiv(d, effectiveTile[j]) * effectiveTile[j])];
  const reshaped = [...prefix, ...counts.flatMap((c, j) => [c, effectiveTile[j]])];
  const output = [...prefix, ...counts, ...effectiveTile];
  const coveredOrigins = combinedOrigins.slice(prefixLength);
  const outputOrigins = [...combinedOrigins.slice(0, prefixLength), ...coveredOrigins, ...coveredOrigins];
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

/** The plan of `shape` as the straightforward implementation builds it. */
export function referencePlan(shape: ArrayShape): TilingPlan | LayoutError {
  const bad = checkArrayShape(shape);
  if (bad !== undefined) return bad;
  const physicalToLogical = [...shape.minorToMajor].reverse();
  const physicalDims = physicalToLogical.map((d) => shape.dims[d]);
  if (exceedsSlotLimit(physicalDims)) return TOO_LARGE;
  let current: readonly bigint[] = physicalDims;
  let origins: readonly (readonly number[])[] = physicalToLogical.map((d) => [d]);
  const steps: TilingStep[] = [];
  for (let level = 0; level < shape.tiles.length; level++) {
    if (exceedsSlotLimit(shape.tiles[level].filter((t): t is bigint => t !== 'combine'))) return TOO_LARGE;
    const step = applyTile(level, shape.tiles[level], current, origins);
    if (exceedsSlotLimit(step.output)) return TOO_LARGE;
    steps.push(step);
    current = step.output;
    origins = step.outputOrigins;
  }
  const expandedElements = product(current);
  const strides = current.map((_, i) => product(current.slice(i + 1)));
  return {
    rank: shape.dims.length,
    physicalToLogical,
    physicalDims,
    steps,
    expandedShape: current,
    expandedStrides: strides,
    expandedOrigins: origins,
    expandedElements,
    totalSlots: ceilDiv(expandedElements, shape.tailPaddingAlignment) * shape.tailPaddingAlignment,
  };
}
