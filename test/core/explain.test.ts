import { strict as assert } from 'node:assert';
import {
  arrayShapeFromText,
  explainShapeNode,
  explainShapeText,
  memorySpaceMeaning,
  toJsonSafe,
} from '../../core/src/explain';
import { parseShape } from '../../core/src/parse';

describe('explain', () => {
  it('explains Figure 1 with exact sizes, order, steps and padding', () => {
    const e = explainShapeText('f32[3,5]{1,0:T(2,2)}');
    assert.equal(e.hasErrors, false);
    assert.deepEqual(e.diagnostics, []);
    const [a] = e.arrays;
    assert.ok(a?.sizes && a.plan && a.padding);
    assert.deepEqual(
      [
        a.sizes.logicalElements,
        a.sizes.physicalElements,
        a.sizes.logicalBytes,
        a.sizes.physicalBytes,
        a.sizes.arraySizeBytes,
      ],
      [15n, 24n, 60n, 96n, 96n],
    );
    assert.deepEqual(
      a.dims.map((d) => [d.dim, d.size, d.physicalPosition]),
      [
        [0, 3n, 0],
        [1, 5n, 1],
      ],
    );
    assert.deepEqual(a.physicalOrder, [0, 1]);
    assert.deepEqual(a.tiles, ['(2,2)']);
    assert.deepEqual(a.plan.expandedShape, [2n, 3n, 2n, 2n]);
    assert.deepEqual(a.memorySpace, { value: 0, meaning: 'default device memory' });
  });

  it('names the padded dimension and a computed fix for the 32x case', () => {
    const [a] = explainShapeText('f32[1024,4]{1,0:T(8,128)}').arrays;
    assert.ok(a?.sizes?.expansion && a.padding?.dominant && a.fix);
    assert.equal(a.sizes.expansion.value, 32);
    assert.deepEqual(a.padding.dominant.dims, [1]);
    assert.deepEqual([a.padding.dominant.from, a.padding.dominant.to], [4n, 128n]);
    assert.ok(a.fix.physicalBytes < a.sizes.physicalBytes);
  });

  it('adds tile-not-dividing advice on the later tile that pads beyond ArraySize', () => {
    const text = 'f32[4,6]{1,0:T(3,4)(2,1)}';
    const e = explainShapeText(text);
    assert.deepEqual(
      e.diagnostics.map((d) => [d.code, d.severity, text.slice(d.range.start, d.range.end)]),
      [['tile-not-dividing', 'warning', '(2,1)']],
    );
    assert.equal(e.arrays[0]?.sizes?.arraySizeBytes, 192n);
    assert.equal(e.arrays[0]?.sizes?.physicalBytes, 256n);
  });

  it('explains each leaf of a tuple with its path and range', () => {
    const text = '(f32[3,5]{1,0:T(2,2)}, (s32[]{:T(128)}, token[]))';
    const e = explainShapeText(text);
    assert.deepEqual(
      e.arrays.map((a) => [a.path, a.text, a.error === undefined]),
      [
        [[0], 'f32[3,5]{1,0:T(2,2)}', true],
        [[1, 0], 's32[]{:T(128)}', true],
        [[1, 1], 'token[]', false],
      ],
    );
    assert.equal(e.arrays[1]?.sizes?.physicalBytes, 512n);
  });

  it('labels an assumed TPU tiling and computes under it', () => {
    const [a] = explainShapeText('f32[1024,4]{1,0}', { assumedTiling: 'tpu' }).arrays;
    assert.ok(a?.assumed);
    assert.deepEqual(a.tiles, ['(8,128)']);
    assert.equal(a.sizes?.physicalBytes, 524288n);
    const [none] = explainShapeText('f32[1024,4]{1,0}').arrays;
    assert.equal(none?.assumed, undefined);
    assert.equal(none?.sizes?.physicalBytes, 16384n);
  });

  it('reports errors as data: no tree, or no math', () => {
    const bad = explainShapeText('f32[2,2]{1,0:S(1)T(2,2)}');
    assert.equal(bad.hasErrors, true);
    assert.deepEqual(
      bad.diagnostics.map((d) => d.code),
      ['layout-attribute-order'],
    );
    const invalid = explainShapeText('f32[2,2]{0,0}');
    assert.equal(invalid.hasErrors, true);
    assert.equal(invalid.arrays[0]?.sizes, undefined);
    assert.equal(invalid.arrays[0]?.error?.code, 'invalid-shape');
  });

  it('explains a node found inside a larger text with ranges into that text', () => {
    const text = '%x = bf16[8,256]{1,0:T(8,128)(2,1)S(1)} copy(%y)';
    const parsed = parseShape(text, 5);
    assert.ok(parsed.shape);
    const e = explainShapeNode(parsed.shape, text, parsed.diagnostics);
    assert.equal(e.arrays[0]?.text, 'bf16[8,256]{1,0:T(8,128)(2,1)S(1)}');
    assert.deepEqual(e.arrays[0]?.range, { start: 5, end: 39 });
    assert.equal(e.arrays[0]?.memorySpace.value, 1);
  });

  it('arrayShapeFromText: the model, or the first error with its range', () => {
    const ok = arrayShapeFromText('f32[3,5]{1,0:T(2,2)}');
    assert.ok('shape' in ok);
    assert.deepEqual(ok.shape.dims, [3n, 5n]);
    const tuple = arrayShapeFromText('(f32[2], f32[3])');
    assert.ok(!('shape' in tuple));
    assert.equal(tuple.code, 'not-an-array');
    const bad = arrayShapeFromText('f32[2]{0:T(-1)}');
    assert.ok(!('shape' in bad));
    assert.deepEqual([bad.code, bad.rule], ['invalid-shape', 'tile-negative']);
    assert.deepEqual(bad.range, { start: 11, end: 13 });
  });

  it('JSON form keeps exact integers as decimal strings', () => {
    assert.deepEqual(toJsonSafe({ a: 2n ** 60n, b: [1n, 2], c: 'x' }), {
      a: '1152921504606846976',
      b: ['1', 2],
      c: 'x',
    });
    assert.match(memorySpaceMeaning(5), /host/);
    assert.match(memorySpaceMeaning(42), /backend-specific/);
  });
});
