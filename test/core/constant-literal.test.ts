/**
 * A constant's literal read as XLA's parser reads it, on verdicts of jaxlib's XLA (0.10.2): the
 * error, its column and XLA's message, the same from the statement parser and from the checker's
 * fast path (which hands the constants it finds wrong to the parser), and nothing on what XLA
 * takes. test/xla/constant-literals.test.ts asks the real XLA on random literals.
 */
import { strict as assert } from 'node:assert';
import { readableMessage } from '../../core/src';
import { parseStatement } from '../../core/src/hlo';
import { createShapeChecker } from '../../core/src/validate';

const PREFIX = '  ROOT %c = ';

/** [code, 1-based column in `  ROOT %c = <line>`, message] of the errors on the line, by the parser and by the checker. */
function verdicts(line: string): { parser: (string | number)[][]; checker: (string | number)[][] } {
  const text = `${PREFIX}${line}`;
  const parser = parseStatement(text, { start: 0, end: text.length }).diagnostics.map((d) => [
    d.code,
    d.range.start + 1,
    d.message,
  ]);
  const checker = createShapeChecker()
    .checkStatement(text, 0, text.length)
    .filter((d) => d.severity === 'error')
    .map((d) => [d.code, d.range.start + 1, d.message]);
  return { parser, checker };
}

function refused(line: string, code: string, column: number, message: string): void {
  const expected = [[code, column, message]];
  assert.deepEqual(verdicts(line), { parser: expected, checker: expected }, line);
}

describe('core: constant literals, as XLA reads them', () => {
  it('takes what XLA takes', () => {
    for (const line of [
      'f32[3]{0} constant({1, 2, 3})',
      'f32[3]{0} constant(1)',
      'f32[0]{0} constant({})',
      'f32[2,0]{1,0} constant({{},{}})',
      'f32[2]{0} constant({1,,2})',
      'f32[4]{0} constant({1, ...})',
      'f32[4,2]{1,0} constant({...})',
      'f32[] constant(5.)',
      'f32[] constant(-.5)',
      'f32[] constant(/*c*/1)',
      'f32[2]{0} constant({nan, -nan})',
      'f32[] constant(nan(0x1))',
      'f32[2]{0} constant({1, -inf})',
      'f16[] constant(65519)',
      'f8e4m3fn[] constant(464)',
      'f8e8m0fnu[] constant(1e-50)',
      'f4e2m1fn[] constant(1e30)',
      'f32[] constant(18446744073709551615)',
      'pred[] constant(2)',
      'pred[2]{0} constant({1, true})',
      's32[] constant(18446744073709551615)',
      's32[] constant(007)',
      'c64[2]{0} constant({(1, 2), (3, 4)})',
      'c128[] constant((1e308, 1))',
      '(f32[], s32[]) constant((1, 2))',
      'f32[<=3]{0} constant({1, 2, 3})',
    ])
      assert.deepEqual(verdicts(line), { parser: [], checker: [] }, line);
  });

  it('counts values and nesting against the shape', () => {
    refused(
      'f32[3]{0} constant({1, 2})',
      'literal-shape-mismatch',
      37,
      'expects 3 elements in the []th element, but sees 2',
    );
    refused(
      'f32[3]{0} constant({1, 2, 3, 4})',
      'literal-shape-mismatch',
      42,
      'expects 3 elements on the minor-most dimension, but sees more',
    );
    refused(
      'f32[2,2]{1,0} constant({{1,2},{3}})',
      'literal-shape-mismatch',
      45,
      'expects 2 elements in the [1]th element, but sees 1',
    );
    refused(
      'f32[2,2]{1,0} constant({{1,2},{3,4},{5,6}})',
      'literal-shape-mismatch',
      49,
      'expects 2 elements in the []th element, but sees more',
    );
    refused(
      'f32[2,2]{1,0} constant({1,2,3,4})',
      'literal-shape-mismatch',
      37,
      'expects nested array in rank 2, but sees 1',
    );
    refused(
      'f32[] constant({1})',
      'literal-shape-mismatch',
      28,
      'expects nested array in rank 0, but sees larger',
    );
    refused(
      'f32[<=3]{0} constant({1, 2})',
      'literal-shape-mismatch',
      39,
      'expects 3 elements in the []th element, but sees 2',
    );
  });

  it('refuses values XLA does not read, and what follows a complete literal', () => {
    for (const [line, column] of [
      ['f32[] constant(NaN)', 28],
      ['f32[] constant(Inf)', 28],
      ['f32[] constant(+1)', 28],
      ['f32[] constant(.5)', 28],
      ['f32[] constant(0x10)', 28],
      ['f32[] constant(1_2)', 28],
      ['f32[] constant("a")', 28],
      ['f32[] constant(nan(0x0))', 28],
      ['s32[2]{0} constant({1, x})', 36],
      ['s32[2]{0} constant({1, 2)', 37],
    ] as const)
      refused(line, 'literal-syntax', column, 'unexpected token type in a literal');
    refused('f32[] constant(0xff)', 'literal-syntax', 29, "expects ')' after constant literal");
    refused('f32[] constant(1, 2)', 'literal-syntax', 29, "expects ')' after constant literal");
    refused('f32[3]{0} constant({1, 2, 3}})', 'literal-syntax', 41, "expects ')' after constant literal");
    refused('s32[] constant(1.5)', 'literal-syntax', 28, 'expects integer for primitive type: S32');
    refused('s32[] constant(inf)', 'literal-syntax', 28, 'expects integer for primitive type: S32');
    refused('pred[] constant(1.0)', 'literal-syntax', 29, 'expects integer for primitive type: PRED');
    refused(
      'f32[] constant(1e309)',
      'literal-syntax',
      28,
      'Constant is out of range for double (+/-1.79769e+308) and so is unparsable.',
    );
    refused('c64[] constant(1)', 'literal-syntax', 28, 'unsupported primitive type C64');
    refused('c64[] constant((1))', 'literal-syntax', 30, 'expect comma after real part of complex literal');
    refused(
      'f32[] constant((1, 2))',
      'literal-syntax',
      28,
      "unexpected '(' in literal. Parens are only valid for complex literals",
    );
    refused(
      'f32[4,2]{1,0} constant({{...}})',
      'literal-syntax',
      38,
      'expects `...` at nest level 1, but sees it at nest level 2',
    );
  });

  it("checks each floating-point type's range after rounding, with XLA's numbers", () => {
    const range = (line: string, column: number, message: string) =>
      refused(line, 'literal-out-of-range', column, message);
    range(
      'f16[] constant(70000)',
      28,
      "value 70000 is out of range for literal's primitive type F16 namely [-65504, 65504].",
    );
    range(
      'f16[] constant(65520)',
      28,
      "value 65520 is out of range for literal's primitive type F16 namely [-65504, 65504].",
    );
    range(
      'f16[] constant(1e10)',
      28,
      "value 1e+10 is out of range for literal's primitive type F16 namely [-65504, 65504].",
    );
    range(
      'bf16[] constant(3.4e38)',
      29,
      "value 3.4e+38 is out of range for literal's primitive type BF16 namely [-3.38953e+38, 3.38953e+38].",
    );
    range(
      'f32[] constant(-1e39)',
      28,
      "value -1e+39 is out of range for literal's primitive type F32 namely [-3.40282e+38, 3.40282e+38].",
    );
    range(
      'f8e4m3fn[] constant(464.16)',
      33,
      "value 464.16 is out of range for literal's primitive type F8E4M3FN namely [-448, 448].",
    );
    range(
      'f8e8m0fnu[] constant(0)',
      34,
      "value 0 is out of range for literal's primitive type F8E8M0FNU namely [5.87747e-39, 1.70141e+38].",
    );
    range(
      'f16[] constant(9223372036854775808)',
      28,
      "value -9.22337e+18 is out of range for literal's primitive type F16 namely [-65504, 65504].",
    );
    range(
      'c64[] constant((1, 1e39))',
      28,
      "imaginary part 1e+39 is out of range for literal's primitive type C64, namely [-3.40282e+38, 3.40282e+38].",
    );
    range(
      'f16[2,2]{1,0} constant({{1, 2}, {nan(0x400), 4}})',
      46,
      'tries to set NaN payload 0x400 to a literal in shape f16[2,2] at linear index 2, but the NaN payload is out of range (0x3ff)',
    );
    range(
      'f8e4m3fn[] constant(nan(0x1))',
      33,
      'tries to set NaN payload 0x1 to a literal in shape f8e4m3fn[] at linear index 0, but f8e4m3fn does not support payloads',
    );
    range(
      'u32[] constant(18446744073709551615)',
      28,
      "value -1 is out of range for literal's primitive type U32 namely [0, 4294967295].",
    );
  });

  it('gives the first error XLA recorded when the literal fails later', () => {
    refused(
      'f16[3]{0} constant({1, 2, 3, 70000})',
      'literal-shape-mismatch',
      42,
      'expects 3 elements on the minor-most dimension, but sees more',
    );
    refused(
      'f32[2,2]{1,0} constant({{1,2,3},{4}})',
      'literal-shape-mismatch',
      42,
      'expects 2 elements on the minor-most dimension, but sees more',
    );
  });

  it('reports what XLA aborts on as an error, with the text it dies with', () => {
    refused('s32[] constant(true)', 'literal-crash', 28, 'S32 is not PRED type');
    refused('f32[2]{0} constant({1, false})', 'literal-crash', 36, 'F32 is not PRED type');
    refused('token[] constant()', 'literal-crash', 21, 'Check failed: shape.IsArray() token[]');
    refused('opaque[] constant(1)', 'literal-crash', 22, 'Check failed: shape.IsArray() opaque[]');
  });

  it('says what is wrong in plain words before XLA’s text', () => {
    const text = `${PREFIX}f32[3]{0} constant({1, 2})`;
    const [d] = parseStatement(text, { start: 0, end: text.length }).diagnostics;
    assert.equal(
      readableMessage(d),
      'this `{...}` holds 2 values, but dimension 0 of f32[3] has size 3 — XLA: expects 3 elements in the []th element, but sees 2',
    );
    const nan = `${PREFIX}f32[] constant(NaN)`;
    assert.match(
      readableMessage(parseStatement(nan, { start: 0, end: nan.length }).diagnostics[0]),
      /^XLA writes NaN as `nan`/,
    );
  });
});
