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
