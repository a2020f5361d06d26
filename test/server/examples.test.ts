/**
 * Every example in examples/ shows, with the default settings, what its comments say it shows:
 * tpu_padding.hlo warns about the buffers that pad 32x and 128x; invalid_layouts.hlo has an error
 * with a quick fix on each line its header names; seed_figures.hlo draws Figure 1's memory map;
 * subbyte_memory_spaces.hlo answers with the packing and the memory spaces; the after-optimizations
 * dump hints the buffers that pad 128x and not its scalars.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeAction, Hover, InlayHint, MarkupContent } from 'vscode-languageserver';
import { positionOf, TestClient } from './harness';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const read = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
const everything = { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } };

describe('examples/ show what they claim', () => {
  let client: TestClient;
  beforeEach(async () => {
    ({ client } = await TestClient.start());
  });
  afterEach(async () => {
    await client.dispose();
  });
  const hoverAt = async (uri: string, text: string, needle: string, delta: number) =>
    (
      (
        await client.request<Hover>('textDocument/hover', {
          textDocument: { uri },
          position: positionOf(text, needle, delta),
          verbosity: 0,
        })
      ).contents as MarkupContent
    ).value;

  it('tpu_padding.hlo warns where it pads badly: 32x and 128x', async () => {
    const text = read('tpu_padding.hlo');
    const diags = await client.open('file:///w/tpu_padding.hlo', text);
    const lines = text.split('\n');
    // Every f32[1024,4] buffer (16 KiB in 512 KiB) and the bf16[4096,1] (8 KiB in 1 MiB), once
    // each: not the fusion's parameter (%Arg_0.1's buffer), nor %copy-start.5's {1} (%Arg_0.1
    // again) or %copy-done.6 (%copy-start.5's {0}). The transpose, f32[4,1024], pads 2x.
    assert.deepEqual(
      diags.map((d) => [d.code, lines[d.range.start.line].trim().split(' ')[0], d.range.start.character]),
      [
        ['padding-overhead', '%Arg_0.1', 24],
        ['padding-overhead', '%Arg_1.2', 25],
        ['padding-overhead', '%copy-start.5', 30],
      ],
    );
    assert.match(diags[1].message, /128x its size: 8 KiB logical → 1 MiB physical/);
  });

  it('invalid_layouts.hlo has an error with a quick fix on each line its header names', async () => {
    const text = read('invalid_layouts.hlo');
    const uri = 'file:///w/invalid_layouts.hlo';
    const diags = await client.open(uri, text);
    const named = [...text.matchAll(/^\/\/ {3}line (\d+):/gm)].map((m) => Number(m[1]));
    assert.deepEqual(
      diags.map((d) => d.range.start.line + 1),
      named,
    );
    for (const d of diags) {
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: d.range,
        context: { diagnostics: [d], only: ['quickfix'] },
      });
      assert.equal(actions.length, 1, `a quick fix for ${String(d.code)} on line ${d.range.start.line + 1}`);
      assert.equal(actions[0].isPreferred, true);
    }
  });

  it("seed_figures.hlo draws Figure 1's memory map: element (2,3) at linear index 17", async () => {
    const text = read('seed_figures.hlo');
    const uri = 'file:///w/seed_figures.hlo';
    await client.open(uri, text);
    const h = await client.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(text, '%figure1 = f32', 12),
    });
    const value = (h.contents as MarkupContent).value.replace(/&nbsp;/g, '');
    assert.match(value, /\n\| 2 \| 12 \| 13 \| 16 \| 17 \| 20 \|/);
    assert.match(value, /\| physical \(all tiles\) \| 24 \|/);
  });

  it('subbyte_memory_spaces.hlo answers with the packing and the memory spaces', async () => {
    const text = read('subbyte_memory_spaces.hlo');
    const uri = 'file:///w/subbyte_memory_spaces.hlo';
    await client.open(uri, text);
    assert.match(
      await hoverAt(uri, text, '%prefetch.w = s4', 16),
      /^\*\*2 MiB\*\* \(4,194,304 × s4, 2 per byte\), no padding[\s\S]*\*\*Memory space\*\* S\(1\): generic fast/,
    );
    assert.match(await hoverAt(uri, text, '%bias = f32', 9), /\*\*Memory space\*\* S\(5\): host memory/);
    assert.match(await hoverAt(uri, text, '%flag = u32', 8), /\*\*Memory space\*\* S\(2\): backend-specific/);
  });

  it('the after-optimizations dump hints the 128x buffers, not its scalars', async () => {
    const text = read('module_0001.jit_train_step.after_optimizations.txt');
    const uri = 'file:///w/module_0001.jit_train_step.after_optimizations.txt';
    await client.open(uri, text);
    const hints = await client.request<InlayHint[]>('textDocument/inlayHint', {
      textDocument: { uri },
      range: everything,
    });
    assert.deepEqual(
      hints.map((h) => h.label),
      ['256 B → 32 KiB (128x)', '256 B → 32 KiB (128x)', '256 B → 32 KiB (128x)'],
    );
  });
});
