/**
 * XLA's lexer reads an attribute's name only with its `=` (`dimensions=` is one token), so a blank
 * or comment before the `=` is its "expects attribute name" on the name: after an instruction's
 * operands, inside metadata, in the module header. Through the streaming check `xla-layout check`
 * runs, whose fast path must not pass over such an instruction.
 */
import { strict as assert } from 'node:assert';
import { checkErrors as errors } from '../support/check-errors';

const BODY = 'HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n';

describe('a blank before an attribute’s =', () => {
  for (const gap of [' ', '\t', ' /* c */ '])
    it(`is XLA's error on the attribute's name (${JSON.stringify(gap)}), where XLA stops`, () => {
      const text = `${BODY}  ROOT %r = f32[2,3]{1,0} broadcast(%a), dimensions${gap}= {0}\n}\n`;
      assert.deepEqual(errors(text), ['invalid-name 5:42 expects attribute name']);
    });

  it('inside metadata', () => {
    const text = `${BODY}  ROOT %r = f32[2]{0} negate(%a), metadata={op_name = "a"}\n}\n`;
    assert.deepEqual(errors(text), ['invalid-name 5:45 expects attribute name']);
  });

  it('in the module header', () => {
    const text =
      'HloModule m, entry_computation_layout ={(f32[2]{0})->f32[2]{0}}\n\nENTRY %e {\n  ROOT %a = f32[2]{0} parameter(0)\n}\n';
    assert.deepEqual(errors(text), ['invalid-name 1:14 expects attribute name']);
  });

  it('inside a window or frontend_attributes', () => {
    const window = `${BODY}  ROOT %r = f32[1]{0} reduce-window(%a, %a), window={size=2 stride =2}, to_apply=%a\n}\n`;
    assert.deepEqual(errors(window), ['invalid-name 5:61 expects attribute name']);
    const frontend = `${BODY}  ROOT %r = f32[2]{0} negate(%a), frontend_attributes={a="1",b ="2"}\n}\n`;
    assert.deepEqual(errors(frontend), ['invalid-name 5:62 expects attribute name']);
  });

  it('inside a sharding, where XLA calls the lone key an unexpected token', () => {
    const text = `${BODY}  ROOT %r = f32[2]{0} negate(%a), sharding={devices =[2]0,1}\n}\n`;
    assert.deepEqual(errors(text), ['invalid-name 5:45 unexpected token']);
  });

  it('is nothing in a sharding’s `<=` or a frontend attribute’s string', () => {
    const text = `${BODY}  ROOT %r = f32[2]{0} negate(%a), sharding={devices=[2]<= [2]}, frontend_attributes={a="b = c"}\n}\n`;
    assert.deepEqual(errors(text), []);
  });

  it('is nothing in a string, or in an instruction name', () => {
    const text = `${BODY}  %r = f32[2]{0} negate(%a), metadata={op_name="a = b" source_line=1}\n  ROOT %s = f32[2]{0} negate(%r)\n}\n`;
    assert.deepEqual(errors(text), []);
  });
});
