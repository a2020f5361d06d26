/**
 * The lean first pass (server/src/lean-pass.ts) against the full per-statement analysis: for every
 * statement of every corpus file, the fixtures, a generated dump, and every corpus shape (valid,
 * invalid, legacy) placed as result, operand and attribute of an instruction, the summary the
 * server keeps must be identical — codes, ranges, spans, messages, order, tiling — under default
 * settings and under settings that turn on assumed tiling and warn on any padding.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { splitStatements } from '../../core/src/hlo/split-statements';
import { ScanState } from '../../core/src/parse/scan-state';
import { generateDump } from '../../bench/generate-dump';
import { Analyzer } from '../../server/src/analyzer';
import { resultShapeStart } from '../../core/src';
import { LeanPass } from '../../server/src/lean-pass';
import { ShapeFactsCache } from '../../server/src/shape-facts';
import { DEFAULT_SETTINGS, type Settings } from '../../protocol/src/settings';
import { CORPUS_DIR } from '../support/corpus';

const FIXTURES = join(__dirname, 'fixtures');
const CORPUS = CORPUS_DIR;

const EAGER: Settings = {
  ...DEFAULT_SETTINGS,
  assumedTiling: 'tpu',
  warnExpansion: 1,
  warnMinWastedBytes: 0,
};

interface Comparison {
  readonly statements: number;
  readonly instructions: number;
  /** Statements the lean pass answered for (the rest fell back to the full analysis). */
  readonly lean: number;
  /** Computation headers the lean header path answered for. */
  readonly headers: number;
  readonly withDiagnostics: number;
}

/** Compares lean and full summaries of every statement of `text`; returns counts. */
function compare(name: string, text: string, settings: Settings): Comparison {
  const doc = TextDocument.create('file:///x.hlo', 'hlo', 1, text);
  const positionAt = (offset: number) => doc.positionAt(offset);
  const analyzer = new Analyzer(settings);
  const probe = new LeanPass(new ShapeFactsCache(settings), settings);
  const scan = new ScanState();
  let lean = 0;
  let headers = 0;
  let instructions = 0;
  let withDiagnostics = 0;
  const ranges = splitStatements(text);
  for (const r of ranges) {
    const full = analyzer.summarizeFully(text, r.start, r.end, positionAt);
    const got = analyzer.summarize(text, r.start, r.end, positionAt, scan);
    assert.deepStrictEqual(
      got,
      full,
      `${name}: statement at ${r.start}: ${JSON.stringify(text.slice(r.start, Math.min(r.end, r.start + 200)))}`,
    );
    if (probe.statement(text, r.start, r.end, scan) !== undefined) lean++;
    if (probe.header(text, r.start, r.end, scan) !== undefined) headers++;
    if (full.diagnostics) withDiagnostics++;
    if (full.kind === 'instruction') instructions++;
  }
  return { statements: ranges.length, instructions, lean, headers, withDiagnostics };
}

function shapeLines(file: string): string[] {
  return readFileSync(join(CORPUS, file), 'utf8')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

/** Every corpus shape as the result, an operand and an attribute value (an outfeed's `outfeed_shape`). */
function shapeInstructions(shapes: readonly string[]): string {
  return shapes
    .map(
      (s, i) =>
        `  %i.${i} = ${s} add(${s} %a.${i}, f32[2]{0} %b), metadata={op_name="jit(f)/add" source_line=${i}}\n  %o.${i} = token[] outfeed(%i.${i}, %t), outfeed_shape=${s}\n  ROOT %r.${i} = ${s} copy(${s} %i.${i})\n`,
    )
    .join('');
}

describe('server: lean first pass = full per-statement analysis', () => {
  for (const settings of [DEFAULT_SETTINGS, EAGER]) {
    const label = settings === EAGER ? 'eager padding warnings, assumed TPU tiling' : 'default settings';
    describe(label, () => {
      it('agrees on every corpus HLO file', () => {
        const dir = join(CORPUS, 'hlo');
        let instructions = 0;
        let lean = 0;
        let withDiagnostics = 0;
        for (const f of readdirSync(dir).sort()) {
          const c = compare(f, readFileSync(join(dir, f), 'utf8'), settings);
          instructions += c.instructions;
          lean += c.lean;
          withDiagnostics += c.withDiagnostics;
        }
        // The pass must actually carry the corpus, not fall back everywhere.
        assert.ok(lean > instructions * 0.9, `lean on ${lean} of ${instructions} instructions`);
        // The corpus is clean under defaults; eager settings warn on its padded shapes.
        if (settings === EAGER)
          assert.ok(withDiagnostics > 20, `${withDiagnostics} statements with diagnostics`);
      });

      it('agrees on the fixtures', () => {
        for (const f of readdirSync(FIXTURES).filter((x) => x.endsWith('.hlo')))
          compare(f, readFileSync(join(FIXTURES, f), 'utf8'), settings);
      });

      it('agrees on every corpus shape as result, operand and attribute', () => {
        for (const file of ['valid_shapes.txt', 'invalid_shapes.txt', 'legacy_shapes.txt']) {
          // invalid_shapes.txt lines carry the expected message after a tab.
          const shapes = shapeLines(file).map((l) => l.split('\t')[0]);
          const c = compare(file, shapeInstructions(shapes), settings);
          // A third of the instructions are outfeeds, whose outfeed_shape only the full analysis reads.
          if (file !== 'legacy_shapes.txt')
            assert.ok(c.lean > c.instructions / 6, `${file}: lean on ${c.lean} of ${c.instructions}`);
          if (file === 'invalid_shapes.txt') assert.ok(c.withDiagnostics > c.statements / 2);
        }
      });

      it('agrees on tuples of corpus shapes as results and operands (new tuples are assembled from their arrays)', () => {
        const arrays = [...shapeLines('valid_shapes.txt'), ...shapeLines('invalid_shapes.txt')]
          .map((l) => l.split('\t')[0])
          .filter((s) => !s.startsWith('('));
        const pick = (i: number) => arrays[(i * 7919) % arrays.length];
        const text = arrays
          .map((_, i) => {
            const t = `(${pick(i)}, (${pick(i + 1)},${pick(i + 2)}), /*index=2*/ ${pick(i + 3)}, ())`;
            return `  %t.${i} = ${t} tuple(${t} %a.${i}, (${pick(i + 4)}) %b, %c, %d)\n  %u.${i} = (${pick(i)}, ${pick(i + 3)}) tuple(%x, %y)\n`;
          })
          .join('');
        // Tile advice on the first array and a validation error on the second: in the tuple's facts
        // the validator's diagnostics of all arrays come before the advice of any.
        const mixed = '(f32[8,256]{1,0:T(8,128)(3,1)}, f32[2,3]{1,0:T(0,2)})';
        const c = compare('tuples', `${text}  %m = ${mixed} tuple(${mixed} %a, %b)\n`, settings);
        assert.ok(c.lean > c.instructions / 4, `lean on ${c.lean} of ${c.instructions}`);
        assert.ok(c.withDiagnostics > c.statements / 4, `${c.withDiagnostics} statements with diagnostics`);
      });

      it('agrees on every corpus shape as a computation parameter and result', () => {
        for (const file of ['valid_shapes.txt', 'invalid_shapes.txt', 'legacy_shapes.txt']) {
          // invalid_shapes.txt lines carry the expected message after a tab.
          const shapes = shapeLines(file).map((l) => l.split('\t')[0]);
          const text = shapes
            .map(
              (s, i) =>
                `%c.${i} (p.${i}: ${s}, q: f32[2]{0:T(128)}) -> ${s} {\n  ROOT %r.${i} = ${s} parameter(0)\n}\n\nENTRY e.${i} () -> ${s} {\n}\n`,
            )
            .join('');
          const c = compare(file, text, settings);
          if (file !== 'legacy_shapes.txt')
            assert.ok(
              c.headers > shapes.length / 2,
              `${file}: lean on ${c.headers} of ${2 * shapes.length} headers`,
            );
          if (file === 'invalid_shapes.txt') assert.ok(c.withDiagnostics > shapes.length);
        }
      });

      it('agrees on headers in unusual forms, leaving all but the plain ones to the full analysis', () => {
        const text = [
          'HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}\n',
          'ENTRY %e (p: f32[2]{0:T(2)}) -> f32[2]{0:T(2)(2)} {\n',
          '}\n',
          'c () -> f32[2]{0:T()} {\n',
          '%d\t(\tp: f32[2]{0} ,\tq:(f32[2]{0}, s32[])\t)->  f32[2]{0:T(3)} {\r\n',
          // XLA's lexer reads `name:` as one token: `p :` and `%q:` are errors.
          '%m (p : f32[2]{0}) -> f32[2]{0} {\n',
          '%n (%q: f32[2]{0}) -> f32[2]{0} {\n',
          '%f (p: f32[2]{0}) -> f32[2]{0} { // comment\n',
          '%g /* c */ (p: f32[2]{0}) -> f32[2]{0} {\n',
          'ENTRY (p: f32[2]{0}) -> f32[2]{0} {\n',
          '%h (p: f32[2]{0}) -> f32[2]{0}\n',
          '%i (p f32[2]{0}) -> f32[2]{0} {\n',
          '%j (p: f32[2]{0},) -> f32[2]{0} {\n',
          '%k (p: f32[2]{5}) -> f32[2]{0} {\n',
          '%l (p: %x) -> f32[2]{0} {\n',
        ].join('');
        const c = compare('headers', text, settings);
        // The plain headers: %e, c, %d and %k (its bad layout is a validator diagnostic, not a parse error).
        assert.equal(c.headers, 4);
        assert.ok(c.withDiagnostics >= 3, `${c.withDiagnostics} statements with diagnostics`);
      });

      it('agrees with CRLF line ends and comments between the parts of an instruction', () => {
        const text = [
          'HloModule m\r\n',
          'ENTRY %e (p: f32[3,5]) -> f32[3,5] {\r\n',
          '  %p = f32[3,5]{1,0:T(8,128)} parameter(0)\r\n',
          '  %q /* c */ = f32[3,5]{1,0:T(8,128)} copy(f32[3,5]{1,0:T(8,128)} %p)\r\n',
          '  %s = /* c */ f32[3,5]{1,0:T(8,128)} copy(%p)\r\n',
          '  x = f32[9,9]{1,0:T(8,128)(2,1)} copy(%p)\r\n',
          '  %t = (f32[3,5]{1,0:T(8,128)}, s32[]) tuple(f32[3,5]{1,0:T(8,128)} %p, s32[] %c)\r\n',
          '  %u = f32[3,5]{1,0} get-tuple-element((f32[3,5]{1,0}, s32[]) %t), index=0\r\n',
          '  ROOT %v = f32[3,5]{0,0} copy(%u)\r\n',
          '}\r\n',
        ].join('');
        const c = compare('crlf', text, settings);
        assert.deepEqual([c.statements, c.instructions], [10, 7]);
        // %q and %s have comments where the lean pass leaves the statement to the full analysis.
        assert.equal(c.lean, 5);
      });
    });
  }

  it('agrees on a generated after-optimizations dump', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lean-pass-'));
    try {
      const file = join(dir, 'dump.after_optimizations.txt');
      generateDump(file, 600_000, 11, 'stress');
      const c = compare('dump', readFileSync(file, 'utf8'), DEFAULT_SETTINGS);
      assert.ok(c.lean > c.instructions * 0.95, `lean on ${c.lean} of ${c.instructions} instructions`);
      assert.ok(c.withDiagnostics > 100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a statement in place exactly as its own slice, whatever the document holds after it', () => {
    // Cut every statement at every length and put text after the cut that would complete it: the
    // lean pass must stop at the statement's end as if nothing followed.
    const statements = [
      '%c.1 (p.1: f32[2]{0:T(2)}, q: (s32[], f32[3]{0})) -> f32[2]{0:T(3)} {',
      'ENTRY %e (p: bf16[8,256]{1,0:T(8,128)(2,1)}) -> (f32[2], s32[]) {',
      '  ROOT %r = f32[65536,4]{1,0:T(8,128)} add(f32[2]{0} %a, %b), metadata={op_name="x"}',
      '  %t = (f32[2]{0}, s32[]) tuple(%a, %b)',
    ];
    const tails = ['', '->', '> f32[2]{0} {', ') -> f32[] {', '(8,128)}', ']{0}', '{', ' {\n', '"'];
    const probe = new LeanPass(new ShapeFactsCache(EAGER), EAGER);
    const scan = new ScanState();
    let answered = 0;
    for (const statement of statements) {
      for (let cut = 1; cut <= statement.length; cut++) {
        const own = statement.slice(0, cut);
        const alone = [probe.statement(own, 0, cut, scan), probe.header(own, 0, cut, scan)];
        if (alone[0] !== undefined || alone[1] !== undefined) answered++;
        for (const tail of tails) {
          const doc = `x\n${own}${tail}`;
          assert.deepStrictEqual(
            [probe.statement(doc, 2, 2 + cut, scan), probe.header(doc, 2, 2 + cut, scan)],
            alone,
            `${JSON.stringify(own)} + ${JSON.stringify(tail)}`,
          );
        }
      }
    }
    assert.ok(answered >= statements.length, `the lean pass answered for ${answered} cuts`);
  });

  it('finds the result shape after `[ROOT] %name =` and leaves headers to the full analysis', () => {
    const at = (s: string) => resultShapeStart(s, 0, s.length);
    assert.equal(at('  %a.1 = f32[2]{0} add(%x, %y)'), 9);
    assert.equal(at('ROOT %a = (f32[2], s32[]) tuple()'), 10);
    assert.equal(at('ROOT a = f32[] constant(1)'), 9);
    assert.equal(at('x = f32[] constant(1)'), 4);
    assert.equal(at('ENTRY %e (p: f32[2]) -> f32[2] {'), -1);
    assert.equal(at('HloModule m, entry_computation_layout={()->f32[]}'), -1);
    assert.equal(at('%a = /* c */ f32[2] copy(%x)'), -1);
    assert.equal(at('ROOT = f32[2] copy(%x)'), -1);
    assert.equal(at('}'), -1);
  });
});
