/**
 * XLA's lexer skips only spaces, tabs and line breaks between tokens: a no-break space, form feed
 * or vertical tab anywhere else than in a string, a comment or a braced backend_config is its error
 * on that character, with what it expected there. Through the streaming check `xla-layout check`
 * runs, whose fast path must not pass over such an instruction.
 */
import { strict as assert } from 'node:assert';
import { checkErrors as errors } from '../support/check-errors';

const BODY = 'HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n';
const module = (line: string) => `${BODY}${line}\n}\n`;

describe('a no-break space, form feed or vertical tab between tokens', () => {
  const cases: [string, string, string][] = [
    ['after ROOT', '  ROOT\u00a0%r = f32[2]{0} negate(%a)', '5:7 expects name'],
    [
      'before the operands',
      '  ROOT %r = f32[2]{0} negate\u00a0(%a)',
      "5:29 expects '(' at the beginning of operands",
    ],
    ['at the line end', '  ROOT %r = f32[2]{0} negate(%a)\u00a0', '5:33 expects name'],
    [
      'after a comma of the operands (on the operand)',
      '  ROOT %r = f32[2]{0} add(%a,\f%a)',
      '5:30 cannot parse as an instruction name or as a nested instruction',
    ],
    [
      'after an operand (on the operand)',
      '  ROOT %r = f32[2]{0} add(%a\u00a0, %a)',
      '5:27 cannot parse as an instruction name or as a nested instruction',
    ],
    [
      'after an attribute comma',
      '  ROOT %r = f32[2]{0} negate(%a),\vmetadata={op_name="a"}',
      '5:34 expects attribute name',
    ],
    [
      'inside metadata',
      '  ROOT %r = f32[2]{0} negate(%a), metadata={op_name="a"\u00a0}',
      '5:56 expects attribute name',
    ],
    [
      'before an attribute’s = (on its name)',
      '  ROOT %r = f32[2]{0} negate(%a), metadata\u00a0={op_name="a"}',
      '5:35 expects attribute name',
    ],
    [
      'after the operands of an op that requires an attribute',
      '  ROOT %r = f32[2,3]{1,0} broadcast(%a)\u00a0, dimensions={0}',
      '5:40 attribute dimensions is expected but not seen',
    ],
  ];
  for (const [what, line, want] of cases)
    it(`is XLA's error ${what}`, () => {
      assert.deepEqual(errors(module(line)), [`invalid-character ${want}`]);
    });

  it('in a computation header (read there already)', () => {
    const text =
      'HloModule m\n\nENTRY %e (a: f32[2])\u00a0-> f32[2] {\n  ROOT %a = f32[2]{0} parameter(0)\n}\n';
    assert.deepEqual(errors(text), ["expected-token 3:21 expects '->'"]);
  });

  it('is nothing in a string, a comment or a braced backend_config', () => {
    const text = module(
      '  ROOT %r = f32[2]{0} negate(%a), metadata={op_name="a\u00a0b"}, backend_config={\u00a0"x":1} /* \u00a0 */',
    );
    assert.deepEqual(errors(text), []);
  });
});
