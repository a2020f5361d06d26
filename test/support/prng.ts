/**
 * mulberry32: a tiny deterministic PRNG. Tests and benchmarks that draw random inputs seed it, so a
 * failing run can be replayed and a generated file is the same on every machine.
 */

/** A generator of uniform numbers in [0, 1) determined entirely by `seed` (taken as a uint32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
