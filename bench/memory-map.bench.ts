/**
 * Benchmark: buildMemoryMap of bf16[4096,4096]{1,0:T(8,128)(2,1)} (16.7M cells), next to a
 * reference loop that only fills a Float64Array of the same length and sums it, so the figure
 * reads as "how far from a bare typed-array pass". Target: under 200 ms.
 * Run alone: `npx tsx bench/memory-map.bench.ts`; bench/run.ts imports {@link runMemoryMapBench}.
 */
import { buildMemoryMap, isLayoutError } from '../core/src/layout';
import type { ArrayShape } from '../core/src/model';
import { bestOf } from './stats';

export interface MemoryMapBenchResult {
  readonly name: string;
  readonly cells: number;
  /** Best of `runs` wall times of buildMemoryMap, ms. */
  readonly ms: number;
  /** Best of `runs` wall times of the reference pass, ms. */
  readonly referenceMs: number;
  readonly targetMs: number;
}

const SHAPE: ArrayShape = {
  elementType: 'bf16',
  dims: [4096n, 4096n],
  dynamic: ['static', 'static'],
  minorToMajor: [1, 0],
  tiles: [
    [8n, 128n],
    [2n, 1n],
  ],
  elementSizeBits: 0,
  tailPaddingAlignment: 1n,
  memorySpace: 0,
  splitConfigs: [],
  dynamicMetadataBytes: 0n,
};

function reference(n: number): number {
  const a = new Float64Array(n).fill(1);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i];
  return sum;
}

/** Times buildMemoryMap on the 16.7M-cell TPU layout (best of `runs`) and the reference pass. */
export function runMemoryMapBench(runs = 5): MemoryMapBenchResult {
  const cells = 4096 * 4096;
  let checked = false;
  const ms = bestOf(runs, () => {
    const m = buildMemoryMap(SHAPE);
    if (isLayoutError(m)) throw new Error(m.message);
    // Keep the result observable so the work cannot be skipped: cell (1,0) is slot 1 under (2,1).
    checked = m.slotOf(1, 0) === 1 && m.slotCount === cells;
  });
  if (!checked) throw new Error('memory map bench: unexpected map');
  const referenceMs = bestOf(runs, () => {
    if (reference(cells) !== cells) throw new Error('reference pass miscounted');
  });
  return { name: 'buildMemoryMap bf16[4096,4096]{1,0:T(8,128)(2,1)}', cells, ms, referenceMs, targetMs: 200 };
}

const invokedDirectly =
  typeof process !== 'undefined' &&
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (invokedDirectly) {
  const r = runMemoryMapBench();
  console.log(
    `${r.name}: ${r.ms.toFixed(1)} ms for ${r.cells} cells (reference fill+sum ${r.referenceMs.toFixed(1)} ms; target < ${r.targetMs} ms)`,
  );
}
