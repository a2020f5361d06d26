/** Expand Selection (textDocument/selectionRange) over the real protocol. */
import { strict as assert } from 'node:assert';
import type { SelectionRange } from 'vscode-languageserver';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_HLO_DIR } from '../support/corpus';
import { offsetAt, positionAt } from '../support/editor-positions';
import { positionOf, TestClient, textOf } from './harness';

const TEXT = `HloModule sel

ENTRY %main (p: f32[8,4]) -> (f32[8,4], bf16[16,256]) {
  %p = f32[8,4]{1,0:T(8,128)} parameter(0)
  %w = bf16[16,256]{1,0:T(8,128)(2,1)S(1)} constant({...})
  ROOT %t = (f32[8,4]{1,0:T(8,128)}, bf16[16,256]{1,0:T(8,128)(2,1)S(1)}) tuple(%p, %w)
}
`;

describe('server: selection ranges', () => {
  let client: TestClient;
  const uri = 'file:///w/sel.hlo';
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(uri, TEXT);
  });
  after(async () => {
    await client.dispose();
  });

  /** The texts of the chain at each position, innermost first. */
  async function chains(...positions: { line: number; character: number }[]): Promise<string[][]> {
    const result = await client.request<SelectionRange[]>('textDocument/selectionRange', {
      textDocument: { uri },
      positions,
    });
    return result.map((r) => {
      const out: string[] = [];
      for (let s: SelectionRange | undefined = r; s; s = s.parent) out.push(textOf(TEXT, s.range));
      return out;
    });
  }

  const statement = (needle: string) =>
    TEXT.split('\n')
      .find((l) => l.includes(needle))!
      .replace(/^\s+/, '');
  const computation = TEXT.slice(TEXT.indexOf('ENTRY'), TEXT.lastIndexOf('}') + 1);
  const module = TEXT.slice(0, TEXT.lastIndexOf('}') + 1);

  it('grows from a tile entry to the tile, the tiles, the layout, the array, the tuple, the statement, the computation and the module', async () => {
    const [chain] = await chains(positionOf(TEXT, '(8,128)(2,1)S(1)})', 4));
    assert.deepEqual(chain, [
      '128',
      '(8,128)',
      'T(8,128)(2,1)',
      '{1,0:T(8,128)(2,1)S(1)}',
      'bf16[16,256]{1,0:T(8,128)(2,1)S(1)}',
      '(f32[8,4]{1,0:T(8,128)}, bf16[16,256]{1,0:T(8,128)(2,1)S(1)})',
      statement('ROOT %t'),
      computation,
      module,
    ]);
  });

  it('starts from a dimension, a layout attribute or a name, one chain per position', async () => {
    const [dim, memorySpace, name] = await chains(
      positionOf(TEXT, '16,256]{1,0:T(8,128)(2,1)S(1)} constant'),
      positionOf(TEXT, 'S(1)} constant', 2),
      positionOf(TEXT, 'tuple(%p', 7),
    );
    assert.deepEqual(dim.slice(0, 4), [
      '16',
      '[16,256]',
      'bf16[16,256]{1,0:T(8,128)(2,1)S(1)}',
      statement('%w = '),
    ]);
    assert.deepEqual(memorySpace.slice(0, 3), [
      'S(1)',
      '{1,0:T(8,128)(2,1)S(1)}',
      'bf16[16,256]{1,0:T(8,128)(2,1)S(1)}',
    ]);
    assert.deepEqual(name, ['p', statement('ROOT %t'), computation, module]);
  });

  it('answers an empty range where nothing encloses the position', async () => {
    const [blank] = await client.request<SelectionRange[]>('textDocument/selectionRange', {
      textDocument: { uri },
      positions: [{ line: 1, character: 0 }],
    });
    assert.deepEqual(blank, { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } } });
  });

  it('gives every position of every corpus file a chain of ranges around it, each inside the next', async () => {
    let checked = 0;
    for (const file of readdirSync(CORPUS_HLO_DIR).filter((f) => f.endsWith('.hlo'))) {
      const text = readFileSync(join(CORPUS_HLO_DIR, file), 'utf8');
      const u = `file:///corpus/${file}`;
      await client.open(u, text);
      // Every 7th offset: starts of lines, indentation, names, shapes, attributes, comments.
      const offsets = Array.from({ length: Math.floor(text.length / 7) }, (_, i) => i * 7);
      const positions = offsets.map((o) => positionAt(text, o));
      const result = await client.request<SelectionRange[]>('textDocument/selectionRange', {
        textDocument: { uri: u },
        positions,
      });
      assert.equal(result.length, positions.length);
      result.forEach((r, i) => {
        const at = offsets[i];
        let inner = { start: at, end: at };
        for (let s: SelectionRange | undefined = r; s; s = s.parent) {
          const range = { start: offsetAt(text, s.range.start), end: offsetAt(text, s.range.end) };
          assert.ok(
            range.start <= inner.start && inner.end <= range.end,
            `${file} at ${at}: ${JSON.stringify(range)} around ${JSON.stringify(inner)}`,
          );
          inner = range;
        }
        checked++;
      });
    }
    assert.ok(checked > 5000, String(checked));
  });
});
