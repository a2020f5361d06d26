/**
 * `ShapeChecker.checkText` plus the number of shapes found, in one memoised walk. The streaming
 * check prints "N errors in M shapes", and `checkText` returns diagnostics only; counting in a
 * second walk measured almost as slow as checking (0.44 s vs 0.55 s on a 10 MB dump), so the count
 * is cached per candidate next to its diagnostics instead. Same walk, same keys, same per-shape
 * checker as `checkText`, so the diagnostics are identical (the tests compare them).
 */
import type { LayoutDiagnostic } from '../diagnostics';
import { scanAt, walkShapeCandidates, type FoundShape } from '../parse/scan-shapes';
import { shapeKeyEnd } from '../parse/shape-key';
import { RegionCache, regionHash } from '../validate/region-cache';
import type { ShapeChecker } from '../validate/shape-checker';

/** What one candidate yields, offsets relative to the candidate. */
interface Candidate {
  readonly diagnostics: readonly LayoutDiagnostic[];
  readonly shapes: number;
  readonly next: number;
}

/** Diagnostics (absolute ranges, source order) and shape count of a region. */
export interface CountedCheck {
  readonly diagnostics: LayoutDiagnostic[];
  readonly shapes: number;
}

const NONE: readonly LayoutDiagnostic[] = [];

function moved(d: LayoutDiagnostic, delta: number): LayoutDiagnostic {
  return delta === 0 ? d : { ...d, range: { start: d.range.start + delta, end: d.range.end + delta } };
}

/**
 * A function checking `text[start, end)` with `checker` (which validates and caches each shape)
 * and counting the shapes, caching each candidate's result (at most `maxEntries` candidate texts).
 */
export function createCountedCheck(checker: ShapeChecker, maxEntries = 50_000): (text: string, start: number, end: number) => CountedCheck {
  const cache = new RegionCache<Candidate>(maxEntries);
  const found: FoundShape[] = [];

  function checkAt(text: string, pos: number, bound: number): { diagnostics: LayoutDiagnostic[]; shapes: number; next: number } {
    found.length = 0;
    const next = scanAt(text, pos, bound, found);
    const diagnostics: LayoutDiagnostic[] = [];
    for (const f of found) for (const d of checker.check(text, f)) diagnostics.push(d);
    return { diagnostics, shapes: found.length, next };
  }

  return (text, start, end) => {
    const diagnostics: LayoutDiagnostic[] = [];
    let shapes = 0;
    walkShapeCandidates(text, start, end, (t, pos, bound, typeEnd) => {
      const keyEnd = shapeKeyEnd(t, pos, bound, typeEnd);
      if (keyEnd < 0) {
        const r = checkAt(t, pos, bound);
        for (const d of r.diagnostics) diagnostics.push(d);
        shapes += r.shapes;
        return r.next;
      }
      const hash = regionHash(t, pos, keyEnd);
      let hit = cache.get(t, pos, keyEnd, hash);
      if (hit === undefined) {
        const r = checkAt(t, pos, bound);
        hit = { diagnostics: r.diagnostics.length === 0 ? NONE : r.diagnostics.map((d) => moved(d, -pos)), shapes: r.shapes, next: r.next - pos };
        cache.set(t, pos, keyEnd, hash, hit);
      }
      for (const d of hit.diagnostics) diagnostics.push(moved(d, pos));
      shapes += hit.shapes;
      return pos + hit.next;
    });
    return { diagnostics, shapes };
  };
}
