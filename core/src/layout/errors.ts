/**
 * Layout math never throws: nonsense input (a shape the validator would reject, an index out of
 * bounds, a slice too large to map) comes back as a {@link LayoutError} value, errors as data. The
 * code is stable, for programs and tests; the message is a sentence for people and may change.
 */

/**
 * Every reason layout math refuses. To add one, add its code here and return
 * `layoutError(code, message)`; the codes are distinct from the diagnostic rule codes (a test holds
 * it), so either kind can be told apart by its code.
 */
export const LAYOUT_ERROR_CODES = [
  // The shape itself (checkArrayShape, the text readers).
  'invalid-shape',
  'not-an-array',
  'not-array-type',
  'negative-dimension',
  'minor-to-major-length',
  'minor-to-major-permutation',
  'empty-tile',
  'non-positive-tile',
  'tile-ends-in-combine',
  'invalid-element-size',
  'element-size-too-large',
  'tail-alignment-below-one',
  // Exact math kept within bounds.
  'too-many-slots',
  // A tiling plan too large to keep step by step (the sizes are still computed).
  'plan-too-large',
  // Indexes and offsets.
  'index-rank',
  'index-out-of-bounds',
  'offset-out-of-range',
  // Memory-map slices.
  'slice-dimension',
  'slice-dimensions-equal',
  'slice-fixed-rank',
  'slice-fixed-out-of-bounds',
  'slice-too-large',
  'slice-offsets-inexact',
  'slice-too-many-cells',
  'slice-span-too-large',
  'slice-too-sparse',
] as const;

export type LayoutErrorCode = (typeof LAYOUT_ERROR_CODES)[number];

/** A refusal to compute: a stable code and a sentence that says why. */
export interface LayoutError {
  readonly code: LayoutErrorCode;
  readonly message: string;
}

const KNOWN: ReadonlySet<string> = new Set(LAYOUT_ERROR_CODES);

/** A {@link LayoutError}. */
export function layoutError(code: LayoutErrorCode, message: string): LayoutError {
  return { code, message };
}

/** Narrows any layout-math result to its error case. */
export function isLayoutError(value: unknown): value is LayoutError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as { code?: unknown; message?: unknown };
  return typeof code === 'string' && KNOWN.has(code) && typeof message === 'string';
}
