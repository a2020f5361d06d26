/**
 * A layout change that removes most padding, offered only when its result is computed: each
 * candidate is laid out with the same tiles and its physical bytes are part of the answer.
 */
import type { ArrayShape } from '../model';
import type { LayoutError } from './errors';
import { isLayoutError } from './errors';
import { physicalSizes } from './physical-sizes';

export interface LayoutFix {
  /** 'reorder' = a different minor_to_major; 'merge' = reshape the two minor-most dims into one. */
  readonly kind: 'reorder' | 'merge';
  /** One sentence naming the change. */
  readonly description: string;
  /** The shape after the change (same element type and tiles). */
  readonly shape: ArrayShape;
  readonly physicalBytes: bigint;
  /** Current physical bytes minus `physicalBytes` (> 0). */
  readonly savedBytes: bigint;
}

/** Exhaustive reorders up to this rank (720 candidates); pairwise swaps above it. */
const MAX_EXHAUSTIVE_RANK = 6;
/**
 * No reorders are tried above this rank: swaps are rank² candidates of rank-sized work each, and
 * a 50,000-dimension shape (one 100 KB line) would otherwise take minutes and gigabytes.
 */
const MAX_SWAP_RANK = 32;
/**
 * Most tiling walks (candidates × (dims + tile entries)) one suggestion may take: a layout of
 * thousands of tile levels is sized in linear time, but not 720 times over in a hover.
 */
const MAX_SEARCH_WORK = 1 << 20;

function physicalBytesOf(shape: ArrayShape): bigint | undefined {
  const sz = physicalSizes(shape);
  return isLayoutError(sz) ? undefined : sz.physicalBytes;
}

/** How many reorders {@link reorderOrders} yields for `rank` dims. */
function candidateCount(rank: number): number {
  if (rank <= MAX_EXHAUSTIVE_RANK) {
    let n = 1;
    for (let i = 2; i <= rank; i++) n *= i;
    return n;
  }
  return rank <= MAX_SWAP_RANK ? (rank * (rank - 1)) / 2 : 0;
}

function permutations(items: readonly number[]): number[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]),
  );
}

function* swaps(items: readonly number[]): Generator<number[]> {
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const p = [...items];
      [p[i], p[j]] = [p[j], p[i]];
      yield p;
    }
  }
}

/** Candidate minor_to_major orders, produced lazily so only the best one is ever kept. */
function reorderOrders(current: readonly number[]): Iterable<number[]> {
  if (current.length <= MAX_EXHAUSTIVE_RANK) return permutations(current);
  return current.length <= MAX_SWAP_RANK ? swaps(current) : [];
}

function reorderFix(shape: ArrayShape, order: number[], bytes: bigint): LayoutFix {
  const current = shape.minorToMajor;
  const oldMinor = current[0];
  const moved =
    order[0] !== oldMinor ? `; dim ${oldMinor} (size ${shape.dims[oldMinor]}) is no longer minor-most` : '';
  return {
    kind: 'reorder',
    description: `use minor_to_major {${order.join(',')}} instead of {${current.join(',')}}${moved}`,
    shape: { ...shape, minorToMajor: order },
    physicalBytes: bytes,
    savedBytes: 0n,
  };
}

/** Reshapes the two minor-most physical dims into one (a bitcast when they are logically adjacent). */
function mergeCandidate(shape: ArrayShape): LayoutFix | undefined {
  const rank = shape.dims.length;
  if (rank < 2) return undefined;
  const physical = [...shape.minorToMajor].reverse();
  const minor = physical[rank - 1];
  const second = physical[rank - 2];
  const dims = [
    ...physical.slice(0, rank - 2).map((d) => shape.dims[d]),
    shape.dims[second] * shape.dims[minor],
  ];
  const candidate: ArrayShape = {
    ...shape,
    dims,
    dynamic: dims.map(() => 'static' as const),
    minorToMajor: dims.map((_, i) => dims.length - 1 - i),
  };
  const bytes = physicalBytesOf(candidate);
  if (bytes === undefined) return undefined;
  return {
    kind: 'merge',
    description: `merge dims ${second} and ${minor} into one of size ${dims[dims.length - 1]} (shape [${dims.join(',')}], physical order kept)`,
    shape: candidate,
    physicalBytes: bytes,
    savedBytes: 0n,
  };
}

/** Number of minor_to_major positions a reorder changes: prefer the smallest edit among equals. */
function editSize(shape: ArrayShape, order: readonly number[]): number {
  return order.filter((d, i) => d !== shape.minorToMajor[i]).length;
}

/**
 * The change (reorder of minor_to_major, or merging the two minor-most dims) with the smallest
 * physical size under the same tiles; `undefined` when nothing saves memory. Among reorders of
 * equal size the smallest edit wins; a merge must be strictly smaller than every reorder.
 */
export function suggestFix(shape: ArrayShape): LayoutFix | undefined | LayoutError {
  const sz = physicalSizes(shape);
  if (isLayoutError(sz)) return sz;
  // A split config names a physical dimension and an index in it: another order or a merge
  // changes what it splits, and can make it invalid (an index past the end of the dimension).
  if (shape.splitConfigs.length > 0) return undefined;
  let walk = shape.dims.length;
  for (const tile of shape.tiles) walk += tile.length;
  if ((candidateCount(shape.dims.length) + 1) * walk > MAX_SEARCH_WORK) return undefined;
  const currentBytes = sz.physicalBytes;
  const current = shape.minorToMajor;
  let bestOrder: number[] | undefined;
  let bestBytes = currentBytes;
  let bestEdit = 0;
  for (const order of reorderOrders(current)) {
    if (order.every((d, i) => d === current[i])) continue;
    const bytes = physicalBytesOf({ ...shape, minorToMajor: order });
    if (bytes === undefined || bytes >= currentBytes) continue;
    const edit = editSize(shape, order);
    if (bestOrder === undefined || bytes < bestBytes || (bytes === bestBytes && edit < bestEdit)) {
      bestOrder = order;
      bestBytes = bytes;
      bestEdit = edit;
    }
  }
  const merge = mergeCandidate(shape);
  let best = bestOrder === undefined ? undefined : reorderFix(shape, bestOrder, bestBytes);
  if (merge !== undefined && merge.physicalBytes < (best === undefined ? currentBytes : best.physicalBytes))
    best = merge;
  return best === undefined ? undefined : { ...best, savedBytes: currentBytes - best.physicalBytes };
}
