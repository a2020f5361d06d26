import { strict as assert } from 'node:assert';
import { RULES } from '../../core/src/diagnostics';
import { parseShapeText } from '../../core/src/parse';
import { MAX_SHAPE_DIAGNOSTICS, validateShape } from '../../core/src/validate';

/** Validation diagnostics of a shape that parses cleanly, as [code, covered text] pairs. */
function validate(text: string, advice = true): [string, string][] {
  const r = parseShapeText(text);
  assert.deepEqual(r.diagnostics, [], `${text} should parse`);
  return validateShape(r.shape!, { advice }).map((d) => [d.code, text.slice(d.range.start, d.range.end)]);
}

function messages(text: string): string[] {
  return validateShape(parseShapeText(text).shape!).map((d) => d.message);
}

describe('validateShape: XLA validator rules on exact ranges', () => {
  const cases: readonly [text: string, code: string, covered: string][] = [
    ['f32[2,3]{0,0}', 'minor-to-major-duplicate', '0'],
    ['f32[4,5,6]{2,2,0}', 'minor-to-major-duplicate', '2'],
    ['f32[2,3]{2,0}', 'minor-to-major-out-of-bounds', '2'],
    ['f32[2,3]{1,-1}', 'minor-to-major-out-of-bounds', '-1'],
    ['f32[2,3]{1,0:#(u32)}', 'index-type-dense', '#(u32)'],
    ['f32[2,3]{1,0:*(u16)}', 'pointer-type-dense', '*(u16)'],
    ['f32[2,3]{1,0:*(f32)}', 'pointer-type-dense', '*(f32)'],
    ['f32[8,128]{1,0:T()}', 'tile-empty', '()'],
    ['f32[8,8]{1,0:T(2,0)}', 'tile-dimension-invalid', '0'],
    ['bf16[8,256]{1,0:T(8,128)(0,1)}', 'tile-dimension-invalid', '0'],
    ['f32[2,3]{1,0:E(-4)}', 'element-size-negative', '-4'],
    ['pred[123,456]{1,0:SC(2:10)}', 'split-config-dimension', '2'],
    ['pred[123,456]{1,0:SC(-1:10)}', 'split-config-dimension', '-1'],
    ['pred[123,456]{1,0:SC(0:11)(0:22)}', 'split-config-dimension', '0'],
    ['pred[123,456]{1,0:SC(1:200,100)}', 'split-config-indices', '200,100'],
    ['pred[123,456]{1,0:SC(0:0,4)}', 'split-config-indices', '0,4'],
    ['pred[123,456]{1,0:SC(1:456)}', 'split-config-indices', '456'],
    ['pred[123,456]{0,1:SC(1:123)}', 'split-config-indices', '123'],
    ['f32[-1]', 'invalid-dimension-size', '-1'],
    ['f32[2,<=-5]', 'invalid-dimension-size', '<=-5'],
    ['f32[4611686018427387904,4]', 'dimensions-overflow', '[4611686018427387904,4]'],
    ['f32[3037000499,3037000499]', 'dimensions-overflow', '[3037000499,3037000499]'],
    ['f32[8,8]{1,0:T(2,-2)}', 'tile-negative', '-2'],
    ['f32[2,3]{1,0:L(0)}', 'tail-alignment-invalid', '0'],
    ['f32[2,3]{1,0:L(-3)}', 'tail-alignment-invalid', '-3'],
    ['token[2]', 'token-dimensions', '[2]'],
    ['opaque[1,2]', 'token-dimensions', '[1,2]'],
    ['token[]{0}', 'token-layout', '{0}'],
    ['opaque[]{:T(8)}', 'token-layout', '{:T(8)}'],
    ['c64[4611686018427387904,256,0]', 'dimensions-overflow', '[4611686018427387904,256,0]'],
    ['f32[8,8]{1,0:T(8,*)}', 'combine-without-minor', '*'],
    ['f32[3]{0:T(8,128)}', 'tile-rank-exceeds-shape', '(8,128)'],
    ['f32[8,8]{1,0:T(2,2)(2,2,2,2,2)}', 'tile-rank-exceeds-shape', '(2,2,2,2,2)'],
    ['f32[2,3]{1,0:E(16)}', 'element-size-unusual', '16'],
    ['s8[21]{0:E(4)}', 'element-size-unusual', '4'],
    ['f32[2]{0:S(200)}', 'memory-space-range', '200'],
    ['f32[2]{0:S(-129)}', 'memory-space-range', '-129'],
    ['f32[10,10]{1,0:D(D,C)}', 'legacy-dim-level-types', 'D(D,C)'],
  ];
  for (const [text, code, covered] of cases) {
    it(`${text} -> ${code} on ${covered}`, () => {
      const found = validate(text);
      assert.deepEqual(found, [[code, covered]]);
      // The covered text is the last occurrence in the shape: check the offset, not just the text.
      const d = validateShape(parseShapeText(text).shape!)[0];
      assert.equal(d.range.start, text.lastIndexOf(covered), text);
      assert.equal(d.severity, RULES[d.code].severity);
    });
  }

  it('uses XLA wording', () => {
    assert.deepEqual(messages('f32[10,20,30]{3,2,1}'), [
      'layout minor_to_major field has out-of-bounds value: {3, 2, 1}; shape: f32[10,20,30]',
    ]);
    assert.deepEqual(messages('f32[<=4,?]{0,0}'), [
      'layout minor_to_major field has duplicate values: {0, 0}; shape: f32[<=4,?]',
    ]);
    assert.deepEqual(messages('f32[]{:T()}'), ['layout has invalid tiles: f32[]']);
    assert.deepEqual(messages('f32[-1,2]'), [
      'Shape Error: Negative dimension at index 0: -1. Shape(f32): f32[-1,2]',
    ]);
    assert.deepEqual(messages('f32[4611686018427387904,4]'), [
      'Shape Error: Dimensions overflow. Shape(f32): f32[4611686018427387904,4]',
    ]);
    assert.deepEqual(messages('f32[3037000499,3037000499]'), [
      'Shape f32[3037000499,3037000499] size may overflow int64_t.',
    ]);
    assert.deepEqual(messages('pred[123,456]{1,0:SC(1:456)}'), [
      'split config split index is out of bounds: 456 (dim size 456); shape: pred[123,456]',
    ]);
  });

  it('computes overflow exactly at the int64 boundary', () => {
    // 2^62 * 2 = 2^63 overflows; (2^63-1) elements of 1 byte does not.
    assert.deepEqual(
      validate('f32[4611686018427387904,2]').map((d) => d[0]),
      ['dimensions-overflow'],
    );
    assert.deepEqual(validate('u8[9223372036854775807]'), []);
    assert.deepEqual(
      validate('u16[9223372036854775807]').map((d) => d[0]),
      ['dimensions-overflow'],
    );
    // Unbounded dims do not count.
    assert.deepEqual(
      validate('f32[?,4611686018427387904]').map((d) => d[0]),
      ['dimensions-overflow'],
    );
    assert.deepEqual(validate('u8[?,4611686018427387904]'), []);
  });

  it('accepts normal element sizes, tiles and memory spaces without advice', () => {
    for (const text of [
      's4[64,128]{1,0:E(4)}',
      's4[5,2]{1,0:E(8)}',
      'pred[8,8,8]{0,2,1:T(8,128)E(32)}',
      'f32[2]{0:E(32)}',
      's2[1001]{0:E(2)}',
      'u32[]{:T(128)}',
      'f32[123,456,789]{0,1,2:T(2, * , 128)}',
      'bf16[2048]{0:T(1024)(128)(2,1)}',
      'f32[2]{0:S(-128)}',
      'f32[2]{0:S(127)}',
      's32[<=4096]{0:T(8)M(1024)}',
      'f32[200001,128]{1,0:T(8)L(1024)}',
      'token[]',
    ]) {
      assert.deepEqual(validate(text), [], text);
    }
  });

  it('validates tuple elements and buffer contents recursively, in order', () => {
    const text = '(f32[2,3]{0,0}, (s32[], f32[8,8]{1,0:T(2,0)}), b(f32[-1]))';
    assert.deepEqual(validate(text), [
      ['minor-to-major-duplicate', '0'],
      ['tile-dimension-invalid', '0'],
      ['invalid-dimension-size', '-1'],
    ]);
  });

  it('drops advice when asked', () => {
    assert.deepEqual(validate('f32[10,10]{1,0:D(D,C)E(16)}', false), []);
    assert.deepEqual(
      validate('f32[10,10]{1,0:D(D,C)#(u32)}', false).map((d) => d[0]),
      ['index-type-dense'],
    );
  });

  it('does not repeat what the parser reported', () => {
    const r = parseShapeText('f32[2,3]{5,6,7:P(f32[2])}');
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['rank-mismatch', 'physical-shape-dense'],
    );
    assert.deepEqual(validateShape(r.shape!), []);
  });

  it('handles 8000-deep tuples without recursion', () => {
    const r = parseShapeText('('.repeat(8000) + 'f32[2,3]{0,0}' + ')'.repeat(8000));
    assert.deepEqual(
      validateShape(r.shape!).map((d) => d.code),
      ['minor-to-major-duplicate'],
    );
  });

  it('lists at most MAX_SHAPE_DIAGNOSTICS problems per shape, the last saying how many more, each quoting a long shape by its ends', () => {
    const text = `f32[${Array(50_000).fill('-1').join(',')}]`;
    const d = validateShape(parseShapeText(text).shape!);
    assert.equal(d.length, MAX_SHAPE_DIAGNOSTICS);
    assert.ok(d.every((x) => x.code === 'invalid-dimension-size'));
    assert.deepEqual(d[99].range, { start: 4 + 99 * 3, end: 4 + 99 * 3 + 2 });
    assert.match(d[99].message, /Negative dimension at index 99: -1\./);
    assert.match(d[99].message, /\(49,900 more problems in this shape not listed: at most 100 are\)$/);
    assert.doesNotMatch(d[98].message, /more problems/);
    // XLA quotes the whole shape; 150 KB of it are quoted by their ends.
    for (const x of d) assert.ok(x.message.length < 400, `${x.message.length} characters`);
    assert.match(d[0].message, /Shape\(f32\): f32\[-1,-1,.* … .*-1,-1\]$/);
    // minor_to_major lists in messages are cut too.
    const order = Array.from({ length: 4_999 }, (_, i) => i).join(',');
    const m2m = messages(`f32[${Array(5_000).fill(1).join(',')}]{0,${order}}`);
    assert.equal(m2m.length, 1);
    assert.match(
      m2m[0],
      /^layout minor_to_major field has duplicate values: \{0, 0, 1, .*, 62, … \(4,936 more\)\}/,
    );
    assert.ok(m2m[0].length < 800, `${m2m[0].length} characters`);
  });
});
