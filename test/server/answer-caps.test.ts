/**
 * What one answer may hold, whatever the shape: XLA accepts a 500,000-dimension shape, thousands of
 * tile levels and tuples of thousands of bad arrays, and each used to turn into megabytes of hover,
 * analyzeShape JSON, diagnostics or inlay hints. Each answer is cut and says what it cut.
 */
import { strict as assert } from 'node:assert';
import type { Diagnostic, Hover, InlayHint, MarkupContent } from 'vscode-languageserver';
import { MAX_SHAPE_DIAGNOSTICS } from '../../core/src';
import type { AnalyzeShapeResult } from '../../protocol/src/lsp';
import { MAX_MARKDOWN_CHARS } from '../../protocol/src/markdown';
import { MAX_INLAY_HINTS } from '../../server/src/inlay-hints';
import { TestClient, positionOf } from './harness';

const module = (result: string) => `HloModule m\n\nENTRY e {\n  ROOT p0 = ${result} parameter(0)\n}\n`;

async function hoverText(client: TestClient, uri: string, text: string, at: string): Promise<string> {
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: { uri },
    position: positionOf(text, at),
  });
  return (h.contents as MarkupContent).value;
}

describe('server: answer caps', function () {
  this.timeout(120_000);

  it('a 200,000-dimension shape: a hover of its first dims and sizes, an analysis of its first 1,024 dims', async () => {
    const { client } = await TestClient.start();
    const text = module(`f32[${Array(200_000).fill(1).join(',')}]`);
    const uri = 'file:///w/rank.hlo';
    await client.open(uri, text);
    const hover = await hoverText(client, uri, text, 'f32[');
    assert.ok(hover.length < 8 * 1024, `${hover.length} characters`);
    assert.match(hover, /f32\\\[1, 1, .*, 1, … \(199,936 more\)\\\]/);
    assert.match(hover, /the shape has 200\\,000 dims\\, too many to lay out step by step/);
    assert.match(hover, /logical \(ByteSizeOf\) \| &nbsp;&nbsp;&nbsp;1 \| &nbsp;&nbsp;&nbsp;4 B/);
    const analysis = await client.request<AnalyzeShapeResult>('xlaLayout/analyzeShape', {
      textDocument: { uri },
      position: positionOf(text, 'f32['),
    });
    const [a] = analysis.analysis.arrays;
    assert.equal(a.dims.length, 1024);
    assert.equal(a.physicalOrder.length, 1024);
    assert.match(
      analysis.analysis.cut ?? '',
      /lists longer than 1,024 entries hold their first 1,024: dims \(200,000\)/,
    );
    assert.match(
      analysis.analysis.cut ?? '',
      /shape texts longer than 1,024 characters are quoted by their ends/,
    );
    // The shape's own text is quoted by its ends too; its range locates it whole.
    assert.deepEqual(analysis.textCut, { length: 400_004 });
    assert.equal(analysis.text.length, 1024);
    assert.match(analysis.text, /^f32\[1,1,.* … .*,1,1\]$/);
    assert.deepEqual(analysis.range, {
      start: positionOf(text, 'f32['),
      end: positionOf(text, ' parameter'),
    });
    assert.ok(JSON.stringify(analysis).length < 100_000, `${JSON.stringify(analysis).length} characters`);
    await client.dispose();
  });

  it('a tuple of 20,000 arrays: its text and its leaves quoted, the first 256 analysed', async () => {
    const { client } = await TestClient.start();
    const tuple = `(${Array(20_000).fill('f32[8,3]{1,0:T(8,128)}').join(', ')})`;
    const text = module(tuple);
    const uri = 'file:///w/tuple.hlo';
    await client.open(uri, text);
    const analysis = await client.request<AnalyzeShapeResult>('xlaLayout/analyzeShape', {
      textDocument: { uri },
      position: positionOf(text, '(f32['),
    });
    assert.deepEqual(analysis.textCut, { length: tuple.length });
    assert.equal(analysis.text.length, 1024);
    assert.equal(analysis.analysis.arrays.length, 256);
    assert.equal(analysis.analysis.arrays[0].text, 'f32[8,3]{1,0:T(8,128)}');
    assert.equal(analysis.analysis.arrays[0].textCut, undefined);
    assert.match(analysis.analysis.cut ?? '', /shape texts .* quoted by their ends; 19,744 more arrays/);
    // The whole answer was the 480 KB tuple text and more; the 256 arrays are what is left.
    assert.ok(JSON.stringify(analysis).length < 400_000, `${JSON.stringify(analysis).length} characters`);
    await client.dispose();
  });

  it('a layout of 3,000 tile levels: a short hover naming the limit, with the sizes', async () => {
    const { client } = await TestClient.start();
    const text = module(`f32[30,50]{1,0:T(8,128)${'(1)'.repeat(3_000)}}`);
    const uri = 'file:///w/levels.hlo';
    await client.open(uri, text);
    const hover = await hoverText(client, uri, text, 'f32[');
    assert.ok(hover.length <= MAX_MARKDOWN_CHARS, `${hover.length} characters`);
    assert.match(hover, /3\\,001 tile levels over up to 3\\,004 dims\\, too many to lay out step by step/);
    assert.match(
      hover,
      /physical \(all tiles\) \| &nbsp;&nbsp;&nbsp;4\\?,096 \| &nbsp;&nbsp;&nbsp;16\\?,384 B/,
    );
    await client.dispose();
  });

  it('at most MAX_SHAPE_DIAGNOSTICS per shape, on open and after edits, the last counting the rest', async () => {
    const { client } = await TestClient.start();
    const bad = `f32[${Array(20_000).fill(-1).join(',')}]`;
    const tuple = `(${Array(5_000).fill('f32[2]{5}').join(', ')})`;
    const text = `HloModule m\n\nENTRY e {\n  p0 = ${bad} parameter(0)\n  ROOT p1 = ${tuple} parameter(1)\n}\n`;
    const uri = 'file:///w/many.hlo';
    const check = (d: Diagnostic[]) => {
      const rank = d.filter((x) => x.code === 'invalid-dimension-size');
      const order = d.filter((x) => x.code === 'minor-to-major-out-of-bounds');
      assert.equal(rank.length, MAX_SHAPE_DIAGNOSTICS);
      assert.equal(order.length, MAX_SHAPE_DIAGNOSTICS);
      assert.match(
        rank[rank.length - 1].message,
        /\(19,900 more problems in this shape not listed: at most 100 are\)$/,
      );
      assert.match(order[order.length - 1].message, /\(4,900 more problems in this shape not listed/);
      for (const x of d) assert.ok(x.message.length < 500, `${x.message.length} characters`);
    };
    check(await client.open(uri, text));
    // An edit elsewhere: the tuple comes from the cache of its arrays, and must be cut the same.
    check(
      await client.change(uri, [
        { range: { start: { line: 0, character: 10 }, end: { line: 0, character: 11 } }, text: 'n' },
      ]),
    );
    await client.dispose();
  });

  it('at most diagnostics.maxWarnings warnings per file, every error, and one note counting the rest', async () => {
    const { client } = await TestClient.start({
      diagnostics: { maxWarnings: 25 },
      padding: { warnMinWastedBytes: 0 },
    });
    // 40 padded arrays (a padding-overhead warning each) and 3 errors, the last error past them all.
    const lines = Array.from({ length: 40 }, (_, i) => `  p${i} = f32[8,4]{1,0:T(8,128)} parameter(${i})`);
    lines.splice(5, 0, '  e0 = f32[2]{5} parameter(90)', '  e1 = f32[2]{5} parameter(91)');
    lines.push('  e2 = f32[2]{5} parameter(92)', '  ROOT r = f32[] constant(0)');
    const text = `HloModule m\n\nENTRY e {\n${lines.join('\n')}\n}\n`;
    const uri = 'file:///w/warnings.hlo';
    // Every error, as a server without the cap publishes them.
    const uncapped = await TestClient.start({ padding: { warnMinWastedBytes: 0 } });
    const all = await uncapped.client.open(uri, text);
    await uncapped.client.dispose();
    const errorsOf = (d: Diagnostic[]) => d.filter((x) => x.severity === 1);
    assert.equal(all.filter((x) => x.code === 'padding-overhead').length, 40);
    assert.ok(
      errorsOf(all).some(
        (x) => x.range.start.line === text.split('\n').findIndex((l) => l.startsWith('  e2 ')),
      ),
    );
    const check = (d: Diagnostic[]) => {
      const warnings = d.filter((x) => x.code === 'padding-overhead');
      const notes = d.filter((x) => /more warnings? and notes in this file are not listed/.test(x.message));
      assert.deepEqual(errorsOf(d), errorsOf(all));
      assert.equal(warnings.length, 25);
      assert.equal(notes.length, 1);
      assert.match(
        notes[0].message,
        /^15 more warnings and notes .* at most 25 are \(setting xlaLayout\.diagnostics\.maxWarnings\)/,
      );
      // It sits on the first warning left out: the 26th padded array, p25.
      assert.equal(
        notes[0].range.start.line,
        text.split('\n').findIndex((l) => l.startsWith('  p25 ')),
      );
    };
    check(await client.open(uri, text));
    check(
      await client.change(uri, [
        { range: { start: { line: 0, character: 10 }, end: { line: 0, character: 11 } }, text: 'n' },
      ]),
    );
    await client.dispose();
  });

  it(`at most MAX_INLAY_HINTS hints per request, the last saying more follow`, async () => {
    const { client } = await TestClient.start({ inlayHints: { mode: 'on' } });
    // One padded array a line: a line of many gets one hint (inlay-hints.ts), 3,000 lines 3,000.
    const lines = Array.from({ length: 3_000 }, (_, i) => `  p${i} = f32[2,2]{1,0:T(8,128)} parameter(${i})`);
    const text = `HloModule m\n\nENTRY e {\n${lines.join('\n')}\n  ROOT r = f32[] constant(0)\n}\n`;
    const uri = 'file:///w/hints.hlo';
    await client.open(uri, text);
    const hints = await client.request<InlayHint[]>('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3_010, character: 0 } },
    });
    assert.equal(hints.length, MAX_INLAY_HINTS);
    const tooltip = hints[hints.length - 1].tooltip;
    assert.equal(typeof tooltip, 'string');
    assert.match(tooltip as string, /More padded arrays follow in view without hints: at most 1,000/);
    await client.dispose();
  });

  it('a line of 3,000 padded arrays: one hint, its tooltip listing the first 16', async () => {
    const { client } = await TestClient.start({ inlayHints: { mode: 'on' } });
    const text = module(`(${Array(3_000).fill('f32[2,2]{1,0:T(8,128)}').join(', ')})`);
    const uri = 'file:///w/line.hlo';
    await client.open(uri, text);
    const hints = await client.request<InlayHint[]>('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } },
    });
    assert.deepEqual(
      hints.map((h) => h.label),
      ['3,000 arrays pad, up to 256x'],
    );
    const tooltip = hints[0].tooltip as string;
    assert.equal(tooltip.split('\n').length, 17);
    assert.match(tooltip, /^1\. 16 B → 4 KiB \(256x\): 16 bytes logical, 4,096 bytes physical/);
    assert.match(tooltip, /\n… and 2,984 more$/);
    await client.dispose();
  });
});
