import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { splitStatements } from '../../core/src';
import { StatementTable } from '../../server/src/statement-table';

/** Lines that open and close strings and comments across line ends, among plain statements. */
const piece = fc.constantFrom(
  'HloModule m\n',
  'ENTRY %e () -> f32[2] {\n',
  'ENTRY %e () -> f32[2]\n',
  '{\n',
  '// c\n',
  '  %a = f32[2]{0} parameter(0)\n',
  '  ROOT %b = f32[2]{0} copy(%a)\n',
  '}\n',
  '  %c = f32[2]{0} custom-call(%a), custom_call_target="x\n',
  '"\n',
  "'",
  '/*',
  '*/',
  '\\"',
  '(',
  ')',
  '\n',
  '\r\n',
  'x, ',
);
const documentText = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));

/** One edit: where (as fractions of the text) and what to insert. */
const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  length: fc.nat({ max: 30 }),
  insert: fc.array(piece, { maxLength: 3 }).map((p) => p.join('')),
});

function bounds(table: StatementTable<null>): [number, number][] {
  return Array.from({ length: table.count }, (_, i): [number, number] => [table.start(i), table.end(i)]);
}

describe('server: statement table', () => {
  it('splits after any run of edits exactly as a fresh split of the new text', () => {
    fc.assert(
      fc.property(documentText, fc.array(edit, { minLength: 1, maxLength: 8 }), (initial, edits) => {
        const table = new StatementTable<null>(() => null);
        let text = initial;
        table.reset(text);
        for (const e of edits) {
          const start = Math.floor(e.at * text.length);
          const end = Math.min(text.length, start + e.length);
          text = text.slice(0, start) + e.insert + text.slice(end);
          const source = { length: text.length, slice: (a: number, b: number) => text.slice(a, b) };
          table.applyEdit(source, start, end, e.insert.length);
          const fresh = splitStatements(text).map((r): [number, number] => [r.start, r.end]);
          assert.deepEqual(bounds(table), fresh, JSON.stringify(text));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the first open string when a later edit re-splits from below it', () => {
    // The string cut on line 1 runs on to line 3 once the `x` after line 3's quote is deleted; an
    // edit between them that re-split from line 3 only used to forget line 1 was open.
    const table = new StatementTable<null>(() => null);
    const cut = '  %c = f32[2]{0} custom-call(%a), custom_call_target="x\n';
    let text = `${cut}HloModule m\n${cut}`;
    table.reset(text);
    const source = { length: text.length, slice: (a: number, b: number) => text.slice(a, b) };
    table.applyEdit(source, text.length, text.length, 0);
    const x = text.lastIndexOf('x');
    text = text.slice(0, x) + text.slice(x + 1);
    table.applyEdit({ length: text.length, slice: (a, b) => text.slice(a, b) }, x, x + 1, 0);
    assert.deepEqual(bounds(table), [[0, text.length - 1]]);
  });

  it('takes in the lines down to a quote that closes a string opened far above', () => {
    const table = new StatementTable<null>(() => null);
    const copies = Array.from({ length: 5 }, (_, i) => `  %d${i} = s32[] copy(%c)\n`).join('');
    let text = `  %c = s32[] constant(0), op_name="a\n${copies}  %e = s32[] copy(%c)\n`;
    table.reset(text);
    assert.equal(table.count, 7);
    // A quote ending the last copy ends a value: the string of line 1 runs on to it.
    const at = text.indexOf('\n  %e');
    text = `${text.slice(0, at)}"${text.slice(at)}`;
    table.applyEdit({ length: text.length, slice: (a, b) => text.slice(a, b) }, at, at, 1);
    assert.deepEqual(bounds(table), [
      [0, at + 1],
      [at + 2, text.length - 1],
    ]);
  });

  it('joins a header to its `{` typed after a blank line, and parts them when it is deleted', () => {
    const table = new StatementTable<null>(() => null);
    let text = 'ENTRY %e () -> f32[2]\n\n\n  ROOT %a = f32[2]{0} parameter(0)\n}\n';
    table.reset(text);
    const at = text.indexOf('  ROOT');
    text = `${text.slice(0, at)}{\n${text.slice(at)}`;
    table.applyEdit({ length: text.length, slice: (a, b) => text.slice(a, b) }, at, at, 2);
    assert.deepEqual(
      bounds(table),
      splitStatements(text).map((r) => [r.start, r.end]),
    );
    assert.equal(table.end(0), at + 1);
    text = text.slice(0, at) + text.slice(at + 2);
    table.applyEdit({ length: text.length, slice: (a, b) => text.slice(a, b) }, at, at + 2, 0);
    assert.deepEqual(
      bounds(table),
      splitStatements(text).map((r) => [r.start, r.end]),
    );
  });
});
