/**
 * The optimised statement splitter against the reference one-pass splitter
 * (test/fuzz/reference-split.ts): same statements on every corpus HLO file and example, on seeded
 * mutations of them (junk inserted, spans deleted or duplicated, lines shuffled), on HLO token
 * soup, and with small statement-length caps; `statementBounds` gives the same bounds as arrays. Also the cut points `statementBoundaryAfter` picks for
 * checking a file in pieces: splitting from one gives exactly the whole split's statements from there.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { splitStatements, statementBoundaryAfter } from '../../core/src/index';
import { statementBounds } from '../../core/src/hlo/split-statements';
import { crossingEnd } from '../../core/src/parse/lexical-lines';
import { corpusHloFiles, editText, exampleHloFiles } from './invariants';
import { referenceSplitStatements } from './reference-split';
import { SHARED_CORPUS } from '../support/corpus';
import { DELIMITERS } from '../support/hlo-tokens';

const JUNK = [
  ...DELIMITERS,
  '=',
  '\n',
  '\r\n',
  '"',
  '/*',
  '*/',
  '//',
  'ROOT ',
  '%x = ',
  'f32[2]{0} ',
  '}\n',
  'ENTRY %e {\n',
  'add(',
  '  ',
];
const TOKENS = [
  ...JUNK,
  'HloModule m\n',
  '%c (p: f32[2]) -> f32[2] {\n',
  'p0: f32[2]{0}',
  'parameter(0)',
  ' custom-call(',
  '(s32[], f32[])',
  '\r',
  'metadata={op_name="a(b"}',
  '/*index=5*/',
  'b(f32[1]{0})',
  // Strings in single quotes and over line ends, a body brace on a line of its own, `}, x={`.
  "'",
  'frontend_attributes={x="multi\nline"}',
  '\n{\n',
  '}, condition={\n',
  // Shapes broken over lines: an element type ending a line, a layout's braces on two.
  '%x = f32\n',
  '{1\n,0}',
  ']{\n',
  // Lines no statement starts with, which continue the one before; a `}` alone closing a value.
  '\n, metadata={op_name="x"\n}\n',
  '%a // c\n= f32[2] ',
  '1 {file_name_id=1\n',
  '\n)',
  '\n"a.py"',
  '\n(x: f32[2])',
];

/** Whether a line starts at `at`: after `\n`, or after a `\r` not followed by `\n`. */
function isLineStart(text: string, at: number): boolean {
  const c = text.charCodeAt(at - 1);
  return c === 10 || (c === 13 && text.charCodeAt(at) !== 10);
}

/** The start of the line after the one holding `at` (`text.length` at the last line). */
function nextLine(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) if (isLineStart(text, i)) return i;
  return text.length;
}

/** Whether a string or block comment of `text` runs over a line end. */
function crossesLines(text: string): boolean {
  let resume = -1;
  for (let at = 0; at < text.length; at = nextLine(text, at)) {
    let end = nextLine(text, at);
    while (end > at && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--;
    if (resume > end) continue;
    resume = crossingEnd(text, Math.max(at, resume), end, text.length);
    if (resume > end) return true;
  }
  return false;
}

function assertSame(text: string, label: string, options: { maxStatementLength?: number } = {}): void {
  const got = splitStatements(text, 0, text.length, options);
  const want = referenceSplitStatements(text, 0, text.length, options);
  assert.deepEqual(got, want, `${label}: statements differ from the reference splitter`);
  // The parallel-array form the language server keeps: the same bounds.
  const bounds = statementBounds(text, 0, text.length, options);
  assert.deepEqual(
    bounds,
    { starts: want.map((r) => r.start), ends: want.map((r) => r.end) },
    `${label}: statementBounds differs`,
  );
}

describe('fuzz: optimised statement splitter equals the reference', function () {
  this.timeout(60_000);
  const files = [...corpusHloFiles(), ...exampleHloFiles()];

  it('on every corpus HLO file and example, whole and from every line start', () => {
    assert.ok(files.length > (SHARED_CORPUS ? 40 : 10));
    for (const [name, text] of files) {
      assertSame(text, name);
      assertSame(text.replace(/\n/g, '\r\n'), `${name} (CRLF)`);
      for (let at = text.indexOf('\n') + 1; at > 0; at = text.indexOf('\n', at) + 1) {
        assert.deepEqual(
          splitStatements(text, at),
          referenceSplitStatements(text, at),
          `${name} from offset ${at}`,
        );
      }
    }
  });

  it('on corpus files with junk inserted, spans deleted or duplicated, and lines shuffled', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(20), fc.constantFrom(...JUNK), fc.nat(3)), { maxLength: 8 }),
        fc.boolean(),
        (k, edits, shuffle) => {
          let text = files[k][1];
          for (const [at, length, junk, kind] of edits) text = editText(text, at, length, junk, kind);
          if (shuffle) text = text.split('\n').sort().join('\n');
          assertSame(text, files[k][0]);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('on HLO token soup, with and without small statement-length caps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }),
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        (tokens, cap) => {
          assertSame(tokens.join(''), 'soup', cap === undefined ? {} : { maxStatementLength: cap });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('statementBoundaryAfter cuts where the whole split starts a statement, and splitting from there agrees', () => {
    let cuts = 0;
    const check = (text: string, label: string) => {
      // A line inside a string or comment that runs over line ends plainly starts no statement,
      // which only the whole split can know: the cut is promised for the other texts.
      if (crossesLines(text)) return;
      const whole = splitStatements(text);
      for (let at = 0; at < text.length; at = nextLine(text, at)) {
        const b = statementBoundaryAfter(text, at);
        if (b < 0) continue;
        cuts++;
        assert.ok(
          b >= at && (b === 0 || isLineStart(text, b)),
          `${label}: ${b} is not a line start at or after ${at}`,
        );
        const k = whole.findIndex((r) => r.start === b);
        assert.ok(k >= 0, `${label}: no statement of the whole split starts at the cut ${b}`);
        assert.deepEqual(
          splitStatements(text, b),
          whole.slice(k),
          `${label}: splitting from the cut ${b} differs`,
        );
      }
    };
    for (const [name, text] of files) check(text, name);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }), (tokens) =>
        check(tokens.join(''), 'soup'),
      ),
      { numRuns: 1500 },
    );
    assert.ok(cuts > 1000, `only ${cuts} cuts tried`);
  });
});
