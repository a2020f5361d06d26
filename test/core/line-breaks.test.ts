/**
 * Line breaks where XLA reads a blank (test/xla's oracle, jaxlib 0.10.2): the statement splitter
 * continues a statement with a line no statement starts with, so what XLA accepts gets no error,
 * and what is left over after a complete statement is still reported where XLA stops.
 */
import { strict as assert } from 'node:assert';
import { checkNames, parseHloText, splitStatements } from '../../core/src/hlo';
import { createShapeChecker } from '../../core/src/validate';

/** `code@line:column` (1-based) of every error of the whole check of `text`, in text order. */
function errors(text: string): string[] {
  const checker = createShapeChecker();
  const found = splitStatements(text).flatMap((r) => checker.checkStatement(text, r.start, r.end));
  found.push(...checkNames(parseHloText(text), text));
  return found
    .filter((d) => d.severity === 'error')
    .sort((a, b) => a.range.start - b.range.start)
    .map((d) => {
      const before = text.slice(0, d.range.start).split(/\r\n|\r|\n/);
      return `${d.code}@${before.length}:${before[before.length - 1].length + 1}`;
    });
}

const module = (...body: string[]) => ['HloModule m', '', ...body].join('\n');

describe('core: line breaks XLA reads as blanks', () => {
  it('accepts an instruction broken between its name and `=`, a comment after the name too', () => {
    for (const name of ['  %a', '  %a // the input'])
      assert.deepEqual(
        errors(
          module(
            'ENTRY %e {',
            name,
            '    = f32[2]{0} parameter(0)',
            '  ROOT %r',
            '    = f32[2]{0} negate(%a)',
            '}',
          ),
        ),
        [],
      );
  });

  it('accepts a line starting with `,` after an instruction or the module name', () => {
    const text = [
      'HloModule m',
      '  , entry_computation_layout={(f32[2]{0})->f32[2]{0}}',
      '',
      'ENTRY %e {',
      '  %a = f32[2]{0} parameter(0)',
      '  ROOT %r = f32[2]{0} negate(%a)',
      '    , metadata={op_name="x"}',
      '}',
    ].join('\n');
    assert.deepEqual(errors(text), []);
  });

  it('reads a `}` alone as closing an attribute value or literal left open, and checks what follows', () => {
    const close = (root: string) =>
      module(
        'ENTRY %e (a: f32[2]) -> (f32[2], f32[2]) {',
        '  %a = f32[2]{0} parameter(0), metadata={op_name="x"',
        '}',
        '  %c = f32[2,2]{1,0} constant({',
        '    { 1, 2 },',
        '    { 3, 4 }',
        '  }',
        '  )',
        root,
        '}',
      );
    assert.deepEqual(errors(close('  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%a, %a)')), []);
    // XLA: 11:46 instruction does not exist: b (we said nothing: the ROOT was outside any computation).
    assert.deepEqual(errors(close('  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%a, %b)')), [
      'instruction-undefined@11:47',
    ]);
  });

  it('accepts entry_computation_layout with its `}` on a line of its own', () => {
    const text = module(
      'ENTRY %e {',
      '  %a = f32[2]{0} parameter(0)',
      '  ROOT %r = f32[2]{0} negate(%a)',
      '}',
    );
    for (const layout of ['{(f32[2]{0})\n  ->f32[2]{0}\n}', '{\n  (f32[2]{0})->f32[2]{0}\n}'])
      assert.deepEqual(
        errors(text.replace('HloModule m', `HloModule m, entry_computation_layout=${layout}`)),
        [],
      );
  });

  it('accepts source-table entries wrapped over lines, and reports a key apart from its `=`', () => {
    const tables = (locations: string) =>
      module(
        'FileNames',
        '1',
        '"a.py"',
        '',
        'FunctionNames',
        '1 "f"',
        '',
        'FileLocations',
        locations,
        '',
        'StackFrames',
        '1 {file_location_id=1 parent_frame_id=0}',
        '',
        'ENTRY %e {',
        '  ROOT %a = f32[2]{0} parameter(0), metadata={op_name="a" stack_frame_id=1}',
        '}',
      );
    assert.deepEqual(
      errors(tables('1 {file_name_id=1 function_name_id=1\n   line=3 end_line=3 column=1 end_column=5}')),
      [],
    );
    assert.deepEqual(
      errors(tables('1 {file_name_id=\n1 function_name_id=1 line=3 end_line=3 column=1 end_column=5}')),
      [],
    );
    // XLA: 11:4 expects attribute name (and so with a blank for the line break).
    assert.deepEqual(
      errors(tables('1 {file_name_id\n=1 function_name_id=1 line=3 end_line=3 column=1 end_column=5}')),
      ['invalid-name@11:4'],
    );
  });

  it('accepts a computation header broken before its parameters or inside its result shape', () => {
    const text = module(
      '%c',
      '(x: f32[2]) -> f32',
      '[2] {',
      '  ROOT %x = f32[2]{0} parameter(0)',
      '}',
      '',
      'ENTRY %e {',
      '  %a = f32[2]{0} parameter(0)',
      '  ROOT %r = f32[2]{0} call(%a), to_apply=%c',
      '}',
    );
    assert.deepEqual(errors(text), []);
  });

  it('accepts a comment between `replica_groups=` and `mesh`', () => {
    const text = module(
      'ENTRY %e {',
      '  %a = f32[2]{0} parameter(0)',
      "  ROOT %r = f32[2]{0} all-gather(%a), replica_groups=/*g*/mesh['x'=8] {'x'}, dimensions={0}",
      '}',
    );
    assert.deepEqual(errors(text), []);
  });

  it('reports what a continued line leaves over after a complete statement, where XLA stops', () => {
    const body = (extra: string) =>
      module(
        'ENTRY %e {',
        '  %a = f32[2]{0} parameter(0), metadata={op_name="x"}',
        extra,
        '  ROOT %r = f32[2]{0} negate(%a)',
        '}',
      );
    // XLA: 5:2 expects name; 5:5 expects attribute name (twice).
    assert.deepEqual(errors(body(' )')), ['invalid-name@5:2']);
    assert.deepEqual(errors(body(' , )')), ['invalid-name@5:4']);
    assert.deepEqual(errors(body(' , , sharding={replicated}')), ['invalid-name@5:4']);
    // XLA: 2:2, 4:2 and 6:2 expects name.
    assert.deepEqual(errors('HloModule m\n )\n'), ['invalid-name@2:2']);
    assert.deepEqual(errors(module('ENTRY %e {', ' ) ', '  ROOT %a = f32[2]{0} parameter(0)', '}')), [
      'invalid-name@4:2',
    ]);
    assert.deepEqual(errors(module('ENTRY %e {', '  ROOT %a = f32[2]{0} parameter(0)', '}', ' )')), [
      'invalid-name@6:2',
    ]);
  });

  it("reads a second instruction on an instruction's line, as XLA does (its places: jaxlib 0.10.2)", () => {
    const entry = (line: string) => module('ENTRY %e {', line, '  ROOT %r = f32[] negate(%a)', '}');
    assert.deepEqual(errors(entry('  %a = f32[] constant(0) %b = f32[] negte(%a)')), ['unknown-opcode@4:37']);
    // No blank around `=`: the plain path must not take the line for one instruction.
    assert.deepEqual(errors(entry('  %a = f32[] constant(0) %b=f32[] negte(%a)')), ['unknown-opcode@4:35']);
    assert.deepEqual(errors(entry('  %a = f32[] constant(0), sharding={replicated} %b=f32[] negte(%a)')), [
      'unknown-opcode@4:58',
    ]);
    assert.deepEqual(
      errors(entry('  %a = f32[4]{0} parameter(0) %s = f32[] reduce(%a, %a), dimensions={0}')),
      ['attribute-list@4:56'],
    );
    assert.deepEqual(errors(entry('  %a = f32[2]{0} parameter(0) %b = f32[2]{1} negate(%a)')), [
      'minor-to-major-out-of-bounds@4:43',
    ]);
    // A braced value ends at its `}`: what follows is the next instruction, which ROOT uses.
    assert.deepEqual(
      errors(
        module(
          'ENTRY %e {',
          '  %a = f32[] constant(0), metadata={op_name="x"} %b = f32[] negate(%a)',
          '  ROOT %r = f32[] negate(%b)',
          '}',
        ),
      ),
      [],
    );
  });
});
