/**
 * The padding account: which tile entry pads which dimension, by how much, and what dominates —
 * so a UI can say "dim 1, size 4, is minor-most; T(8,128) pads it to 128: 32x".
 */
import type { ArrayShape } from '../model';
import { ratio, type Ratio } from './bigint-math';
import type { LayoutError } from './errors';
import { isLayoutError } from './errors';
import { checkArrayShape } from './shape-check';
import { walkTiles } from './tile-walk';
import { planTiling, type TilingPlan } from './tiling-plan';

/** One tile entry that rounds a dimension up. */
export interface PaddingCause {
  /** Tile level (0 = first tile). */
  readonly level: number;
  /** Index of the entry in the tile as written (counting `*` entries). */
  readonly tileEntry: number;
  readonly tileSize: bigint;
  /** Size of the tiled dim at that level (after vector padding and `*` merging). */
  readonly from: bigint;
  /** Size after rounding up to a multiple of `tileSize`. */
  readonly to: bigint;
  /** to / from. */
  readonly factor: Ratio;
  /** Logical dims behind the padded dim: one normally, several after `*`, none for vector padding. */
  readonly dims: readonly number[];
}

export interface DimensionPadding {
  readonly dim: number;
  /** 0 = major-most. */
  readonly physicalPosition: number;
  readonly isMinorMost: boolean;
  readonly size: bigint;
  /** Causes that pad this dim (directly or as part of a `*` merge), in tile order. */
  readonly causes: readonly PaddingCause[];
  /** Product of the causes' factors; 1 when the dim is not padded. */
  readonly factor: Ratio;
}

export interface PaddingAccount {
  readonly dimensions: readonly DimensionPadding[];
  /** Every cause, including vector padding (tile rank > shape rank), which pads no logical dim. */
  readonly causes: readonly PaddingCause[];
  /** The cause with the largest factor, if any padding happens. */
  readonly dominant: PaddingCause | undefined;
  /** Element slots after tiling / logical elements (before L); `undefined` for an empty array. */
  readonly tilingFactor: Ratio | undefined;
  /** Slots added by L(n) tail rounding. */
  readonly tailPaddingSlots: bigint;
}

/** Walks the plan and lists every tile entry that pads. */
export function paddingCauses(plan: TilingPlan): PaddingCause[] {
  const causes: PaddingCause[] = [];
  for (const step of plan.steps) {
    // Map each effective tile entry back to its index in the tile as written.
    const written: number[] = [];
    step.tile.forEach((t, j) => {
      if (t !== 'combine') written.push(j);
    });
    step.effectiveTile.forEach((t, j) => {
      const p = step.prefixLength + j;
      const from = step.combined[p];
      const to = step.padded[p];
      if (to === from) return;
      causes.push({
        level: step.level,
        tileEntry: written[j],
        tileSize: t,
        from,
        to,
        factor: ratio(to, from)!,
        dims: step.combinedOrigins[p],
      });
    });
  }
  return causes;
}

/**
 * The cause with the largest factor (the first among equals), or undefined when nothing pads. An
 * empty array pads nothing, whatever its tiles would do to its other dims.
 */
export function dominantCause(shape: ArrayShape, causes: readonly PaddingCause[]): PaddingCause | undefined {
  if (shape.dims.includes(0n)) return undefined;
  let dominant: PaddingCause | undefined;
  for (const c of causes) if (dominant === undefined || c.factor.value > dominant.factor.value) dominant = c;
  return dominant;
}

/** Per-dimension padding account of `shape`. */
export function paddingByDimension(shape: ArrayShape): PaddingAccount | LayoutError {
  const plan = planTiling(shape);
  if (isLayoutError(plan)) return plan;
  const causes = paddingCauses(plan);
  const rank = plan.rank;
  const dimensions = plan.physicalToLogical.map((dim, physicalPosition): DimensionPadding => {
    const mine = causes.filter((c) => c.dims.includes(dim));
    let num = 1n;
    let den = 1n;
    for (const c of mine) {
      num *= c.to;
      den *= c.from;
    }
    return {
      dim,
      physicalPosition,
      isMinorMost: physicalPosition === rank - 1,
      size: shape.dims[dim],
      causes: mine,
      factor: ratio(num, den)!,
    };
  });
  dimensions.sort((a, b) => a.dim - b.dim);
  let logical = 1n;
  for (const d of shape.dims) logical *= d;
  const dominant = dominantCause(shape, causes);
  return {
    dimensions,
    causes,
    dominant,
    tilingFactor: ratio(plan.expandedElements, logical),
    tailPaddingSlots: plan.totalSlots - plan.expandedElements,
  };
}

/** How one later tile level fits the dims it covers. */
export interface TileLevelFit {
  readonly level: number;
  readonly entries: readonly {
    readonly position: number;
    readonly size: bigint;
    readonly tile: bigint;
    readonly divides: boolean;
  }[];
  readonly divides: boolean;
}

export interface TileDivisibility {
  /** Levels 1.. (the first tile is what ArraySize accounts for). */
  readonly levels: readonly TileLevelFit[];
  /** True when some later level pads, so the physical size exceeds XLA's ArraySize. */
  readonly paddingBeyondArraySize: boolean;
}

/**
 * For each tile level after the first, whether its entries divide the dims they cover. When one
 * does not, that level adds padding XLA's ArraySize does not count (spec §3: `f32[4,6]{1,0:T(3,4)(2,1)}`
 * has ArraySize 192 bytes but needs 256). Walks the levels in linear time, without a plan.
 */
export function tileDivisibility(shape: ArrayShape): TileDivisibility | LayoutError {
  const bad = checkArrayShape(shape);
  if (bad !== undefined) return bad;
  const levels: TileLevelFit[] = [];
  const slots = walkTiles(shape, (c) => {
    if (c.level === 0) return;
    const entries = c.tile.map((tile, j) => {
      const size = c.sizes[j];
      return { position: c.prefixLength + j, size, tile, divides: size % tile === 0n };
    });
    levels.push({ level: c.level, entries, divides: entries.every((e) => e.divides) });
  });
  if (isLayoutError(slots)) return slots;
  return { levels, paddingBeyondArraySize: levels.some((l) => !l.divides) };
}
