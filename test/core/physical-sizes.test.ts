/**
 * physicalSizes (the plan-free byte counts the server and `report` use) on hand-checked shapes:
 * padding under one and two tile levels, `*`, E packing, L rounding, empty arrays, the 2^53 edge
 * of its double fast path, and refusals. Equality with `sizes` on random and corpus shapes is in
 * test/fuzz/plan-equivalence.test.ts.
 */
import { strict as assert } from 'node:assert';
import {
  isLayoutError,
  physicalSizes,
  planTiling,
  type LayoutError,
  type PhysicalSizes,
} from '../../core/src/layout';
import { shapeOf } from './layout-shape-literal';

function of(text: string): PhysicalSizes {
  const r = physicalSizes(shapeOf(text));
  if (isLayoutError(r)) assert.fail(r.message);
  return r;
}

describe('physicalSizes', () => {
  it('spec §3 f32[4,6]{1,0:T(3,4)(2,1)}: 96 logical, 256 physical bytes, the second tile pads beyond ArraySize', () => {
    assert.deepEqual(of('f32[4,6]{1,0:T(3,4)(2,1)}'), {
      logicalBytes: 96n,
      physicalBytes: 256n,
      expansion: 2 + 666666666666666 / 1e15,
      paddingBeyondArraySize: true,
    });
  });

  it('bf16[8,256]{1,0:T(8,128)(2,1)} fills its tiles; f32[3,4]{1,0:T(8,128)} takes a whole 4 KiB tile', () => {
    assert.deepEqual(of('bf16[8,256]{1,0:T(8,128)(2,1)}'), {
      logicalBytes: 4096n,
      physicalBytes: 4096n,
      expansion: 1,
      paddingBeyondArraySize: false,
    });
    assert.deepEqual(of('f32[3,4]{1,0:T(8,128)}'), {
      logicalBytes: 48n,
      physicalBytes: 4096n,
      expansion: 85 + 333333333333333 / 1e15,
      paddingBeyondArraySize: false,
    });
  });

  it('`*` merges before padding: f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)} is 112 × 111 slots', () => {
    const s = of('f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}');
    assert.equal(s.logicalBytes, 2n * 7n * 8n * 11n * 10n * 4n);
    assert.equal(s.physicalBytes, 112n * 111n * 4n);
  });

  it('E packing, L rounding, and an empty array (no expansion)', () => {
    assert.deepEqual(of('s4[3]{0:E(4)}'), {
      logicalBytes: 2n,
      physicalBytes: 2n,
      expansion: 1,
      paddingBeyondArraySize: false,
    });
    assert.equal(of('f32[3,5]{1,0:T(2,2)L(10)}').physicalBytes, 120n);
    assert.deepEqual(of('f32[0,5]{1,0:T(8,128)}'), {
      logicalBytes: 0n,
      physicalBytes: 0n,
      expansion: undefined,
      paddingBeyondArraySize: false,
    });
  });

  it('exact on both sides of 2^53 slots', () => {
    const max = (1n << 53n) - 1n;
    assert.equal(of(`f32[${max}]{0}`).physicalBytes, max * 4n);
    assert.equal(of(`f32[${max + 2n}]{0}`).physicalBytes, (max + 2n) * 4n);
    // 2^53 − 1 padded to a multiple of 2 is 2^53: one past the double range, so computed in bigint.
    assert.equal(of(`f32[${max}]{0:T(2)}`).physicalBytes, (1n << 53n) * 4n);
    assert.equal(of('f32[4503599627370497]{0:T(2)}').physicalBytes, 4503599627370498n * 4n);
    assert.equal(of('f32[1099511627776,1048576]{1,0:T(8,128)}').physicalBytes, 1n << 62n);
  });

  it('refuses what planTiling refuses, with the same reason', () => {
    for (const text of ['f32[3,3]{1,0:T(2,*)}', 'f32[3,3]{1,0:T(0,2)}', 'f32[4]{0:E(3)L(0)}']) {
      const lean = physicalSizes(shapeOf(text));
      assert.ok(isLayoutError(lean), text);
      assert.deepEqual(lean, planTiling(shapeOf(text)), text);
    }
    const wide = { ...shapeOf('f32[2]{0}'), tiles: [Array.from({ length: 1100 }, () => 2n)] };
    assert.equal((physicalSizes(wide) as LayoutError).code, 'too-many-slots');
  });
});
