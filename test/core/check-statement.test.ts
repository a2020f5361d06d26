/**
 * `ShapeChecker.checkStatement` skips the statement parser on computation headers and instructions
 * in their plain form, where it would find nothing of its own. Whatever the header, the answer must be what the
 * parser's reading gives: the walk's diagnostics, then the statement parser's not already among
 * them (same code at the same place). Headers are built from the corpus's shapes and header lines,
 * instructions taken from its instruction lines, then mutated with the characters that decide how
 * a statement reads.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LayoutDiagnostic } from '../../core/src/diagnostics';
import { parseStatement, relaxUncheckedLayouts } from '../../core/src/hlo';
import { createShapeChecker, type ShapeChecker } from '../../core/src/validate';
import { CORPUS_DIR } from '../support/corpus';

const SHAPES = readFileSync(join(CORPUS_DIR, 'valid_shapes.txt'), 'utf8')
  .split('\n')
  .map((l) => l.split('\t')[0])
  .filter((l) => l.trim() !== '')
  .slice(0, 80);
const CORPUS_LINES = readdirSync(join(CORPUS_DIR, 'hlo'))
  .filter((f) => f.endsWith('.hlo'))
  .flatMap((f) => readFileSync(join(CORPUS_DIR, 'hlo', f), 'utf8').split('\n'));
const HEADER_LINES = CORPUS_LINES.filter((l) => /^\s*(ENTRY\s+)?%?[\w.-]+\s*\(.*\{\s*$/.test(l));
const INSTRUCTION_LINES = CORPUS_LINES.filter((l) => /^\s*(ROOT\s+)?%?[\w.-]+\s*=/.test(l));

/**
 * What checkStatement answers when it parses the statement: the walk's, then the parser's own, with
 * layout errors where XLA does not check layouts made warnings.
 */
function reference(text: string): LayoutDiagnostic[] {
  const found = createShapeChecker().checkText(text, 0, text.length);
  const statement = parseStatement(text, { start: 0, end: text.length });
  const seen = new Set(found.map((d) => `${d.code}@${d.range.start}`));
  // The statements XLA reads after the first on the line (`} %c (...) {`) count too.
  const all = [statement];
  for (let s = statement; s.following !== undefined; all.push(s))
    s = parseStatement(text, { start: s.following, end: text.length });
  for (const d of all.flatMap((s) => [...s.shapes.flatMap((f) => f.diagnostics), ...s.diagnostics])) {
    const key = `${d.code}@${d.range.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(d);
  }
  return relaxUncheckedLayouts(text, { start: 0, end: text.length }, found, statement);
}

/** Asserts that checkStatement finds something wrong in each of `texts`, and what the parser's reading gives. */
function assertFindsAsParser(checker: ShapeChecker, texts: readonly string[]): void {
  for (const text of texts) {
    const got = checker.checkStatement(text, 0, text.length);
    assert.ok(got.length > 0, `no diagnostic on ${text}`);
    assert.deepEqual(got, reference(text), text);
  }
}

const nameArb = fc.constantFrom(
  '%c',
  'c.1',
  '%fused_computation.12',
  'ENTRY %main',
  'ENTRY main',
  'HloModule',
  'ROOT',
);
const paramArb = fc
  .tuple(fc.constantFrom('p', 'param_0.1', '%p', 'p ', '0p'), fc.constantFrom(...SHAPES))
  .map(([n, s]) => `${n}: ${s}`);
const headerArb = fc
  .tuple(nameArb, fc.array(paramArb, { maxLength: 4 }), fc.constantFrom(...SHAPES))
  .map(([name, params, result]) => `${name} (${params.join(', ')}) -> ${result} {`);
const statementArb = fc.oneof(headerArb, fc.constantFrom(...HEADER_LINES));

/** Characters that end tokens, open trivia or names, or change what follows a header's `{`. */
const MUTATION = [
  '(',
  ')',
  ',',
  ':',
  '%',
  '->',
  '-',
  '>',
  '{',
  '}',
  ' ',
  '\n',
  '/*c*/',
  '//x\n',
  '/*',
  '"',
  'x',
  '0',
  '[',
  ']',
  '%a = f32[] add()',
  '=',
  '.',
  '*',
];

/** `statements` with up to three edits: a few characters cut at a place, a mutation put there. */
const mutated = (statements: fc.Arbitrary<string>) =>
  fc
    .tuple(
      statements,
      fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...MUTATION)), { maxLength: 3 }),
    )
    .map(([text, edits]) => {
      let t = text;
      for (const [at, cut, insert] of edits) {
        const p = at % (t.length + 1);
        t = t.slice(0, p) + insert + t.slice(p + cut);
      }
      return t;
    });

/** Integer constants near their type's bounds, which the fast path range-checks without the parser. */
const constantArb = fc
  .tuple(
    fc.constantFrom('s2', 's4', 'u4', 's8', 'u8', 's32', 'u32', 's64', 'u64', 'f32', 'pred'),
    fc.array(
      fc.constantFrom(
        '0',
        '1',
        '-1',
        '-2',
        '7',
        '-8',
        '8',
        '127',
        '-128',
        '128',
        '255',
        '256',
        '0x10',
        '1.5',
        '"a"',
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([type, values]) =>
    values.length === 1
      ? `%c.1 = ${type}[]{:T(128)} constant(${values[0]})`
      : `%c.2 = ${type}[${values.length}]{0} constant({${values.join(', ')}})`,
  );

describe('ShapeChecker.checkStatement', () => {
  it('answers what the statement parser reads on headers, plain or not (seeded)', () => {
    const checker = createShapeChecker();
    fc.assert(
      fc.property(mutated(statementArb), (text) => {
        assert.deepEqual(checker.checkStatement(text, 0, text.length), reference(text), JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers what the statement parser reads on instructions, plain or not (seeded)', () => {
    const checker = createShapeChecker();
    fc.assert(
      fc.property(mutated(fc.oneof(fc.constantFrom(...INSTRUCTION_LINES), constantArb)), (text) => {
        assert.deepEqual(checker.checkStatement(text, 0, text.length), reference(text), JSON.stringify(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('reports what is wrong in an operand list, as the statement parser does', () => {
    const checker = createShapeChecker();
    assertFindsAsParser(checker, [
      // A tuple-shaped operand missing its `)`; a type typed without its letter.
      '%t = f32[2]{0} a((f32[2]{0} x, f32[2]{0} y)',
      '%add.5 = f32[2]{0} add(,32[2]{0} %a, f32[2]{0} %b)',
      // An element type where a name belongs is a shape missing its `[`.
      '%b = u32[5]{0} bitcast(u32)',
      // A constant's value outside its integer type.
      '%c = s8[] constant(1000)',
      '%c = u4[3]{0} constant({1, 16, 2})',
      // Attribute values XLA reads as shapes: a misspelt type, a missing `[`, a bad layout.
      '%c = f32[4]{0} custom-call(f32[4]{0} %x), custom_call_target="f", operand_layout_constraints={f324]{0}}',
      '%c = token[] custom-call(%x, %t), custom_call_target="f", operand_layout_constraints={token][, f32[3]{0}}',
      '%c = f32[4]{0} custom-call(%x), custom_call_target="f", operand_layout_constraints={f32[4]{0}, s32[2]{1}}',
      '%o = token[] outfeed(%x, %t), outfeed_shape=F32[2]{0}',
    ]);
    for (const plain of [
      '%f = f32[2]{0} fusion(f32[2]{0} %a, /*index=1*/(f32[], s32[]) %b), kind=kLoop, calls=%c',
      // A bracket inside a comment is no bracket: the statement goes on after the comment.
      '%d = s4[8]{0} dynamic-update-slice(%a, %b, /*}index=5*/%c), metadata={op_name="x"}',
      '%c = s32[]{:T(128)} constant(10)',
      '%c = s8[2]{0} constant({-128, 127}), metadata={op_name="c"}',
      '%c = f32[4]{0} custom-call(%x, %t), custom_call_target="f", operand_layout_constraints={f32[4]{0}, token[]}',
      '%o = token[] outfeed(%x, %t), outfeed_shape=(f32[2]{0}, s32[])',
    ]) {
      assert.deepEqual(checker.checkStatement(plain, 0, plain.length), [], plain);
      assert.deepEqual(reference(plain), [], plain);
    }
  });

  it('finds nothing of its own in a plain header, and the header errors XLA reports elsewhere', () => {
    const checker = createShapeChecker();
    const plain = '%fused (p: f32[2]{0}, q: (s32[], bf16[8,128]{1,0:T(8,128)(2,1)})) -> f32[2]{0} {';
    assert.deepEqual(checker.checkStatement(plain, 0, plain.length), []);
    assertFindsAsParser(checker, [
      '%fused (%p: f32[2]{0}) -> f32[2]{0} {',
      '%fused (p: f32[2]{0}) f32[2]{0} {',
      '%fused (p: f32[2]{0},) -> f32[2]{0} {',
      '%fused (p: f32[2]{0} q: f32[2]{0}) -> f32[2]{0} {',
    ]);
  });
});
