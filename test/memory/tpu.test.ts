/**
 * The TPU form of XLA's memory files: tiled value shapes whose `size=` includes the padding, memory
 * spaces (`color 1`, `@1`, `S(1)`, a `vmem` section in the usage report). No TPU runs here, so the
 * sizes are checked against what real TPU compilations printed in public issues (the allocation
 * lists of out-of-memory messages), and the fixture in fixtures/tpu/ (see its README) is built from
 * those allocations.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryFromTexts, ValueSizeCache, xlaBytes } from '../../core/src';

/** Allocations real TPU compilations listed: the shape, its size and its unpadded size as printed. */
const TPU_MESSAGES: readonly { shape: string; size: string; unpadded: string; source: string }[] = [
  {
    shape: 'u32[12582912,1]{1,0:T(8,128)}',
    size: '6.00G',
    unpadded: '48.00M',
    source: 'pytorch/xla#1965',
  },
  {
    shape: 'bf16[16,12,512,512]{3,2,1,0:T(8,128)(2,1)}',
    size: '96.00M',
    unpadded: '96.00M',
    source: 'pytorch/xla#1965',
  },
  {
    shape: 's32[8388608,8,4]{2,1,0:T(8,128)}',
    size: '32.00G',
    unpadded: '1.00G',
    source: 'DifferentiableUniverseInitiative/flowpm#27',
  },
  {
    shape: 'bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}',
    size: '4.00G',
    unpadded: '1.00G',
    source: 'pytorch/xla#6674',
  },
  {
    shape: 'f32[128,176,16,48]{0,1,3,2:T(8,128)}',
    size: '66.00M',
    unpadded: '66.00M',
    source: 'pytorch/xla#1735',
  },
  {
    shape: 'f32[524288,512]{1,0:T(8,128)}',
    size: '1.00G',
    unpadded: '1.00G',
    source: 'google/trax#1343',
  },
];

const DIR = join(__dirname, 'fixtures', 'tpu');
const BASE = join(DIR, 'module_0042.jit_train_step.after_optimizations');

describe('memory model: the TPU form', () => {
  it('gives each allocation real TPU compilations listed its printed size and unpadded size', () => {
    const sizes = new ValueSizeCache();
    for (const m of TPU_MESSAGES) {
      const s = sizes.of(m.shape);
      assert.equal(s.kind, 'array', m.shape);
      assert.deepEqual(
        [xlaBytes(s.physical!), xlaBytes(s.logical!)],
        [m.size, m.unpadded],
        `${m.shape} (${m.source})`,
      );
    }
  });

  it('joins the TPU fixture: XLA sizes with padding agree, memory spaces, peak, worst offender and its fix', () => {
    const read = (suffix: string) => readFileSync(`${BASE}${suffix}`, 'utf8');
    const m = memoryFromTexts({
      hlo: read('.txt'),
      bufferAssignment: read('-buffer-assignment.txt'),
      values: read('-buffer-assignment-values.txt'),
      usageReport: read('-memory-usage-report.txt'),
      liveRange: read('-live-range.txt'),
    })!;
    assert.equal(m.basis, 'buffer-assignment');
    assert.deepEqual(m.disagreements, []);
    assert.equal(m.problemCount, 0);
    assert.equal(m.missingInstructions, 0);
    assert.equal(m.totalBytes, 43050405904n);
    assert.deepEqual(
      m.spaces.map((s) => [s.name, s.color, s.bytes, s.reportedBytes, s.allocations]),
      [
        ['default', 0, 43050340368n, 43050340368n, 8],
        ['vmem', 1, 65536n, 65536n, 1],
      ],
    );
    // The arena: at offset 0 the 32 GiB copy (31 GiB of it padding) outsizes the broadcast that
    // reuses its space later; the 6 GiB fusion beside it pads 1 to 128.
    const arena = m.allocations[0];
    assert.equal(arena.index, 8);
    assert.equal(arena.paddingBytes, 31n * 2n ** 30n + (6n * 2n ** 30n - 48n * 2n ** 20n) + 800n);
    assert.equal(m.worst?.instruction, 'copy.40488');
    assert.equal(m.worst?.size.cause?.text, 'dim 2, size 4, minor-most: T(8,128) pads 4 to 128 (32x)');
    assert.equal(m.worst?.size.fix?.savedBytes, 31n * 2n ** 30n);
    assert.equal(m.worst?.hlo?.source, 'cic.py:41');
    assert.deepEqual(m.worst?.live, { start: 5, end: 6 });
    assert.equal(m.peak?.bytes, 43050339328n);
    // Live at the peak: the copy, the fusion, the parameters and the scalar constant (1,024 − 4 bytes).
    assert.equal(m.peak?.paddingBytes, 31n * 2n ** 30n + (6n * 2n ** 30n - 48n * 2n ** 20n) + 1020n);
    const gte = m.allocations
      .flatMap((a) => a.values)
      .find((v) => v.instruction === 'fusion.10062' && v.shapeIndex?.[0] === 0);
    assert.deepEqual(gte?.sharedWith, ['get-tuple-element.1']);
    const vmem = m.allocations.find((a) => a.color === 1)!;
    assert.deepEqual(
      [vmem.values[0].instruction, vmem.values[0].size.memorySpace, vmem.values[0].paddingBytes],
      ['reduce-window.4', 1, 65536n - 128n * 6n * 4n],
    );
  });

  it('lists a value whose size XLA gives otherwise than our model as a disagreement', () => {
    const m = memoryFromTexts({
      bufferAssignment:
        'allocation 0: size 4096, preallocated-temp:\n value: <0 a @0> (size=1024,offset=0): f32[64,1]{1,0:T(8,128)}\n value: <1 b @0> (size=4096,offset=0): f32[8,128]{1,0:T(8,128)}\n value: <2 c @0> (size=4,offset=0): f32[2]{0:T(}\n',
    })!;
    assert.deepEqual(
      m.disagreements.map((d) => [d.instruction, d.disagreement]),
      [
        ['a', 'XLA gives 1024 bytes, our layout model 32768'],
        ['c', 'our layout model cannot size it: layout has invalid tiles: f32[2]'],
      ],
    );
  });
});
