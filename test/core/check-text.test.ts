/**
 * `ShapeChecker.checkText` (memoised: parses a candidate only the first time its key text is
 * seen) must equal scanShapes + validateShape on every text: same codes, messages, ranges, order.
 * The texts are built from the corpus (shapes and real HLO lines) so that the same shape recurs in
 * many contexts, then mutated with the characters that decide where the parser stops reading.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LayoutDiagnostic } from '../../core/src/diagnostics';
import { scanShapes } from '../../core/src/parse';
import { scanAt, walkShapeCandidates, type FoundShape } from '../../core/src/parse/scan-shapes';
import { ScanState } from '../../core/src/parse/scan-state';
import { shapeKeyEnd } from '../../core/src/parse/shape-key';
import { regionHash } from '../../core/src/parse/text-hash';
import { createShapeChecker, MAX_SHAPE_DIAGNOSTICS, validateShape } from '../../core/src/validate';
import { CORPUS_DIR } from '../support/corpus';
import { DELIMITERS } from '../support/hlo-tokens';

const CORPUS = CORPUS_DIR;

function firstColumn(file: string): string[] {
  return readFileSync(join(CORPUS, file), 'utf8')
    .split('\n')
    .map((l) => l.split('\t')[0])
    .filter((l) => l.trim() !== '');
}

const SHAPES = [
  ...firstColumn('valid_shapes.txt'),
  ...firstColumn('invalid_shapes.txt'),
  ...firstColumn('legacy_shapes.txt'),
];
const HLO_LINES = readdirSync(join(CORPUS, 'hlo'))
  .filter((f) => f.endsWith('.hlo'))
  .flatMap((f) => readFileSync(join(CORPUS, 'hlo', f), 'utf8').split('\n'))
  .filter((l) => l.trim() !== '');

/** What checkText must return: each found shape's parse diagnostics, then its validation. */
function reference(text: string, start?: number, end?: number, advice = true): LayoutDiagnostic[] {
  return scanShapes(text, start, end).flatMap((f) => [
    ...f.diagnostics,
    ...validateShape(f.shape, { advice }),
  ]);
}

/** Characters that end tokens, start trivia, or change how a number or attribute lexes. */
const MUTATION = [
  ...DELIMITERS,
  ':',
  '*',
  '-',
  '<=',
  '?',
  ' ',
  '\n',
  '/*c*/',
  '/',
  '//x\n',
  '"',
  '%',
  '.',
  'e',
  'E',
  'x',
  '_',
  'T',
  'L',
  'S',
  'SC',
  'M',
  'P',
  'D',
  '#',
  '0',
  '1',
  '8',
  '128',
  '99999999999999999999',
  'f32',
  'b',
  '->',
  '=',
];

const shapeArb = fc.constantFrom(
  ...SHAPES.slice(0, 60),
  ...SHAPES.filter((s) => !/^[a-z0-9]+\[[0-9,]*\]\{[0-9,]*(:T\([0-9,]+\))?\}$/.test(s)),
);

/** A small pool per text, so shapes repeat and hit the cache in different surroundings. */
const fragmentArb = (shapes: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...shapes),
    fc
      .constantFrom(...shapes)
      .map((s) => `%x.1 = ${s} add(${s} %a, ${s} %b), metadata={op_name="a(b)[c]"}\n`),
    fc.array(fc.constantFrom(...shapes), { minLength: 0, maxLength: 4 }).map((xs) => `(${xs.join(', ')})`),
    fc
      .array(fc.constantFrom(...shapes), { minLength: 1, maxLength: 3 })
      .map((xs) => `((${xs.join(',')}), /*index=5*/${xs[0]})`),
    fc.constantFrom(...shapes).map((s) => `%c (p: ${s}) -> ${s} {\n`),
    fc.constantFrom(...HLO_LINES).map((l) => l + '\n'),
    fc.constantFrom(' ', '\n', ', ', ') ', 'b(', '{', '}', '/*', '*/'),
  );

const textArb: fc.Arbitrary<string> = fc
  .array(shapeArb, { minLength: 1, maxLength: 4 })
  .chain((pool) => fc.array(fragmentArb(pool), { minLength: 1, maxLength: 12 }))
  .map((parts) => parts.join(''));

const mutatedArb: fc.Arbitrary<string> = fc
  .tuple(
    textArb,
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom(...MUTATION)), { maxLength: 6 }),
  )
  .map(([text, edits]) => {
    let t = text;
    for (const [at, cut, insert] of edits) {
      const i = at % (t.length + 1);
      t = t.slice(0, i) + insert + t.slice(Math.min(t.length, i + cut));
    }
    return t;
  });

/**
 * One shape-like prefix (type, dims soup, layout soup) repeated with different tails: if a cache
 * key stopped short of a character the parser reads, two of the copies would share a key but not
 * a result. The soups mix the key's plain vocabulary with everything that could push the parser
 * past it: comments, strings, nested braces and parens, attribute letters, number suffixes.
 */
const DIM_SOUP = [
  '0',
  '1',
  '8',
  '128',
  ',',
  ',',
  '?',
  '<=',
  '<',
  '=',
  '-',
  ' ',
  '.',
  'e',
  'x',
  '_',
  '/*',
  '*/',
  '"',
  ']',
  '{',
  '(',
  ')',
  'b',
];
const LAYOUT_SOUP = [
  '0',
  '1',
  ',',
  ',',
  ':',
  ':',
  'T',
  '(',
  '(',
  ')',
  ')',
  '8',
  '128',
  '*',
  '-',
  'E',
  'S',
  'C',
  'SC',
  'L',
  'M',
  'P',
  'D',
  '#',
  'X',
  '/*',
  '*/',
  '//',
  '"',
  '{',
  '}',
  ' ',
  '\n',
  '.',
  'e',
  'x',
  '_',
  'f32[2]',
  'u32',
];
/** Attribute-shaped pieces, complete and broken, so that layouts get past `:` often. */
const LAYOUT_CHUNKS = [
  'T(8,128)',
  '(2,1)',
  'T(2,',
  'E(4)',
  'S(1)',
  'L(',
  'M(0)',
  'C(',
  'X(1',
  'SC(0:1)',
  'P(',
  'P(f32[2]{0})',
  'D(D)',
  '#(u32)',
  '*(',
  '/*',
  '*/',
  '"',
  ')',
  '(',
];
const TAIL_SOUP = [
  ...new Set([...DIM_SOUP, ...LAYOUT_SOUP, ...LAYOUT_CHUNKS, '%p', 's32[]', 'f32[1]{0}', '}']),
];
const soup = (alphabet: readonly string[], max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...alphabet), { maxLength: max }).map((a) => a.join(''));
const arrayPrefixArb = fc
  .tuple(
    fc.constantFrom('f32', 'bf16', 's4', 'pred', 'token', 'u8'),
    fc.oneof(soup(DIM_SOUP, 6), soup(['2', ',', '/*', '*/', ']', '"', '{'], 4)),
    fc.constantFrom('', '', ' ', '\n', '/*c*/'),
    fc.option(
      fc.oneof(
        soup(LAYOUT_SOUP, 14),
        fc
          .tuple(fc.constantFrom('', '0', '1,0', '0,1'), soup(LAYOUT_CHUNKS, 4))
          .map(([m2m, attrs]) => `${m2m}:${attrs}`),
      ),
      { nil: undefined },
    ),
  )
  .map(([type, dims, gap, layout]) => `${type}[${dims}]${gap}${layout === undefined ? '' : `{${layout}}`}`);
const prefixArb = fc.oneof(
  arrayPrefixArb,
  fc
    .array(arrayPrefixArb, { minLength: 1, maxLength: 3 })
    .chain((xs) => fc.constantFrom(', ', ',', ' ,', ', /*i*/').map((sep) => `(${xs.join(sep)}`)),
);
const repeatedArb = fc
  .tuple(
    prefixArb,
    fc.array(soup(TAIL_SOUP, 5), { minLength: 2, maxLength: 5 }),
    fc.constantFrom('\n', ' ', ', '),
  )
  .map(([prefix, tails, sep]) => tails.map((t) => prefix + t).join(sep));

/** A text, a sub-range of it, and the text repeated (so the second copy is served from cache). */
const caseArb = fc.tuple(fc.oneof(textArb, mutatedArb), fc.nat(), fc.nat()).map(([text, a, b]) => {
  const doubled = text + text;
  const start = a % (doubled.length + 1);
  const end = start + (b % (doubled.length - start + 1));
  return { text: doubled, start, end };
});

/** What the finder gets at `pos`, every offset made relative to `pos`. */
function parsedAt(text: string, pos: number): string {
  const found: FoundShape[] = [];
  const next = scanAt(text, pos, text.length, found);
  return JSON.stringify({ found, next: next - pos }, (key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if ((key === 'start' || key === 'end') && typeof value === 'number') return value - pos;
    return value;
  });
}

/** The key of the finder's first candidate in `text` when it starts at offset 0. */
function keyAtStart(text: string): string | undefined {
  let key: string | undefined;
  let first = true;
  walkShapeCandidates(text, 0, text.length, (t, pos, end, typeEnd) => {
    if (first && pos === 0) {
      const k = shapeKeyEnd(new ScanState(), t, pos, end, typeEnd);
      if (k >= 0) key = t.slice(0, k);
    }
    first = false;
    return end;
  });
  return key;
}

describe('shapeKeyEnd: equal keys mean equal parses', () => {
  it('hashes the key it returns as regionHash does (arrays in the same pass that finds their end)', () => {
    let keys = 0;
    const hashesMatch = (text: string) => {
      const scan = new ScanState();
      walkShapeCandidates(text, 0, text.length, (t, pos, end, typeEnd) => {
        const keyEnd = shapeKeyEnd(scan, t, pos, end, typeEnd);
        if (keyEnd >= 0) {
          keys++;
          assert.equal(
            scan.keyHash,
            regionHash(t, pos, keyEnd),
            `key ${JSON.stringify(t.slice(pos, keyEnd))}`,
          );
        }
        return scanAt(t, pos, end, []);
      });
    };
    for (const line of HLO_LINES) hashesMatch(line);
    fc.assert(fc.property(fc.oneof(textArb, mutatedArb), hashesMatch), { numRuns: 500 });
    assert.ok(keys > 2_000, `${keys} keys`);
  });

  it('a keyed candidate parses the same whatever follows, as long as the key comes out the same', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.oneof(repeatedArb, mutatedArb),
        fc.array(soup(TAIL_SOUP, 6), { minLength: 1, maxLength: 4 }),
        (text, tails) => {
          walkShapeCandidates(text, 0, text.length, (t, pos, end, typeEnd) => {
            const keyEnd = shapeKeyEnd(new ScanState(), t, pos, end, typeEnd);
            if (keyEnd >= 0) {
              const key = t.slice(pos, keyEnd);
              const expected = parsedAt(t, pos);
              for (const tail of ['', ...tails]) {
                // The text after the key replaced by each tail; also the key kept with a different tail.
                for (const other of [key + tail, t.slice(pos, Math.min(end, keyEnd + 2)) + tail]) {
                  if (keyAtStart(other) !== key) continue;
                  compared++;
                  assert.equal(
                    parsedAt(other, 0),
                    expected,
                    `key ${JSON.stringify(key)} in ${JSON.stringify(other)} and at ${pos} in ${JSON.stringify(t)}`,
                  );
                }
              }
            }
            return scanAt(t, pos, end, []);
          });
        },
      ),
      { numRuns: 1200 },
    );
    assert.ok(compared > 4_000, `only ${compared} comparisons`);
  });

  it('holds on curated prefixes that stop just before a comment, string, paren or brace closes', () => {
    const prefixes = [
      'f32[/*]',
      'f32[2,/*]',
      'f32["]',
      'f32[2]{0:C(}',
      'f32[2]{0:X(1}',
      'f32[2]{0:T(1)}',
      'f32[2]{0:P(f32[1]{0}',
      'f32[2]{0:/*}',
      'f32[2] /*',
      'f32[2]/',
      'f32[2]',
      'f32[2]{0:E(1e}',
      'f32[2]{0:T(2,',
      '(f32[2]/*',
      '(f32[2], /*',
      '(f32[2]{0}',
      '(s32[]',
      'f32[2]{1 }',
      'f32[2] {',
      'f32[2]{D(',
      'f32[2]{0:#(',
      'f32[2]{0:*(',
      'f32[2]{0:SC(0:',
      'f32[2]{"}',
    ];
    const tails = [
      '',
      '*/',
      '*/3]',
      '*/{0}',
      ')',
      ')}',
      '"]',
      '"}',
      '}',
      ' x',
      ',1)',
      '2)}',
      'u32)}',
      '{0}',
      ', s32[])',
      ']{0}',
    ];
    let compared = 0;
    for (const p of prefixes) {
      for (const a of tails) {
        for (const b of tails) {
          const key = keyAtStart(p + a);
          if (key === undefined || keyAtStart(p + b) !== key) continue;
          compared++;
          assert.equal(
            parsedAt(p + b, 0),
            parsedAt(p + a, 0),
            `key ${JSON.stringify(key)}: ${JSON.stringify(p + a)} vs ${JSON.stringify(p + b)}`,
          );
        }
      }
    }
    assert.ok(compared > 300, `only ${compared} comparisons`);
  });

  it('gives plain shapes and tuples a key and leaves the rest to the parser', () => {
    assert.equal(keyAtStart('bf16[8,256]{1,0:T(8,128)(2,1)S(1)} add'), 'bf16[8,256]{1,0:T(8,128)(2,1)S(1)}');
    assert.equal(keyAtStart('f32[8] parameter(0)'), 'f32[8]');
    assert.equal(keyAtStart('f32[8] /*c*/ {0} x'), 'f32[8] /*c*/ {0}');
    // A computation header's result: the key runs to the end, where the body's brace stands.
    assert.equal(keyAtStart('f32[8,2] {'), 'f32[8,2] {');
    assert.equal(keyAtStart('f32[8,2] { \r'), 'f32[8,2] { \r');
    assert.equal(keyAtStart('f32[8,2] { x'), undefined);
    assert.equal(keyAtStart('(f32[8,2] {'), undefined);
    assert.equal(
      keyAtStart('(s32[], f32[2]{0:T(128)}, /*index=2*/(pred[]))->x'),
      '(s32[], f32[2]{0:T(128)}, /*index=2*/(pred[]))',
    );
    assert.equal(keyAtStart('f32[2]{0:P(f32[2]{0})}'), undefined);
    assert.equal(keyAtStart('f32[2]//c\n{0}'), undefined);
    assert.equal(keyAtStart('f32[2] /*c {0}'), undefined);
    assert.equal(keyAtStart('f32[2]{0:D(D)}'), undefined);
    assert.equal(keyAtStart('f32[2]{0:C(}'), undefined);
    assert.equal(keyAtStart('(f32[2] %p, s32[] %q)'), undefined);
  });
});

describe('ShapeChecker.checkText', () => {
  it('reports every diagnostic of every shape, with absolute ranges, re-based from the cache', () => {
    const text = '%a = f32[2,3]{0,0} p(), %b = f32[2,3]{0,0} q(), %c = f32[2,3]{1,0:T(2,x)} r()';
    const checker = createShapeChecker();
    const d = checker.checkText(text);
    const first = text.indexOf('0}');
    const second = text.indexOf('0}', text.indexOf('%b'));
    assert.deepEqual(
      d.map((x) => [x.code, x.range.start, x.range.end]),
      [
        ['minor-to-major-duplicate', first, first + 1],
        ['minor-to-major-duplicate', second, second + 1],
        ['expected-integer', text.indexOf('x)'), text.indexOf('x)') + 1],
      ],
    );
    assert.equal(d[0].message, 'layout minor_to_major field has duplicate values: {0, 0}; shape: f32[2,3]');
    assert.deepEqual(
      checker.checkText(text, text.indexOf('%b'), text.indexOf('%c')).map((x) => x.range.start),
      [second],
    );
  });

  it('keys on the look-ahead: the same prefix followed by different characters parses differently', () => {
    const checker = createShapeChecker();
    // A layout-less array is followed by `,`, by ` {` that opens a layout, and by `{` that does not.
    const text = '(f32[2], s32[]) f32[2] {1} f32[2]{x} f32[2]{ :T(0)} f32[2]{0}';
    const expected = reference(text);
    assert.deepEqual(
      expected.map((x) => `${x.code}@${x.range.start}`),
      ['minor-to-major-out-of-bounds@24', 'rank-mismatch@43', 'tile-dimension-invalid@48'],
    );
    assert.deepEqual(checker.checkText(text), expected);
    assert.deepEqual(checker.checkText(text + text), reference(text + text));
    // Tuples are cached whole; an element followed by something other than `,` or `)` is not.
    const tuples = '(f32[2]{0}, s32[2]{1}) (f32[2]{0}, s32[2]{1}) (f32[2]{0}, s32[2]{1} %p)';
    assert.deepEqual(
      checker.checkText(tuples).map((x) => `${x.code}@${x.range.start}`),
      [
        'minor-to-major-out-of-bounds@19',
        'minor-to-major-out-of-bounds@42',
        'minor-to-major-out-of-bounds@65',
      ],
    );
    assert.deepEqual(checker.checkText(tuples), reference(tuples));
  });

  it('handles a 5,000-element tuple with an error in every element, twice (the second from cache)', () => {
    const text = `(${'f32[2]{5}, '.repeat(4_999)}f32[2]{5}) x (${'f32[2]{5}, '.repeat(4_999)}f32[2]{5})`;
    const checker = createShapeChecker();
    const d = checker.checkText(text);
    // Each tuple lists its first MAX_SHAPE_DIAGNOSTICS problems, the last counting the rest.
    assert.equal(d.length, 2 * MAX_SHAPE_DIAGNOSTICS);
    assert.match(d[MAX_SHAPE_DIAGNOSTICS - 1].message, /4,900 more problems in this shape/);
    assert.deepEqual(d, reference(text));
    assert.deepEqual(d[MAX_SHAPE_DIAGNOSTICS].range, {
      start: text.indexOf('x (') + 10,
      end: text.indexOf('x (') + 11,
    });
  });

  it('keeps its caches within maxEntries', () => {
    const checker = createShapeChecker({ maxEntries: 10 });
    const text = Array.from({ length: 200 }, (_, i) => `f32[${i}]{0} (s8[${i}]{0}, u8[2]{1})`).join('\n');
    assert.deepEqual(checker.checkText(text), reference(text));
    assert.equal(reference(text).length, 200);
    assert.ok(checker.size <= 20, `size ${checker.size}`);
  });

  it('equals scanShapes + validateShape on random corpus texts and mutations (one shared cache)', () => {
    const shared = createShapeChecker();
    const tiny = createShapeChecker({ maxEntries: 4 });
    const quiet = createShapeChecker({ advice: false });
    fc.assert(
      fc.property(caseArb, ({ text, start, end }) => {
        const expected = reference(text, start, end);
        const found = scanShapes(text, start, end).length;
        const [sharedBefore, tinyBefore] = [shared.shapesChecked, tiny.shapesChecked];
        assert.deepEqual(shared.checkText(text, start, end), expected);
        assert.deepEqual(tiny.checkText(text, start, end), expected);
        // Cached or not, every shape the finder finds is counted once.
        assert.equal(shared.shapesChecked - sharedBefore, found);
        assert.equal(tiny.shapesChecked - tinyBefore, found);
        assert.deepEqual(quiet.checkText(text, start, end), reference(text, start, end, false));
        // The whole text, twice: the second pass is answered from the cache.
        const all = reference(text);
        assert.deepEqual(shared.checkText(text), all);
        assert.deepEqual(shared.checkText(text), all);
      }),
      { numRuns: 800 },
    );
  });

  it('equals scanShapes + validateShape when one shape-like prefix recurs with different tails', () => {
    const shared = createShapeChecker();
    fc.assert(
      fc.property(repeatedArb, (text) => {
        assert.deepEqual(shared.checkText(text), reference(text));
      }),
      { numRuns: 4000 },
    );
  });

  it('equals check() over scanShapes on every corpus HLO file, with start and end defaults', () => {
    const checker = createShapeChecker();
    for (const file of readdirSync(join(CORPUS, 'hlo')).filter((f) => f.endsWith('.hlo'))) {
      const text = readFileSync(join(CORPUS, 'hlo', file), 'utf8');
      const viaCheck = createShapeChecker();
      const expected = scanShapes(text).flatMap((f) => viaCheck.check(text, f));
      assert.deepEqual(checker.checkText(text), expected, file);
    }
  });
});
