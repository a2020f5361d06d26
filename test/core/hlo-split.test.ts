import { strict as assert } from 'node:assert';
import { splitStatements } from '../../core/src/hlo';

/** The text of each statement. */
function split(text: string, options = {}): string[] {
  return splitStatements(text, 0, text.length, options).map((r) => text.slice(r.start, r.end));
}

describe('hlo splitStatements', () => {
  it('splits one statement per line, blank lines included', () => {
    const text = 'HloModule m\n\nENTRY %e {\n  ROOT %x = f32[] parameter(0)\n}\n';
    assert.deepEqual(split(text), ['HloModule m', '', 'ENTRY %e {', '  ROOT %x = f32[] parameter(0)', '}']);
  });

  it("joins a header to its body's `{` after blank lines, as XLA reads them, and no other line", () => {
    const text = 'ENTRY %e (a: f32[2]) -> f32[2]\n\n \n  {\n  ROOT %a = f32[2]{0} parameter(0)\n}\n\n%c {';
    assert.deepEqual(split(text), [
      'ENTRY %e (a: f32[2]) -> f32[2]\n\n \n  {',
      '  ROOT %a = f32[2]{0} parameter(0)',
      '}',
      '',
      '%c {',
    ]);
  });

  it("joins a header to its body's `{` or its parameters' `(` after comment lines, as XLA reads them", () => {
    const text =
      'ENTRY %e (a: f32[2]) -> f32[2]\n// the body\n/* below\n */\n{\n  ROOT %a = f32[2]{0} parameter(0)\n}\n// c\n%c\n\n// p\n(x: f32[]) -> f32[] {';
    assert.deepEqual(split(text), [
      'ENTRY %e (a: f32[2]) -> f32[2]\n// the body\n/* below\n */\n{',
      '  ROOT %a = f32[2]{0} parameter(0)',
      '}',
      '// c',
      '%c\n\n// p\n(x: f32[]) -> f32[] {',
    ]);
  });

  it('keeps a multi-line entry_computation_layout header together', () => {
    const header =
      'HloModule entry, entry_computation_layout={(\n  f32[2,3]{0,1:T(2,128)},\n  (\n    s32[]\n  )\n)->f32[2,3]{1,0}}';
    const text = `${header}\n\nENTRY %main {\n}`;
    assert.deepEqual(split(text), [header, '', 'ENTRY %main {', '}']);
  });

  it('continues an instruction without opcode and after a trailing comma (pad_to_static style)', () => {
    const ins =
      '  ROOT %c = (s32[2,2,2], s32[])\n             custom-call(s32[2,<=2,2] %param),\n             custom_call_target="PadToStatic"';
    const text = `ENTRY main {\n  %param = s32[2,<=2,2] parameter(0)\n${ins}\n}`;
    assert.deepEqual(split(text), ['ENTRY main {', '  %param = s32[2,<=2,2] parameter(0)', ins, '}']);
  });

  it('continues a computation signature broken inside its parameter list', () => {
    const header = '%f (p0: s8[56,4096], p1:\n    s32[]) -> s8[1,4096] {';
    assert.deepEqual(split(`${header}\n  ROOT %p1 = s32[] parameter(1)\n}`), [
      header,
      '  ROOT %p1 = s32[] parameter(1)',
      '}',
    ]);
  });

  it('continues a signature broken before or after its `->`, comments included', () => {
    for (const header of [
      'ENTRY %main (x: f32[4]) ->\n f32[4] {',
      'ENTRY %main (x: f32[4])\n -> f32[4] {',
      'ENTRY %main (x: f32[4]) -> // result\n f32[4] {',
      '%f (a: f32[],\n  b: f32[]) ->\n  f32[] {',
    ])
      assert.deepEqual(split(`HloModule m\n${header}\n  ROOT %x = f32[4]{0} parameter(0)\n}`), [
        'HloModule m',
        header,
        '  ROOT %x = f32[4]{0} parameter(0)',
        '}',
      ]);
    // An arrow that ends an instruction's line (in a string here) continues nothing.
    assert.deepEqual(split('  %a = f32[] parameter(0), op_name="->"\n  %b = f32[] parameter(1)'), [
      '  %a = f32[] parameter(0), op_name="->"',
      '  %b = f32[] parameter(1)',
    ]);
  });

  it('never lets an unclosed bracket swallow the next statement', () => {
    const text = '  %a = f32[2 add(%x)\n  ROOT %b = f32[] add(%a)\n}';
    assert.deepEqual(split(text), ['  %a = f32[2 add(%x)', '  ROOT %b = f32[] add(%a)', '}']);
  });

  it('continues a statement with a line no statement starts with, as XLA reads a line break as a blank', () => {
    // Leading commas, a parameter list or result shape broken from its name or type, a literal's `)`.
    assert.deepEqual(
      split('  %r = f32[2]{0} negate(%a)\n    , metadata={op_name="x"}\n  ROOT %s = f32[] add()'),
      ['  %r = f32[2]{0} negate(%a)\n    , metadata={op_name="x"}', '  ROOT %s = f32[] add()'],
    );
    assert.deepEqual(split('HloModule m\n  , is_scheduled=true\n\n%c\n(x: f32[2]) -> f32\n[2] {'), [
      'HloModule m\n  , is_scheduled=true',
      '',
      '%c\n(x: f32[2]) -> f32\n[2] {',
    ]);
    assert.deepEqual(
      split('  %c = f32[2]{0} constant({\n    1, 2\n  }\n  )\n  ROOT %r = f32[2]{0} negate(%c)'),
      ['  %c = f32[2]{0} constant({\n    1, 2\n  }\n  )', '  ROOT %r = f32[2]{0} negate(%c)'],
    );
    // `=` goes on after a name alone (comments allowed), not after an attribute's name.
    assert.deepEqual(
      split('  ROOT %a // c\n    = f32[2]{0} parameter(0)\n  %b = f32[] negate(%a), metadata\n={}'),
      ['  ROOT %a // c\n    = f32[2]{0} parameter(0)', '  %b = f32[] negate(%a), metadata', '={}'],
    );
    // A source table's entry wrapped after its id, or inside its braces.
    assert.deepEqual(
      split('FileNames\n1\n"a.py"\nFileLocations\n1 {file_name_id=1\n   line=3}\n-1 {x=1\n y=2}'),
      ['FileNames', '1\n"a.py"', 'FileLocations', '1 {file_name_id=1\n   line=3}', '-1 {x=1\n y=2}'],
    );
  });

  it('ends the computation at a `}` alone after a layout whose `(` XLA lets its `}` close', () => {
    // jaxlib accepts `f8e4m3[1000,4]{1,0:L(1}` (generated-shapes found it): no value is open.
    const text = 'ENTRY %e {\n  ROOT %p = f8e4m3[1000,4]{1,0:L(1} parameter(0)\n}\n';
    assert.deepEqual(
      splitStatements(text).map((r) => text.slice(r.start, r.end)),
      ['ENTRY %e {', '  ROOT %p = f8e4m3[1000,4]{1,0:L(1} parameter(0)', '}'],
    );
  });

  it('lets a `}` alone close what a bracket or attribute value left open, else the computation', () => {
    const text = [
      'ENTRY %e.1 {',
      '  %a = f32[2]{0} parameter(0), metadata={op_name="x"',
      '}',
      '  %c = f32[2]{0} custom-call(%a), backend_config={',
      '  "k": 1',
      '}',
      '  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%a, %c)',
      '}',
      '%f.2 {',
      '}',
    ].join('\n');
    assert.deepEqual(split(text), [
      'ENTRY %e.1 {',
      '  %a = f32[2]{0} parameter(0), metadata={op_name="x"\n}',
      '  %c = f32[2]{0} custom-call(%a), backend_config={\n  "k": 1\n}',
      '  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%a, %c)',
      '}',
      '%f.2 {',
      '}',
    ]);
    const header = 'HloModule m, entry_computation_layout={(f32[2]{0})\n  ->f32[2]{0}\n}';
    assert.deepEqual(split(`${header}\n\nENTRY %e {\n}`), [header, '', 'ENTRY %e {', '}']);
  });

  it('ignores brackets inside strings and comments', () => {
    const text = '%a = f32[] custom-call(), custom_call_target="(((" // [[[\n%b = f32[] negate(%a) /* ( */';
    assert.deepEqual(split(text), [
      '%a = f32[] custom-call(), custom_call_target="(((" // [[[',
      '%b = f32[] negate(%a) /* ( */',
    ]);
  });

  it('cuts statements longer than the cap', () => {
    const line = 'x'.repeat(25);
    assert.deepEqual(split(`${line}\nok`, { maxStatementLength: 10 }), [
      'x'.repeat(10),
      'x'.repeat(10),
      'x'.repeat(5),
      'ok',
    ]);
  });

  it('honours start and end, and ends the last statement at end', () => {
    const text = 'aaa\nbbb\nccc\n';
    assert.deepEqual(splitStatements(text, 4, 10), [
      { start: 4, end: 7 },
      { start: 8, end: 10 },
    ]);
  });

  it('handles CRLF line ends (the CR stays in the statement)', () => {
    assert.deepEqual(split('HloModule m\r\nENTRY %e {\r\n}\r\n'), ['HloModule m\r', 'ENTRY %e {\r', '}\r']);
  });
});
