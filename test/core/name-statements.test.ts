/**
 * The CLI's name checks read a whole text's statements from the streamed check (NameStatements):
 * what the check parsed is kept, and plain instructions it found nothing wrong in are read without
 * their shapes (PlainInstruction). Whatever the text and however it arrives in pieces, the statements
 * must read as `parseStatements` reads them, and the name checks must give the same diagnostics.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  buildComputations,
  checkNames,
  NameStatements,
  parseStatements,
  splitStatements,
  type HloStatement,
} from '../../core/src/hlo';
import { PlainInstruction } from '../../core/src/hlo/plain-instruction';
import { CheckStream } from '../../core/src/report';
import { CORPUS_HLO_DIR, OWN_CORPUS_DIR } from '../support/corpus';

const FILES = [CORPUS_HLO_DIR, join(OWN_CORPUS_DIR, 'hlo')].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.hlo'))
    .map((f) => readFileSync(join(dir, f), 'utf8')),
);

/** The statements NameStatements collects from a check of `text` written in pieces cut at `cuts`. */
function collected(text: string, cuts: readonly number[] = []): HloStatement[] {
  const names = new NameStatements(text);
  const stream = new CheckStream(() => undefined, {
    padding: false,
    onStatement: (...s) => names.add(...s),
  });
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    stream.write(text.slice(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  stream.write(text.slice(from));
  stream.end();
  return names.statements;
}

/** Every field of `s`, read through its getters, as a plain object (absent fields left out). */
function fields(s: HloStatement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = [
    'kind',
    'range',
    'following',
    'root',
    'rootKeyword',
    'name',
    'shape',
    'opcode',
    'parameter',
    'operands',
    'calledComputations',
    'controlPredecessors',
    'attributes',
    'metadata',
    'inlineComputation',
    'entry',
    'entryKeyword',
    'parameters',
    'result',
    'entryComputationLayout',
    'shapes',
    'diagnostics',
  ];
  for (const key of keys) {
    const value = (s as unknown as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Asserts that the statements collected from `text` read as parseStatements reads them, with the same name diagnostics. */
function assertSameReading(text: string, cuts: readonly number[] = []): void {
  const got = collected(text, cuts);
  const want = parseStatements(text, splitStatements(text));
  const names = checkNames(buildComputations(got), text);
  assert.deepEqual(names, checkNames(buildComputations(want), text), JSON.stringify(text));
  assert.equal(got.length, want.length, JSON.stringify(text));
  for (let i = 0; i < got.length; i++) {
    const s = got[i];
    assert.deepEqual(fields(s), fields(want[i]), JSON.stringify(text.slice(s.range.start, s.range.end)));
    // The name checks take a plain instruction for one XLA's parser reads without error.
    if (s instanceof PlainInstruction) {
      assert.deepEqual(s.diagnostics, []);
      for (const f of s.shapes) assert.deepEqual(f.diagnostics, []);
    }
  }
}

describe('NameStatements', () => {
  it('reads the corpus files as parseStatements does, plain instructions without their shapes', () => {
    let plain = 0;
    for (const text of FILES) {
      assertSameReading(text);
      plain += collected(text).filter((s) => s instanceof PlainInstruction).length;
    }
    assert.ok(plain > 500, `only ${plain} plain instructions`);
  });

  it('reads a text written in pieces, cut anywhere, as a whole (seeded)', () => {
    fc.assert(
      fc.property(fc.nat(FILES.length - 1), fc.array(fc.nat(), { maxLength: 6 }), (file, cuts) => {
        const text = FILES[file];
        assertSameReading(
          text,
          cuts.map((c) => c % (text.length + 1)),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('leaves an attribute written with % to the statement parser, which reports it', () => {
    const text = `HloModule m

ENTRY %main (p: f32[7]) -> f32[7] {
  %p = f32[7]{0} parameter(0)
  ROOT %cos = f32[7]{0} cosine(%p), %etadata={op_name="x"}
}
`;
    assertSameReading(text);
    assert.ok(!collected(text).some((s) => s instanceof PlainInstruction && s.name.name === 'cos'));
  });

  it('reads edited corpus text as parseStatements does, errors and all (seeded)', () => {
    const edits = [
      ' ',
      '\n',
      '%',
      '(',
      ')',
      ',',
      '=',
      '{',
      '}',
      '/*',
      '*/',
      '"',
      ';',
      'ROOT ',
      ', control-predecessors={%x}',
      ', calls=%c',
      ' %b = f32[2]{0} negate(%a)',
      'f32[2]{0} ',
      'parameter(7)',
      'reshape(',
    ];
    fc.assert(
      fc.property(
        fc.nat(FILES.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.constantFrom(...edits)), { minLength: 1, maxLength: 4 }),
        (file, changes) => {
          let text = FILES[file];
          for (const [at, cut, insert] of changes) {
            const p = at % (text.length + 1);
            text = text.slice(0, p) + insert + text.slice(p + cut);
          }
          assertSameReading(text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
