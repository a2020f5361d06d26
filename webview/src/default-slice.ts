/**
 * Which 2-D slice of an N-D array the visualizer opens on: the one where the tiles pad. That is
 * among the minor-most physical dims the first tile covers; of those, padded dims come first, then
 * the more minor. Shown as rows the more major of the two, as columns the more minor, so tiles read
 * as they sit in memory (T(8,128): 8 rows of 128). The reason is said in words under the selectors.
 */
import { groupDigits, printTile, type PaddingCause } from '../../core/src';
import type { Drawable } from './analyze';

export interface SliceChoice {
  readonly rowDim: number | undefined;
  readonly colDim: number | undefined;
  /**
   * Why these dims, to follow "dims 1 and 0": ", where the tiles pad: T(4,128) pads dim 1 from 1
   * to 4." ('' below rank 2, where there is nothing to choose).
   */
  readonly reason: string;
}

/** The slice of something without a picture (a tuple, an invalid shape). */
export const NO_SLICE: SliceChoice = { rowDim: undefined, colDim: undefined, reason: '' };

/** The logical dims the first tile covers (all dims when untiled), without repeats. */
function coveredDims(d: Drawable): number[] {
  const step = d.plan.steps[0];
  if (step === undefined) return [...d.plan.physicalToLogical];
  const dims = step.combinedOrigins.slice(step.prefixLength).flat();
  return [...new Set(dims)];
}

function causeText(d: Drawable, cause: PaddingCause): string {
  const step = d.plan.steps[cause.level];
  const tile = step !== undefined ? `T${printTile(step.tile)}` : `tile ${cause.level + 1}`;
  const who = cause.dims.length > 1 ? `dims ${cause.dims.join(' * ')} (merged by *)` : `dim ${cause.dims[0]}`;
  return `${tile} pads ${who} from ${groupDigits(cause.from)} to ${groupDigits(cause.to)}`;
}

/** The slice to open `d` on, and why. */
export function defaultSlice(d: Drawable): SliceChoice {
  const rank = d.shape.dims.length;
  if (rank === 0) return NO_SLICE;
  if (rank === 1) return { rowDim: undefined, colDim: 0, reason: '' };
  const position = (dim: number): number => d.plan.physicalToLogical.indexOf(dim);
  const padded = (dim: number): boolean =>
    d.padding.dimensions.some((x) => x.dim === dim && x.causes.length > 0);
  // Padded dims first, then the more minor.
  const preferred = (a: number, b: number): number =>
    Number(padded(b)) - Number(padded(a)) || position(b) - position(a);
  const chosen = coveredDims(d).sort(preferred).slice(0, 2);
  for (const dim of [...d.plan.physicalToLogical].sort(preferred)) {
    if (chosen.length === 2) break;
    if (!chosen.includes(dim)) chosen.push(dim);
  }
  const [rowDim, colDim] = chosen.sort((a, b) => position(a) - position(b));
  // A cause of a `*` merge is listed under each of its dims: name it once.
  const shownCauses = new Set(
    [rowDim, colDim].flatMap((dim) => d.padding.dimensions.find((x) => x.dim === dim)?.causes ?? []),
  );
  const causes = [...shownCauses].map((c) => causeText(d, c));
  let reason: string;
  if (causes.length > 0) reason = `, where the tiles pad: ${causes.join('; ')}.`;
  else if (d.plan.steps.length === 0) reason = ', the minor-most in memory: the array is not tiled.';
  else reason = ', the minor-most in memory: no tile pads them.';
  return { rowDim, colDim, reason };
}
