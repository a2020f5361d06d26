/** Summaries of repeated timings shared by the benchmarks. */

/** The middle value (the upper of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The fastest of `runs` timings of `f`, in ms: the run least disturbed by the machine. */
export function bestOf(runs: number, f: () => void): number {
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    f();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}
