/**
 * Mutations of EVERY corpus shape (valid, invalid, legacy) and of every corpus HLO file (insert,
 * delete, replace or duplicate a span), truncations of every HLO file at many offsets, CRLF and
 * mixed line endings, and the scan/split equivalence: scanning a file equals scanning each of its
 * statements. Mutations come from a seeded generator, so failures reproduce.
 */
import { strict as assert } from 'node:assert';
import { scanShapes, splitStatements } from '../../core/src/index';
import { checkExplain, checkHloText, checkScan, checkShapeText } from './checks';
import { canonical, corpusHloFiles, corpusShapes, editText, InputCounter } from './invariants';
import { SHARED_CORPUS } from '../support/corpus';
import { DELIMITERS } from '../support/hlo-tokens';

/** xorshift32: small, seeded, reproducible. */
function rng(seed: number): (n: number) => number {
  let x = seed | 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % Math.max(1, n);
  };
}

const JUNK = [
  ...DELIMITERS,
  ':',
  '*',
  '-',
  '9223372036854775808',
  'T(',
  'f32[',
  '\n',
  '\r\n',
  '"',
  '/*',
  '\ud800',
  '\u0000',
  'b(',
  '%x',
  '=',
];

/** One random edit of `text`: insert junk, delete a span, replace a span with junk, or duplicate a span. */
function mutate(text: string, next: (n: number) => number): string {
  const at = next(text.length + 1);
  const length = 1 + next(12);
  const junk = JUNK[next(JUNK.length)];
  return editText(text, at, length, junk, next(4));
}

/** Shapes found in each statement, in order: what the language server computes per statement. */
function scanByStatement(text: string): string {
  return canonical(splitStatements(text).flatMap((r) => scanShapes(text, r.start, r.end)));
}

describe('fuzz: corpus mutations', function () {
  this.timeout(60_000);
  const shapes = corpusShapes();
  const files = corpusHloFiles();

  it('every corpus shape, unchanged and under 4 random mutations each', () => {
    const counter = new InputCounter('corpus/shape mutations');
    const next = rng(0x5eed);
    for (const shape of shapes) {
      let text = shape;
      checkShapeText(text);
      checkScan(text);
      counter.add();
      for (let i = 0; i < 4; i++) {
        text = mutate(i === 0 ? shape : text, next);
        checkShapeText(text);
        checkScan(text);
        if (i === 0) checkExplain(text, false);
        counter.add();
      }
    }
    counter.print();
    assert.ok(shapes.length > (SHARED_CORPUS ? 1200 : 300));
  });

  it('every corpus HLO file under 12 random mutations', () => {
    const counter = new InputCounter('corpus/HLO mutations');
    const next = rng(0xc0ffee);
    for (const [, text] of files) {
      for (let i = 0; i < 12; i++) {
        let mutated = text;
        for (let k = 0; k <= i % 3; k++) mutated = mutate(mutated, next);
        checkHloText(mutated);
        checkScan(mutated);
        counter.add();
      }
    }
    counter.print();
    if (SHARED_CORPUS) assert.equal(files.length, 42);
  });

  it('every corpus HLO file truncated at 30 offsets', () => {
    const counter = new InputCounter('corpus/HLO truncations');
    const next = rng(0xbad);
    for (const [, text] of files) {
      const offsets = new Set<number>([0, 1, text.length - 1]);
      for (let i = 1; i < 15; i++) offsets.add(Math.floor((text.length * i) / 15));
      while (offsets.size < 30) offsets.add(next(text.length));
      for (const o of offsets) {
        const cut = text.slice(0, o);
        checkHloText(cut);
        checkScan(cut);
        counter.add();
      }
    }
    counter.print();
  });

  it('scanning a corpus file equals scanning it statement by statement, with LF, CRLF and mixed endings', () => {
    const counter = new InputCounter('corpus/scan split equivalence');
    for (const [name, text] of files) {
      const crlf = text.replace(/\n/g, '\r\n');
      let i = 0;
      const mixed = text.replace(/\n/g, () => ['\n', '\r\n', '\n\r\n'][i++ % 3]);
      for (const variant of [text, crlf, mixed]) {
        counter.add();
        assert.equal(
          scanByStatement(variant),
          canonical(scanShapes(variant)),
          `${name}: scan differs when split at statements`,
        );
        checkHloText(variant);
      }
      // Line endings change offsets, never what is found.
      const shapesOf = (t: string) =>
        scanShapes(t).map((f) => t.slice(f.shape.range.start, f.shape.range.end).replace(/\r/g, ''));
      assert.deepEqual(shapesOf(crlf), shapesOf(text), name);
      assert.equal(
        splitStatements(crlf).length,
        splitStatements(text).length,
        `${name}: CRLF changes the statement count`,
      );
    }
    counter.print();
  });
});
