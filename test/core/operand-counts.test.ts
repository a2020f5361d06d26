/**
 * XLA's parser refuses an instruction with an operand count its opcode does not take, and crashes
 * on a few (jaxlib 0.10.2's messages and places; test/xla/operand-counts.test.ts puts the whole
 * table to it). `xla-layout check` reports them through its fast path, which must send every such
 * instruction to the statement parser and agree with it (seeded edits of corpus instructions).
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HLO_OPCODES, parseShape } from '../../core/src';
import { readableMessage } from '../../core/src/diagnostics';
import { checkNames, parseHloText, parseStatement } from '../../core/src/hlo';
import {
  countMayBeWrong,
  operandCount,
  operandCountProblem,
  tupleElementsAt,
} from '../../core/src/hlo/operand-counts';
import { createShapeChecker } from '../../core/src/validate';
import { checkErrors } from '../support/check-errors';
import { CORPUS_DIR } from '../support/corpus';
import { FUZZ_SEED } from '../support/fuzz-seed';
import { mulberry32 } from '../support/prng';

const F =
  '%f (x: f32[], y: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n  ROOT %s = f32[] add(%x, %y)\n}\n\n';

/** The errors of an ENTRY holding scalar parameters %a, %b, %c and then `line` (on line 13), as `code column message`. */
function errors(line: string): string[] {
  const text = `HloModule m\n\n${F}ENTRY %e {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  %c = f32[] parameter(2)\n  ${line}\n}\n`;
  return checkErrors(text).map((e) => {
    const [code, place, ...message] = e.split(' ');
    return `${code} ${place.startsWith('13:') ? place.slice(3) : place} ${message.join(' ')}`;
  });
}

describe('operand counts XLA refuses', () => {
  it("reports a fixed count at the operands' `(`, before the attributes, as jaxlib 0.10.2 does", () => {
    assert.deepEqual(errors('ROOT %r = f32[] add(%a, %b, %c)'), [
      'operand-count 22 expects 2 operands, but has 3 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] negate()'), [
      'operand-count 25 expects 1 operands, but has 0 operands',
    ]);
    // Before an attribute XLA would refuse, after a comment between the opcode and the `(`.
    assert.deepEqual(errors('ROOT %r = f32[] add /* c */ (%a), foo=1'), [
      'operand-count 31 expects 2 operands, but has 1 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] compare(%a, %b, %c)'), [
      'operand-count 26 expects 2 operands, but has 3 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] convolution(%a), dim_labels=b01f_01io->b01f'), [
      'operand-count 30 expects 2 operands, but has 1 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[3]{0} iota(%a), iota_dimension=0'), [
      'operand-count 27 expects 0 operands, but has 1 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = u32[] replica-id(%a)'), [
      'operand-count 29 expects 0 operands, but has 1 operands',
    ]);
    // A tuple takes one operand per element of its shape.
    assert.deepEqual(errors('ROOT %r = (f32[], f32[]) tuple(%a, %b, %c)'), [
      'operand-count 33 expects 2 operands, but has 3 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = () tuple(%a)'), [
      'operand-count 21 expects 0 operands, but has 1 operands',
    ]);
  });

  it('says in plain words what the opcode takes and what the instruction has', () => {
    const text = `HloModule m\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] add(%a, %a, %a)\n}\n`;
    const at = text.indexOf('  ROOT');
    const [d] = parseStatement(text, { start: at, end: text.lastIndexOf('\n}') }).diagnostics;
    assert.equal(d.plain, '`add` takes 2 operands; this one has 3');
    assert.deepEqual([d.range.start, d.range.end], [text.indexOf('(%a, %a'), text.lastIndexOf(')') + 1]);
  });

  it('reports the other rules after the attributes, on the operand list', () => {
    assert.deepEqual(errors('ROOT %r = f32[] reduce(%a, %b, %c), to_apply=%f, dimensions={}'), [
      'operand-count 25 expects an even number of operands, but has 3 operands',
    ]);
    // An error in the attributes comes first.
    assert.deepEqual(
      errors('ROOT %r = f32[] reduce(%a, %b, %c), to_apply=%f').map((e) =>
        e.split(' ').slice(0, 2).join(' '),
      ),
      ['attribute-list 37'],
    );
    assert.deepEqual(errors('ROOT %r = f32[] reduce-window(%a), to_apply=%f'), [
      'operand-count 32 expects an even number of operands, but has 1 operands',
    ]);
    const scatter =
      'update_window_dims={}, inserted_window_dims={}, scatter_dims_to_operand_dims={}, index_vector_dim=0, to_apply=%f';
    assert.deepEqual(errors(`ROOT %r = f32[] scatter(%a, %b), ${scatter}`), [
      'operand-count 26 expects an odd number of operands, but has 2 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] dynamic-slice(), dynamic_slice_sizes={}'), [
      'operand-count 32 Expected at least one operand.',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] dynamic-update-slice(%a)'), [
      'operand-count 39 Expected at least two operands.',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] dynamic-reshape()'), [
      'operand-count 34 DynamicReshape requires at least one operand.',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] ragged-dot(%a, %b)'), [
      'operand-count 29 expects 3 operands, but has 2 operands',
    ]);
    assert.deepEqual(
      errors(
        'ROOT %r = f32[] collective-permute(%a, %b, %c), source_target_pairs={{0,0}}, slice_sizes={{1}}',
      ),
      [
        'operand-count 37 CollectivePermute and CollectivePermuteStart must have exactly four operands for dynamic-slice and in-place update.',
      ],
    );
    assert.deepEqual(
      errors('ROOT %r = f32[] collective-permute(%a, %b, %c), source_target_pairs={{0,0}}'),
      [],
    );
    assert.deepEqual(errors('ROOT %r = f32[] async-done(%a, %b), frontend_attributes={}'), [
      'operand-count 29 AsyncUpdate and AsyncDone expect a single async op as their operand.',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] call-done(%a, %b)'), [
      'operand-count 28 AsyncUpdate and AsyncDone expect a single async op as their operand.',
    ]);
  });

  it('reports the counts XLA crashes on', () => {
    const crash = (line: string) => errors(line).map((e) => e.split(' ').slice(0, 2).join(' '));
    assert.deepEqual(crash('ROOT %r = f32[] conditional()'), ['operand-count-crash 30']);
    assert.deepEqual(crash('ROOT %r = f32[] dot(%a), lhs_contracting_dims={}, rhs_contracting_dims={}'), [
      'operand-count-crash 22',
    ]);
    assert.deepEqual(crash('ROOT %r = (u64[2], u32[]) rng-bit-generator(), algorithm=rng_default'), [
      'operand-count-crash 46',
    ]);
    assert.deepEqual(crash('ROOT %r = f32[] rng(%a), distribution=rng_uniform'), ['operand-count-crash 22']);
    assert.deepEqual(crash('ROOT %r = f32[] reduce(), to_apply=%f, dimensions={}'), [
      'operand-count-crash 25',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[3]{0} tuple(%a)'), [
      'operand-count-crash 28 Check failed: state Expected a tuple shape. Got f32[3]',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[<=3] dynamic-reshape(%a, %b, %c)'), [
      'operand-count-crash 37 Check failed: shape.dimensions().size() == dim_sizes.size() (1 vs. 2)',
    ]);
  });

  it('counts an instruction written in place of an operand, from where that operand starts', () => {
    assert.deepEqual(errors('ROOT %r = f32[] negate(f32[] add(%a, %b, %c))'), [
      'operand-count 26 expects 2 operands, but has 3 operands',
    ]);
    assert.deepEqual(errors('ROOT %r = f32[] negate(add(%a, %b))'), []);
  });

  it('leaves what XLA takes alone', () => {
    for (const line of [
      'ROOT %r = f32[] add(%a, %b)',
      'ROOT %r = f32[] after-all()',
      'ROOT %r = (f32[], f32[], f32[]) tuple(%a, %b, %c)',
      'ROOT %r = tuple(%a, %b, %c)',
      'ROOT %r = f32[] reduce(%a, %b, %c, %a), to_apply=%f, dimensions={}',
      'ROOT %r = f32[] reduce-window(), to_apply=%f',
      'ROOT %r = f32[] dot(%a, %b, %c)',
      'ROOT %r = f32[<=3,1] dynamic-reshape(%a, %b, %c)',
      'ROOT %r = f32[] custom-call(), custom_call_target="x"',
      'ROOT %r = f32[] constant(1)',
      'ROOT %r = f32[3]{0} iota(), iota_dimension=0',
      // Unknown to jaxlib 0.10.2: another XLA's count may differ.
      'ROOT %r = f32[] atan(%a, %b)',
    ])
      assert.deepEqual(
        errors(line).filter((e) => e.startsWith('operand-count')),
        [],
        line,
      );
  });

  it("holds a conditional to one operand per branch, once its attributes are right for its first operand's type", () => {
    const g = '%g (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\n';
    const named = (root: string) => {
      const text = `HloModule m\n\n${g}ENTRY %e {\n  %p = pred[] parameter(0)\n  %s = s32[] parameter(1)\n  %a = f32[] parameter(2)\n  ROOT %r = f32[] ${root}\n}\n`;
      return checkNames(parseHloText(text), text).map(
        (d) => `${d.code} ${text.slice(d.range.start, d.range.end)} ${d.message}`,
      );
    };
    const refused = 'Syntax error when trying to parse the text as a HloModule';
    assert.deepEqual(named('conditional(%p, %a), true_computation=%g, false_computation=%g'), [
      `operand-count (%p, %a) ${refused}`,
    ]);
    assert.deepEqual(named('conditional(%s, %a, %a), branch_computations={%g}'), [
      `operand-count (%s, %a, %a) ${refused}`,
    ]);
    assert.deepEqual(named('conditional(%s), branch_computations={}'), [`operand-count (%s) ${refused}`]);
    assert.deepEqual(named('conditional(%s, %a, %a), branch_computations={%g, %g}'), []);
    assert.deepEqual(named('conditional(%p, %a, %a), true_computation=%g, false_computation=%g'), []);
    // The attributes' error comes first.
    assert.deepEqual(
      named('conditional(%p, %a), branch_computations={%g}').map((d) => d.split(' ')[0]),
      ['attribute-list'],
    );
  });

  it("holds a dynamic-slice to one start index per dimension of its array, or one rank-1 array of them, from the operands' definitions", () => {
    const named = (lines: string) => {
      const text = `HloModule m\n\nENTRY %e {\n  %m = f32[3,4]{1,0} parameter(0)\n  %s = s32[] parameter(1)\n  %i = s32[2]{0} parameter(2)\n  %t = (f32[3,4]{1,0}) tuple(%m)\n${lines}\n}\n`;
      return checkNames(parseHloText(text), text).map(
        (d) => `${d.code} ${text.slice(d.range.start, d.range.end)} ${readableMessage(d)}`,
      );
    };
    const wrong = 'Wrong number of operands.';
    assert.deepEqual(named('  ROOT %r = f32[2,2]{1,0} dynamic-slice(%m, %s), dynamic_slice_sizes={2,2}'), [
      `operand-count (%m, %s) \`%m\` has rank 2, so this \`dynamic-slice\` takes the array, then 2 scalar start indices or a single rank-1 array of them; it has 1 start-index operand — XLA: ${wrong}`,
    ]);
    assert.deepEqual(
      named('  ROOT %r = f32[3,4]{1,0} dynamic-update-slice(%m, %m, %s, %s, %s)').map(
        (d) => d.split(' —')[0],
      ),
      [
        'operand-count (%m, %m, %s, %s, %s) `%m` has rank 2, so this `dynamic-update-slice` takes the array and the update, then 2 scalar start indices or a single rank-1 array of them; it has 3 start-index operands',
      ],
    );
    // One rank-1 array of indices fits any rank; a scalar takes none.
    assert.deepEqual(
      named('  ROOT %r = f32[2,2]{1,0} dynamic-slice(%m, %s, %s), dynamic_slice_sizes={2,2}'),
      [],
    );
    assert.deepEqual(named('  ROOT %r = f32[2,2]{1,0} dynamic-slice(%m, %i), dynamic_slice_sizes={2,2}'), []);
    assert.deepEqual(named('  ROOT %r = f32[3,4]{1,0} dynamic-update-slice(%m, %m, %i)'), []);
    assert.deepEqual(named('  ROOT %r = s32[] dynamic-slice(%s), dynamic_slice_sizes={}'), []);
    // An instruction written in place of an operand counts by its written shape.
    assert.deepEqual(
      named(
        '  ROOT %r = f32[2,2]{1,0} dynamic-slice(f32[3,4]{1,0} negate(%m), %s, %s), dynamic_slice_sizes={2,2}',
      ),
      [],
    );
    assert.deepEqual(
      named(
        '  ROOT %r = f32[2,2]{1,0} dynamic-slice(f32[3,4]{1,0} negate(%m), %s), dynamic_slice_sizes={2,2}',
      ).map((d) => d.split(' —')[0]),
      [
        'operand-count (f32[3,4]{1,0} negate(%m), %s) operand 1 has rank 2, so this `dynamic-slice` takes the array, then 2 scalar start indices or a single rank-1 array of them; it has 1 start-index operand',
      ],
    );
    // A tuple or token where XLA reads a rank aborts it.
    assert.deepEqual(
      named('  ROOT %r = f32[2,2]{1,0} dynamic-slice(%t, %s, %s), dynamic_slice_sizes={2,2}'),
      [
        'operand-count-crash (%t, %s, %s) a `dynamic-slice` reads the rank of the array it slices, and `%t` is (f32[3,4]), no array: XLA aborts on it — XLA: Check failed: buffer != nullptr ((null) vs. (null))',
      ],
    );
    assert.deepEqual(
      named(
        '  %k = token[] after-all()\n  ROOT %r = f32[2,2]{1,0} dynamic-slice(%m, %k), dynamic_slice_sizes={2,2}',
      ).map((d) => d.split(' —')[0]),
      [
        'operand-count-crash (%m, %k) a `dynamic-slice` with one start-index operand reads its rank, and `%k` is token[], no array: XLA aborts on it',
      ],
    );
    // An error XLA meets before comes alone: an operand not defined, an attribute it refuses.
    assert.deepEqual(
      named('  ROOT %r = f32[2,2]{1,0} dynamic-slice(%m, %nope), dynamic_slice_sizes={2,2}').map(
        (d) => d.split(' ')[0],
      ),
      ['instruction-undefined'],
    );
    assert.deepEqual(
      named('  ROOT %r = f32[2,2]{1,0} dynamic-slice(%m, %s), dynamic_slice_sizes={2,2}, zzz=1'),
      [],
    );
  });

  it('reports a dynamic-slice whose start indices do not fit the shapes written in it, through the fast path too', () => {
    const fixed = (line: string) =>
      errors(line.replace(/%a/g, 'f32[3,4]{1,0} %a').replace(/%b/g, 's32[] %b')).map((e) =>
        e.split(' ').slice(0, 2).join(' '),
      );
    assert.deepEqual(fixed('ROOT %r = f32[2,2]{1,0} dynamic-slice(%a, %b), dynamic_slice_sizes={2,2}'), [
      'operand-count 40',
    ]);
    assert.deepEqual(
      fixed('ROOT %r = f32[2,2]{1,0} dynamic-slice(%a, %b, %b), dynamic_slice_sizes={2,2}'),
      [],
    );
    assert.deepEqual(
      errors('ROOT %r = f32[2]{0} dynamic-slice(f32[3,4,5] negate(%a), %b, %b), dynamic_slice_sizes={2}').map(
        (e) => e.split(' ').slice(0, 2).join(' '),
      ),
      ['operand-count 36'],
    );
  });

  it('reports what XLA meets first of an operand not defined and the operand count, and marks the count it replaces', () => {
    const named = (line: string) => {
      const text = `HloModule m\n\n${F}ENTRY %e {\n  %a = f32[] parameter(0)\n  ${line}\n}\n`;
      return checkNames(parseHloText(text), text).map(
        (d) =>
          `${d.code} ${text.slice(d.range.start, d.range.end)}${d.replaces ? ` replaces ${text.slice(d.replaces.start, d.replaces.end)}` : ''}`,
      );
    };
    // The operands come first: the count (at their `)`, or after the attributes) is never reached.
    assert.deepEqual(named('ROOT %r = f32[] add(%a, %nope, %a)'), [
      'instruction-undefined nope replaces (%a, %nope, %a)',
    ]);
    assert.deepEqual(named('ROOT %r = f32[] add(%a, f32[2] %a, %a)'), [
      'operand-shape-mismatch f32[2] %a replaces (%a, f32[2] %a, %a)',
    ]);
    assert.deepEqual(named('ROOT %r = f32[] reduce(%a, %nope, %a), dimensions={}, to_apply=%f'), [
      'instruction-undefined nope replaces (%a, %nope, %a)',
    ]);
    // A count checked at the `)` comes before a control predecessor, one checked after the attributes after it.
    assert.deepEqual(named('ROOT %r = f32[] add(%a, %a, %a), control-predecessors={%nope}'), []);
    assert.deepEqual(
      named('ROOT %r = f32[] reduce(%a, %a, %a), dimensions={}, to_apply=%f, control-predecessors={%nope}'),
      ['instruction-undefined nope replaces (%a, %a, %a)'],
    );
    // An instruction written in place of an operand is counted at its own `)`.
    assert.deepEqual(named('ROOT %r = f32[] add(negate(%a, %a), %nope)'), []);
    assert.deepEqual(named('ROOT %r = f32[] add(negate(%a, %nope), %a)'), [
      'instruction-undefined nope replaces negate(%a, %nope)',
    ]);
    // Without a count error nothing is replaced.
    assert.deepEqual(named('ROOT %r = f32[] add(%a, %nope)'), ['instruction-undefined nope']);
  });

  it('reports a declared operand shape its definition does not have, as jaxlib 0.10.2 words it', () => {
    const named = (lines: string) => {
      const text = `HloModule m\n\nENTRY %e {\n  %v = f32[3]{0} parameter(0)\n  %p = f32[] parameter(1)\n${lines}\n}\n`;
      return checkNames(parseHloText(text), text).map(
        (d) => `${d.code} ${text.slice(d.range.start, d.range.end)} ${d.message}`,
      );
    };
    assert.deepEqual(named('  ROOT %n = f32[3]{0} negate(f32[2]{0} %v)'), [
      'operand-shape-mismatch f32[2]{0} %v The declared operand shape f32[2]{0} is not compatible with the shape of the operand instruction f32[3]{0}.',
    ]);
    assert.deepEqual(named('  ROOT %a = f32[] add(f32[2] %p, %p)'), [
      'operand-shape-mismatch f32[2] %p The declared operand shape f32[2]{0} is not compatible with the shape of the operand instruction f32[].',
    ]);
    assert.deepEqual(
      named('  %t = (f32[], f32[3]) tuple(%p, %v)\n  ROOT %k = (f32[], f32[]) copy((f32[], f32[]) %t)'),
      [
        'operand-shape-mismatch (f32[], f32[]) %t The declared operand shape (f32[], f32[]) is not compatible with the shape of the operand instruction (f32[], f32[3]{0}).',
      ],
    );
    // Layouts are not compared; `?` and `<=` dimensions match any size.
    assert.deepEqual(named('  ROOT %n = f32[3]{0} negate(f32[3]{0:T(2)} %v)'), []);
    assert.deepEqual(named('  ROOT %n = f32[3]{0} negate(f32[?]{0} %v)'), []);
    assert.deepEqual(
      named('  %d = f32[<=3]{0} parameter(2)\n  ROOT %n = f32[3]{0} negate(f32[3]{0} %d)'),
      [],
    );
  });
});

describe('operand-count rules are consistent', () => {
  const opcodes = [
    ...HLO_OPCODES.map((o) => o.name),
    'call-done',
    'fusion-update',
    'call-start',
    'all-gather-done',
  ];
  const results = [undefined, 'f32[]', 'f32[2,3]', '(f32[], f32[])', '()'].map((s) =>
    s === undefined ? undefined : parseShape(s).shape,
  );

  it('asks the parser of every count with a problem (the fast path skips the rest)', () => {
    for (const opcode of opcodes)
      for (let count = 0; count <= 6; count++)
        for (const result of results)
          for (const attribute of [false, true]) {
            const problem = operandCountProblem(opcode, count, {
              ...(result ? { result } : {}),
              hasAttribute: () => attribute,
            });
            if (problem) assert.ok(countMayBeWrong(opcode, count), `${opcode} with ${count}`);
          }
  });

  it('counts tuple elements in place as the shape parser does, on every corpus tuple', () => {
    const tuples = ['valid_shapes.txt', 'legacy_shapes.txt']
      .flatMap((f) => readFileSync(join(CORPUS_DIR, f), 'utf8').split('\n'))
      .map((l) => l.split('\t')[0].trim())
      .filter((l) => l.startsWith('('));
    assert.ok(tuples.length > 20);
    for (const t of [...tuples, '()', '(f32[2]{0}, /*index=1*/ (s32[], ()), f32[])']) {
      const shape = parseShape(t).shape;
      assert.ok(shape?.kind === 'tuple', t);
      assert.equal(tupleElementsAt(t, 0, t.length), shape.elements.length, t);
    }
    assert.equal(tupleElementsAt('f32[2]', 0, 6), -1);
  });

  it('counts the parts of an operand list as XLA does', () => {
    const count = (list: string) => operandCount(list, 0, list.length - 1);
    assert.equal(count('()'), 0);
    assert.equal(count('( /* c */ )'), 0);
    assert.equal(count('(%a)'), 1);
    assert.equal(count('(f32[2,3]{1,0} %a, (f32[], s32[]) %b, /* , */ %c)'), 3);
    assert.equal(count('(add(%a, %b), %c)'), 2);
    assert.equal(count('(%a,)'), undefined);
    assert.equal(count('(%a,,%b)'), undefined);
  });
});

describe('the fast path and the statement parser agree on operand counts (seeded)', () => {
  const lines = readdirSync(join(CORPUS_DIR, 'hlo'))
    .filter((f) => f.endsWith('.hlo'))
    .flatMap((f) => readFileSync(join(CORPUS_DIR, 'hlo', f), 'utf8').split('\n'))
    .filter((l) => /^\s*(ROOT\s+)?%?[\w.-]+\s*=.*\w\(/.test(l));

  /** `line` with an operand added to its list or one taken out. */
  function edit(rand: () => number, line: string): string {
    const open = line.search(/[\w-]\(/) + 1;
    const close = line.indexOf(')', open);
    if (close < 0) return line;
    const inside = line.slice(open + 1, close);
    if (rand() < 0.5 || inside.trim() === '')
      return `${line.slice(0, close)}${inside.trim() === '' ? '' : ', '}%extra${line.slice(close)}`;
    const parts = inside.split(', ');
    parts.splice(Math.floor(rand() * parts.length), 1);
    return `${line.slice(0, open + 1)}${parts.join(', ')}${line.slice(close)}`;
  }

  it('reports the same operand-count error at the same place either way', () => {
    const seed = FUZZ_SEED;
    const rand = mulberry32(seed);
    const checker = createShapeChecker();
    const pick = (d: { code: string; range: { start: number }; message: string }) =>
      d.code.startsWith('operand-count') ? [`${d.range.start} ${d.message}`] : [];
    let reported = 0;
    for (let n = 0; n < 3000; n++) {
      const text = edit(rand, lines[Math.floor(rand() * lines.length)]);
      const fast = checker.checkStatement(text, 0, text.length).flatMap(pick);
      const parsed = parseStatement(text, { start: 0, end: text.length }).diagnostics.flatMap(pick);
      assert.deepEqual(fast, parsed, `seed ${seed}: ${text}`);
      reported += fast.length;
    }
    assert.ok(reported > 300, `only ${reported} reported`);
  });
});
