/**
 * Logical and physical bytes of a result shape, summed over its array leaves, memoised by the
 * leaf's text: dumps repeat the same few hundred shapes millions of times.
 */
import type { ArrayShapeNode, ShapeNode } from '../ast';
import { isLayoutError, physicalSizes } from '../layout';
import { toArrayShape } from '../to-model';
import { regionHash } from '../parse/text-hash';
import { RegionCache } from '../validate/region-cache';

/** Exact byte counts of one buffer. */
export interface BufferBytes {
  /** XLA ByteSizeOf. */
  readonly logical: bigint;
  /** Bytes under every tile level, L(n) rounding included. */
  readonly physical: bigint;
}

const EMPTY: BufferBytes = { logical: 0n, physical: 0n };

/** A bounded cache of leaf sizes; one can serve many files (the CLI shares it across its arguments). */
export class LeafSizeCache {
  /** Keys are copied out of the text, so a cached leaf never pins a whole chunk of a dump. */
  private readonly cache: RegionCache<BufferBytes | null>;

  /** Holds at most `maxEntries` distinct leaf texts (default 50,000). */
  constructor(maxEntries = 50_000) {
    this.cache = new RegionCache(maxEntries);
  }

  /**
   * Sums over the array leaves of `node` (ranges index `text`); tokens count 0. Undefined when a
   * leaf cannot be sized (a parse or layout error). Walks with an explicit stack: tuples nest
   * thousands deep.
   */
  of(node: ShapeNode, text: string): BufferBytes | undefined {
    if (node.kind === 'array') return this.leaf(node, text);
    let logical = 0n;
    let physical = 0n;
    const stack: ShapeNode[] = [node];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      if (n.kind === 'tuple') {
        for (let i = n.elements.length - 1; i >= 0; i--) stack.push(n.elements[i]);
        continue;
      }
      if (n.kind === 'buffer') {
        stack.push(n.element);
        continue;
      }
      const s = this.leaf(n, text);
      if (s === undefined) return undefined;
      logical += s.logical;
      physical += s.physical;
    }
    return { logical, physical };
  }

  /** The sizes of one array (memoised by its text); tokens count 0. */
  private leaf(array: ArrayShapeNode, text: string): BufferBytes | undefined {
    if (array.elementType === 'token') return EMPTY;
    const { start, end } = array.range;
    const hash = regionHash(text, start, end);
    let hit = this.cache.get(text, start, end, hash);
    if (hit === undefined) {
      const model = toArrayShape(array);
      const z = model ? physicalSizes(model) : undefined;
      hit = z && !isLayoutError(z) ? { logical: z.logicalBytes, physical: z.physicalBytes } : null;
      this.cache.set(text, start, end, hash, hit);
    }
    return hit ?? undefined;
  }
}

/**
 * physical / logical to 6 decimals (0 for empty buffers). Scaled integer division keeps the
 * decimals exact even for sizes past 2^53.
 */
export function expansionOf(logical: bigint, physical: bigint): number {
  if (logical === 0n) return 0;
  return Number((physical * 1_000_000n) / logical) / 1_000_000;
}
