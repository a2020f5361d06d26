/**
 * The range XLA's parser checks an integer constant against, with verdicts of jaxlib's XLA: each
 * type's own range up to 32 bits, none for 64-bit types beyond what the lexer reads (-2^63 to
 * 2^64-1), and the lexer's refusal past that, in the statement parser and in the checker's fast
 * path, which hands such constants to the parser.
 */
import { strict as assert } from 'node:assert';
import { parseStatement } from '../../core/src/hlo';
import { createShapeChecker } from '../../core/src/validate';

/** [code, message] of the errors on `ROOT %c = <type> constant(<literal>)`, by the parser and by the checker. */
function verdicts(type: string, literal: string): { parser: string[][]; checker: string[][] } {
  const text = `  ROOT %c = ${type} constant(${literal})`;
  const range = { start: 0, end: text.length };
  const parser = parseStatement(text, range).diagnostics.map((d) => [d.code, d.message]);
  const checker = createShapeChecker()
    .checkStatement(text, 0, text.length)
    .filter((d) => d.severity === 'error')
    .map((d) => [d.code, d.message]);
  return { parser, checker };
}

describe('core: integer constants in range, as XLA checks them', () => {
  it('accepts every integer the lexer reads in s64 and u64, which XLA stores wrapped', () => {
    for (const [type, literal] of [
      ['s64[]', '9223372036854775808'],
      ['s64[]', '18446744073709551615'],
      ['u64[]', '-1'],
      ['u64[]', '-9223372036854775808'],
      ['s64[2]', '{9223372036854775808, 1}'],
    ])
      assert.deepEqual(verdicts(type, literal), { parser: [], checker: [] }, `${type} ${literal}`);
  });

  it("refuses an integer past 64 bits with the lexer's message, in any integer type", () => {
    const lexer = ['literal-out-of-range', 'unexpected token type in a literal'];
    for (const [type, literal] of [
      ['s64[]', '18446744073709551616'],
      ['u64[]', '-9223372036854775809'],
      ['s8[]', '18446744073709551616'],
    ])
      assert.deepEqual(verdicts(type, literal), { parser: [lexer], checker: [lexer] }, `${type} ${literal}`);
  });

  it("keeps the range of 32 bits and less, with XLA's message", () => {
    assert.deepEqual(verdicts('s32[]', '2147483648').parser, [
      [
        'literal-out-of-range',
        "value 2147483648 is out of range for literal's primitive type S32 namely [-2147483648, 2147483647].",
      ],
    ]);
    assert.deepEqual(verdicts('u32[]', '-1').parser, [
      [
        'literal-out-of-range',
        "value -1 is out of range for literal's primitive type U32 namely [0, 4294967295].",
      ],
    ]);
  });
});
