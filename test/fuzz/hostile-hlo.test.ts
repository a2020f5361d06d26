/**
 * Hostile HLO text for the statement splitter, statement parser, module model and shape finder:
 * random HLO token soup, computations written in place nested at random (whole and cut), random
 * bytes (NUL and invalid UTF-8), lone CR / mixed line endings, deep nesting inside a statement and
 * 100,000-character statements.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { computationAt, parseHloText, splitStatements } from '../../core/src/index';
import { checkHloText, checkScan } from './checks';
import { InputCounter } from './invariants';
import { inlineBody, inlineModule } from '../support/inline-hlo';

const HLO_TOKENS = [
  'HloModule m',
  ', entry_computation_layout={(f32[2]{0})->f32[2]{0}}',
  'ENTRY',
  '%main',
  '%c.1',
  '(',
  ')',
  '{',
  '}',
  '->',
  ' ',
  '\n',
  '\r\n',
  '\r',
  'p0: f32[2]{0}',
  'ROOT',
  '%x = ',
  'f32[2,3]{1,0:T(2,2)}',
  'bf16[8,128]{1,0:T(8,128)(2,1)}',
  '(s32[], f32[])',
  'parameter(0)',
  'add(',
  '%x, %y',
  'calls=%c.1',
  'to_apply=%c.1',
  ', calls=\n{\n',
  'to_apply={',
  '\n}\n',
  'metadata={op_name="a\\"b" source_line=3}',
  'backend_config="{\\"x\\":1}"',
  '/*index=5*/',
  '// c\n',
  '/*',
  '*/',
  '"',
  ',',
  '=',
  'constructor',
  '__proto__',
  '\u0000',
  '\ud800',
  '9223372036854775808',
  'custom-call(',
  'b(f32[1]{0})',
];

const hloSoup = fc.array(fc.constantFrom(...HLO_TOKENS), { maxLength: 60 }).map((t) => t.join(''));
const bytes = fc.uint8Array({ maxLength: 200 }).map((b) => new TextDecoder().decode(b));
const units = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 120 })
  .map((u) => String.fromCharCode(...u));

describe('fuzz: hostile HLO text', function () {
  this.timeout(60_000);

  it('random HLO token soup, random bytes and random UTF-16', () => {
    const counter = new InputCounter('hlo/random text');
    fc.assert(
      fc.property(fc.oneof(hloSoup, hloSoup, bytes, units), (text) => {
        counter.add();
        checkHloText(text);
        checkScan(text);
      }),
      { numRuns: 1200 },
    );
    counter.print();
  });

  it('computations written in place, nested at random, whole and cut anywhere', () => {
    const counter = new InputCounter('hlo/computations written in place');
    fc.assert(
      fc.property(inlineBody(4), fc.nat(), (b, cut) => {
        const { text, inline } = inlineModule(b);
        counter.add();
        checkHloText(text);
        const model = parseHloText(text);
        assert.equal(model.computations.filter((c) => c.inline).length, inline, text);
        assert.ok(
          model.computations.every((c) => c.closed && c.root?.name.name === 'r'),
          text,
        );
        // Every name resolves inside its own computation: each body defines %p0 and %r again.
        for (const o of model.occurrences) {
          const sym = model.symbols[o.symbol];
          if (sym?.kind !== 'instruction') continue;
          assert.ok(sym.definition, `${sym.name} has no definition in ${text}`);
          assert.equal(
            computationAt(model, sym.definition.start),
            computationAt(model, o.range.start),
            `${sym.name} at ${o.range.start} resolved outside its computation in ${text}`,
          );
        }
        // Cut anywhere: malformed, and still no invariant broken.
        const at = cut % (text.length + 1);
        counter.add();
        checkHloText(text.slice(0, at) + text.slice(Math.min(text.length, at + (cut % 7))));
      }),
      { numRuns: 200 },
    );
    counter.print();
  });

  it('binary files: NUL bytes and random bytes in a module', () => {
    const counter = new InputCounter('hlo/binary');
    const next = (seed: number) => (i: number) => (seed * 1103515245 + i * 12345) & 0xff;
    for (let seed = 1; seed <= 20; seed++) {
      const raw = Uint8Array.from({ length: 4000 }, (_, i) => next(seed)(i));
      const text = `HloModule m\n${new TextDecoder().decode(raw)}\nENTRY %e { ROOT %p = f32[2]{0} parameter(0) }`;
      counter.add();
      checkHloText(text);
      checkScan(text);
    }
    const nul = '\u0000'.repeat(10_000);
    counter.add();
    checkHloText(nul);
    assert.equal(splitStatements(nul).length, 1);
    counter.print();
  });

  it('lone CR and mixed line endings split like LF where XLA would, and never break invariants', () => {
    const lf = 'HloModule m\n\nENTRY %e (p: f32[2]) -> f32[2] {\n  ROOT %p = f32[2]{0} parameter(0)\n}\n';
    const crlf = lf.replace(/\n/g, '\r\n');
    assert.equal(splitStatements(crlf).length, splitStatements(lf).length);
    const model = parseHloText(crlf);
    assert.equal(model.computations.length, 1);
    assert.equal(model.computations[0].instructions.length, 1);
    for (const text of [
      lf.replace(/\n/g, '\r'),
      lf.replace(/\n/g, '\n\r'),
      crlf.replace(/\r\n/g, (_, i: number) => (i % 2 ? '\r' : '\r\n')),
    ]) {
      checkHloText(text);
      checkScan(text);
    }
  });

  it('deep nesting inside a statement', () => {
    const counter = new InputCounter('hlo/deep nesting');
    const depth = 8000; // just under XLA's 8192 limit: statement rebasing must not recurse
    for (const text of [
      `HloModule m\n%x = ${'('.repeat(depth)}f32[]${')'.repeat(depth)} tuple()`, // not at offset 0: rebased
      `%x = f32[] add(${'('.repeat(10_000)}`,
      `ENTRY %e (p: ${'('.repeat(10_000)}) -> f32[] {`,
      `HloModule m, entry_computation_layout={${'{'.repeat(10_000)}`,
    ]) {
      counter.add();
      const start = performance.now();
      checkHloText(text);
      checkScan(text);
      assert.ok(performance.now() - start < 10_000);
    }
    counter.print();
  });

  it('100,000-character statements', () => {
    const counter = new InputCounter('hlo/100k statements');
    const n = 100_000;
    for (const text of [
      `ENTRY %e {\n  ROOT %t = (${'f32[1]{0}, '.repeat(n / 11)}f32[]) tuple()\n}`,
      `%x = f32[2]{0} add(${'%a, '.repeat(n / 4)}%b)`,
      `%x = f32[2]{0} custom-call(), backend_config="${'x'.repeat(n)}"`,
      `%x = f32[2]{0} custom-call(), metadata={op_name="${'\\"'.repeat(n / 2)}"}`,
      'x'.repeat(n),
    ]) {
      counter.add();
      const start = performance.now();
      checkHloText(text);
      checkScan(text);
      assert.ok(
        performance.now() - start < 10_000,
        `${text.slice(0, 30)}… took ${performance.now() - start} ms`,
      );
    }
    counter.print();
  });
});
