import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { scanShapes } from '../../core/src/parse';
import { createShapeChecker } from '../../core/src/validate';
import { DELIMITERS } from '../support/hlo-tokens';

/** The source text of every shape found, in order. */
function found(text: string, start?: number, end?: number): string[] {
  return scanShapes(text, start, end).map((f) => text.slice(f.shape.range.start, f.shape.range.end));
}

describe('scanShapes: where shapes occur in HLO text', () => {
  const cases: readonly [what: string, text: string, shapes: readonly string[]][] = [
    ['instruction result tuple', '%x = (f32[2]{0}, s32[]) tuple(%a, %b)', ['(f32[2]{0}, s32[])']],
    [
      'operand annotations',
      '%y = f32[2,2]{1,0} add(f32[2,2]{1,0} %p, f32[2,2]{1,0} %q)',
      ['f32[2,2]{1,0}', 'f32[2,2]{1,0}', 'f32[2,2]{1,0}'],
    ],
    ['opcode operand list is not a tuple', '%c = u32[5]{0} copy(u32[5]{0} %x)', ['u32[5]{0}', 'u32[5]{0}']],
    ['operand list with a space', '%c = u32[5]{0} copy (u32[5]{0} %x)', ['u32[5]{0}', 'u32[5]{0}']],
    [
      'tuple operand of an opcode',
      '%g = s32[] get-tuple-element((s32[], f32[2]{0}) %t), index=0',
      ['s32[]', '(s32[], f32[2]{0})'],
    ],
    [
      'signature',
      '%comp (p0: f32[2]{0}, p1: (s32[], f32[])) -> f32[2]{0} {',
      ['f32[2]{0}', '(s32[], f32[])', 'f32[2]{0}'],
    ],
    [
      'body brace is not a layout',
      'ENTRY %main (a: f32[2]) -> f32[2] {\n  ROOT %a = f32[2]{0} parameter(0)\n}',
      ['f32[2]', 'f32[2]', 'f32[2]{0}'],
    ],
    [
      'entry_computation_layout over several lines',
      'HloModule m, entry_computation_layout={(\n  f32[2,3]{0,1:T(2,128)},\n  s32[]\n)->f32[2,3]{1,0}}',
      ['(\n  f32[2,3]{0,1:T(2,128)},\n  s32[]\n)', 'f32[2,3]{1,0}'],
    ],
    [
      'attribute values',
      'outfeed(%t, %tok), outfeed_shape=(u32[5]{0}, token[]), x=1',
      ['(u32[5]{0}, token[])'],
    ],
    [
      'operand_layout_constraints',
      'custom-call(%a), operand_layout_constraints={f32[2,3]{0,1}, s32[]}',
      ['f32[2,3]{0,1}', 's32[]'],
    ],
    [
      'identifiers that contain type names',
      '%s32.1 = s32[] add(%s32.1, pred.3), f32=get-tuple-element.1',
      ['s32[]'],
    ],
    [
      'strings are opaque',
      '%a = f32[] constant(0), metadata={op_name="f32[9] x" source_file="(s32[])"}, backend_config="{\\"k\\": \\"u8[3]\\"}"',
      ['f32[]'],
    ],
    ['comments are skipped', '// f32[1]\n%a = f32[] constant(0) /* s32[2] */ // {{.*}} bf16[3]', ['f32[]']],
    [
      'index comments inside a tuple',
      '%t = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]) tuple()',
      ['(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[])'],
    ],
    ['empty tuple result', 'ROOT %t = () tuple()', ['()']],
    ['buffer shapes', '%b = b(f32[4]{0}) custom-call()', ['b(f32[4]{0})']],
    [
      'nested operand tuples keep their complete children',
      'call-done(((s32[<=4]{0:T(8)M(1024)}), u32[]{:T(8)S(8)}) %s)',
      ['((s32[<=4]{0:T(8)M(1024)}), u32[]{:T(8)S(8)})'],
    ],
    [
      'a failed tuple attempt keeps complete children',
      'foo((f32[2], s32[]) %a, f32[3] %b)',
      ['(f32[2], s32[])', 'f32[3]'],
    ],
  ];
  for (const [what, text, shapes] of cases) {
    it(what, () => {
      assert.deepEqual(found(text), shapes);
      for (const f of scanShapes(text)) assert.deepEqual(f.diagnostics, []);
    });
  }

  it('reports a broken shape with its parse error, absolute in the text', () => {
    const text = '%x = f32[2,3]{1,0:T(2,x)} add()';
    const [f] = scanShapes(text);
    assert.equal(f.diagnostics.length, 1);
    const d = f.diagnostics[0];
    assert.equal(d.code, 'expected-integer');
    assert.deepEqual(d.range, { start: text.indexOf('x)'), end: text.indexOf('x)') + 1 });
  });

  it('honours start and end', () => {
    const text = 'f32[1] s32[2] u8[3]';
    assert.deepEqual(found(text, 7, 13), ['s32[2]']);
    assert.deepEqual(found(text, 7), ['s32[2]', 'u8[3]']);
    // A shape cut by the end is read only up to it.
    assert.deepEqual(found('f32[2,3]{1,0}', 0, 8), ['f32[2,3]']);
  });
});

describe('scanShapes: linear time on pathological input', () => {
  function time(text: string): number {
    const t0 = performance.now();
    scanShapes(text);
    return performance.now() - t0;
  }

  it('10,000 nested parens, open and closed', () => {
    assert.ok(time('('.repeat(10_000) + 'f32[]' + ')'.repeat(10_000)) < 3000);
    assert.ok(time('('.repeat(100_000)) < 3000);
    assert.ok(time('( '.repeat(50_000) + 'x') < 3000);
  });

  it('100,000-character lines of near-shapes', () => {
    assert.ok(time('(f32[1] '.repeat(12_500)) < 3000);
    assert.ok(time('f32[1]{'.repeat(15_000)) < 3000);
    assert.ok(time('/*'.repeat(50_000)) < 3000);
    assert.ok(time('f32[1]{0:T('.repeat(10_000)) < 3000);
    assert.ok(time('"'.repeat(100_000)) < 3000);
  });

  it('reports the 10,000-deep tuple with recursion-depth', () => {
    const text = '%t = ' + '('.repeat(10_000) + 'f32[]' + ')'.repeat(10_000);
    const all = scanShapes(text).flatMap((f) => f.diagnostics.map((d) => d.code));
    assert.ok(all.includes('recursion-depth'));
  });

  it('terminates on random bytes with every range in bounds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        let last = 0;
        for (const f of scanShapes(text)) {
          const r = f.shape.range;
          assert.ok(r.start >= last && r.start <= r.end && r.end <= text.length);
          last = r.end;
          for (const d of f.diagnostics)
            assert.ok(d.range.start >= 0 && d.range.start <= d.range.end && d.range.end <= text.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('terminates on HLO-like token soup', () => {
    const token = fc.constantFrom(
      'f32',
      'pred',
      'b',
      ...DELIMITERS,
      ':',
      '1',
      '-1',
      '<=',
      '?',
      'T',
      'S',
      '*',
      '%x',
      '"',
      '/*',
      '*/',
      '//',
      '\n',
      ' ',
      '->',
      's32.1',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 200 }), (tokens) => {
        const text = tokens.join('');
        for (const f of scanShapes(text)) assert.ok(f.shape.range.end <= text.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('createShapeChecker', () => {
  it('caches by shape text and re-bases diagnostics to each occurrence', () => {
    const text = '%a = f32[2,3]{0,0} p(), %b = f32[2,3]{0,0} q(), %c = f32[2,3]{1,0:T(2,x)} r()';
    const checker = createShapeChecker();
    const [a, b, c] = scanShapes(text);
    const da = checker.check(text, a);
    const db = checker.check(text, b);
    assert.equal(checker.size, 1);
    assert.deepEqual(
      da.map((d) => d.code),
      ['minor-to-major-duplicate'],
    );
    const secondZero = text.indexOf('0}', text.indexOf('%b'));
    assert.deepEqual(db[0].range, { start: secondZero, end: secondZero + 1 });
    assert.deepEqual(da[0].range.start, text.indexOf('0}'));
    // Parse diagnostics come first.
    assert.deepEqual(
      checker.check(text, c).map((d) => d.code),
      ['expected-integer'],
    );
  });

  it('respects the advice option and the cache bound', () => {
    const text = 'f32[2]{0:E(16)} f32[3]{0:E(16)} f32[4]{0:E(16)}';
    const quiet = createShapeChecker({ advice: false, maxEntries: 2 });
    for (const f of scanShapes(text)) assert.deepEqual(quiet.check(text, f), []);
    assert.ok(quiet.size <= 2);
    const loud = createShapeChecker();
    assert.deepEqual(
      scanShapes(text).map((f) => loud.check(text, f).length),
      [1, 1, 1],
    );
  });
});
