/**
 * Layouts with thousands of tile levels (XLA accepts any number): sizes, tile divisibility and the
 * untiled test walk the levels in linear time and stay exact; the tiling plan, which keeps every
 * intermediate shape, refuses past MAX_PLAN_SIZES with a sentence naming the limit, and everything
 * built on it (linear index, element at offset, memory map, padding account, explain) refuses alike.
 * Before the walks were linear these inputs took minutes or ran out of memory.
 */
import { strict as assert } from 'node:assert';
import {
  MAX_PLAN_SIZES,
  buildMemoryMap,
  elementAt,
  isLayoutError,
  isUntiled,
  linearIndex,
  paddingByDimension,
  physicalSizes,
  planTiling,
  sizes,
  suggestFix,
  tileDivisibility,
  type LayoutSizes,
  type PhysicalSizes,
  type TileDivisibility,
} from '../../core/src/layout';
import { explainShapeText } from '../../core/src';
import type { ArrayShape, TileDim } from '../../core/src/model';
import { shapeOf } from './layout-shape-literal';

/** `base` with `tiles` in place of its tiles. */
function withTiles(base: string, tiles: readonly (readonly TileDim[])[]): ArrayShape {
  return { ...shapeOf(base), tiles };
}

const repeat = (tile: readonly TileDim[], n: number): TileDim[][] =>
  Array.from({ length: n }, () => [...tile]);

describe('many tile levels', () => {
  it('200,000 one-entry tiles: sizes and divisibility are exact, in linear time', () => {
    // Each (1) adds a count and an entry of 1: the slots stay those of f32[3,5].
    const shape = withTiles('f32[3,5]{1,0}', repeat([1n], 200_000));
    const lean = physicalSizes(shape) as PhysicalSizes;
    assert.deepEqual(lean, {
      logicalBytes: 60n,
      physicalBytes: 60n,
      expansion: 1,
      paddingBeyondArraySize: false,
    });
    const all = sizes(shape) as LayoutSizes;
    assert.equal(all.physicalElements, 15n);
    assert.equal(all.arraySizeBytes, 60n);
    const fit = tileDivisibility(shape) as TileDivisibility;
    assert.equal(fit.levels.length, 199_999);
    assert.ok(fit.levels.every((l) => l.divides));
    assert.equal(isUntiled(shape), true);
  });

  it('100,000 (2,2) tiles, the last levels padding: found on the doubles and on bigints alike', () => {
    // T(2,2) on [4,4] gives [2,2,2,2]; every later (2,2) covers [2,2] and adds counts of 1.
    const even = withTiles('f32[4,4]{1,0}', repeat([2n, 2n], 100_000));
    assert.equal((physicalSizes(even) as PhysicalSizes).physicalBytes, 64n);
    assert.equal((sizes(even) as LayoutSizes).physicalElements, 16n);
    // (3,3) after (2,2) pads [2,2] to [3,3]; the (3,3) levels after it divide. With a 2^50 dim the
    // slots pass 2^53 at the second level, and the bigint walk must find the same.
    for (const base of ['f32[4,4]{1,0}', 'f32[1125899906842624,4]{1,0}']) {
      const odd = withTiles(base, [[2n, 2n], ...repeat([3n, 3n], 50_000)]);
      const fit = tileDivisibility(odd) as TileDivisibility;
      assert.equal(fit.levels.length, 50_000);
      assert.equal(fit.levels[0].divides, false);
      assert.deepEqual(
        fit.levels[0].entries.map((e) => [e.size, e.tile]),
        [
          [2n, 3n],
          [2n, 3n],
        ],
      );
      assert.ok(fit.levels.slice(1).every((l) => l.divides));
      assert.equal((physicalSizes(odd) as PhysicalSizes).paddingBeyondArraySize, true);
    }
  });

  it('past MAX_PLAN_SIZES the plan, and everything built on it, refuses with the limit named', () => {
    const shape = withTiles('f32[3,5]{1,0}', repeat([1n], 6_000));
    const plan = planTiling(shape);
    assert.ok(isLayoutError(plan));
    assert.equal(plan.code, 'plan-too-large');
    assert.match(plan.message, /6,000 tile levels over up to 6,002 dims/);
    assert.match(plan.message, /18,015,002 sizes, more than the 65,536 this tool builds/);
    for (const refusal of [
      linearIndex(shape, [2n, 3n]),
      elementAt(shape, 7n),
      paddingByDimension(shape),
      buildMemoryMap(shape),
    ])
      assert.deepEqual(refusal, plan);
    // The bound counts the physical shape too: a plan of exactly MAX_PLAN_SIZES sizes is built.
    assert.ok(!isLayoutError(planTiling(shapeOf(`f32[${Array(MAX_PLAN_SIZES).fill(1).join(',')}]`))));
    const wide = planTiling(
      shapeOf(
        `f32[${Array(MAX_PLAN_SIZES + 1)
          .fill(1)
          .join(',')}]`,
      ),
    );
    assert.ok(isLayoutError(wide));
    assert.match(wide.message, /^the shape has 65,537 dims, too many to lay out step by step/);
  });

  it('explain says why there are no steps and still gives the sizes', () => {
    const e = explainShapeText(`f32[3,5]{1,0:T(8,128)${'(1)'.repeat(3_000)}}`);
    const a = e.arrays[0];
    assert.match(a.error?.message ?? '', /3,001 tile levels/);
    assert.equal(a.plan, undefined);
    assert.equal(a.sizes?.physicalBytes, 8n * 128n * 4n);
    assert.equal(a.sizes?.logicalBytes, 60n);
  });

  it('the fix search skips layouts too large to lay out 720 times over', () => {
    // Rank 6 has 720 reorders to try; with 2,000 levels that is past the search's bound.
    const shape = withTiles('f32[3,5,7,3,5,7]{5,4,3,2,1,0}', repeat([8n, 128n], 2_000));
    assert.equal(suggestFix(shape), undefined);
    // A handful of levels is still searched.
    assert.ok(suggestFix(withTiles('f32[3,5,7,3,5,7]{5,4,3,2,1,0}', repeat([8n, 128n], 2))));
  });
});
