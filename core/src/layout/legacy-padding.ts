/**
 * The pre-tiling `Layout.padded_dimensions` field described in the XLA "Shapes and layout" doc
 * (seed 002): each dim is padded to a width, then laid out in minor_to_major order. Kept so old
 * dumps and the doc's worked example (`a d 0 b e 0 c f 0 0 0 0 0 0 0`) can be explained.
 */
import { product } from './bigint-math';
import type { LayoutError } from './errors';

export interface LegacyPaddedLayout {
  readonly dims: readonly bigint[];
  /** Width each dim is padded to; one per dim, each >= its dim. */
  readonly paddedDimensions: readonly bigint[];
  readonly minorToMajor: readonly number[];
}

function check(layout: LegacyPaddedLayout): LayoutError | undefined {
  const rank = layout.dims.length;
  if (layout.paddedDimensions.length !== rank) {
    return {
      error: `padded_dimensions has ${layout.paddedDimensions.length} entries but the shape has rank ${rank}`,
    };
  }
  if (
    layout.minorToMajor.length !== rank ||
    new Set(layout.minorToMajor).size !== rank ||
    layout.minorToMajor.some((d) => !Number.isInteger(d) || d < 0 || d >= rank)
  ) {
    return {
      error: `minor_to_major {${layout.minorToMajor.join(',')}} is not a permutation of 0..${rank - 1}`,
    };
  }
  for (let i = 0; i < rank; i++) {
    if (layout.dims[i] < 0n || layout.paddedDimensions[i] < layout.dims[i]) {
      return {
        error: `dimension ${i} of size ${layout.dims[i]} cannot be padded to ${layout.paddedDimensions[i]}`,
      };
    }
  }
  return undefined;
}

/** Slot offset of a logical index under a legacy padded layout. */
export function legacyPaddedLinearIndex(
  layout: LegacyPaddedLayout,
  index: readonly bigint[],
): bigint | LayoutError {
  const bad = check(layout);
  if (bad !== undefined) return bad;
  if (index.length !== layout.dims.length || index.some((e, i) => e < 0n || e >= layout.dims[i])) {
    return { error: `index [${index.join(',')}] is not inside [${layout.dims.join(',')}]` };
  }
  let li = 0n;
  for (let i = layout.minorToMajor.length - 1; i >= 0; i--) {
    const d = layout.minorToMajor[i];
    li = li * layout.paddedDimensions[d] + index[d];
  }
  return li;
}

/**
 * Memory order of a legacy padded layout: for each slot, the logical index it holds or `null` for
 * padding. Refuses layouts with more than `maxSlots` slots (default 65536).
 */
export function legacyPaddedOrder(
  layout: LegacyPaddedLayout,
  maxSlots = 65536,
): (bigint[] | null)[] | LayoutError {
  const bad = check(layout);
  if (bad !== undefined) return bad;
  const slots = product(layout.paddedDimensions);
  if (slots > BigInt(maxSlots)) return { error: `${slots} slots exceed the limit of ${maxSlots}` };
  const rank = layout.dims.length;
  const out: (bigint[] | null)[] = [];
  for (let s = 0n; s < slots; s++) {
    const index = new Array<bigint>(rank);
    let rest = s;
    let inBounds = true;
    for (const d of layout.minorToMajor) {
      index[d] = rest % layout.paddedDimensions[d];
      rest /= layout.paddedDimensions[d];
      if (index[d] >= layout.dims[d]) inBounds = false;
    }
    out.push(inBounds ? index : null);
  }
  return out;
}
