/** Go to Symbol in Workspace (workspace/symbol) over the real protocol. */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver';
import { TestClient, textOf } from './harness';
import { CORPUS_HLO_DIR } from '../support/corpus';

const FUSIONS = `HloModule m
ENTRY %main (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  %f.u.s.i.o.n = f32[2]{0} negate(%p)
  %my_fusion = f32[2]{0} negate(%f.u.s.i.o.n)
  %fusion.1 = f32[2]{0} negate(%my_fusion)
  ROOT %fusion = f32[2]{0} negate(%fusion.1)
}
`;

describe('server: workspace symbols', () => {
  let client: TestClient;
  const search = (query: string) => client.request<SymbolInformation[]>('workspace/symbol', { query });
  const brief = (symbols: SymbolInformation[]) =>
    symbols.map((s) => [
      s.name,
      s.kind,
      s.containerName ?? '',
      s.location.uri.split('/').pop(),
      s.location.range.start.line,
    ]);

  before(async () => {
    ({ client } = await TestClient.start());
    await client.open('file:///w/fusions.hlo', FUSIONS);
    await client.open('file:///w/parts.hlo', readFileSync(join(__dirname, 'fixtures', 'parts.hlo'), 'utf8'));
  });
  after(async () => {
    await client.dispose();
  });

  it('ranks the same name, then prefixes, substrings and scattered letters, ignoring case', async () => {
    const expected = [
      ['fusion', SymbolKind.Field, 'main', 'fusions.hlo', 6],
      ['fusion.1', SymbolKind.Field, 'main', 'fusions.hlo', 5],
      ['my_fusion', SymbolKind.Field, 'main', 'fusions.hlo', 4],
      ['f.u.s.i.o.n', SymbolKind.Field, 'main', 'fusions.hlo', 3],
    ];
    assert.deepEqual(brief(await search('fusion')), expected);
    assert.deepEqual(brief(await search('FUSION')), expected);
  });

  it('finds computations and instructions in every open document, parameters as variables', async () => {
    assert.deepEqual(brief(await search('main')), [
      ['main', SymbolKind.Function, '', 'fusions.hlo', 1],
      ['main', SymbolKind.Function, '', 'parts.hlo', 8],
    ]);
    assert.deepEqual(brief(await search('add_f')), [['add_f32', SymbolKind.Function, '', 'parts.hlo', 2]]);
    assert.deepEqual(brief(await search('y')), [
      ['y', SymbolKind.Variable, 'main', 'parts.hlo', 10],
      ['my_fusion', SymbolKind.Field, 'main', 'fusions.hlo', 4],
    ]);
    assert.deepEqual(await search('zzz'), []);
  });

  it('returns at most 1,000 symbols, the best first', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => `  %x${i} = f32[2]{0} constant({1, 2})`);
    await client.open(
      'file:///w/many.hlo',
      `HloModule many\nENTRY %e () -> f32[2] {\n${lines.join('\n')}\n  ROOT %x = f32[2]{0} constant({1, 2})\n}\n`,
    );
    const found = await search('x');
    assert.equal(found.length, 1000);
    // The exact names come first (parts.hlo's parameter, and many.hlo's last statement), then the prefixes in document order.
    assert.deepEqual(
      found.slice(0, 4).map((s) => [s.name, s.location.uri.split('/').pop()]),
      [
        ['x', 'parts.hlo'],
        ['x', 'many.hlo'],
        ['x0', 'many.hlo'],
        ['x1', 'many.hlo'],
      ],
    );
    await client.close('file:///w/many.hlo');
  });

  for (const file of readdirSync(CORPUS_HLO_DIR).filter((f) => f.endsWith('.hlo'))) {
    it(`finds every instruction of the outline of ${file} at its place`, async () => {
      const text = readFileSync(join(CORPUS_HLO_DIR, file), 'utf8');
      const uri = `file:///corpus/${file}`;
      await client.open(uri, text);
      const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
        textDocument: { uri },
      });
      const all = (list: DocumentSymbol[]): DocumentSymbol[] =>
        list.flatMap((s) => [s, ...all(s.children ?? [])]);
      for (const s of all(symbols).filter((s) => s.kind !== SymbolKind.Module)) {
        const found = (await search(s.name)).filter((f) => f.location.uri === uri && f.name === s.name);
        assert.ok(
          found.some(
            (f) => JSON.stringify(f.location.range) === JSON.stringify(s.selectionRange) && f.kind === s.kind,
          ),
          `${s.name} at ${JSON.stringify(s.selectionRange)} (${textOf(text, s.selectionRange)}) among ${JSON.stringify(found)}`,
        );
      }
      await client.close(uri);
    });
  }
});
