/**
 * The spec's worked examples (§4.3, §4.4) and XLA's layout_util_test vectors, plus the inverse's
 * account of padding slots and the error values for nonsense input.
 */
import { strict as assert } from 'node:assert';
import { elementAt, isLayoutError, linearIndex, planTiling, type TilingPlan } from '../../core/src/layout';
import type { ArrayShape } from '../../core/src/model';
import { shapeOf } from './layout-shape-literal';

/** The linear index of every element of a 2-D shape, as rows of numbers. */
function table(shape: ArrayShape): number[][] {
  const [rows, cols] = shape.dims.map(Number) as [number, number];
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => Number(linearIndex(shape, [BigInt(r), BigInt(c)]) as bigint)),
  );
}

describe('layout: spec §4.3 worked examples', () => {
  it('Figure 1: f32[3,5]{1,0:T(2,2)}, (2,3) -> 17 and the whole table', () => {
    const s = shapeOf('f32[3,5]{1,0:T(2,2)}');
    assert.equal(linearIndex(s, [2n, 3n]), 17n);
    assert.deepEqual(table(s), [
      [0, 1, 4, 5, 8],
      [2, 3, 6, 7, 10],
      [12, 13, 16, 17, 20],
    ]);
    for (const slot of [9, 11, 14, 15, 18, 19, 21, 22, 23]) {
      assert.equal((elementAt(s, BigInt(slot)) as { kind: string }).kind, 'padding', `slot ${slot}`);
    }
  });

  it('Figure 2: f32[4,8]{1,0:T(2,4)(2,1)} whole table and intermediate shapes', () => {
    const s = shapeOf('f32[4,8]{1,0:T(2,4)(2,1)}');
    assert.deepEqual(table(s), [
      [0, 2, 4, 6, 8, 10, 12, 14],
      [1, 3, 5, 7, 9, 11, 13, 15],
      [16, 18, 20, 22, 24, 26, 28, 30],
      [17, 19, 21, 23, 25, 27, 29, 31],
    ]);
    const plan = planTiling(s) as TilingPlan;
    const [first, second] = plan.steps;
    assert.deepEqual(first.padded, [4n, 8n]);
    assert.deepEqual(first.reshaped, [2n, 2n, 2n, 4n]);
    assert.deepEqual(first.output, [2n, 2n, 2n, 4n]);
    // The second tile covers the last two dims [2,4]: the inner 2x4 tile.
    assert.deepEqual(second.input, [2n, 2n, 2n, 4n]);
    assert.equal(second.prefixLength, 2);
    assert.deepEqual(second.reshaped, [2n, 2n, 1n, 2n, 4n, 1n]);
    assert.deepEqual(second.output, [2n, 2n, 1n, 4n, 2n, 1n]);
    assert.deepEqual(plan.expandedOrigins, [[0], [1], [0], [1], [0], [1]]);
  });

  it('layout_util_test vectors', () => {
    assert.equal(linearIndex(shapeOf('f32[8,4]{1,0:T(2,2)}'), [3n, 1n]), 11n);
    assert.equal(linearIndex(shapeOf('f32[8,4]{1,0}'), [3n, 1n]), 13n);
    assert.equal(linearIndex(shapeOf('f32[8]{0:T(2,2)}'), [5n]), 9n);
    assert.equal(linearIndex(shapeOf('f32[3]{0:T(8,128)}'), [2n]), 2n);
    assert.equal(linearIndex(shapeOf('u32[]{:T(128)}'), []), 0n);
    const b = shapeOf('bf16[2048]{0:T(1024)(128)(2,1)}');
    assert.equal(linearIndex(b, [0n]), 0n);
    assert.equal(linearIndex(b, [128n]), 1n);
    assert.equal(linearIndex(b, [1n]), 2n);
    assert.equal(linearIndex(shapeOf('bf16[2,8,128]{2,1,0:T(8,128)(2,1)}'), [0n, 2n, 0n]), 256n);
  });

  it('vector padding: a tile with more dims than the shape prepends 1s', () => {
    const plan = planTiling(shapeOf('f32[8,8]{1,0:T(2,2)(2,2,2,2,2)}')) as TilingPlan;
    assert.equal(plan.steps[1].vectorPadding, 1);
    assert.deepEqual(plan.steps[1].vectorPadded, [1n, 4n, 4n, 2n, 2n]);
    assert.deepEqual(plan.steps[1].combinedOrigins[0], []);
    assert.deepEqual(plan.expandedShape, [1n, 2n, 2n, 1n, 1n, 2n, 2n, 2n, 2n, 2n]);
  });
});

describe('layout: combined dimensions `*` (spec §4.4)', () => {
  const star = shapeOf('f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}');
  const flat = shapeOf('f32[112,110]{1,0:T(2,3)}');

  it('combines [2,7,8,11,10] into [112,110] tiled (2,3)', () => {
    const step = (planTiling(star) as TilingPlan).steps[0];
    assert.deepEqual(step.combined, [112n, 110n]);
    assert.deepEqual(step.mergedFrom, [
      [0, 1, 2],
      [3, 4],
    ]);
    assert.deepEqual(step.effectiveTile, [2n, 3n]);
    assert.deepEqual(step.combinedOrigins, [
      [0, 1, 2],
      [3, 4],
    ]);
  });

  it('every element lands where the flattened [112,110] shape puts it, and back', () => {
    let checked = 0;
    for (let a = 0n; a < 2n; a++)
      for (let b = 0n; b < 7n; b++)
        for (let c = 0n; c < 8n; c++) {
          for (let d = 0n; d < 11n; d++)
            for (let e = 0n; e < 10n; e++) {
              const row = (a * 7n + b) * 8n + c;
              const col = d * 10n + e;
              const li = linearIndex(star, [a, b, c, d, e]);
              assert.equal(li, linearIndex(flat, [row, col]));
              assert.deepEqual(elementAt(star, li as bigint), { kind: 'element', index: [a, b, c, d, e] });
              checked++;
            }
        }
    assert.equal(checked, 12320);
  });

  it('`*` on the minor-most tile entry is refused, not thrown', () => {
    const r = planTiling(shapeOf('f32[4,4]{1,0:T(2,*)}'));
    assert.ok(isLayoutError(r));
    assert.equal(r.code, 'tile-ends-in-combine');
  });

  it('`*` in the spec in-repo example bf16[2,3,1004]{2,1,0:T(2,*,128)}', () => {
    const step = (planTiling(shapeOf('bf16[2,3,1004]{2,1,0:T(2,*,128)}')) as TilingPlan).steps[0];
    assert.deepEqual(step.combined, [2n, 3012n]);
    assert.deepEqual(step.output, [1n, 24n, 2n, 128n]);
  });
});

describe('layout: elementAt padding account', () => {
  it('Figure 1 slot 9 is padding of dim 1 in tile (0,2) at (0,1)', () => {
    assert.deepEqual(elementAt(shapeOf('f32[3,5]{1,0:T(2,2)}'), 9n), {
      kind: 'padding',
      cause: 'tile',
      level: 0,
      tiles: [{ level: 0, tile: [0n, 2n], inTile: [0n, 1n] }],
      paddedPositions: [1],
      paddedDims: [1],
    });
  });

  it('Figure 1 slot 23 pads both dims', () => {
    const r = elementAt(shapeOf('f32[3,5]{1,0:T(2,2)}'), 23n);
    assert.deepEqual(r, {
      kind: 'padding',
      cause: 'tile',
      level: 0,
      tiles: [{ level: 0, tile: [1n, 2n], inTile: [1n, 1n] }],
      paddedPositions: [0, 1],
      paddedDims: [0, 1],
    });
  });

  it('padding introduced by the second tile: f32[4,6]{1,0:T(3,4)(2,1)} slot 9', () => {
    // Slot 9: row 3 of a 3-row first-level tile, padded by the (2,1) sub-tile.
    const r = elementAt(shapeOf('f32[4,6]{1,0:T(3,4)(2,1)}'), 9n);
    assert.deepEqual(r, {
      kind: 'padding',
      cause: 'tile',
      level: 1,
      tiles: [{ level: 1, tile: [0n, 0n, 1n, 0n], inTile: [1n, 0n] }],
      paddedPositions: [2],
      paddedDims: [0],
    });
  });

  it('vector padding rows are padding of no logical dim: f32[3]{0:T(8,128)} slot 128', () => {
    const r = elementAt(shapeOf('f32[3]{0:T(8,128)}'), 128n);
    assert.deepEqual(r, {
      kind: 'padding',
      cause: 'tile',
      level: 0,
      tiles: [{ level: 0, tile: [0n, 0n], inTile: [1n, 0n] }],
      paddedPositions: [0],
      paddedDims: [],
    });
  });

  it('L(n) tail padding and out-of-range offsets', () => {
    const s = shapeOf('f32[3,5]{1,0:L(8)}');
    assert.equal((elementAt(s, 14n) as { kind: string }).kind, 'element');
    assert.deepEqual(elementAt(s, 15n), {
      kind: 'padding',
      cause: 'tail',
      level: -1,
      tiles: [],
      paddedPositions: [],
      paddedDims: [],
    });
    assert.deepEqual(elementAt(s, 16n), { kind: 'out-of-range' });
    assert.deepEqual(elementAt(s, -1n), { kind: 'out-of-range' });
  });

  it('untiled, non-default minor_to_major and scalars', () => {
    const s = shapeOf('f32[2,3,4]{0,2,1}');
    // Physical order major->minor: dim 1 (3), dim 2 (4), dim 0 (2).
    assert.equal(linearIndex(s, [1n, 2n, 3n]), 2n * 8n + 3n * 2n + 1n);
    assert.deepEqual(elementAt(s, 23n), { kind: 'element', index: [1n, 2n, 3n] });
    assert.equal(linearIndex(shapeOf('f32[]'), []), 0n);
    assert.deepEqual(elementAt(shapeOf('f32[]'), 0n), { kind: 'element', index: [] });
    assert.deepEqual(elementAt(shapeOf('f32[]'), 1n), { kind: 'out-of-range' });
    assert.deepEqual(elementAt(shapeOf('f32[0,4]'), 0n), { kind: 'out-of-range' });
  });
});

describe('layout: nonsense input is an error value', () => {
  const s = shapeOf('f32[3,5]{1,0:T(2,2)}');
  const cases: [string, unknown][] = [
    ['wrong rank', linearIndex(s, [1n])],
    ['out of bounds', linearIndex(s, [3n, 0n])],
    ['negative', linearIndex(s, [-1n, 0n])],
    ['not a permutation', linearIndex({ ...s, minorToMajor: [0, 0] }, [0n, 0n])],
    ['bad rank of minor_to_major', planTiling({ ...s, minorToMajor: [0] })],
    ['empty tile', planTiling({ ...s, tiles: [[]] })],
    ['zero tile entry', planTiling({ ...s, tiles: [[0n, 2n]] })],
    ['negative dim', planTiling({ ...s, dims: [-1n, 5n] })],
    ['token', planTiling({ ...s, elementType: 'token' })],
    ['unknown type', elementAt({ ...s, elementType: 'f33' }, 0n)],
    ['L(0)', planTiling({ ...s, tailPaddingAlignment: 0n })],
    ['negative E', planTiling({ ...s, elementSizeBits: -4 })],
  ];
  for (const [name, result] of cases) {
    it(name, () =>
      assert.ok(
        isLayoutError(result),
        JSON.stringify(result, (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? String(v) : v)),
      ),
    );
  }
});
