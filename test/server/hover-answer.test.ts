/**
 * The answer first, over the real protocol: a shape hover's first line says what the array costs,
 * what pads and what to change (or that it does not pad, or that the layout is invalid), the
 * visualizer link beside it; the details below are shorter at the verbosity VS Code opens with
 * (`verbosity: 0`) and complete at 1 or when no verbosity is asked; a memory map only where it says
 * more than "elements in order"; a name's hover on an invalid shape says it is invalid.
 */
import { strict as assert } from 'node:assert';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { positionOf, TestClient } from './harness';

const TEXT = [
  'HloModule answers',
  '',
  'ENTRY %main (p: f32[1024,4]) -> f32[1024,4] {',
  '  %p = f32[1024,4]{1,0:T(8,128)} parameter(0)',
  '  %flat = f32[8,128]{1,0:T(8,128)} parameter(1)',
  '  %s = s32[]{:T(128)} parameter(2)',
  '  %plain = f32[] parameter(3)',
  '  %rows = f32[2,3]{1,0} parameter(4)',
  '  %cols = f32[2,3]{0,1} parameter(5)',
  '  %bad = f32[16,256]{0,0} parameter(6)',
  '  %t = (f32[1024,4]{1,0:T(8,128)}, f32[8,128]{1,0:T(8,128)}, s32[]{:T(128)}) parameter(7)',
  '  %tok = token[] after-all()',
  '  %two = f32[6]{0:T(4)(3)} parameter(8)',
  '  %empty = f32[0,5]{1,0:T(8,128)} parameter(9)',
  '  %flags = pred[8,128]{1,0} parameter(10)',
  '  %wide = pred[2]{0:E(32)} parameter(11)',
  '  %tt = (f32[2]{0}, (s32[]{:T(128)}, token[])) parameter(12)',
  '  %open = f32[?,4] parameter(13)',
  '  %sc8 = s32[]{:T(8)} parameter(14)',
  '  ROOT %r = f32[1024,4]{1,0:T(8,128)} copy(%p)',
  '}',
  '',
].join('\n');
const URI = 'file:///w/answers.hlo';

interface Answer {
  readonly value: string;
  readonly first: string;
  readonly verbosity?: { level: number; max: number };
}

describe('server: hover answers first', () => {
  let client: TestClient;
  const hoverAt = async (needle: string, delta: number, verbosity?: unknown): Promise<Answer> => {
    const h = await client.request<(Hover & { verbosity?: Answer['verbosity'] }) | null>(
      'textDocument/hover',
      {
        textDocument: { uri: URI },
        position: positionOf(TEXT, needle, delta),
        ...(verbosity === undefined ? {} : { verbosity }),
      },
    );
    assert.ok(h, `no hover at ${needle}`);
    const value = (h.contents as MarkupContent).value.replace(/&nbsp;/g, '');
    return { value, first: value.split('\n')[0], ...(h.verbosity ? { verbosity: h.verbosity } : {}) };
  };
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(URI, TEXT);
  });
  after(async () => {
    await client.dispose();
  });

  it('gives the bits an element takes in memory: a byte for pred, E(n) where written', async () => {
    assert.match((await hoverAt('pred[8,128]', 1)).value, /pred\\\[8, 128\\\], 8-bit elements\n/);
    assert.match((await hoverAt('pred[2]{0:E(32)}', 1)).value, /pred\\\[2\\\], 32-bit elements\n/);
  });

  it("counts a tuple's tokens apart from its arrays", async () => {
    assert.match((await hoverAt('(f32[2]{0}, (s32', 0)).first, /^Tuple of 2 arrays and 1 token: /);
  });

  it('says the size of an array with an unbounded dim is unknown, with no table of zeros', async () => {
    const a = await hoverAt('f32[?,4]', 1);
    assert.match(
      a.first,
      /^\*\*Size unknown\*\*: dim 0 is unbounded \(`\?`\): XLA gives a buffer a size only once/,
    );
    assert.doesNotMatch(a.value, /0 B|ByteSizeOf/);
  });

  it('says an empty array pads nothing, and lists no padding below', async () => {
    const a = await hoverAt('f32[0,5]', 1);
    assert.match(a.first, /^\*\*0 B\*\* \(0 × f32\), no padding · \[Open Visualizer\]/);
    assert.doesNotMatch(a.value, /Padding|pads/);
  });

  it('leads with the sizes, the padded dimension and the fix, the visualizer link beside them', async () => {
    const { first } = await hoverAt('%p = f32', 6, 0);
    // f32[1024,4] is 16 KiB; T(8,128) pads dim 1 from 4 to 128: 512 KiB. {0,1} pads dim 0 (1024,
    // a multiple of 128) not at all and dim 1 (4) to 8: 32 KiB.
    assert.match(
      first,
      /^\*\*16 KiB → 512 KiB \(32x\)\*\* · dim 1 \(size 4\) pads to 128 · fix: `\{0,1\}` → 32 KiB · \[Open Visualizer\]\(command:xlaLayout\.openVisualizer\?/,
    );
  });

  it('says an unpadded array takes its bytes and has no padding', async () => {
    assert.match(
      (await hoverAt('%flat = f32', 8, 0)).first,
      /^\*\*4 KiB\*\* \(1,024 × f32\), no padding · \[Open Visualizer\]/,
    );
    assert.match(
      (await hoverAt('%plain = f32', 9, 0)).first,
      /^\*\*4 B\*\* \(1 × f32\), no padding · \[Open Visualizer\]/,
    );
  });

  it('names a dimension padded by two tile levels once, with the extent both give it', async () => {
    // T(4) pads 6 to 8 (two tiles of 4); T(3) then pads each tile's 4 to 6: 12 slots, 48 bytes.
    assert.match(
      (await hoverAt('%two = f32', 7, 0)).first,
      /^\*\*24 B → 48 B \(2x\)\*\* · dim 0 \(size 6\) pads to 12 · \[Open/,
    );
  });

  it('says what a tiled scalar pays, and draws it no memory map', async () => {
    const { first, value } = await hoverAt('%s = s32', 5);
    assert.match(
      first,
      /^\*\*4 B → 512 B \(128x\)\*\* · the scalar fills a 128-slot tile \\\(128\\\) · \[Open Visualizer\]/,
    );
    assert.doesNotMatch(value, /Memory map/);
    assert.doesNotMatch((await hoverAt('%plain = f32', 9)).value, /Memory map/);
    assert.match(
      (await hoverAt('%sc8 = s32', 7)).first,
      /^\*\*4 B → 32 B \(8x\)\*\* · the scalar fills an 8-slot tile /,
    );
  });

  it('draws a memory map only when tiles or the order move elements', async () => {
    assert.doesNotMatch(
      (await hoverAt('%rows = f32', 8)).value,
      /Memory map/,
      'row-major {1,0}: slots in order',
    );
    const cols = (await hoverAt('%cols = f32', 8)).value;
    // {0,1}: dim 0 is minor, so (r, c) is at slot c*2 + r.
    assert.match(
      cols,
      /\*\*Memory map\*\*[^\n]*\n\n\| [^\n]*\n\| [^\n]*\n\| 0 \| 0 \| 2 \| 4 \|\n\| 1 \| 1 \| 3 \| 5 \|/,
    );
  });

  it('gives the answer and its reasons at verbosity 0, and how the layout works out at 1 or by default', async () => {
    const short = await hoverAt('%p = f32', 6, 0);
    assert.deepEqual(short.verbosity, { level: 0, max: 1 });
    assert.match(short.value, /\*\*Padding\*\* \(96\.9% of the memory\)\n- dim 1/);
    assert.match(short.value, /- \*\*Fix:\*\* use minor\\_to\\_major/);
    for (const detail of [/Physical order/, /\*\*Tiles\*\*/, /pad → /, /elements \| bytes/])
      assert.doesNotMatch(short.value, detail);
    // The box VS Code draws is about 250 px tall: the short hover is a handful of lines.
    assert.ok(short.value.split('\n').length <= 10, short.value);
    const long = await hoverAt('%p = f32', 6, 1);
    assert.deepEqual(long.verbosity, { level: 1, max: 1 });
    assert.equal(long.first, short.first);
    for (const detail of [/Physical order/, /\*\*Tiles\*\*/, /pad → \\\[1024, 128\\\]/, /131,072/])
      assert.match(long.value, detail);
    // Editors that cannot ask for more, and requests out of range, get everything.
    for (const v of [undefined, 7, -1, 0.5, 'all'])
      assert.equal((await hoverAt('%p = f32', 6, v)).value, long.value);
  });

  it('lists only the padded arrays of a tuple at verbosity 0, every array at 1', async () => {
    const short = await hoverAt('%t = (f32', 5, 0);
    assert.match(
      short.first,
      /^Tuple of 3 arrays: \*\*20 KiB → 517 KiB \(25\.8x\)\*\* · most padding in \{0\}: dim 1 \(size 4\) pads to 128$/,
    );
    assert.match(short.value, /\| \{0\} \|/);
    assert.match(short.value, /\| \{2\} \|/);
    assert.doesNotMatch(short.value, /\| \{1\} \|/, '{1} does not pad');
    assert.match(short.value, /1 more array without padding\./);
    assert.match((await hoverAt('%t = (f32', 5, 1)).value, /\| \{1\} \|/);
  });

  it('says a layout is invalid, and why, where the sizes would be', async () => {
    const shape = await hoverAt('%bad = f32', 8, 0);
    assert.match(shape.first, /^\*\*Invalid layout:\*\* minor\\_to\\_major names dimension 0 twice/);
    assert.doesNotMatch(shape.value, /Open Visualizer/);
    assert.equal(shape.verbosity, undefined, 'nothing more to show: no + in VS Code');
    // On the name: the instruction, then the same answer, never "0 B logical, 0 B physical".
    const name = await hoverAt('%bad =', 1);
    assert.match(
      name.value,
      /^`%bad = f32\[16,256\]\{0,0\} parameter`\n\n\*\*Invalid layout:\*\* minor\\_to\\_major names dimension 0 twice/,
    );
    assert.doesNotMatch(name.value, /0 B/);
  });

  it('says a token has no layout in memory', async () => {
    const token = await hoverAt('%tok = token', 7, 0);
    assert.match(token.first, /^`token` has no layout in memory$/);
    assert.equal(token.verbosity, undefined);
  });
});
