/** Hovers over the real protocol: shapes, layout parts, names, escaping and the visualizer link. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { positionOf, TestClient, textOf } from './harness';

const parts = readFileSync(join(__dirname, 'fixtures', 'parts.hlo'), 'utf8');
const padded = readFileSync(join(__dirname, 'fixtures', 'padded.after_optimizations.hlo'), 'utf8');

describe('server: hover', () => {
  let client: TestClient;
  const uri = 'file:///w/parts.hlo';
  const hoverAt = async (text: string, u: string, needle: string, delta = 0, occurrence = 0) => {
    const h = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: u },
      position: positionOf(text, needle, delta, occurrence),
    });
    assert.ok(h, `no hover at ${needle}`);
    // Table cells start with &nbsp; only to look spaced out in VS Code; assert on the values.
    const value = (h.contents as MarkupContent).value.replace(/&nbsp;/g, '');
    return { value, covered: h.range ? textOf(text, h.range) : '' };
  };
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(uri, parts);
    await client.open('file:///w/padded.after_optimizations.hlo', padded);
  });
  after(async () => {
    await client.dispose();
  });

  it('explains Figure 1 with its exact memory map, sizes and padding', async () => {
    const { value, covered } = await hoverAt(parts, uri, 'f32[3,5]{1,0:T(2,2)} constant');
    assert.equal(covered, 'f32[3,5]{1,0:T(2,2)}');
    assert.match(
      value,
      /^\*\*60 B → 96 B \(1\.6x\)\*\* · dim 0 \(size 3\) pads to 4, dim 1 \(size 5\) to 6 · \[Open Visualizer\]/,
    );
    assert.match(value, /\n\n---\n\nResult of `%fig1` · f32\\\[3, 5\\\], 32-bit elements\n/);
    assert.match(value, /\*\*Physical order\*\* \(major → minor\): dim 0: 3 → dim 1: 5/);
    // Dimensions by number, as XLA and the padding lines name them: no letters of our own (y, x).
    assert.match(value, /\| dim 0 \\\\ dim 1 \| 0 \| 1 \|/);
    assert.doesNotMatch(value, /\b[pzyx]=|\((?:[pzyx]|[pzyx], [^)]*)\)/);
    assert.match(value, /pad → \\\[4, 6\\\]; reshape → \\\[2, 2, 3, 2\\\]; transpose → \\\[2, 3, 2, 2\\\]/);
    assert.match(value, /\| logical \(ByteSizeOf\) \| 15 \| 60 B \|/);
    assert.match(value, /\| physical \(all tiles\) \| 24 \| 96 B \|/);
    assert.match(value, /Expansion \*\*1\.6x\*\* \(96 \/ 60\)\./);
    // spec §4.3 Figure 1, row by row.
    assert.match(
      value,
      /\| 0 \| 0 \| 1 \| 4 \| 5 \| 8 \|\n\| 1 \| 2 \| 3 \| 6 \| 7 \| 10 \|\n\| 2 \| 12 \| 13 \| 16 \| 17 \| 20 \|/,
    );
  });

  it('names the padding dimension, the fix and both sizes for a 32x buffer', async () => {
    const { value } = await hoverAt(
      padded,
      'file:///w/padded.after_optimizations.hlo',
      'f32[65536,4]{1,0:T(8,128)} copy',
    );
    assert.match(value, /\| physical \(all tiles\) \| 8,388,608 \| 33,554,432 B \(32 MiB\) \|/);
    assert.match(value, /Expansion \*\*32x\*\* \(33,554,432 \/ 1,048,576\)\./);
    // The answer first: sizes, the padded dimension and the fix, then the link.
    assert.match(
      value,
      /^\*\*1 MiB → 32 MiB \(32x\)\*\* · dim 1 \(size 4\) pads to 128 · fix: `\{0,1\}` → 2 MiB · \[Open Visualizer\]/,
    );
    assert.match(
      value,
      /\*\*Padding\*\* \(96\.9% of the memory\)\n- dim 1 \(size 4, minor-most\): T\\\(8\\,128\\\) pads 4 to 128 — 32x\n/,
    );
    assert.match(value, /- \*\*Fix:\*\* use minor\\_to\\_major \\\{0\\,1\\\}.*→ 2 MiB, saves 30 MiB\n/);
    assert.doesNotMatch(value, /Memory map/, 'too large for the default 64 cells');
  });

  it('shows ArraySize next to the physical size when a later tile does not divide', async () => {
    const text =
      'HloModule m\nENTRY %e () -> f32[4,6] {\n  ROOT %c = f32[4,6]{1,0:T(3,4)(2,1)} constant({...})\n}\n';
    await client.open('file:///w/nd.hlo', text);
    const { value } = await hoverAt(text, 'file:///w/nd.hlo', 'f32[4,6]{');
    assert.match(value, /\| physical \(all tiles\) \| 64 \| 256 B \|/);
    assert.match(value, /\| XLA ArraySize \(first tile\) \| {2}\| 192 B \|/);
  });

  it('explains one tile entry, a tile, S(n), E(n) and L(n)', async () => {
    let h = await hoverAt(parts, uri, 'T(2,2)} constant', 4);
    assert.equal(h.covered, '2');
    assert.equal(
      h.value,
      '**2** — entry 2 of tile 1: tiles dim 1 (size 5) in blocks of 2; pads 5 up to 6 (1.2x).',
    );
    h = await hoverAt(parts, uri, '(8,1)E(4)');
    assert.equal(h.covered, '(8,1)');
    assert.match(h.value, /^\*\*Tile 2\*\* T\\\(8\\,1\\\) \(applied to the result of the previous tile\)/);
    h = await hoverAt(parts, uri, 'E(4)');
    assert.equal(h.covered, 'E(4)');
    assert.match(
      h.value,
      /^\*\*E\(4\)\*\* — each element is stored in 4 bits \(the width of s4\) — 2 elements packed per byte/,
    );
    h = await hoverAt(parts, uri, 'S(5)', 2);
    assert.equal(h.covered, 'S(5)');
    assert.match(h.value, /host memory \(pinned_host\)/);
    h = await hoverAt(parts, uri, 'L(1024)');
    assert.equal(h.covered, 'L(1024)');
    assert.match(h.value, /rounded up to a multiple of 1,024\. Here: 128 slots → 1,024\./);
    h = await hoverAt(parts, uri, 'T(2,*', 4);
    assert.equal(h.covered, '*');
    assert.match(h.value, /combine.*removes dim 1 \(size 2\)/);
  });

  it('hovers an opcode with its operand count and the instruction it makes', async () => {
    const reduce = await hoverAt(parts, uri, 'reduce(f32', 2);
    assert.equal(reduce.covered, 'reduce');
    assert.match(reduce.value, /^`reduce` \(XLA opcode\): any number of operands\n\n`%r = f32\[\] reduce`/);
    assert.match(
      (await hoverAt(parts, uri, 'tuple(%fig1', 1)).value,
      /^`tuple` \(XLA opcode\): any number of operands/,
    );
    assert.match(
      (await hoverAt(parts, uri, 'add(%a', 0)).value,
      /^`add` \(XLA opcode\): 2 operands\n\n`%sum = f32\[\] add` \(ROOT\)/,
    );
    const text =
      'HloModule m\nENTRY %e {\n  %s = f32[] call-start(), to_apply=%f\n  ROOT %d = f32[] frobnicate(%s)\n}\n';
    await client.open('file:///w/ops.hlo', text);
    assert.match(
      (await hoverAt(text, 'file:///w/ops.hlo', 'call-start', 3)).value,
      /^`call-start`: the asynchronous form of XLA's `call`/,
    );
    assert.match(
      (await hoverAt(text, 'file:///w/ops.hlo', 'frobnicate', 3)).value,
      /^`frobnicate`: not an opcode of XLA's HLO_OPCODE_LIST/,
    );
  });

  it("hovers an attribute key (of an instruction or the module) with the form XLA's parser takes for it, or that it takes none", async () => {
    // Markdown escapes undone: what the hover shows.
    const shown = async (text: string, u: string, needle: string) =>
      (await hoverAt(text, u, needle, 2)).value.replace(/\\(.)/g, '$1');
    assert.equal((await hoverAt(parts, uri, 'dimensions={0,1}', 3)).covered, 'dimensions');
    assert.equal(
      await shown(parts, uri, 'dimensions={0,1}'),
      '`dimensions` (attribute of `reduce`, required): {0,1}: integers',
    );
    assert.equal(
      await shown(parts, uri, 'to_apply=%add_f32'),
      '`to_apply` (attribute of `reduce`, required): a computation name',
    );
    const text =
      'HloModule m\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  ROOT %n = f32[2]{0} negate(%a), dimension={0}, sharding={replicated}\n}\n';
    const u = 'file:///w/attrs.hlo';
    await client.open(u, text);
    assert.equal(
      await shown(text, u, 'dimension='),
      "`dimension`: not an attribute XLA's parser accepts on `negate` (as of jaxlib 0.10.2)",
    );
    assert.match(
      await shown(text, u, 'sharding='),
      /^`sharding` \(attribute of `negate`\): \{replicated\}, \{maximal device=0\}/,
    );
    const header = 'HloModule m, is_scheduled=true, schedule=true\n';
    await client.open('file:///w/header.hlo', header);
    assert.equal(
      await shown(header, 'file:///w/header.hlo', 'is_scheduled'),
      '`is_scheduled` (attribute of the `HloModule` line): true or false',
    );
    assert.equal(
      await shown(header, 'file:///w/header.hlo', 'schedule='),
      "`schedule`: not an attribute XLA's parser accepts on the `HloModule` line (as of jaxlib 0.10.2)",
    );
  });

  it('summarises a tuple leaf by leaf', async () => {
    const { value, covered } = await hoverAt(parts, uri, '(f32[3,5]{1,0:T(2,2)}, s32');
    assert.equal(covered, '(f32[3,5]{1,0:T(2,2)}, s32[6]{0:T(128)L(1024)S(5)})');
    // 60 + 24 = 84 bytes logical; 96 + 4,096 = 4,192 physical (4.09 KiB).
    assert.match(
      value,
      /^Tuple of 2 arrays: \*\*84 B → 4\.1 KiB \(49\.9x\)\*\* · most padding in \{1\}: dim 0 \(size 6\) pads to 128, then L\(1024\) rounds 128 slots up to 1,024\n/,
    );
    assert.match(
      value,
      /\| \{1\} \| s32\\\[6\\\]\\\{0\\:T\\\(128\\\)L\\\(1024\\\)S\\\(5\\\)\\\} \| 24 B \| 4 KiB \| 170\.7x \|/,
    );
  });

  it('shows an instruction, a reference to it and a called computation', async () => {
    let h = await hoverAt(parts, uri, '%fig1 =', 1);
    assert.equal(h.covered, 'fig1');
    assert.match(
      h.value,
      /^`%fig1 = f32\[3,5\]\{1,0:T\(2,2\)\} constant`\n\n\*\*60 B → 96 B \(1\.6x\)\*\* · dim 0 \(size 3\) pads to 4, dim 1 \(size 5\) to 6$/,
    );
    h = await hoverAt(parts, uri, '%fig1, %tail', 2);
    assert.equal(h.covered, 'fig1');
    assert.match(h.value, /^`%fig1 = f32\[3,5\]/);
    h = await hoverAt(parts, uri, 'to_apply=%add_f32', 12);
    assert.equal(h.covered, 'add_f32');
    assert.equal(
      h.value,
      '**Computation** (named by to\\_apply=)\n\n`%add_f32 (a: f32[], b: f32[]) -> f32[]`',
    );
  });

  it('links the visualizer with the exact shape, uri and range', async () => {
    const { value } = await hoverAt(parts, uri, 'f32[3,5]{1,0:T(2,2)} constant');
    const m = /\[Open Visualizer\]\(command:xlaLayout\.openVisualizer\?([^ )]+) "Draw this layout"\)/.exec(
      value,
    );
    assert.ok(m);
    const args = JSON.parse(decodeURIComponent(m[1])) as [
      {
        shape: string;
        uri: string;
        range: { start: { line: number; character: number }; end: { line: number; character: number } };
      },
    ];
    assert.equal(args[0].shape, 'f32[3,5]{1,0:T(2,2)}');
    assert.equal(args[0].uri, uri);
    assert.equal(textOf(parts, args[0].range), 'f32[3,5]{1,0:T(2,2)}');
  });

  it('escapes document text: no HTML, links or table breaks get through', async () => {
    const hostile = [
      'HloModule m',
      'ENTRY %e () -> f32[2] {',
      '  %a = f32[2 /*<img src=x onerror=alert(1)>|`](command:evil)*/]{0} constant({...}), metadata={op_name="`<b>x</b>`](command:evil)" source_file="src/<i>](command:evil).py" source_line=1}',
      '  ROOT %t = (f32[2 /*<img src=x>|*/]{0}, s32[]) tuple(%a, %a)',
      '}',
      '',
    ].join('\n');
    const u = 'file:///w/hostile.hlo';
    await client.open(u, hostile);
    for (const needle of ['f32[2 /*<img src=x on', '%a =', '(f32[2 /*<img src=x>']) {
      const { value } = await hoverAt(hostile, u, needle, needle === '%a =' ? 1 : 0);
      // Outside code spans, every '<' is escaped; command links are only ours.
      const outsideCode = value.replace(/(`+)[^`][\s\S]*?\1/g, '');
      assert.doesNotMatch(outsideCode, /(^|[^\\])</, value);
      assert.ok(!/command:evil/.test(outsideCode), value);
      for (const m of outsideCode.matchAll(/\]\((command:[^ )]*)/g))
        assert.match(m[1], /^command:xlaLayout\.(openVisualizer|openSource)\?/);
    }
    // The source link's label is the file name, escaped like the rest.
    const source = await hoverAt(hostile, u, 'src/<i>', 2);
    assert.match(source.value, /^\*\*Source\*\* [\s\S]*\]\(command:xlaLayout\.openSource\?/);
    assert.ok(!/command:evil/.test(source.value.replace(/(`+)[^`][\s\S]*?\1/g, '')), source.value);
    assert.doesNotMatch(source.value.replace(/(`+)[^`][\s\S]*?\1/g, ''), /(^|[^\\])</, source.value);
    const tuple = await hoverAt(hostile, u, '(f32[2 /*<img src=x>');
    const row = tuple.value.split('\n').find((l) => l.startsWith('| {0}'));
    assert.ok(row);
    assert.equal(row.split(/(?<!\\)\|/).length, 7, `a | inside the shape must not add a column: ${row}`);
  });
});
