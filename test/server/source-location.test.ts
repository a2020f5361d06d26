/** Go to source: definition on metadata's source_file and source_line, over the real protocol. */
import { strict as assert } from 'node:assert';
import type { Hover, Location, LocationLink, MarkupContent } from 'vscode-languageserver';
import { sourceFileUri } from '../../server/src/source-location';
import { positionOf, TestClient, textOf } from './harness';

const DUMP = [
  'HloModule m',
  '',
  'ENTRY %main (p: f32[8]) -> f32[8] {',
  '  %p = f32[8]{0} parameter(0)',
  '  %a = f32[8]{0} add(%p, %p), metadata={op_name="jit(f)/add" source_file="/workspace/model/train.py" source_line=788}',
  '  %b = f32[8]{0} negate(%a), metadata={op_name="jit(f)/neg" source_file="model/layers.py" source_line=12}',
  '  %c = f32[8]{0} abs(%b), metadata={op_name="jit(f)/abs" source_file="C:\\\\src\\\\my model\\\\net#2.py"}',
  '  ROOT %d = f32[8]{0} copy(%c), metadata={op_name="jit(f)/copy"}',
  '}',
  '',
].join('\n');

describe('server: go to source', () => {
  const uri = 'file:///home/u/dumps/module_0001.after_optimizations.txt';
  const at = (needle: string, delta = 0) => ({
    textDocument: { uri },
    position: positionOf(DUMP, needle, delta),
  });

  describe('with plain locations', () => {
    let client: TestClient;
    before(async () => {
      ({ client } = await TestClient.start());
      await client.open(uri, DUMP);
    });
    after(async () => client.dispose());

    it('goes from source_file and from source_line to the 0-based source line', async () => {
      for (const [needle, delta] of [
        ['/workspace/model/train.py', 5],
        ['788', 1],
        ['"/workspace', 0],
      ] as const) {
        const defs = await client.request<Location[]>('textDocument/definition', at(needle, delta));
        assert.deepEqual(
          defs,
          [
            {
              uri: 'file:///workspace/model/train.py',
              range: { start: { line: 787, character: 0 }, end: { line: 787, character: 0 } },
            },
          ],
          needle,
        );
      }
    });

    it("takes a relative path from the dump's folder, and a file without source_line at its first line", async () => {
      let defs = await client.request<Location[]>('textDocument/definition', at('model/layers.py', 3));
      assert.deepEqual(
        defs.map((d) => [d.uri, d.range.start.line]),
        [['file:///home/u/dumps/model/layers.py', 11]],
      );
      defs = await client.request<Location[]>('textDocument/definition', at('net#2', 1));
      assert.deepEqual(
        defs.map((d) => [d.uri, d.range.start.line]),
        [['file:///C:/src/my%20model/net%232.py', 0]],
      );
    });

    it('hovers source_file and source_line with a link that opens the line, and adds it to the instruction hover', async () => {
      const linkArgs = (markdown: string) => {
        const m = /\]\(command:xlaLayout\.openSource\?([^ )]+) "Open the source line"\)/.exec(markdown);
        assert.ok(m, markdown);
        return JSON.parse(decodeURIComponent(m[1])) as unknown;
      };
      for (const [needle, delta] of [
        ['train.py', 1],
        ['788', 0],
      ] as const) {
        const h = await client.request<Hover>('textDocument/hover', at(needle, delta));
        const value = (h.contents as MarkupContent).value;
        assert.match(value, /\*\*Source\*\* `\/workspace\/model\/train\.py`, line 788/);
        // The label is escaped Markdown: `train\.py\:788` renders as train.py:788.
        assert.match(value, /\[train\\\.py\\:788\]/);
        assert.deepEqual(linkArgs(value), [
          { uri: 'file:///workspace/model/train.py', line: 787, dump: uri },
        ]);
        assert.equal(textOf(DUMP, h.range!), needle === '788' ? '788' : '"/workspace/model/train.py"');
      }
      const h = await client.request<Hover>('textDocument/hover', at('%b = ', 1));
      const value = (h.contents as MarkupContent).value;
      assert.match(value, /source: `model\/layers\.py:12` — \[layers\\\.py\\:12\]/);
      assert.deepEqual(linkArgs(value), [
        { uri: 'file:///home/u/dumps/model/layers.py', line: 11, dump: uri },
      ]);
    });

    it('offers nothing on op_name, and names still go to their definitions', async () => {
      assert.deepEqual(await client.request<Location[]>('textDocument/definition', at('jit(f)/add', 2)), []);
      const defs = await client.request<Location[]>('textDocument/definition', at('negate(%a)', 8));
      assert.deepEqual(
        defs.map((d) => [textOf(DUMP, d.range), d.range.start.line]),
        [['a', 4]],
      );
    });
  });

  it('answers a link underlining the whole value when the client takes links', async () => {
    const { client } = await TestClient.start({}, undefined, {}, { definition: { linkSupport: true } });
    try {
      await client.open(uri, DUMP);
      const [link, ...rest] = await client.request<LocationLink[]>('textDocument/definition', at('788', 2));
      assert.equal(rest.length, 0);
      assert.equal(textOf(DUMP, link.originSelectionRange!), '788');
      assert.equal(link.targetUri, 'file:///workspace/model/train.py');
      assert.deepEqual(link.targetSelectionRange.start, { line: 787, character: 0 });
      const [file] = await client.request<LocationLink[]>('textDocument/definition', at('model/train.py', 1));
      assert.equal(textOf(DUMP, file.originSelectionRange!), '"/workspace/model/train.py"');
    } finally {
      await client.dispose();
    }
  });

  it('builds URIs from the paths XLA records', () => {
    const doc = 'file:///home/u/dumps/m.txt';
    assert.equal(sourceFileUri('/a/b c/d.py', doc), 'file:///a/b%20c/d.py');
    assert.equal(sourceFileUri('/a/100%/x?.py', doc), 'file:///a/100%25/x%3F.py');
    assert.equal(sourceFileUri('../src/x.py', doc), 'file:///home/u/src/x.py');
    assert.equal(sourceFileUri('D:/x/y.py', doc), 'file:///D:/x/y.py');
    // A path written as a URI is a link only with the file scheme: metadata is anyone's text.
    assert.equal(sourceFileUri('file:///etc/passwd', doc), 'file:///etc/passwd');
    for (const other of [
      'https://github.com/o/r/blob/main/x.py',
      'javascript:alert(1)',
      'command:workbench.action.terminal.new',
      'vscode://file/etc/passwd',
    ])
      assert.equal(sourceFileUri(other, doc), undefined, other);
    assert.equal(
      sourceFileUri('x.py', 'vscode-vfs://github/o/r/dumps/m.hlo'),
      'vscode-vfs://github/o/r/dumps/x.py',
    );
    // A relative path in an untitled document has no folder to be relative to.
    assert.equal(sourceFileUri('x.py', 'untitled:Untitled-1'), undefined);
    assert.equal(sourceFileUri('', doc), undefined);
  });
});
