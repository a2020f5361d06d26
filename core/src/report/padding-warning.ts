/**
 * The padding-overhead rule: a value that XLA allocates (see memory/allocation-sites.ts) whose
 * tiling pads it to at least `warnExpansion` times its size and wastes at least
 * `warnMinWastedBytes`. Shared by the editor's diagnostics and `xla-layout check`, so that both
 * warn on the same lines with the same sentence.
 */
import type { ArrayShape } from '../model';
import { dominantCause, isLayoutError, paddingCauses, suggestFix, type TilingPlan } from '../layout';
import { elideList, formatFactor, groupDigits, humanBytes } from '../format';
import { printTile } from '../print';

/** When padding is worth a warning (the editor's `xlaLayout.padding.*` settings). */
export interface PaddingThresholds {
  /** Physical / logical bytes at least this… */
  readonly warnExpansion: number;
  /** …and at least this many bytes of padding. */
  readonly warnMinWastedBytes: number;
}

/** The defaults of the editor's settings and of `check`'s options. */
export const DEFAULT_PADDING_THRESHOLDS: PaddingThresholds = { warnExpansion: 4, warnMinWastedBytes: 65536 };

/** Whether padding of these sizes crosses `thresholds`. */
export function paddingWarns(
  logicalBytes: bigint,
  physicalBytes: bigint,
  expansion: number,
  thresholds: PaddingThresholds,
): boolean {
  if (logicalBytes === 0n || expansion < thresholds.warnExpansion) return false;
  return physicalBytes - logicalBytes >= BigInt(Math.ceil(thresholds.warnMinWastedBytes));
}

/**
 * The sentence naming the dimension that pads most and the tile entry responsible, read from the
 * shape's tiling plan: the dominant cause (largest factor, first among equals) of
 * `paddingByDimension`, without building the rest of its account.
 */
export function paddingCause(shape: ArrayShape, plan: TilingPlan): string | undefined {
  const c = dominantCause(shape, paddingCauses(plan));
  if (!c) return undefined;
  const tile = shape.tiles[c.level];
  const tileText = tile ? `tile ${printTile(tile)}` : `tile ${c.level + 1}`;
  if (c.dims.length === 0)
    return `${tileText} pads leading size-1 dimensions (vector padding) to ${groupDigits(c.to)}`;
  const names = elideList(
    c.dims,
    (d) => {
      const physicalPosition = plan.physicalToLogical.indexOf(d);
      const where = physicalPosition >= 0 && physicalPosition === plan.rank - 1 ? ', minor-most' : '';
      return `dim ${d} (size ${groupDigits(shape.dims[d] ?? 0n)}${where})`;
    },
    ' × ',
    16,
  );
  return `${names}: ${tileText} pads ${groupDigits(c.from)} to ${groupDigits(c.to)} (${formatFactor(c.factor.value)})`;
}

/** The layout change the hover offers (core's suggestFix), in brief: what to write and what it saves. */
export interface PaddingFix {
  readonly description: string;
  readonly savedBytes: bigint;
}

/**
 * {@link PaddingFix} for `shape` (as laid out, assumed tiles included), when a change saves memory.
 * A reorder is only the order to write: the cause before it already names the minor-most dim.
 */
export function paddingFix(shape: ArrayShape): PaddingFix | undefined {
  const fix = suggestFix(shape);
  if (!fix || isLayoutError(fix)) return undefined;
  const description =
    fix.kind === 'reorder'
      ? `use minor_to_major {${fix.shape.minorToMajor.join(',')}} instead of {${shape.minorToMajor.join(',')}}`
      : fix.description;
  return { description, savedBytes: fix.savedBytes };
}

/** What the warning says about one array. */
export interface PaddedArray {
  readonly logicalBytes: bigint;
  readonly physicalBytes: bigint;
  readonly expansion: number;
  /** The assumed tiling rule, when the padding comes from it rather than the layout written. */
  readonly assumed?: string | undefined;
  /** {@link paddingCause}'s sentence. */
  readonly cause?: string | undefined;
  /** {@link paddingFix}'s change. */
  readonly fix?: PaddingFix | undefined;
}

/**
 * The padding-overhead warning's sentence: how bad, which dimension, then the fix, since the
 * Problems list (and `check`'s output) is where users of a dump with many warnings read.
 */
export function paddingWarningText(a: PaddedArray): string {
  const wasted = a.physicalBytes - a.logicalBytes;
  const label = a.assumed ? `Assumed ${a.assumed}: ` : '';
  const because = a.cause ? ` ${a.cause}.` : '';
  const fix = a.fix ? ` Fix: ${a.fix.description}, saving ${humanBytes(a.fix.savedBytes)}.` : '';
  return (
    `${label}padding makes this array ${formatFactor(a.expansion)} its size: ${humanBytes(a.logicalBytes)} logical → ` +
    `${humanBytes(a.physicalBytes)} physical (${groupDigits(wasted)} bytes of padding).${because}${fix}`
  );
}
