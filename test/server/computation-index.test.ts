/**
 * The computation index an edited document keeps (computations, strays, calls and placements,
 * rebuilt from the statements the table indexes as computation-shaping, and reused when an edit
 * leaves them the same) equals the one of a fresh document of the same text, after any sequence
 * of edits that add or remove headers, `}`, calls, computations written in place, strays and
 * modules.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Analyzer } from '../../server/src/analyzer';
import { HloDocument } from '../../server/src/document';
import { DEFAULT_SETTINGS } from '../../protocol/src/settings';

/** Lines that make and break computations, calls and modules. */
const LINES: readonly string[] = [
  'HloModule m',
  '// -----',
  '%c (x: f32[8,4]) -> f32[8,4] {',
  '%d {',
  'ENTRY %e (a: f32[8,4]) -> f32[8,4] {',
  '}',
  '',
  '// a comment',
  '  %x = f32[8,4]{1,0:T(8,128)} parameter(0)',
  '  %f = f32[8,4]{1,0:T(8,128)} fusion(%x), kind=kLoop, calls=%c',
  '  %w = f32[8,4]{1,0:T(8,128)} while(%x), condition=%d, body=%c',
  '  %r = f32[] reduce(%x, %z), dimensions={0,1}, to_apply=%d',
  '  %k = f32[8,4]{1,0:T(8,128)} call(%x), to_apply=%e',
  '  %g = f32[8,4]{1,0:T(8,128)} fusion(%x), kind=kLoop, calls={',
  '    %q = f32[8,4]{1,0:T(8,128)} parameter(0)',
  '  }, metadata={op_name="in place"}',
  '  ROOT %n = f32[8,4]{1,0:T(8,128)} negate(%x)',
  'ENTRY %one { ROOT %o = f32[8,4]{1,0:T(8,128)} parameter(0) }',
  'stray words',
];

const BASE = [
  'HloModule m',
  '',
  '%c (x: f32[8,4]) -> f32[8,4] {',
  '  %x = f32[8,4]{1,0:T(8,128)} parameter(0)',
  '  ROOT %n = f32[8,4]{1,0:T(8,128)} negate(%x)',
  '}',
  '',
  '%d {',
  '  %x = f32[8,4]{1,0:T(8,128)} parameter(0)',
  '  ROOT %n = f32[8,4]{1,0:T(8,128)} negate(%x)',
  '}',
  '',
  'ENTRY %e (a: f32[8,4]) -> f32[8,4] {',
  '  %x = f32[8,4]{1,0:T(8,128)} parameter(0)',
  '  %f = f32[8,4]{1,0:T(8,128)} fusion(%x), kind=kLoop, calls=%c',
  '  %w = f32[8,4]{1,0:T(8,128)} while(%x), condition=%d, body=%d',
  '  ROOT %n = f32[8,4]{1,0:T(8,128)} negate(%x)',
  '}',
].join('\n');

/** An edit: at line `line` (modulo the line count), replace `remove` lines (0 or 1) by `insert`, or type `chars` at the start of the line. */
interface Edit {
  readonly line: number;
  readonly remove: number;
  readonly insert: readonly string[];
  readonly chars: string;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  line: fc.nat(200),
  remove: fc.nat(1),
  insert: fc.array(fc.constantFrom(...LINES), { maxLength: 3 }),
  chars: fc.constantFrom('', '', '}', '1', '{', ' ', '%z =', 'ENTRY '),
});

function state(doc: HloDocument) {
  const shown = doc.paddingShown();
  const padding: boolean[] = [];
  for (let i = 0; i < doc.statementCount; i++) padding.push(shown(i));
  return { computations: doc.computations(), strays: doc.strays(), padding };
}

/** Instructions that lie in no computation's statements (read apart from the index's own walk). */
function outside(doc: HloDocument): number[] {
  const list = doc.computations();
  const out: number[] = [];
  for (let i = 0; i < doc.statementCount; i++) {
    const s = doc.summary(i);
    if (s.kind === 'instruction' && s.parts === undefined && !list.some((c) => c.header <= i && i <= c.last))
      out.push(i);
  }
  return out;
}

async function fresh(text: string): Promise<HloDocument> {
  const doc = new HloDocument('file:///w/fresh.hlo', 'hlo', 1, text, new Analyzer(DEFAULT_SETTINGS));
  await doc.analyze(() => Promise.resolve());
  return doc;
}

describe('server: the computation index after edits', () => {
  it('equals a fresh document’s, computations, strays and padding placement alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const doc = await fresh(BASE);
        let version = 1;
        // The index is read after some edits and not others, as publishing and requests read it.
        for (const [k, e] of edits.entries()) {
          const lines = doc.text.getText().split('\n');
          const line = e.line % lines.length;
          if (e.chars !== '')
            doc.applyChanges(
              [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: e.chars }],
              ++version,
            );
          else {
            const end = Math.min(lines.length - 1, line + e.remove);
            const text = e.insert.map((l) => `${l}\n`).join('');
            doc.applyChanges(
              [{ range: { start: { line, character: 0 }, end: { line: end, character: 0 } }, text }],
              ++version,
            );
          }
          if (k % 2 === 1) state(doc);
        }
        const expected = state(await fresh(doc.text.getText()));
        assert.deepEqual(state(doc), expected, doc.text.getText());
        const strays = new Set(doc.strays().map((s) => s.statement));
        assert.deepEqual(
          outside(doc).filter((i) => !strays.has(i)),
          [],
          doc.text.getText(),
        );
      }),
      { numRuns: 300 },
    );
  });
});
