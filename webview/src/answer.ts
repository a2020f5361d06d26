/**
 * The line at the top of the visualizer: what the panel was opened to find out, as the hover's
 * first line says it (server/src/hover-verdict.ts): the bytes before and after padding, the
 * dimension that pads and to what, and the layout that pads less. The pictures below show why.
 */
import { formatFactor, formatPercent, groupDigits, humanBytes, printTile } from '../../core/src';
import type { Drawable } from './analyze';

/** At most this many padded dimensions are named; the Padding section lists them all. */
const MAX_NAMED_DIMS = 2;

export interface Answer {
  /** "1 GiB logical → 4 GiB physical (4x, 75% padding)", or "4 GiB, no padding". */
  readonly sizes: string;
  /** Which dimension pads, under which tile, and to what. */
  readonly cause?: string;
  /** The layout change that saves memory, with what it saves. */
  readonly fix?: string;
}

/** The answer for a drawable array. */
export function answerOf(d: Drawable): Answer {
  const s = d.sizes;
  const padded = s.physicalBytes !== s.logicalBytes && s.expansion !== undefined;
  const sizes = padded
    ? `${humanBytes(s.logicalBytes)} logical → ${humanBytes(s.physicalBytes)} physical (${formatFactor(s.expansion.value)}, ${formatPercent(s.overhead?.value ?? 0)} padding)`
    : `${humanBytes(s.physicalBytes)}, no padding`;
  const cause = padded ? causeText(d) : undefined;
  const fix =
    d.fix !== undefined
      ? `Fix: ${d.fix.description} → ${humanBytes(d.fix.physicalBytes)}, saves ${humanBytes(d.fix.savedBytes)}`
      : undefined;
  return { sizes, ...(cause !== undefined ? { cause } : {}), ...(fix !== undefined ? { fix } : {}) };
}

function tileName(d: Drawable, level: number): string {
  const step = d.plan.steps[level];
  return step !== undefined ? `T${printTile(step.tile)}` : `tile ${level + 1}`;
}

/** The padded dimensions, largest factor first; else vector padding; else L(n). */
function causeText(d: Drawable): string | undefined {
  const p = d.padding;
  const named: string[] = [];
  const padded = p.dimensions.filter((x) => x.causes.length > 0);
  for (const x of [...padded].sort((a, b) => b.factor.value - a.factor.value).slice(0, MAX_NAMED_DIMS)) {
    const first = x.causes[0];
    // The extent all tile levels give the dim; a `*` merge pads the merged size.
    const extent =
      first.dims.length === 1 && (x.size * x.factor.numerator) % x.factor.denominator === 0n
        ? (x.size * x.factor.numerator) / x.factor.denominator
        : first.to;
    named.push(
      `${tileName(d, first.level)} pads dim ${x.dim} (size ${groupDigits(x.size)}) to ${groupDigits(extent)}`,
    );
  }
  if (padded.length > MAX_NAMED_DIMS) named.push('…');
  if (named.length > 0) return named.join(', ');
  const vector = p.causes.find((c) => c.dims.length === 0);
  if (vector !== undefined)
    return `${tileName(d, vector.level)} has more dimensions than the array: a size-1 dimension pads to ${groupDigits(vector.to)}`;
  if (p.tailPaddingSlots > 0n) return `L(n) rounds up by ${groupDigits(p.tailPaddingSlots)} slots`;
  return undefined;
}
