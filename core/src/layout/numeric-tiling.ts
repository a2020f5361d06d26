/**
 * The tiling plan compiled to double arithmetic, for the hot loops of the memory map and the
 * visualizer. Only built when every slot offset is below 2^53, where doubles are exact integers;
 * otherwise callers use the bigint functions. Scratch buffers are reused: no allocation per call.
 */
import type { TilingPlan } from './tiling-plan';

interface NumericStep {
  readonly vectorPadding: number;
  /** Sizes of the vector-padded shape. */
  readonly vpSizes: Float64Array;
  readonly groups: readonly Int32Array[];
  /** Sizes of the combined shape (before padding). */
  readonly combinedSizes: Float64Array;
  readonly prefix: number;
  readonly tile: Float64Array;
  /** Row-major strides over the output positions [0, prefix + k): the tile-id space of this level. */
  readonly tileStrides: Float64Array;
  readonly vp: Float64Array;
  readonly combined: Float64Array;
  readonly out: Float64Array;
}

/** Largest integer a double holds exactly. */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

export class NumericTiling {
  private readonly steps: readonly NumericStep[];
  private readonly physicalToLogical: Int32Array;
  private readonly physical: Float64Array;
  private readonly strides: Float64Array;
  private readonly finalSizes: Float64Array;
  private readonly scratchFinal: Float64Array;

  private constructor(plan: TilingPlan) {
    this.physicalToLogical = Int32Array.from(plan.physicalToLogical);
    this.physical = new Float64Array(plan.rank);
    this.steps = plan.steps.map((s): NumericStep => {
      const k = s.effectiveTile.length;
      const tileSpace = s.output.slice(0, s.prefixLength + k).map(Number);
      const tileStrides = new Float64Array(tileSpace.length);
      let stride = 1;
      for (let i = tileSpace.length - 1; i >= 0; i--) {
        tileStrides[i] = stride;
        stride *= tileSpace[i];
      }
      return {
        vectorPadding: s.vectorPadding,
        vpSizes: Float64Array.from(s.vectorPadded.map(Number)),
        groups: s.mergedFrom.map((g) => Int32Array.from(g)),
        combinedSizes: Float64Array.from(s.combined.map(Number)),
        prefix: s.prefixLength,
        tile: Float64Array.from(s.effectiveTile.map(Number)),
        tileStrides,
        vp: new Float64Array(s.vectorPadded.length),
        combined: new Float64Array(s.combined.length),
        out: new Float64Array(s.output.length),
      };
    });
    this.strides = Float64Array.from(plan.expandedStrides.map(Number));
    this.finalSizes = Float64Array.from(plan.expandedShape.map(Number));
    this.scratchFinal = new Float64Array(plan.expandedShape.length);
  }

  /** Compiles `plan`, or `undefined` when some offset could pass 2^53. */
  static from(plan: TilingPlan): NumericTiling | undefined {
    return plan.totalSlots <= BigInt(MAX_EXACT) ? new NumericTiling(plan) : undefined;
  }

  /** Runs the first `levels` steps on a logical index; returns the last output (a scratch buffer). */
  private forward(index: ArrayLike<number>, levels: number): Float64Array {
    let cur = this.physical;
    for (let p = 0; p < cur.length; p++) cur[p] = index[this.physicalToLogical[p]]!;
    for (let l = 0; l < levels; l++) {
      const s = this.steps[l];
      const { vp, combined, out, tile } = s;
      vp.fill(0, 0, s.vectorPadding);
      vp.set(cur, s.vectorPadding);
      for (let g = 0; g < s.groups.length; g++) {
        const group = s.groups[g];
        let e = 0;
        for (let m = 0; m < group.length; m++) e = e * s.vpSizes[group[m]] + vp[group[m]];
        combined[g] = e;
      }
      const k = tile.length;
      for (let i = 0; i < s.prefix; i++) out[i] = combined[i]!;
      for (let j = 0; j < k; j++) {
        const e = combined[s.prefix + j];
        const q = Math.floor(e / tile[j]);
        out[s.prefix + j] = q;
        out[s.prefix + k + j] = e - q * tile[j];
      }
      cur = out;
    }
    return cur;
  }

  /** Slot offset of an in-bounds logical index. */
  linear(index: ArrayLike<number>): number {
    const final = this.forward(index, this.steps.length);
    let li = 0;
    for (let i = 0; i < final.length; i++) li += final[i] * this.strides[i];
    return li;
  }

  /** Row-major number of the tile holding `index` at tile level `level` (0 = first tile). */
  tileId(level: number, index: ArrayLike<number>): number {
    const s = this.steps[level];
    const out = this.forward(index, level + 1);
    let id = 0;
    for (let i = 0; i < s.tileStrides.length; i++) id += out[i] * s.tileStrides[i];
    return id;
  }

  /** Whether the slot at `offset` (in [0, expanded elements)) holds an element rather than padding. */
  holdsElement(offset: number): boolean {
    let cur = this.scratchFinal;
    let rest = offset;
    for (let i = cur.length - 1; i >= 0; i--) {
      const size = this.finalSizes[i];
      const q = Math.floor(rest / size);
      cur[i] = rest - q * size;
      rest = q;
    }
    for (let l = this.steps.length - 1; l >= 0; l--) {
      const s = this.steps[l];
      const k = s.tile.length;
      const { combined, vp } = s;
      for (let i = 0; i < s.prefix; i++) combined[i] = cur[i]!;
      for (let j = 0; j < k; j++) {
        const e = cur[s.prefix + j] * s.tile[j] + cur[s.prefix + k + j];
        if (e >= s.combinedSizes[s.prefix + j]) return false;
        combined[s.prefix + j] = e;
      }
      for (let g = 0; g < s.groups.length; g++) {
        const group = s.groups[g];
        let e = combined[g];
        for (let m = group.length - 1; m > 0; m--) {
          const size = s.vpSizes[group[m]];
          const q = Math.floor(e / size);
          vp[group[m]] = e - q * size;
          e = q;
        }
        vp[group[0]] = e;
      }
      cur = vp.subarray(s.vectorPadding);
    }
    return true;
  }
}
