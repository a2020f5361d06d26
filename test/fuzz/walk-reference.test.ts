/**
 * The optimised shape-finder walk against the reference character-by-character walk
 * (test/fuzz/reference-walk.ts): the same candidates, in the same order, with the same bounds and
 * type-name ends, on every corpus HLO file and example, on seeded mutations of them, and on HLO
 * token soup, whole and between random bounds, with visitors that continue where the real parser
 * does or at arbitrary positions past the candidate (inside names, blanks and comments too).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { scanAt, walkShapeCandidates, type ShapeCandidateVisitor } from '../../core/src/parse/scan-shapes';
import { ScanState } from '../../core/src/parse/scan-state';
import { corpusHloFiles, editText, exampleHloFiles } from './invariants';
import { referenceWalkShapeCandidates } from './reference-walk';
import { SHARED_CORPUS } from '../support/corpus';
import { DELIMITERS } from '../support/hlo-tokens';

const JUNK = [
  ...DELIMITERS,
  '=',
  '\n',
  ' ',
  '  ',
  '"',
  '\\"',
  '/*',
  '*/',
  '//',
  '/',
  '%',
  'b',
  'b(',
  'b (',
  '%b(',
  'f32',
  'f32[',
  'f32 [',
  'f32/*c*/[',
  's32.1[',
  '3f32[',
  'pred',
  'T(',
  'add(',
  '-',
  '.',
];
const TOKENS = [
  ...JUNK,
  'HloModule m\n',
  '%c (p: f32[2]) -> f32[2] {\n',
  'p0: f32[2]{0}',
  'parameter(0)',
  '(s32[], f32[])',
  'metadata={op_name="a(b[1]"}',
  '/*index=5*/',
  'b(f32[1]{0})',
  'f32 /*a*/ /*b*/ [3]',
  'u8 // c\n [2]',
  '\r\n',
  '\r',
  'bf16[8,128]{1,0:T(8,128)(2,1)}',
  // Words XLA does not know as element types, strings in single quotes and over line ends.
  'F32[2]',
  'float32 [3]',
  "op_name='a[1]'",
  'x="multi\nline", ',
  'u8 // c\r [2]',
];

type Step = (pos: number, end: number, typeEnd: number) => number;

/**
 * Runs both walks, each with a fresh continuation rule from `rule`, and returns what each visitor
 * saw. The optimised walk uses `scan` (the memos of a caller walking one text piece by piece).
 */
function both(
  text: string,
  start: number,
  end: number,
  rule: () => Step,
  scan = new ScanState(),
): [number[], number[]] {
  const record = (seen: number[]): ShapeCandidateVisitor => {
    const step = rule();
    return (_t, pos, bound, typeEnd) => {
      seen.push(pos, bound, typeEnd);
      return step(pos, bound, typeEnd);
    };
  };
  const want: number[] = [];
  const got: number[] = [];
  referenceWalkShapeCandidates(text, start, end, record(want));
  walkShapeCandidates(text, start, end, record(got), scan);
  return [got, want];
}

function assertSameWalk(
  text: string,
  label: string,
  start = 0,
  end = text.length,
  scan = new ScanState(),
): void {
  const parsed: Step = (pos, bound) => scanAt(text, pos, bound, [], scan);
  const [got, want] = both(text, start, end, () => parsed, scan);
  assert.deepEqual(got, want, `${label} [${start}, ${end}): candidates differ from the reference walk`);
}

describe('fuzz: optimised shape-finder walk equals the reference', function () {
  this.timeout(60_000);
  const files = [...corpusHloFiles(), ...exampleHloFiles()];

  it('on every corpus HLO file and example, whole and statement by statement from every line start', () => {
    assert.ok(files.length > (SHARED_CORPUS ? 40 : 10));
    let candidates = 0;
    for (const [name, text] of files) {
      assertSameWalk(text, name);
      // Line by line with one state, as a caller walks statements: its memos carry over.
      const scan = new ScanState();
      for (let at = 0, next; at < text.length; at = next) {
        next = text.indexOf('\n', at) + 1 || text.length;
        assertSameWalk(text, name, at, next, scan);
      }
      candidates += both(text, 0, text.length, () => (pos) => pos + 1)[1].length / 3;
    }
    // The comparison means something only if the walks find many candidates.
    assert.ok(candidates > 1_000, `only ${candidates} candidates`);
  });

  it('when a visitor walks another text of its own, and when that text is walked next', () => {
    // Same length, more stops: what the walk of one remembers is wrong for the other. The first
    // text has no `(` at all, the second one where the first has blanks.
    const text = 'f32[2] x, s8[3]{0} y\n'.repeat(50);
    const other = text.replace(/ /g, '(');
    let nested = 0;
    // One state for everything, as one caller's: what it remembers of one text must not leak into the other.
    const scan = new ScanState();
    for (let start = 0, end; start < text.length; start = end) {
      end = text.indexOf('\n', start) + 1;
      const got: number[] = [];
      walkShapeCandidates(
        text,
        start,
        end,
        (t, pos, bound, typeEnd) => {
          got.push(pos, bound, typeEnd);
          nested++;
          walkShapeCandidates(other, pos, bound, (o, p, b) => scanAt(o, p, b, [], scan), scan);
          return scanAt(t, pos, bound, [], scan);
        },
        scan,
      );
      // The other text first: nothing may have been remembered for it from the walk of the first.
      assertSameWalk(other, 'other', start, end, scan);
      assert.deepEqual(
        got,
        both(text, start, end, () => (pos, bound) => scanAt(text, pos, bound, []))[1],
        `[${start}, ${end})`,
      );
    }
    assert.equal(nested, 100);
  });

  it('on corpus files with junk inserted, spans deleted or duplicated, between random bounds', () => {
    // One state across runs, as a long-lived caller's: each new text must replace what it remembers.
    const scan = new ScanState();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(20), fc.constantFrom(...JUNK), fc.nat(2)), { maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        (k, edits, a, b) => {
          let text = files[k][1];
          for (const [at, length, junk, kind] of edits) text = editText(text, at, length, junk, kind);
          const lo = a % (text.length + 1);
          assertSameWalk(text, files[k][0], lo, lo + (b % (text.length + 1 - lo + 1)), scan);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('when a line comment ends in blanks (a CR before its newline), between any bounds', () => {
    // Found by the corpus fuzzer (from 1, `//` starts at the `/` that closes `*/`): stepping back
    // over blanks from `[` must stop where the comment ends, not read the name inside it.
    for (const text of ['/*index=5*//f32\r\n[(', 'f32 // c  \n [2]', 'f32 // a \t\n  // b\r\n[3]'])
      for (let lo = 0; lo <= text.length; lo++)
        for (let hi = lo; hi <= text.length; hi++) assertSameWalk(text, JSON.stringify(text), lo, hi);
  });

  it('when the visitor continues inside comments the walk already skipped', () => {
    // Found by the token soup below: `pred` is a candidate only through the comment chain after it,
    // and continuing at 6 lands inside `/*f32 /*a*/`, before the `/` at 11 the walk had passed.
    const text = '(pred/*f32 /*a*/ /*b*/ [3](';
    const jumps = [4, 0];
    const [got, want] = both(text, 1, 24, () => {
      let n = 0;
      return (pos) => pos + 1 + jumps[n++ % jumps.length];
    });
    assert.deepEqual(want, [1, 24, 5, 7, 24, 10]);
    assert.deepEqual(got, want);
  });

  it('on HLO token soup, with the parser or arbitrary continuations', () => {
    const scan = new ScanState();
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }),
        fc.array(fc.nat(12), { minLength: 1, maxLength: 16 }),
        fc.nat(),
        fc.nat(),
        (tokens, jumps, a, b) => {
          const text = tokens.join('');
          const lo = a % (text.length + 1);
          const hi = lo + (b % (text.length - lo + 2));
          assertSameWalk(text, 'soup', lo, hi, scan);
          // Continuations past the candidate by arbitrary amounts: into names, blanks and comments.
          const [got, want] = both(
            text,
            lo,
            hi,
            () => {
              let n = 0;
              return (pos) => pos + 1 + jumps[n++ % jumps.length];
            },
            scan,
          );
          assert.deepEqual(got, want, `soup ${JSON.stringify(text)} with jumps ${jumps.join(',')}`);
        },
      ),
      { numRuns: 4000 },
    );
  });
});
