/**
 * Go to source, source hovers and the instructions of a source line on current jax dumps, whose
 * metadata names `stack_frame_id=N` instead of `source_file=`, over the real protocol. The dump is
 * a real one (test/server/fixtures/stack-frames, from cnn.py beside it).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover, Location, LocationLink, MarkupContent } from 'vscode-languageserver';
import { SourceInstructionsRequest } from '../../protocol/src/lsp';
import { positionOf, TestClient, textOf } from './harness';

const DUMP = readFileSync(
  join(__dirname, 'fixtures', 'stack-frames', 'module_0010.jit_f.cpu_after_optimizations.txt'),
  'utf8',
);
/** The line recorded for every frame: /work/xp/cnn.py. */
const CNN = 'file:///work/xp/cnn.py';

describe('server: source lines of stack frames', () => {
  const uri = 'file:///home/u/xp/d_cnn/module_0010.jit_f.cpu_after_optimizations.txt';
  const at = (needle: string, delta = 0, occurrence = 0) => ({
    textDocument: { uri },
    position: positionOf(DUMP, needle, delta, occurrence),
  });
  const hoverText = async (p: ReturnType<typeof at>) =>
    ((await client.request<Hover>('textDocument/hover', p)).contents as MarkupContent).value;
  const linkArgs = (markdown: string) =>
    [...markdown.matchAll(/\]\(command:xlaLayout\.openSource\?([^ )]+) "Open the source line"\)/g)].map(
      (m) => (JSON.parse(decodeURIComponent(m[1])) as [{ uri: string; line: number }])[0],
    );
  let client: TestClient;
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(uri, DUMP);
  });
  after(async () => client.dispose());

  it("goes from stack_frame_id to its frame's line, and from an instruction's own name", async () => {
    const where = (defs: Location[]) => defs.map((d) => [d.uri, d.range.start.line]);
    // %multiply.19 names frame 3: bn, cnn.py line 4.
    assert.deepEqual(
      where(await client.request<Location[]>('textDocument/definition', at('div" stack_frame_id=3}', 21))),
      [[CNN, 3]],
    );
    // %conv_general_dilated.5 (frame 10): cnn.py line 7, from its value and from its name.
    for (const p of [at('conv_general_dilated" stack_frame_id=10}', 38), at('%conv_general_dilated.5 =', 3)])
      assert.deepEqual(where(await client.request<Location[]>('textDocument/definition', p)), [[CNN, 6]]);
    // A use of the name still goes to its definition in the dump.
    const defs = await client.request<Location[]>(
      'textDocument/definition',
      at('fusion(%conv_general_dilated.5', 10),
    );
    assert.deepEqual(
      defs.map((d) => [d.uri, textOf(DUMP, d.range)]),
      [[uri, 'conv_general_dilated.5']],
    );
    // A name without a source (a parameter) stays where it is defined.
    const x = await client.request<Location[]>('textDocument/definition', at('%x.1 = ', 2));
    assert.deepEqual(
      x.map((d) => [d.uri, textOf(DUMP, d.range)]),
      [[uri, 'x.1']],
    );
  });

  it("hovers the instruction's name with its user frame and its callers, each a link", async () => {
    const value = await hoverText(at('%conv_general_dilated.5 =', 3));
    assert.match(value, /source: `\/work\/xp\/cnn\.py:7` — \[cnn\\\.py\\:7\]/);
    assert.match(value, /called from `<module>` \[cnn\\\.py\\:13\]/);
    assert.deepEqual(linkArgs(value), [
      { uri: CNN, line: 6, dump: uri },
      { uri: CNN, line: 12, dump: uri },
    ]);
    const bn = await hoverText(at('%multiply.19 =', 3));
    assert.match(bn, /called from `f` \[cnn\\\.py\\:8\].* ← `<module>` \[cnn\\\.py\\:13\]/);
  });

  it('hovers stack_frame_id with the frame, its function and its link; an unknown frame says so', async () => {
    const p = at('conv_general_dilated" stack_frame_id=10}', 38);
    const h = await client.request<Hover>('textDocument/hover', p);
    const value = (h.contents as MarkupContent).value;
    assert.match(value, /\*\*Source\*\* `\/work\/xp\/cnn\.py`, line 7 \(stack frame 10, in `f`\)/);
    assert.equal(textOf(DUMP, h.range!), '10');
    assert.deepEqual(linkArgs(value)[0], { uri: CNN, line: 6, dump: uri });
    const unknownUri = 'file:///home/u/xp/unknown.hlo';
    const text =
      'HloModule m\n\nENTRY %e () -> f32[] {\n  ROOT %c = f32[] constant(1), metadata={stack_frame_id=7}\n}\n';
    await client.open(unknownUri, text);
    const none = await client.request<Hover>('textDocument/hover', {
      textDocument: { uri: unknownUri },
      position: positionOf(text, 'id=7', 3),
    });
    assert.match((none.contents as MarkupContent).value, /not in this module's `StackFrames` table/);
    assert.deepEqual(
      await client.request<Location[]>('textDocument/definition', {
        textDocument: { uri: unknownUri },
        position: positionOf(text, 'id=7', 3),
      }),
      [],
    );
  });

  it('answers a link underlining the frame id when the client takes links', async () => {
    const { client: links } = await TestClient.start(
      {},
      undefined,
      {},
      { definition: { linkSupport: true } },
    );
    try {
      await links.open(uri, DUMP);
      const [link] = await links.request<LocationLink[]>(
        'textDocument/definition',
        at('conv_general_dilated" stack_frame_id=10}', 38),
      );
      assert.equal(textOf(DUMP, link.originSelectionRange!), '10');
      assert.equal(link.targetUri, CNN);
      assert.equal(link.targetSelectionRange.start.line, 6);
    } finally {
      await links.dispose();
    }
  });

  it('lists the instructions of a source line through the frames, with their user frame as source', async () => {
    const r = await client.request(SourceInstructionsRequest, { path: '/home/me/xp/cnn.py', line: 7 });
    assert.ok(r);
    assert.deepEqual(r.items.map((i) => [i.uri, i.name, i.sourceLine, i.source, i.opName]).sort(), [
      [uri, 'bitcast.12', 7, 'cnn.py:7', 'jit(f)/transpose(jvp())/conv_general_dilated'],
      [uri, 'conv_general_dilated.5', 7, 'cnn.py:7', 'jit(f)/jvp()/conv_general_dilated'],
    ]);
    const whole = await client.request(SourceInstructionsRequest, { path: '/home/me/xp/cnn.py' });
    assert.equal(whole?.items.length, 134);
    assert.deepEqual(
      (await client.request(SourceInstructionsRequest, { path: '/x/other.py', line: 7 }))?.items,
      [],
    );
  });

  it("reads each module's own tables, and again after an edit", async () => {
    const twoUri = 'file:///home/u/xp/two.hlo';
    const module = (name: string, line: number) =>
      [
        `HloModule ${name}`,
        '',
        'FileNames',
        '1 "/work/xp/cnn.py"',
        '',
        'FunctionNames',
        '1 "f"',
        '',
        'FileLocations',
        `1 {file_name_id=1 function_name_id=1 line=${line} end_line=${line} column=1 end_column=9}`,
        '',
        'StackFrames',
        '1 {file_location_id=1 parent_frame_id=1}',
        '',
        `ENTRY %${name} () -> f32[] {`,
        `  ROOT %${name}.c = f32[] constant(1), metadata={op_name="c" stack_frame_id=1}`,
        '}',
        '',
      ].join('\n');
    const text = `${module('a', 3)}\n${module('b', 30)}`;
    await client.open(twoUri, text);
    const line = async (needle: string, t = text) =>
      (
        await client.request<Location[]>('textDocument/definition', {
          textDocument: { uri: twoUri },
          position: positionOf(t, needle, 2),
        })
      ).map((d) => d.range.start.line);
    assert.deepEqual(await line('%a.c'), [2]);
    assert.deepEqual(await line('%b.c'), [29]);
    const found = await client.request(SourceInstructionsRequest, { path: '/x/cnn.py', line: 30 });
    assert.deepEqual(
      found?.items.filter((i) => i.uri === twoUri).map((i) => i.name),
      ['b.c'],
    );
    // Editing the second module's table moves its instruction; the first stays.
    const edited = text.replace('line=30 end_line=30', 'line=31 end_line=31');
    await client.change(twoUri, [{ text: edited }]);
    assert.deepEqual(await line('%b.c', edited), [30]);
    assert.deepEqual(await line('%a.c', edited), [2]);
  });
});
