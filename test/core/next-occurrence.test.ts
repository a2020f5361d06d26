import { strict as assert } from 'assert';
import fc from 'fast-check';
import { NextOccurrences, nextAt } from '../../core/src/parse/next-occurrence';

const NEEDLES = ['"', '/*', '\n'];

/** A text of `length` characters of filler with a few needles at the given places. */
function textWith(length: number, places: readonly [number, number][]): string {
  const chars = new Array<string>(length).fill('a');
  for (const [at, k] of places) chars[at % length] = NEEDLES[k];
  return chars.join('').slice(0, length);
}

describe('NextOccurrences', () => {
  it('answers what a fresh search answers, whatever the order of questions (seeded)', () => {
    // A statement-sized text, one past the short-text bound, and one past the long-text bound
    // (last occurrences remembered), with needles placed sparsely so searches run far.
    const texts = [
      textWith(200, [
        [10, 0],
        [50, 1],
        [120, 2],
      ]),
      textWith(20_000, [
        [5, 0],
        [15_000, 1],
        [19_990, 2],
      ]),
      textWith((1 << 20) + 5_000, [
        [100, 0],
        [70_000, 1],
        [900_000, 2],
        [1_000_000, 0],
      ]),
    ];
    // The document again as a string of its own, equal but a distinct object (a document reopened).
    texts.push(texts[2].split('').join(''));
    // Positions near the needles and the ends, where the memo's answers change.
    const near = (t: string) =>
      fc.oneof(fc.nat(t.length), fc.constantFrom(0, 99, 101, 69_999, 70_001, t.length));
    const question = fc
      .integer({ min: 0, max: texts.length - 1 })
      .chain((i) =>
        fc.tuple(fc.constant(i), fc.integer({ min: 0, max: NEEDLES.length - 1 }), near(texts[i])),
      );
    fc.assert(
      fc.property(fc.array(question, { minLength: 1, maxLength: 40 }), (questions) => {
        const memo = new NextOccurrences(NEEDLES);
        for (const [i, k, pos] of questions) {
          const text = texts[i];
          const p = Math.min(pos, text.length);
          assert.equal(
            memo.find(text, k, p),
            nextAt(text, NEEDLES[k], p),
            `text ${i}, ${NEEDLES[k]} from ${p}`,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('takes what a caller found as long as it is about the text remembered', () => {
    const text = textWith(30_000, [[20_000, 0]]);
    const memo = new NextOccurrences(NEEDLES);
    assert.equal(memo.find(text, 0, 0), 20_000);
    // A caller's own search from 25,000 found none: the memo answers from it without searching.
    memo.remember(text, 0, 25_000, text.length);
    assert.equal(memo.find(text, 0, 26_000), text.length);
    // About another text: ignored.
    memo.remember('x'.repeat(30_000), 0, 0, 7);
    assert.equal(memo.find(text, 0, 25_500), text.length);
    assert.equal(memo.find(text, 0, 10_000), 20_000);
  });
});
