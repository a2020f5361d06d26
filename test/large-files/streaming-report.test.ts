/**
 * Core's streaming reporters (core/src/report): fed in chunks cut anywhere, they must give exactly
 * what the whole text gives — the statements, the padding rows and totals (exact bigint bytes),
 * the diagnostics with their lines and columns — while keeping only the worst N rows.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { lastStatementBoundary, splitStatements } from '../../core/src/hlo';
import { scanShapes } from '../../core/src/parse';
import {
  CheckStream,
  PaddingReporter,
  paddingReportOf,
  StatementStream,
  type LocatedDiagnostic,
  type PaddingReport,
} from '../../core/src/report';
import { createShapeChecker } from '../../core/src/validate';
import { CORPUS_HLO_DIR } from '../support/corpus';

const ROOT = join(__dirname, '..', '..');
const example = (name: string): string => readFileSync(join(ROOT, 'examples', name), 'utf8');
const CORPUS = CORPUS_HLO_DIR;
const CORPUS_TEXTS = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.hlo'))
  .map((f) => readFileSync(join(CORPUS, f), 'utf8'));

/** Every kind of boundary trouble in one small dump: CRLF, non-ASCII, multi-line statements, errors. */
const MIXED = [
  example('tpu_padding.hlo'),
  example('invalid_layouts.hlo'),
  'HloModule extra\r',
  '// naïve comment with é and 🙂 before shapes\r',
  'ENTRY %e (p: f32[3,129]) -> f32[3,129] {\r',
  '  %m = (f32[2]{0},',
  '        s32[]) custom-call(f32[2]{0} %a.1),',
  '        custom_call_target="x"',
  '  /* 🙂 */ %odd = f32[3,129]{1,0:T(8,128)} parameter(0)',
  '  %bad = f32[2,2]{0,0} copy(%odd)',
  '}',
].join('\n');

function pieces(text: string, cuts: readonly number[]): string[] {
  const sorted = [...new Set(cuts.map((c) => Math.min(text.length, c)))].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const c of sorted) {
    out.push(text.slice(at, c));
    at = c;
  }
  out.push(text.slice(at));
  return out;
}

function report(chunks: readonly string[], top = 0): PaddingReport {
  const r = new PaddingReporter({ top });
  for (const c of chunks) r.write(c);
  return r.end();
}

function check(chunks: readonly string[]): {
  diagnostics: LocatedDiagnostic[];
  counts: ReturnType<CheckStream['end']>;
} {
  const diagnostics: LocatedDiagnostic[] = [];
  const s = new CheckStream((d) => diagnostics.push(d));
  for (const c of chunks) s.write(c);
  return { diagnostics, counts: s.end() };
}

function statements(chunks: readonly string[]): { start: number; end: number; line: number }[] {
  const out: { start: number; end: number; line: number }[] = [];
  const s = new StatementStream((_text, ranges, base, lines) => {
    for (const r of ranges)
      out.push({ start: base + r.start, end: base + r.end, line: lines.at(r.start).line });
  });
  for (const c of chunks) s.write(c);
  s.end();
  return out;
}

/** Line (1-based) of an offset, the slow obvious way. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

describe('large files: streaming statements, padding report and check in core', function () {
  this.timeout(120_000);

  it('splits into exactly the statements of the whole text, with their lines, wherever the chunks are cut', () => {
    const whole = splitStatements(MIXED).map((r) => ({ ...r, line: lineOf(MIXED, r.start) }));
    assert.equal(whole.length > 40, true);
    for (let cut = 0; cut <= MIXED.length; cut++)
      assert.deepEqual(statements([MIXED.slice(0, cut), MIXED.slice(cut)]), whole, `cut at ${cut}`);
    assert.deepEqual(statements([...MIXED]), whole, 'one UTF-16 unit per chunk');
  });

  it("carries a header over blank lines to its body's `{`, wherever the chunks are cut", () => {
    const text =
      'HloModule m\n\nENTRY %e (a: f32[2]) -> f32[2]\n\n\n{\n  ROOT %a = f32[2]{0} parameter(0)\n}\n';
    const whole = splitStatements(text).map((r) => ({ ...r, line: lineOf(text, r.start) }));
    for (let cut = 0; cut <= text.length; cut++)
      assert.deepEqual(statements([text.slice(0, cut), text.slice(cut)]), whole, `cut at ${cut}`);
  });

  it("writeComplete at the last statement boundary before any cut gives the whole text's statements and check", () => {
    const whole = splitStatements(MIXED).map((r) => ({ ...r, line: lineOf(MIXED, r.start) }));
    const checkWhole = check([MIXED]);
    let tried = 0;
    for (let cut = 1; cut <= MIXED.length; cut++) {
      // What check-worker.ts does with each read: complete statements up to the boundary, the rest later.
      const b = lastStatementBoundary(MIXED.slice(0, cut));
      if (b <= 0) continue;
      tried++;
      const got: { start: number; end: number; line: number }[] = [];
      const s = new StatementStream((_text, ranges, base, lines) => {
        for (const r of ranges)
          got.push({ start: base + r.start, end: base + r.end, line: lines.at(r.start).line });
      });
      s.writeComplete(MIXED.slice(0, b));
      s.write(MIXED.slice(b));
      s.end();
      assert.deepEqual(got, whole, `boundary ${b} before cut ${cut}`);
      const diagnostics: LocatedDiagnostic[] = [];
      const c = new CheckStream((d) => diagnostics.push(d));
      c.writeComplete(MIXED.slice(0, b));
      c.write(MIXED.slice(b));
      assert.deepEqual({ diagnostics, counts: c.end() }, checkWhole, `check, boundary ${b}`);
    }
    assert.ok(tried > 1000, `only ${tried} boundaries`);
  });

  it('gives the same padding report and check for a cut at every offset of a small dump', () => {
    const reportWhole = report([MIXED]);
    const checkWhole = check([MIXED]);
    for (let cut = 0; cut <= MIXED.length; cut++) {
      const chunks = [MIXED.slice(0, cut), MIXED.slice(cut)];
      assert.deepEqual(report(chunks), reportWhole, `report, cut at ${cut}`);
      assert.deepEqual(check(chunks), checkWhole, `check, cut at ${cut}`);
    }
    assert.deepEqual(report([...MIXED]), reportWhole);
    assert.deepEqual(check([...MIXED]), checkWhole);
  });

  it('keeps only the instructions of one source line, in their computations, as the full report has them', () => {
    const text = [
      'HloModule src',
      '',
      '%fused (p: f32[8,4]) -> f32[8,4] {',
      '  %p = f32[8,4]{1,0:T(8,128)} parameter(0)',
      '  ROOT %r = f32[8,4]{1,0:T(8,128)} negate(%p), metadata={op_name="a" source_file="/build/proj/model/layers.py" source_line=4}',
      '}',
      '',
      'ENTRY %main (x: f32[8,4]) -> f32[8,4] {',
      '  %x = f32[8,4]{1,0:T(8,128)} parameter(0)',
      '  %y = f32[16,4]{1,0:T(8,128)} add(%x, %x), metadata={source_file="/build/proj/model/layers.py" source_line=40}',
      '  %z = f32[32,4]{1,0:T(8,128)} add(%x, %x), metadata={source_file="/build/other/layers.py" source_line=4}',
      '  %w = f32[64,4]{1,0:T(8,128)} add(%x, %x), metadata={source_file="/build/proj/model/train.py" source_line=4}',
      '  ROOT %f = f32[8,4]{1,0:T(8,128)} fusion(%x), kind=kLoop, calls=%fused, metadata={source_file="proj/model/layers.py" source_line=4}',
      '}',
      '',
    ].join('\n');
    const from = { path: '/home/me/proj/model/layers.py', line: 4 };
    const whole = new PaddingReporter({ top: 0, from });
    whole.write(text);
    const got = whole.end();
    // layers.py:4 of any folder, with how much of the path agrees; not line 40, not train.py.
    assert.deepEqual(
      got.rows.map((r) => [r.name, r.computation, r.source, r.sourceMatch]),
      [
        ['z', 'main', 'layers.py:4', 1],
        ['r', 'fused', 'layers.py:4', 3],
        ['f', 'main', 'layers.py:4', 3],
      ],
    );
    // The same rows as the full report's (less the match count), and totals over them alone.
    const full = paddingReportOf(text, { top: 0 }).rows.filter((r) => r.source === 'layers.py:4');
    assert.deepEqual(
      got.rows.map(({ sourceMatch: _m, ...r }) => r),
      full,
    );
    assert.equal(got.totals.buffers, 3);
    assert.equal(
      got.totals.logicalBytes,
      full.reduce((n, r) => n + r.logicalBytes, 0n),
    );
    // Whole file: line 40 too. Cut anywhere: the same.
    const file = new PaddingReporter({ top: 0, from: { path: from.path } });
    file.write(text);
    assert.deepEqual(
      file
        .end()
        .rows.map((r) => r.name)
        .sort(),
      ['f', 'r', 'y', 'z'],
    );
    for (let cut = 0; cut <= text.length; cut += 7) {
      const r = new PaddingReporter({ top: 0, from });
      r.write(text.slice(0, cut));
      r.write(text.slice(cut));
      assert.deepEqual(r.end(), got, `cut at ${cut}`);
    }
  });

  it('reports the TPU example with exact totals and rows at their lines and columns', () => {
    const r = paddingReportOf(example('tpu_padding.hlo'), { top: 3 });
    assert.deepEqual(r.totals, {
      buffers: 9,
      skipped: 0,
      logicalBytes: 1159172n,
      physicalBytes: 4755460n,
      expansion: 4.102462,
    });
    assert.deepEqual(
      r.rows.map((x) => [x.name, x.computation, x.logicalBytes, x.physicalBytes, x.expansion, x.start.line]),
      [
        ['Arg_1.2', 'main.10', 8192n, 1048576n, 128, 16],
        ['copy-start.5', 'main.10', 32772n, 1048580n, 31.996216, 20],
        ['param_0.1', 'fused_broadcast', 16384n, 524288n, 32, 9],
      ],
    );
    const text = example('tpu_padding.hlo');
    const first = r.rows[0];
    assert.equal(first.shape, 'bf16[4096,1]{1,0:T(8,128)(2,1)}');
    assert.equal(text.slice(first.range.start, first.range.end), first.shape);
    const line = text.split('\n')[first.start.line - 1];
    assert.equal(line.slice(first.start.column - 1, first.end.column - 1), first.shape);
    assert.equal(first.end.line, first.start.line);
    // Rows carry the source line their metadata names (file name and line).
    const sources = paddingReportOf(text, { top: 0 })
      .rows.filter((x) => x.source !== undefined)
      .map((x) => [x.name, x.source]);
    assert.deepEqual(sources, [
      ['transpose.4', 'embed.py:37'],
      ['broadcast.2', 'embed.py:41'],
      ['fusion.7', 'embed.py:41'],
    ]);
  });

  it('sums past 2^53 exactly and counts UTF-16 columns after non-ASCII text', () => {
    const text = [
      'ENTRY %e {',
      '  %huge = f32[1073741824,1073741824]{1,0:T(8,128)} parameter(0)',
      '  %wide = f32[1073741824,1073741825]{1,0:T(8,128)} parameter(1)',
      '  /* é🙂 */ %odd = f32[3,129]{1,0:T(8,128)} parameter(2)',
      '  %tok = token[] after-all()',
      '  %bad = f32[2,2]{0,0} parameter(3)',
      '}',
    ].join('\r\n');
    const r = paddingReportOf(text);
    // huge: 2^60 elements of 4 bytes = 2^62, unpadded. wide: 2^30 x (2^30+1) pads the minor
    // dimension to 2^30+128: 2^62+2^32 → 2^62+2^39. odd: (3,129) pads to (8,256): 1548 → 8192.
    // The sums pass 2^63, so only bigint arithmetic gets them right.
    const logical = 2n ** 63n + 2n ** 32n + 1548n;
    const physical = 2n ** 63n + 2n ** 39n + 8192n;
    assert.deepEqual(r.totals, {
      buffers: 4,
      skipped: 1,
      logicalBytes: logical,
      physicalBytes: physical,
      expansion: Number((physical * 1_000_000n) / logical) / 1_000_000,
    });
    assert.deepEqual(
      [String(r.totals.logicalBytes), String(r.totals.physicalBytes)],
      ['9223372041149744652', '9223372586610597888'],
    );
    assert.deepEqual(
      r.rows.map((x) => x.name),
      ['wide', 'odd', 'huge', 'tok'],
    );
    const odd = r.rows.find((x) => x.name === 'odd');
    assert.ok(odd);
    assert.deepEqual([odd.logicalBytes, odd.physicalBytes, odd.expansion], [1548n, 8192n, 5.291989]);
    // "  /* é🙂 */ %odd = " is 19 UTF-16 units (the emoji is two); lines end in CRLF.
    assert.deepEqual(
      [odd.start, odd.end],
      [
        { line: 4, column: 20 },
        { line: 4, column: 20 + 'f32[3,129]{1,0:T(8,128)}'.length },
      ],
    );
  });

  it('keeps only the worst N rows (padding, then expansion, then position) and exact totals for all', () => {
    const lines = ['ENTRY %e {'];
    for (let i = 0; i < 2000; i++) lines.push(`  %a.${i} = f32[${i + 1}]{0:T(128)} parameter(${i})`);
    lines.push('}');
    const text = lines.join('\n');
    let logical = 0n;
    let physical = 0n;
    for (let n = 1n; n <= 2000n; n++) {
      logical += 4n * n;
      physical += 4n * ((n + 127n) / 128n) * 128n;
    }
    const r = new PaddingReporter({ top: 3 });
    for (let at = 0; at < text.length; at += 4096) r.write(text.slice(at, at + 4096));
    const out = r.end();
    // 127 padding elements (508 bytes) at n = 1, 129, 257, …; n = 1 expands most (128x).
    assert.deepEqual(
      out.rows.map((x) => [x.name, x.physicalBytes - x.logicalBytes, x.expansion]),
      [
        ['a.0', 508n, 128],
        ['a.128', 508n, 1.984496],
        ['a.256', 508n, 1.494163],
      ],
    );
    assert.deepEqual(
      [out.totals.buffers, out.totals.logicalBytes, out.totals.physicalBytes],
      [2000, logical, physical],
    );
    assert.equal(paddingReportOf(text, { top: 0 }).rows.length, 2000);
  });

  it('checks the invalid example with lines, columns and counts', () => {
    const { diagnostics, counts } = check([example('invalid_layouts.hlo')]);
    assert.deepEqual(
      diagnostics.map((d) => [d.diagnostic.code, d.start.line, d.start.column, d.end.line, d.end.column]),
      [
        ['tile-negative', 9, 27, 9, 29],
        ['minor-to-major-duplicate', 10, 27, 10, 28],
        ['tile-empty', 11, 30, 11, 32],
        ['minor-to-major-out-of-bounds', 12, 30, 12, 31],
      ],
    );
    assert.deepEqual(counts, { shapes: 6, errors: 4, warnings: 0, other: 0 });
  });

  it('agrees with scanShapes + checker on corpus files cut into random chunks', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CORPUS_TEXTS, MIXED),
        fc.array(fc.nat(), { maxLength: 8 }),
        (text, cuts) => {
          const checker = createShapeChecker();
          const expected: { code: string; start: number; end: number; line: number }[] = [];
          let shapes = 0;
          for (const s of splitStatements(text)) {
            const found = scanShapes(text, s.start, s.end);
            shapes += found.length;
            const ds = found
              .flatMap((f) => checker.check(text, f))
              .sort((a, b) => a.range.start - b.range.start);
            for (const d of ds)
              expected.push({
                code: d.code,
                start: d.range.start,
                end: d.range.end,
                line: lineOf(text, d.range.start),
              });
          }
          const got = check(
            pieces(
              text,
              cuts.map((c) => c % (text.length + 1)),
            ),
          );
          const listed = (ds: typeof got.diagnostics, padding: boolean) =>
            ds
              .filter((d) => (d.diagnostic.code === 'padding-overhead') === padding)
              .map((d) => ({
                code: d.diagnostic.code,
                start: d.diagnostic.range.start,
                end: d.diagnostic.range.end,
                line: d.start.line,
              }));
          assert.deepEqual(listed(got.diagnostics, false), expected);
          // Padding warnings need the module's call graph, which the checker alone does not see:
          // however the text is cut, they are those of the whole text.
          assert.deepEqual(listed(got.diagnostics, true), listed(check([text]).diagnostics, true));
          assert.equal(got.counts.shapes, shapes);
        },
      ),
      { numRuns: 60 },
    );
  });
});
