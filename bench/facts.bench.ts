/**
 * Benchmark: the per-shape "facts" the language server computes for every distinct shape text of a
 * document (server/src/shape-facts.ts: validation, tiling plan, divisibility advice, sizes, padding
 * cause) and the leaf sizes `xla-layout report` sums (core/src/report/leaf-sizes.ts), over every
 * distinct shape of the generated 50 MB model dump. The reference, in the same run, is parsing
 * those same shape texts: the work the facts sit on top of. Each figure is the best of a few runs
 * with fresh caches, so every shape is computed once per run.
 * Run alone: `npx tsx bench/facts.bench.ts`; bench/run.ts imports {@link runFactsBench}.
 */
import * as fs from 'fs';
import type { ShapeNode } from '../core/src/ast';
import { physicalSizes, planTiling, sizes } from '../core/src/layout';
import type { ArrayShape } from '../core/src/model';
import { parseShape, scanShapes } from '../core/src/parse';
import { LeafSizeCache } from '../core/src/report/leaf-sizes';
import { toArrayShape } from '../core/src/to-model';
import { DEFAULT_SETTINGS, type Settings } from '../protocol/src/settings';
import { arrayLeaves, ShapeFactsCache } from '../server/src/shape-facts';
import { ensureDump } from './generate-dump';
import { bestOf } from './stats';

export interface FactsBenchResult {
  readonly name: string;
  readonly shapes: number;
  /** Best of `RUNS` wall times, ms. */
  readonly ms: number;
  /** Best of `RUNS` wall times of parsing the same shape texts, ms. */
  readonly referenceMs: number;
}

const RUNS = 7;

interface Corpus {
  readonly texts: readonly string[];
  readonly nodes: readonly ShapeNode[];
  /** The array models of every array leaf, for the layout-math-only figure. */
  readonly models: readonly ArrayShape[];
}

/** Distinct outermost shape texts of the dump (the server's cache keys), each parsed on its own. */
function collect(file: string): Corpus {
  const text = fs.readFileSync(file, 'utf8');
  const distinct = new Set<string>();
  for (const f of scanShapes(text)) distinct.add(text.slice(f.shape.range.start, f.shape.range.end));
  const texts: string[] = [];
  const nodes: ShapeNode[] = [];
  const models: ArrayShape[] = [];
  for (const t of distinct) {
    const node = parseShape(t, 0, { end: t.length }).shape;
    if (!node) continue;
    texts.push(t);
    nodes.push(node);
    for (const leaf of arrayLeaves(node)) {
      const model = toArrayShape(leaf);
      if (model) models.push(model);
    }
  }
  return { texts, nodes, models };
}

/** Keeps results reachable so the optimiser cannot drop the work. */
let sink = 0;

function factsPass(corpus: Corpus, settings: Settings): void {
  const cache = new ShapeFactsCache(settings);
  for (let i = 0; i < corpus.nodes.length; i++)
    sink += cache.get(corpus.texts[i], corpus.nodes[i]).leaves.length;
}

/** Runs the facts benchmarks on the 50 MB model dump (generated into bench/data/ once). */
export function runFactsBench(): FactsBenchResult[] {
  const corpus = collect(ensureDump('50MB', 'model'));
  const shapes = corpus.texts.length;
  const referenceMs = bestOf(RUNS, () => {
    for (const t of corpus.texts) sink += parseShape(t, 0, { end: t.length }).shape ? 1 : 0;
  });
  const tpu: Settings = { ...DEFAULT_SETTINGS, assumedTiling: 'tpu' };
  const results: FactsBenchResult[] = [
    {
      name: `shape facts, ${shapes} distinct shapes of the 50 MB dump`,
      shapes,
      ms: bestOf(RUNS, () => factsPass(corpus, DEFAULT_SETTINGS)),
      referenceMs,
    },
    {
      name: 'shape facts, assumed TPU tiling',
      shapes,
      ms: bestOf(RUNS, () => factsPass(corpus, tpu)),
      referenceMs,
    },
    {
      name: 'report leaf sizes (LeafSizeCache)',
      shapes,
      referenceMs,
      ms: bestOf(RUNS, () => {
        const cache = new LeafSizeCache(1_000_000);
        for (let i = 0; i < corpus.nodes.length; i++)
          sink += cache.of(corpus.nodes[i], corpus.texts[i]) ? 1 : 0;
      }),
    },
    {
      name: `plan + sizes, ${corpus.models.length} array models`,
      shapes: corpus.models.length,
      referenceMs,
      ms: bestOf(RUNS, () => {
        for (const m of corpus.models) sink += planTiling(m) && sizes(m) ? 1 : 0;
      }),
    },
    {
      name: `physicalSizes, ${corpus.models.length} array models`,
      shapes: corpus.models.length,
      referenceMs,
      ms: bestOf(RUNS, () => {
        for (const m of corpus.models) sink += physicalSizes(m) ? 1 : 0;
      }),
    },
  ];
  if (sink < 0) console.error(sink);
  return results;
}

if (require.main === module) {
  for (const r of runFactsBench())
    console.log(`${r.name}: ${r.ms.toFixed(1)} ms (parse reference ${r.referenceMs.toFixed(1)} ms)`);
}
