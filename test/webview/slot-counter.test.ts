/**
 * The padding-share counter of the zoomed-out views and the memory strip (webview/src/slot-counter.ts)
 * against a slot-by-slot walk with the core's elementAt, on the spec's figures, the TPU layouts and
 * seeded random layouts (nested tiles, `*`, vector padding, L(n)); the seed is printed on failure.
 */
import { strict as assert } from 'node:assert';
import { elementAt, isLayoutError, planTiling, type ArrayShape, type TileDim } from '../../core/src';
import { analyzeShape } from '../../webview/src/analyze';
import { SlotCounter } from '../../webview/src/slot-counter';
import { mulberry32 } from '../support/prng';

function arrayOf(text: string): ArrayShape {
  const a = analyzeShape(text);
  assert.equal(a.kind, 'array', text);
  return a.kind === 'array' ? a.shape : (undefined as never);
}

/** Element slots below every offset 0..total, by asking the core about each slot. */
function walk(shape: ArrayShape, total: number): number[] {
  const below = [0];
  for (let s = 0; s < total; s++) {
    const at = elementAt(shape, BigInt(s));
    below.push(below[s] + (!isLayoutError(at) && at.kind === 'element' ? 1 : 0));
  }
  return below;
}

function check(shape: ArrayShape, label: string): boolean {
  const plan = planTiling(shape);
  if (isLayoutError(plan)) return false;
  const counter = new SlotCounter(plan);
  if (!counter.exact) return false;
  const expected = walk(shape, counter.total);
  for (let x = 0; x <= counter.total; x++)
    assert.equal(counter.elementsBelow(x), expected[x], `${label}: elements below slot ${x}`);
  return true;
}

describe('slot counter (padding share of slot ranges)', () => {
  it('counts Figure 1: slots 9, 11, 14, 15, 18, 19, 21, 22, 23 are padding', () => {
    const counter = new SlotCounter(planTiling(arrayOf('f32[3,5]{1,0:T(2,2)}')) as never);
    assert.equal(counter.elementsIn(0, 24), 15);
    assert.equal(counter.elementsIn(8, 12), 2);
    assert.equal(counter.elementsIn(21, 24), 0);
    assert.ok(check(arrayOf('f32[3,5]{1,0:T(2,2)}'), 'figure 1'));
  });

  it('counts the TPU layouts exactly, including the OOM buffer at 2^31 slots', () => {
    for (const text of [
      'f32[4,8]{1,0:T(2,4)(2,1)}',
      'bf16[3,130]{1,0:T(8,128)(2,1)}',
      'bf16[5,3,7]{0,2,1:T(4,128)(2,1)}',
      's8[9,200]{1,0:T(8,128)(4,1)}',
      'f32[4,6]{1,0:T(3,4)(2,1)}',
      'bf16[2048]{0:T(1024)(128)(2,1)}',
      'f32[3,5]{1,0:T(2,2)L(7)}',
      'f32[7,3]{0,1}',
    ])
      assert.ok(check(arrayOf(text), text), `${text} is counted exactly`);
    const oom = new SlotCounter(planTiling(arrayOf('bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}')) as never);
    assert.equal(oom.exact, true);
    assert.equal(oom.total, 2 ** 31);
    assert.equal(oom.elementsIn(0, oom.total), 1024 * 1024 * 512);
    // One T(4,128) tile is 512 slots: (2,1) pairs row 0 (data) with row 1 (padding), then rows 2-3.
    assert.equal(oom.elementsIn(0, 256), 128);
    assert.equal(oom.elementsIn(256, 512), 0);
    assert.deepEqual(
      [0, 1, 2, 3].map((s) => oom.elementsIn(s, s + 1)),
      [1, 0, 1, 0],
    );
  });

  it('matches a slot-by-slot walk on seeded random layouts', () => {
    const seed = Number(process.env.XLA_LENS_SEED ?? 20260807);
    const random = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    let exact = 0;
    for (let n = 0; n < 400; n++) {
      const rank = 1 + Math.floor(random() * 3);
      const dims = Array.from({ length: rank }, () => BigInt(1 + Math.floor(random() * 9)));
      const minorToMajor = Array.from({ length: rank }, (_, i) => i).sort(() => random() - 0.5);
      const levels = Math.floor(random() * 3);
      const tiles: TileDim[][] = [];
      for (let l = 0; l < levels; l++) {
        const k = 1 + Math.floor(random() * 3);
        tiles.push(
          Array.from({ length: k }, (_, j): TileDim =>
            j < k - 1 && random() < 0.15 ? 'combine' : BigInt(pick([1, 2, 3, 4, 8])),
          ),
        );
      }
      const shape: ArrayShape = {
        elementType: 'f32',
        dims,
        dynamic: dims.map(() => 'static'),
        minorToMajor,
        tiles,
        elementSizeBits: 0,
        tailPaddingAlignment: BigInt(pick([1, 1, 1, 5, 16])),
        memorySpace: 0,
        splitConfigs: [],
        dynamicMetadataBytes: 0n,
      };
      const label = `seed ${seed}, case ${n}: dims [${dims.join(',')}] {${minorToMajor.join(',')}} tiles ${JSON.stringify(tiles, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))}`;
      const plan = planTiling(shape);
      if (isLayoutError(plan) || plan.totalSlots > 5000n) continue;
      if (check(shape, label)) exact++;
    }
    assert.ok(exact > 250, `seed ${seed}: ${exact} of 400 layouts counted exactly`);
  });
});
