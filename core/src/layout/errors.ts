/**
 * Layout math never throws: nonsense input (a shape the validator would reject, an index out of
 * bounds, a wrong rank) comes back as a {@link LayoutError} value the caller can show.
 */

/** A refusal to compute, with a sentence that says why. */
export interface LayoutError {
  readonly error: string;
}

/** Narrows any layout-math result to its error case. */
export function isLayoutError(value: unknown): value is LayoutError {
  return (
    typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string'
  );
}
