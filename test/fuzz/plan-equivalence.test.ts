/**
 * The fast layout paths against the straightforward ones, on array models built directly (so the
 * validator does not filter them: zero and huge dims, `*` runs, vector padding, E and L up to
 * 2^60, invalid values that must be refused) and on every array leaf of the shared corpus and its
 * HLO files, as written and under the assumed TPU tiling:
 * - `planTiling` equals the plan built the obvious way (reference-plan.ts), field by field;
 * - `sizes`, `tileDivisibility` and `physicalSizes` (linear walks without a plan) agree with the
 *   plan's slots and steps, including which shapes are refused and why.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { ShapeNode } from '../../core/src/ast';
import {
  assumedTpuTiling,
  isLayoutError,
  physicalSizes,
  planTiling,
  sizes,
  tileDivisibility,
  type TileDivisibility,
  type TilingPlan,
} from '../../core/src/layout';
import type { ArrayShape, TileDim } from '../../core/src/model';
import { parseShapeText, scanShapes } from '../../core/src/parse';
import { toArrayShape } from '../../core/src/to-model';
import { corpusHloFiles, corpusShapes, InputCounter } from './invariants';
import { referencePlan } from './reference-plan';

const TYPES = ['pred', 's4', 'u8', 'bf16', 'f32', 'c128', 's2', 'token', 'f8e4m3fn'];

/** Values around the 2^53 edge of the double fast path, and past it. */
const HUGE = [1n << 26n, (1n << 26n) + 1n, (1n << 53n) - 1n, 1n << 53n, (1n << 53n) + 1n, (1n << 62n) + 3n];

const dim = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }).map(BigInt) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1 << 20 }).map(BigInt) },
);

const tileEntry: fc.Arbitrary<TileDim> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 9 }).map(BigInt) },
  { weight: 2, arbitrary: fc.constant('combine' as const) },
  { weight: 2, arbitrary: fc.constantFrom(128n, 256n, 1024n) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
);

/** A random array model; `invalid` lets through values the layout guard must refuse. */
function arrayModel(invalid: boolean): fc.Arbitrary<ArrayShape> {
  return fc
    .integer({ min: 0, max: 6 })
    .chain((rank) =>
      fc.record({
        elementType: fc.constantFrom(...TYPES),
        dims: fc.array(
          invalid ? fc.oneof({ weight: 9, arbitrary: dim }, { weight: 1, arbitrary: fc.constant(-3n) }) : dim,
          { minLength: rank, maxLength: rank },
        ),
        minorToMajor: fc.shuffledSubarray([...Array(rank).keys()], { minLength: rank, maxLength: rank }),
        tiles: fc.array(
          fc
            .tuple(
              fc.array(tileEntry, { maxLength: rank + 2 }),
              invalid
                ? fc.oneof({ weight: 9, arbitrary: tileEntry }, { weight: 1, arbitrary: fc.constant(0n) })
                : tileEntry.filter((t) => t !== 'combine'),
            )
            .map(([head, last]) => [...head, last]),
          { maxLength: 3 },
        ),
        elementSizeBits: fc.constantFrom(0, 0, 0, 1, 3, 4, 32, 2 ** 40),
        tailPaddingAlignment: fc.constantFrom(1n, 1n, 2n, 3n, 64n, 1n << 60n),
      }),
    )
    .map((r): ArrayShape => ({
      ...r,
      dynamic: r.dims.map(() => 'static' as const),
      memorySpace: 0,
      splitConfigs: [],
      dynamicMetadataBytes: 0n,
    }));
}

/** Tile divisibility read off the plan's steps: what the linear walk must find. */
function divisibilityFromPlan(plan: TilingPlan): TileDivisibility {
  const levels = plan.steps.slice(1).map((step) => {
    const entries = step.effectiveTile.map((tile, j) => {
      const position = step.prefixLength + j;
      const size = step.combined[position];
      return { position, size, tile, divides: size % tile === 0n };
    });
    return { level: step.level, entries, divides: entries.every((e) => e.divides) };
  });
  return { levels, paddingBeyondArraySize: levels.some((l) => !l.divides) };
}

/** Checks the fast paths and the linear walks on one model against the plan. */
function assertEquivalent(shape: ArrayShape, what: string): void {
  const plan = planTiling(shape);
  assert.deepEqual(plan, referencePlan(shape), `${what}: planTiling`);
  const all = sizes(shape);
  const lean = physicalSizes(shape);
  const fit = tileDivisibility(shape);
  if (isLayoutError(plan)) {
    assert.deepEqual(all, plan, `${what}: refusal`);
    assert.deepEqual(lean, plan, `${what}: refusal`);
    assert.deepEqual(fit, plan, `${what}: refusal`);
    return;
  }
  assert.ok(!isLayoutError(all) && !isLayoutError(fit), what);
  assert.equal(all.physicalElements, plan.totalSlots, `${what}: sizes`);
  assert.deepEqual(fit, divisibilityFromPlan(plan), `${what}: tileDivisibility`);
  assert.deepEqual(
    lean,
    {
      logicalBytes: all.logicalBytes,
      physicalBytes: all.physicalBytes,
      expansion: all.expansion?.value,
      paddingBeyondArraySize: fit.paddingBeyondArraySize,
    },
    `${what}: physicalSizes`,
  );
}

/** The array models of every array leaf of `node`. */
function models(node: ShapeNode): ArrayShape[] {
  if (node.kind === 'array') {
    const m = toArrayShape(node);
    return m ? [m] : [];
  }
  if (node.kind === 'buffer') return models(node.element);
  return node.elements.flatMap(models);
}

describe('fuzz: layout fast paths equal the straightforward ones', () => {
  it('random valid models, including sizes past 2^53', () => {
    const counter = new InputCounter('layout fast paths, valid models');
    let refused = 0;
    fc.assert(
      fc.property(arrayModel(false), (shape) => {
        counter.add();
        if (isLayoutError(physicalSizes(shape))) refused++;
        assertEquivalent(
          shape,
          JSON.stringify(shape, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
        );
      }),
      { numRuns: 3000 },
    );
    counter.print();
    // Only token leaves and tiles ending in '*' are refused here; most models must be computed.
    assert.ok(refused < counter.total / 4, `${refused} of ${counter.total} refused`);
  });

  it('random models with negative dims, zero tile entries and trailing `*`: refused alike', () => {
    const counter = new InputCounter('layout fast paths, invalid models');
    fc.assert(
      fc.property(arrayModel(true), (shape) => {
        counter.add();
        assertEquivalent(
          shape,
          JSON.stringify(shape, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
        );
      }),
      { numRuns: 1500 },
    );
    counter.print();
  });

  it('rank 70 with a 75-entry tile and `*` runs: positions past the shared one-element lists', () => {
    const rank = 70;
    const dims = Array.from({ length: rank }, (_, i) => BigInt(1 + (i % 3)));
    const tile: TileDim[] = Array.from({ length: 75 }, (_, j) =>
      j % 4 === 1 ? 'combine' : BigInt(1 + (j % 5)),
    );
    const shape: ArrayShape = {
      elementType: 'bf16',
      dims,
      dynamic: dims.map(() => 'static' as const),
      minorToMajor: Array.from({ length: rank }, (_, i) => (i * 11) % rank),
      tiles: [tile, [2n, 1n]],
      elementSizeBits: 0,
      tailPaddingAlignment: 1n,
      memorySpace: 0,
      splitConfigs: [],
      dynamicMetadataBytes: 0n,
    };
    assertEquivalent(shape, 'rank 70');
    const plan = planTiling(shape);
    assert.ok(!isLayoutError(plan));
    assert.equal(plan.steps[0].vectorPadding, 5);
    // Tile entry 73 is `*`: the minor-most group merges physical positions 68 and 69 (logical 11 and 0).
    assert.deepEqual(plan.steps[0].mergedFrom[plan.steps[0].mergedFrom.length - 1], [73, 74]);
    assert.deepEqual(plan.expandedOrigins[plan.expandedOrigins.length - 3], [0, 11]);
  });

  it('every array leaf of the corpus shapes and HLO files, as written and under the assumed TPU tiling', () => {
    const nodes: ShapeNode[] = [];
    for (const text of corpusShapes()) {
      const node = parseShapeText(text).shape;
      if (node) nodes.push(node);
    }
    for (const [, text] of corpusHloFiles()) for (const f of scanShapes(text)) nodes.push(f.shape);
    let checked = 0;
    for (const node of nodes) {
      for (const shape of models(node)) {
        assertEquivalent(
          shape,
          JSON.stringify(shape, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
        );
        assertEquivalent(assumedTpuTiling(shape), 'assumed TPU tiling');
        checked++;
      }
    }
    assert.ok(checked > 1000, `only ${checked} corpus leaves`);
  });
});
