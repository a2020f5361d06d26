/**
 * The estimate from the HLO alone, on hand-written modules: which instructions allocate (XLA's
 * dataflow analysis: aliasing instructions define nothing, a tuple only its pointer table, fusion
 * bodies nothing, per-element computations thread-local scratch) and how the total reads. The real
 * dumps check the same rules against XLA's own values (real-dumps.test.ts).
 */
import { strict as assert } from 'node:assert';
import { estimateMemory, headline, indexHlo, positionKey } from '../../core/src';

const MODULE = `HloModule m, entry_computation_layout={(f32[8,4]{1,0:T(8,128)})->(f32[8,4]{1,0:T(8,128)}, f32[])}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%fused (p: f32[8,4]) -> f32[8,4] {
  %p = f32[8,4]{1,0:T(8,128)} parameter(0)
  ROOT %n = f32[8,4]{1,0:T(8,128)} negate(%p)
}

%body (t: (s32[], f32[8,4])) -> (s32[], f32[8,4]) {
  %t = (s32[], f32[8,4]{1,0:T(8,128)}) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %x = f32[8,4]{1,0:T(8,128)} get-tuple-element(%t), index=1
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %y = f32[8,4]{1,0:T(8,128)} fusion(%x), kind=kLoop, calls=%fused, metadata={op_name="neg" source_file="/w/model.py" source_line=9}
  ROOT %r = (s32[], f32[8,4]{1,0:T(8,128)}) tuple(%j, %y)
}

%cond (t.1: (s32[], f32[8,4])) -> pred[] {
  %t.1 = (s32[], f32[8,4]{1,0:T(8,128)}) parameter(0)
  %k = s32[] get-tuple-element(%t.1), index=0
  %ten = s32[] constant(10)
  ROOT %lt = pred[] compare(%k, %ten), direction=LT
}

ENTRY %main (x.0: f32[8,4]) -> (f32[8,4], f32[]) {
  %x.0 = f32[8,4]{1,0:T(8,128)} parameter(0), metadata={op_name="x" source_file="/w/train.py" source_line=3}
  %zero = s32[] constant(0)
  %init = (s32[], f32[8,4]{1,0:T(8,128)}) tuple(%zero, %x.0)
  %w = (s32[], f32[8,4]{1,0:T(8,128)}) while(%init), condition=%cond, body=%body
  %out = f32[8,4]{1,0:T(8,128)} get-tuple-element(%w), index=1
  %flat = f32[32]{0:T(256)} bitcast(%out)
  %z = f32[] constant(0)
  %sum = f32[] reduce(%flat, %z), dimensions={0}, to_apply=%add
  ROOT %res = (f32[8,4]{1,0:T(8,128)}, f32[]) tuple(%out, %sum)
}
`;

describe('memory estimate from the HLO', () => {
  it('counts what XLA would define: no tuple elements, get-tuple-elements, bitcasts, while results or fusion bodies', () => {
    const m = estimateMemory(indexHlo(MODULE));
    const defined = m.allocations.flatMap((a) =>
      a.values.map((v) => positionKey(v.instruction, v.shapeIndex)),
    );
    const expected = [
      ...['a{}', 'b{}', 's{}'], // per-element scratch of the reduction
      ...['init{}', 'r{}', 'res{}'], // tuples: their tables of pointers only
      ...['x.0{}', 'y{}', 'j{}', 'lt{}', 'sum{}'],
      ...['zero{}', 'one{}', 'ten{}', 'z{}'], // constants, wherever they are
    ];
    assert.deepEqual(defined.sort(), expected.sort());
    const kinds = new Map(m.allocations.map((a) => [a.values[0].instruction, a.kinds]));
    assert.deepEqual(kinds.get('x.0'), ['parameter']);
    assert.deepEqual(kinds.get('res'), ['output']);
    assert.deepEqual(kinds.get('zero'), ['constant']);
    assert.deepEqual(kinds.get('a'), ['thread-local']);
    assert.equal(m.basis, 'estimate');
    assert.deepEqual(m.disagreements, []);
  });

  it('adds up the values and their padding, and says it is an estimate', () => {
    const m = estimateMemory(indexHlo(MODULE), 'm');
    // x.0 and y: f32[8,4] under T(8,128) = 4 KiB each (128 B logical); three tuple tables of 16 B;
    // pred[] and s32[]/f32[] scalars untiled: 1 + 4 × 9 bytes.
    assert.equal(m.totalBytes, 2n * 4096n + 3n * 16n + 1n + 4n * 9n);
    assert.equal(m.paddingBytes, 2n * (4096n - 128n));
    // Two values pad alike; the one written first is the worst.
    assert.equal(m.worst?.hlo?.source, 'model.py:9');
    const h = headline(m);
    assert.equal(
      h.memory,
      'About 8.1 KiB if each of its 15 values had a buffer of its own; 7.8 KiB of it (95.9%) is padding.',
    );
    assert.match(h.note ?? '', /^Estimate from the HLO alone/);
    assert.equal(
      h.worst,
      'Most padding: %y f32[8,4]{1,0:T(8,128)}, 3.9 KiB of its 4 KiB: dim 1, size 4, minor-most: T(8,128) pads 4 to 128 (32x).',
    );
    // Under T(8,128) an 8x4 array takes a whole 8x128 tile in any order: no layout pads less.
    assert.equal(h.change, undefined);
  });
});
