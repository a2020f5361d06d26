/**
 * Sizes (spec §3): ByteSizeOf, ArraySize, the full nested physical size, expansion and overhead,
 * exact past 2^53; and the padding account for the users.md OOM cases.
 */
import { strict as assert } from 'node:assert';
import {
  isLayoutError,
  maxSplitSize,
  paddingByDimension,
  sizes,
  suggestFix,
  tileDivisibility,
  type LayoutFix,
  type LayoutSizes,
  type PaddingAccount,
  type TileDivisibility,
} from '../../core/src/layout';
import type { ArrayShape } from '../../core/src/model';
import { shapeOf } from './layout-shape-literal';

function sizesOf(text: string | ArrayShape): LayoutSizes {
  const r = sizes(typeof text === 'string' ? shapeOf(text) : text);
  if (isLayoutError(r)) assert.fail(r.message);
  return r;
}

describe('sizes: XLA ByteSizeOf and ArraySize', () => {
  it('shape_util_test Int4ShapeSize', () => {
    const a = sizesOf('s4[64,128]{1,0:E(4)}');
    assert.equal(a.arraySizeBytes, 4096n);
    assert.equal(a.logicalBytes, 4096n);
    const b = sizesOf('s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}');
    assert.equal(b.arraySizeBytes, (9216n * 6144n) / 2n);
    assert.equal(b.physicalBytes, (9216n * 6144n) / 2n);
  });

  it('ByteSizeOfElements examples: s4 without E, s4[3]{0:E(4)}, pred E(32)', () => {
    assert.equal(sizesOf('s4[10,20]').logicalBytes, 200n);
    assert.equal(sizesOf('s4[3]{0:E(4)}').logicalBytes, 2n);
    assert.equal(sizesOf('pred[8,8,8]{0,2,1:T(8,128)E(32)}').logicalBytes, 2048n);
  });

  it('<=N counts N', () => {
    const s = sizesOf('s32[<=4096]{0:T(8)M(1024)}');
    assert.equal(s.logicalElements, 4096n);
    assert.equal(s.logicalBytes, 16384n);
  });

  it('L(n): physical slots round up; ArraySize rounds the tiled count; untiled ArraySize ignores L', () => {
    const t = sizesOf('f32[3,5]{1,0:T(2,2)L(10)}');
    assert.equal(t.physicalElements, 30n);
    assert.equal(t.arraySizeBytes, 120n);
    const u = sizesOf('f32[3,5]{1,0:L(8)}');
    assert.equal(u.physicalElements, 16n);
    assert.equal(u.arraySizeBytes, 60n);
  });

  it('MaxSplitSize (layout_util_test): dims {150,200,100} with SC(0:30)(1:40,130) on {0,1,2}', () => {
    const s = shapeOf('f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}');
    assert.deepEqual(
      [0, 1, 2].map((d) => maxSplitSize(s, d)),
      [150n, 90n, 70n],
    );
    // Untiled ArraySize is ByteSizeOfElements; tiled, it takes the largest piece of each split dim.
    assert.equal(sizesOf(s).arraySizeBytes, 150n * 200n * 100n * 4n);
    const tiled = sizesOf({ ...s, tiles: [[1n, 1n]] });
    assert.equal(tiled.arraySizeBytes, 150n * 90n * 70n * 4n);
    assert.equal(tiled.physicalBytes, 150n * 200n * 100n * 4n);
  });

  it('ArraySize with the first tile only vs all levels: f32[4,6]{1,0:T(3,4)(2,1)}', () => {
    const s = sizesOf('f32[4,6]{1,0:T(3,4)(2,1)}');
    assert.equal(s.arraySizeBytes, 192n);
    assert.equal(s.physicalBytes, 256n);
    const d = tileDivisibility(shapeOf('f32[4,6]{1,0:T(3,4)(2,1)}')) as TileDivisibility;
    assert.equal(d.paddingBeyondArraySize, true);
    assert.deepEqual(d.levels, [
      {
        level: 1,
        divides: false,
        entries: [
          { position: 2, size: 3n, tile: 2n, divides: false },
          { position: 3, size: 4n, tile: 1n, divides: true },
        ],
      },
    ]);
    const ok = tileDivisibility(shapeOf('bf16[8,256]{1,0:T(8,128)(2,1)}')) as TileDivisibility;
    assert.equal(ok.paddingBeyondArraySize, false);
  });

  it('`*` in the first tile: ArraySize is null (XLA does not handle it)', () => {
    assert.equal(sizesOf('f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}').arraySizeBytes, null);
  });

  it('exact past 2^53: f32[2^40,2^20]{1,0:T(8,128)} and a padded variant', () => {
    const big = sizesOf('f32[1099511627776,1048576]{1,0:T(8,128)}');
    assert.equal(big.logicalElements, 2n ** 60n);
    assert.equal(big.logicalBytes, 2n ** 62n);
    assert.equal(big.physicalBytes, 2n ** 62n);
    assert.equal(big.expansion?.numerator, 1n);
    const odd = sizesOf('f32[1099511627777,1048577]{1,0:T(8,128)}');
    const rows = ((1099511627777n + 7n) / 8n) * 8n;
    const cols = ((1048577n + 127n) / 128n) * 128n;
    assert.equal(odd.physicalElements, rows * cols);
    assert.equal(odd.physicalBytes, rows * cols * 4n);
    assert.equal(odd.logicalBytes, 1099511627777n * 1048577n * 4n);
    assert.ok(odd.physicalBytes > 2n ** 62n && odd.physicalBytes > odd.logicalBytes);
  });

  it('expansion and overhead are exact ratios: f32[3,200]{1,0:T(8,128)}', () => {
    const s = sizesOf('f32[3,200]{1,0:T(8,128)}');
    assert.deepEqual([s.expansion?.numerator, s.expansion?.denominator], [256n, 75n]);
    assert.deepEqual([s.overhead?.numerator, s.overhead?.denominator], [181n, 256n]);
    assert.ok(Math.abs(s.overhead!.value - 181 / 256) < 1e-12);
    assert.equal(sizesOf('f32[0,4]{1,0:T(8,128)}').expansion, undefined);
  });

  it('suggests no other order or merge for a layout with a split config, which names a physical dim', () => {
    assert.ok(suggestFix(shapeOf('pred[123,456]{1,0:T(2,128)}')));
    assert.equal(suggestFix(shapeOf('pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}')), undefined);
  });

  it('an empty array pads nothing: no dominant cause for f32[0,5]{1,0:T(8,128)}', () => {
    const account = paddingByDimension(shapeOf('f32[0,5]{1,0:T(8,128)}')) as PaddingAccount;
    assert.equal(account.dominant, undefined);
    assert.equal(account.tilingFactor, undefined);
    assert.equal(
      (paddingByDimension(shapeOf('f32[1,5]{1,0:T(8,128)}')) as PaddingAccount).dominant?.to,
      128n,
    );
  });
});

describe('sizes: users.md OOM cases', () => {
  it('32x: f32[1024,4]{1,0:T(8,128)} — dim 1 (size 4) is minor-most, padded to 128', () => {
    const shape = shapeOf('f32[1024,4]{1,0:T(8,128)}');
    const s = sizesOf(shape);
    assert.equal(s.expansion?.numerator, 32n);
    assert.equal(s.expansion?.denominator, 1n);
    const account = paddingByDimension(shape) as PaddingAccount;
    assert.equal(account.dominant?.dims.length, 1);
    assert.equal(account.dominant?.dims[0], 1);
    assert.deepEqual(
      [account.dominant?.from, account.dominant?.to, account.dominant?.tileEntry],
      [4n, 128n, 1],
    );
    const dim1 = account.dimensions[1];
    assert.deepEqual([dim1.dim, dim1.isMinorMost, dim1.size, dim1.factor.numerator], [1, true, 4n, 32n]);
    assert.equal(account.dimensions[0].factor.numerator, 1n);
    assert.equal(account.dimensions[0].causes.length, 0);

    // Making dim 1 major removes the padding: [4,1024] tiles exactly... except 4 rows pad to 8.
    const fix = suggestFix(shape) as LayoutFix;
    assert.equal(fix.kind, 'reorder');
    assert.deepEqual(fix.shape.minorToMajor, [0, 1]);
    assert.equal(fix.physicalBytes, 8n * 1024n * 4n);
    assert.equal(fix.savedBytes, 1024n * 128n * 4n - 8n * 1024n * 4n);
  });

  it('128x: bf16[4096,1]{1,0:T(8,128)(2,1)} — the size-1 minor dim pads to 128', () => {
    const shape = shapeOf('bf16[4096,1]{1,0:T(8,128)(2,1)}');
    assert.equal(sizesOf(shape).expansion?.numerator, 128n);
    const account = paddingByDimension(shape) as PaddingAccount;
    assert.deepEqual(account.dominant?.dims, [1]);
    assert.equal(account.dominant?.factor.numerator, 128n);
    assert.equal(account.tilingFactor?.numerator, 128n);
  });

  it('vector padding is a cause of no logical dim: f32[3]{0:T(8,128)}', () => {
    const account = paddingByDimension(shapeOf('f32[3]{0:T(8,128)}')) as PaddingAccount;
    assert.deepEqual(
      account.causes.map((c) => [c.dims, c.from, c.to]),
      [
        [[], 1n, 8n],
        [[0], 3n, 128n],
      ],
    );
    assert.equal(account.tilingFactor?.numerator, 1024n);
    assert.equal(account.tilingFactor?.denominator, 3n);
  });

  it('no suggestion when nothing is padded', () => {
    assert.equal(suggestFix(shapeOf('f32[8,128]{1,0:T(8,128)}')), undefined);
  });

  it('merge suggestion when reordering cannot help', () => {
    // Reorders give the same 1024 slots; merging into [16] pads to one 8x128 tile as well, so nothing.
    assert.equal(suggestFix(shapeOf('f32[4,4]{1,0:T(8,128)}')), undefined);
    // Every order of [2,4,16] needs two 8x128 tiles; merging the minor dims [4,16] -> [64] needs one.
    const fix = suggestFix(shapeOf('f32[2,4,16]{2,1,0:T(8,128)}')) as LayoutFix;
    assert.equal(fix.kind, 'merge');
    assert.deepEqual(fix.shape.dims, [2n, 64n]);
    assert.equal(fix.physicalBytes, 1024n * 4n);
    assert.equal(fix.savedBytes, 1024n * 4n);
  });
});
