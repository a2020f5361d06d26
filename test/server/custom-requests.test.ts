/** xlaLayout/analyzeShape and xlaLayout/paddingReport over the real protocol. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnalyzeShapeRequest, PaddingReportRequest } from '../../protocol/src/lsp';
import { positionOf, TestClient, textOf } from './harness';

const parts = readFileSync(join(__dirname, 'fixtures', 'parts.hlo'), 'utf8');
const padded = readFileSync(join(__dirname, 'fixtures', 'padded.after_optimizations.hlo'), 'utf8');

describe('server: custom requests', () => {
  let client: TestClient;
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open('file:///w/parts.hlo', parts);
    await client.open('file:///w/padded.after_optimizations.hlo', padded);
  });
  after(async () => {
    await client.dispose();
  });
  const analyze = (needle: string, delta = 0) =>
    client.request(AnalyzeShapeRequest, {
      textDocument: { uri: 'file:///w/parts.hlo' },
      position: positionOf(parts, needle, delta),
    });

  it('analyzeShape returns the full JSON-safe analysis of the shape at a position', async () => {
    const r = await analyze('f32[4,8]{1,0:T(2,4)(2,1)} parameter', 3);
    assert.ok(r);
    assert.equal(r.text, 'f32[4,8]{1,0:T(2,4)(2,1)}');
    assert.equal(textOf(parts, r.range), r.text);
    assert.equal(r.owner, 'y');
    assert.equal(r.analysis.hasErrors, false);
    const a = r.analysis.arrays[0];
    assert.deepEqual(a.tiles, ['(2,4)', '(2,1)']);
    assert.deepEqual(a.expandedShape, ['2', '2', '1', '4', '2', '1']);
    assert.deepEqual(
      a.steps.map((s) => [s.tile, s.padded, s.output]),
      [
        ['(2,4)', ['4', '8'], ['2', '2', '2', '4']],
        ['(2,1)', ['2', '2', '2', '4'], ['2', '2', '1', '4', '2', '1']],
      ],
    );
    assert.deepEqual(a.sizes, {
      logicalElements: '32',
      logicalBytes: '128',
      physicalElements: '32',
      physicalBytes: '128',
      arraySizeBytes: '128',
      elementSizeBits: 32,
      expansion: { numerator: '1', denominator: '1', value: 1 },
      overhead: { numerator: '0', denominator: '1', value: 0 },
    });
    assert.deepEqual(
      a.dims.map((d) => [d.dim, d.size]),
      [
        [0, '4'],
        [1, '8'],
      ],
    );
    // JSON-safe: it survived the wire, so no bigint anywhere.
    assert.equal(JSON.stringify(r).includes('"n"'), false);
  });

  it('on an instruction name, analyses its result; nothing elsewhere', async () => {
    const r = await analyze('%fig1 =', 2);
    assert.equal(r?.text, 'f32[3,5]{1,0:T(2,2)}');
    assert.equal(r?.owner, 'fig1');
    assert.deepEqual(
      r?.analysis.arrays[0].padding.map((p) => [p.dim, p.factor.numerator, p.factor.denominator]),
      [
        [0, '4', '3'],
        [1, '6', '5'],
      ],
    );
    assert.equal(await analyze('HloModule'), null);
  });

  it('reports exact sizes past 2^53 as decimal strings', async () => {
    const text =
      'HloModule m\nENTRY %e () -> f32[1099511627776,1048576] {\n  ROOT %c = f32[1099511627776,1048576]{1,0} constant({...})\n}\n';
    await client.open('file:///w/huge.hlo', text);
    const r = await client.request(AnalyzeShapeRequest, {
      textDocument: { uri: 'file:///w/huge.hlo' },
      position: positionOf(text, 'f32[1099511627776,1048576]{'),
    });
    assert.ok(r);
    assert.equal(r.analysis.arrays[0].sizes?.logicalBytes, String(2n ** 40n * 2n ** 20n * 4n));
  });

  it('paddingReport lists the instructions, most padding first, with totals', async () => {
    const r = await client.request(PaddingReportRequest, {
      textDocument: { uri: 'file:///w/padded.after_optimizations.hlo' },
    });
    assert.ok(r);
    assert.deepEqual(
      r.rows.map((x) => [x.computation, x.name, x.logicalBytes, x.physicalBytes, x.expansion]),
      [
        ['fused_add', 'p0', '1048576', '33554432', 32],
        ['fused_add', 'p1', '1048576', '33554432', 32],
        ['fused_add', 'add.1', '1048576', '33554432', 32],
        ['main', 'Arg_0', '1048576', '33554432', 32],
        ['main', 'fusion', '1048576', '33554432', 32],
        ['main', 'copy', '1048576', '33554432', 32],
        ['main', 'small', '60', '96', 1.6],
        ['main', 'Arg_1', '4096', '4096', 1],
      ],
    );
    assert.equal(r.totalRows, 8);
    assert.equal(r.totalLogicalBytes, String(6 * 1048576 + 60 + 4096));
    assert.equal(r.totalPhysicalBytes, String(6 * 33554432 + 96 + 4096));
    assert.equal(textOf(padded, r.rows[6].range), 'f32[3,5]{1,0:T(2,2)}');
    // Rows name their source line where the metadata has one.
    assert.deepEqual(
      r.rows.filter((x) => x.source !== undefined).map((x) => [x.name, x.source]),
      [['Arg_0', 'train.py:12']],
    );
  });

  it('paddingReport answers the maxRows worst rows (default 100, at most 1024), totals over all', async function () {
    this.timeout(60_000);
    // Instruction i wastes (i % 97) * 512 bytes: f32[8,i%97]{1,0:T(8,128)} pads i%97 columns to 128.
    const n = 1500;
    const lines = ['HloModule many', '', 'ENTRY %main () -> f32[] {'];
    for (let i = 0; i < n; i++) lines.push(`  %i${i} = f32[8,${(i % 97) + 1}]{1,0:T(8,128)} parameter(${i})`);
    lines.push('  ROOT %c = f32[] constant(0)', '}', '');
    const uri = 'file:///w/many-rows.hlo';
    await client.open(uri, lines.join('\n'));
    const ask = (maxRows?: number) =>
      client.request(PaddingReportRequest, {
        textDocument: { uri },
        ...(maxRows === undefined ? {} : { maxRows }),
      });
    const all = await ask(1e9);
    assert.ok(all);
    assert.equal(all.rows.length, 1024);
    assert.equal(all.totalRows, n + 1);
    let logical = 0n;
    let physical = 0n;
    for (let i = 0; i < n; i++) {
      logical += BigInt(8 * ((i % 97) + 1) * 4);
      physical += 8n * 128n * 4n;
    }
    assert.equal(all.totalLogicalBytes, String(logical + 4n));
    assert.equal(all.totalPhysicalBytes, String(physical + 4n));
    const wasted = (r: { logicalBytes: string; physicalBytes: string }) =>
      BigInt(r.physicalBytes) - BigInt(r.logicalBytes);
    for (let k = 1; k < all.rows.length; k++) assert.ok(wasted(all.rows[k - 1]) >= wasted(all.rows[k]));
    // The worst: the 16 instructions with one column of 128 (i % 97 === 0) waste 127 * 32 bytes each.
    assert.equal(wasted(all.rows[0]), 127n * 32n);
    const byDefault = await ask();
    assert.deepEqual(byDefault?.rows, all.rows.slice(0, 100));
    assert.equal(byDefault?.totalRows, n + 1);
    assert.deepEqual((await ask(3))?.rows, all.rows.slice(0, 3));
    assert.deepEqual((await ask(-5))?.rows, all.rows.slice(0, 1));
  });
});
