/**
 * Memoised validation for the hot path (`xla-layout check` over 100 MB dumps): dumps repeat the
 * same shape text thousands of times, so diagnostics are computed once per distinct text and
 * re-based to each occurrence.
 */
import type { LayoutDiagnostic } from '../diagnostics';
import type { FoundShape } from '../parse/scan-shapes';
import { validateShape, type ValidateOptions } from './validate-shape';

export interface ShapeChecker {
  /**
   * All diagnostics of a found shape: the parser's (`found.diagnostics`) followed by
   * {@link validateShape}'s, with ranges absolute in `text`.
   */
  check(text: string, found: FoundShape): LayoutDiagnostic[];
  /** Number of distinct shape texts currently cached. */
  readonly size: number;
}

export interface ShapeCheckerOptions extends ValidateOptions {
  /** Distinct shape texts kept before the cache is emptied (default 50,000). */
  readonly maxEntries?: number;
}

const NONE: readonly LayoutDiagnostic[] = [];

function shift(diagnostics: readonly LayoutDiagnostic[], delta: number): LayoutDiagnostic[] {
  return diagnostics.map((d) => ({ ...d, range: { start: d.range.start + delta, end: d.range.end + delta } }));
}

/** Creates a checker with its own cache (diagnostics stored relative to the shape's start). */
export function createShapeChecker(options: ShapeCheckerOptions = {}): ShapeChecker {
  const maxEntries = options.maxEntries ?? 50_000;
  const cache = new Map<string, readonly LayoutDiagnostic[]>();
  return {
    check(text: string, found: FoundShape): LayoutDiagnostic[] {
      const { start, end } = found.shape.range;
      const key = text.slice(start, end);
      let relative = cache.get(key);
      if (relative === undefined) {
        const absolute = validateShape(found.shape, options);
        relative = absolute.length === 0 ? NONE : shift(absolute, -start);
        if (cache.size >= maxEntries) cache.clear();
        cache.set(key, relative);
      }
      if (relative.length === 0) return found.diagnostics.length === 0 ? [] : found.diagnostics.slice();
      return [...found.diagnostics, ...shift(relative, start)];
    },
    get size() {
      return cache.size;
    },
  };
}
