/**
 * Dimension vocabulary (seed 002), IsUntiledLayout (spec §2.4) and the assumed TPU tiling
 * (spec §5).
 */
import { strict as assert } from 'node:assert';
import {
  assumedTpuTileRule,
  assumedTpuTiling,
  isUntiled,
  normalizeDimension,
  physicalOrder,
  sizes,
  trueRank,
  type LayoutSizes,
} from '../../core/src/layout';
import { shapeOf } from './layout-shape-literal';

describe('layout: dimensions', () => {
  it('true rank counts dims of size > 1', () => {
    assert.equal(trueRank(shapeOf('f32[1,8,1,3]')), 2);
    assert.equal(trueRank(shapeOf('f32[]')), 0);
  });

  it('negative dimension numbers count from the end', () => {
    assert.equal(normalizeDimension(3, -1), 2);
    assert.equal(normalizeDimension(3, -3), 0);
    assert.equal(normalizeDimension(3, -4), undefined);
    assert.equal(normalizeDimension(3, 3), undefined);
    assert.equal(normalizeDimension(3, 1.5), undefined);
  });

  it('physical order is reverse minor_to_major: f32[8,100,100,3]{3,0,2,1}', () => {
    const s = shapeOf('f32[8,100,100,3]{3,0,2,1}');
    assert.deepEqual(
      physicalOrder(s).map((d) => s.dims[d]),
      [100n, 100n, 8n, 3n],
    );
  });
});

describe('layout: isUntiled (LayoutUtil::IsUntiledLayout)', () => {
  const cases: [string, boolean][] = [
    ['f32[24,128]{1,0:T(8,128)}', true],
    ['f32[4,256]{1,0:T(1,128)}', true],
    ['f32[2,3,4]{2,1,0:T(8,128)}', false],
    ['f32[2,256]{1,0:T(2,128)}', false],
    ['f32[3,5]', true],
    ['f32[3]{0:T(8,128)}', false],
    ['f32[16,128]{1,0:T(8,128)(1,128)}', true],
    ['bf16[8,256]{1,0:T(8,128)(2,1)}', false],
    ['f32[4,256]{1,0:T(*,128)}', true],
  ];
  for (const [text, expected] of cases)
    it(`${text} -> ${expected}`, () => assert.equal(isUntiled(shapeOf(text)), expected));
});

describe('layout: assumed TPU tiling (spec §5)', () => {
  const rule = (text: string) => assumedTpuTileRule(shapeOf(text));
  const tiles = (text: string) =>
    rule(text)
      ?.tiles.map((t) => `(${t.join(',')})`)
      .join('');

  it('by element width', () => {
    assert.equal(tiles('f32[1024,1024]'), '(8,128)');
    assert.equal(tiles('bf16[1024,1024]'), '(8,128)(2,1)');
    assert.equal(tiles('s8[1024,1024]'), '(8,128)(4,1)');
    assert.equal(tiles('pred[1024,1024]'), '(8,128)(4,1)');
    assert.equal(tiles('s4[1024,1024]'), '(8,128)(8,1)');
    assert.equal(rule('s4[1024,1024]')?.elementSizeBits, 4);
    assert.equal(rule('f64[8,8]'), undefined);
    assert.equal(rule('s2[8,8]'), undefined);
  });

  it('compact 2nd minor: 1-2 -> (2,128), 3-4 -> (4,128), only while the sub-tile divides', () => {
    assert.equal(tiles('f32[2,1000]'), '(2,128)');
    assert.equal(tiles('f32[3,1000]'), '(4,128)');
    assert.equal(tiles('bf16[1,1000]'), '(2,128)(2,1)');
    assert.equal(tiles('bf16[4,1000]'), '(4,128)(2,1)');
    assert.equal(tiles('s8[2,1000]'), '(4,128)(4,1)');
    assert.equal(tiles('s4[2,1000]'), '(8,128)(8,1)');
    // Second-minor is physical: {0,1} makes dim 1 (size 2) the second-minor.
    assert.equal(tiles('f32[1000,2]{0,1}'), '(2,128)');
  });

  it('rank 0 and 1: one 128-lane row of 32-bit words', () => {
    assert.equal(tiles('s32[]'), '(128)');
    assert.equal(tiles('s32[6]'), '(128)');
    assert.equal(tiles('bf16[]'), '(256)');
    assert.equal(tiles('pred[]'), '(512)');
  });

  it('a tiled shape is left alone; the copy has the tiles and its sizes follow', () => {
    const tiled = shapeOf('f32[1024,4]{1,0:T(8,256)}');
    assert.equal(assumedTpuTiling(tiled), tiled);
    const assumed = assumedTpuTiling(shapeOf('f32[1024,4]'));
    assert.deepEqual(assumed.tiles, [[8n, 128n]]);
    assert.equal((sizes(assumed) as LayoutSizes).expansion?.numerator, 32n);
    assert.equal(assumedTpuTiling(shapeOf('s4[64,128]')).elementSizeBits, 4);
  });
});
