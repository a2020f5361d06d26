/**
 * FNV-1a over UTF-16 code units, the hash of memoised per-shape work (validate/region-cache.ts). It
 * lives with the parser so that the shape-key scan (shape-key.ts) can hash a key in the same pass
 * that finds where it ends, instead of reading the key a second time.
 */

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;
/** Hashes are reduced to 30 bits (small integers in V8). */
export const HASH_MASK = 0x3fffffff;

/** Continues the FNV-1a state `h` over `text[start, end)` (unreduced). */
export function fnvRegion(h: number, text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a hash of `text[start, end)`, reduced to 30 bits. */
export function regionHash(text: string, start: number, end: number): number {
  return fnvRegion(FNV_OFFSET, text, start, end) & HASH_MASK;
}
