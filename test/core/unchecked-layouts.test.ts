/**
 * Layout errors where XLA parses a shape but does not validate its layout (signatures, operands'
 * declared shapes, operand_layout_constraints) are warnings that say so; where XLA validates, they
 * stay errors. Through the streaming check `xla-layout check` runs (ShapeChecker.checkStatement).
 */
import { strict as assert } from 'node:assert';
import { CheckStream } from '../../core/src/report/check-stream';
import { UNCHECKED_LAYOUT_CASES } from '../support/unchecked-layout-cases';

function checked(text: string): { code: string; severity: string; line: number; message: string }[] {
  const out: { code: string; severity: string; line: number; message: string }[] = [];
  const stream = new CheckStream((d) =>
    out.push({
      code: d.diagnostic.code,
      severity: d.diagnostic.severity,
      line: d.start.line - 1,
      message: d.diagnostic.message,
    }),
  );
  stream.write(text);
  stream.end();
  return out;
}

describe('layouts XLA does not check (signatures, operand shapes, operand_layout_constraints)', () => {
  for (const c of UNCHECKED_LAYOUT_CASES)
    it(`${c.severity === 'warning' ? 'warns on' : 'reports an error on'} an invalid layout in ${c.what}`, () => {
      const got = checked(c.text);
      assert.deepEqual(
        got.map(({ code, severity, line }) => ({ code, severity, line })),
        [{ code: c.code, severity: c.severity, line: c.line }],
      );
      if (c.severity === 'warning')
        assert.match(
          got[0].message,
          /^[^.]+\. XLA does not check .*; on an instruction it would reject this one: /,
        );
    });

  it('says where in plain words, then what XLA says of the layout on an instruction', () => {
    const [d] = checked(UNCHECKED_LAYOUT_CASES[0].text);
    assert.equal(
      d.message,
      "minor_to_major names dimension 1 twice: list each dimension once. XLA does not check layouts in a computation's signature " +
        '(the shapes of its parameter and ROOT instructions count); on an instruction it would reject this one: ' +
        'layout minor_to_major field has duplicate values: {1, 1}; shape: f32[2,3]',
    );
  });
});
