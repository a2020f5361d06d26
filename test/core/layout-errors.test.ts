/**
 * Layout math's refusals are data with stable codes: every code is produced by some input (a
 * table, one row per code), and no code is also a diagnostic rule code.
 */
import { strict as assert } from 'node:assert';
import {
  LAYOUT_ERROR_CODES,
  RULES,
  arrayShapeFromText,
  buildMemoryMap,
  createElementMapper,
  diagnostic,
  explainShapeText,
  isLayoutError,
  linearIndex,
  planTiling,
  type ArrayShape,
  type LayoutErrorCode,
} from '../../core/src';
import { explainElementAt } from '../../client/src/shape-math';
import { shapeOf } from './layout-shape-literal';

const f32x4 = shapeOf('f32[2,3,4]{2,1,0}');
const tiled = (tile: ArrayShape['tiles'][number]): ArrayShape => ({
  ...shapeOf('f32[4,4]{1,0}'),
  tiles: [tile],
});

/** One input per code: what the math is asked, and the code it must refuse with. */
const CASES: readonly [LayoutErrorCode, () => unknown][] = [
  ['invalid-shape', () => arrayShapeFromText('f32[2]{0:T(-1)}')],
  ['not-an-array', () => arrayShapeFromText('(f32[2], f32[3])')],
  ['not-array-type', () => planTiling({ ...f32x4, elementType: 'token' })],
  ['negative-dimension', () => planTiling({ ...f32x4, dims: [2n, -3n, 4n] })],
  ['minor-to-major-length', () => planTiling({ ...f32x4, minorToMajor: [1, 0] })],
  ['minor-to-major-permutation', () => planTiling({ ...f32x4, minorToMajor: [0, 0, 1] })],
  ['empty-tile', () => planTiling(tiled([]))],
  ['non-positive-tile', () => planTiling(tiled([0n, 2n]))],
  ['tile-ends-in-combine', () => planTiling(shapeOf('f32[4,4]{1,0:T(2,*)}'))],
  ['invalid-element-size', () => planTiling({ ...f32x4, elementSizeBits: 2.5 })],
  ['element-size-too-large', () => planTiling({ ...f32x4, elementSizeBits: 2 ** 60 })],
  ['tail-alignment-below-one', () => planTiling({ ...f32x4, tailPaddingAlignment: 0n })],
  ['too-many-slots', () => planTiling(tiled(Array.from({ length: 1100 }, () => 2n)))],
  [
    'plan-too-large',
    () => planTiling({ ...shapeOf('f32[3,5]{1,0}'), tiles: Array.from({ length: 6_000 }, () => [1n]) }),
  ],
  ['index-rank', () => linearIndex(f32x4, [0n, 0n])],
  ['index-out-of-bounds', () => linearIndex(f32x4, [0n, 3n, 0n])],
  ['offset-out-of-range', () => explainElementAt('f32[2,3,4]{2,1,0}', f32x4, 24n)],
  ['slice-dimension', () => createElementMapper(f32x4, { rowDim: 3 })],
  ['slice-dimensions-equal', () => createElementMapper(f32x4, { rowDim: 1, colDim: 1 })],
  ['slice-fixed-rank', () => createElementMapper(f32x4, { fixed: [0n] })],
  ['slice-fixed-out-of-bounds', () => createElementMapper(f32x4, { fixed: [2n, 0n, 0n] })],
  ['slice-too-large', () => createElementMapper(shapeOf('f32[9007199254740993,2]{1,0}'))],
  [
    'slice-offsets-inexact',
    () =>
      buildMemoryMap(shapeOf('f32[17592186044416,4,4]{2,1,0:T(8,128)}'), { fixed: [2n ** 44n - 1n, 0n, 0n] }),
  ],
  ['slice-too-many-cells', () => buildMemoryMap(f32x4, undefined, 11)],
  [
    'slice-span-too-large',
    () => buildMemoryMap(shapeOf('f32[2,2,1073741824]{2,1,0}'), { rowDim: 0, colDim: 1 }),
  ],
  ['slice-too-sparse', () => buildMemoryMap(shapeOf('f32[2,2,536870912]{2,1,0}'), { rowDim: 0, colDim: 1 })],
];

describe('layout errors: stable codes', () => {
  for (const [code, ask] of CASES) {
    it(code, () => {
      const r = ask();
      assert.ok(isLayoutError(r), `expected a refusal, got ${typeof r}`);
      assert.equal(r.code, code);
      assert.ok(r.message.length > 0);
    });
  }

  it('every code has a case above', () => {
    assert.deepEqual(new Set(CASES.map(([code]) => code)), new Set(LAYOUT_ERROR_CODES));
  });

  it('no code is a diagnostic rule code, so a diagnostic is never taken for a refusal', () => {
    assert.deepEqual(
      LAYOUT_ERROR_CODES.filter((c) => Object.hasOwn(RULES, c)),
      [],
    );
    assert.equal(isLayoutError(diagnostic('tile-empty', 'tile is empty', { start: 0, end: 1 })), false);
  });

  it('an explanation carries the refusal of its array', () => {
    assert.equal(explainShapeText('token[]').arrays[0]?.error?.code, 'not-array-type');
  });
});
