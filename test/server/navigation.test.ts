/** Outline, definition, references, highlights and folding over the real protocol. */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentHighlight, DocumentSymbol, FoldingRange, Location } from 'vscode-languageserver';
import { OutlineLimitNotification } from '../../protocol/src/lsp';
import { HloDocument } from '../../server/src/document';
import { assertReferencesAsModel, positionOf, TestClient, textOf } from './harness';
import { CORPUS_HLO_DIR } from '../support/corpus';
import { offsetAt } from '../support/editor-positions';

const parts = readFileSync(join(__dirname, 'fixtures', 'parts.hlo'), 'utf8');
const CORPUS = CORPUS_HLO_DIR;

describe('server: navigation', () => {
  let client: TestClient;
  const uri = 'file:///w/parts.hlo';
  const at = (needle: string, delta = 0, occurrence = 0) => ({
    textDocument: { uri },
    position: positionOf(parts, needle, delta, occurrence),
  });
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(uri, parts);
  });
  after(async () => {
    await client.dispose();
  });

  it('outlines module → computations → instructions with shapes as detail', async () => {
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
      textDocument: { uri },
    });
    assert.equal(symbols.length, 1);
    const m = symbols[0];
    assert.equal(m.name, 'parts');
    assert.deepEqual(
      m.children!.map((c) => [c.name, c.detail ?? '']),
      [
        ['add_f32', ''],
        ['main', 'ENTRY'],
      ],
    );
    const main = m.children![1];
    assert.deepEqual(
      main.children!.map((c) => [c.name, c.detail]),
      [
        ['x', 's4[64,128]{1,0:T(8,128)(8,1)E(4)}'],
        ['y', 'f32[4,8]{1,0:T(2,4)(2,1)}'],
        ['fig1', 'f32[3,5]{1,0:T(2,2)}'],
        ['tail', 's32[6]{0:T(128)L(1024)S(5)}'],
        ['r', 'f32[]'],
        ['zero', 'f32[]'],
        ['comb', 'bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}'],
        ['t', '(f32[3,5]{1,0:T(2,2)}, s32[6]{0:T(128)L(1024)S(5)})'],
      ],
    );
    assert.equal(textOf(parts, main.selectionRange), 'main');
    assert.equal(main.range.start.line, 8);
    assert.equal(main.range.end.line, 17);
  });

  it('goes to the definition of an operand, a parameter reference and a called computation', async () => {
    let defs = await client.request<Location[]>('textDocument/definition', at('%fig1, %tail', 3));
    assert.deepEqual(
      defs.map((d) => [textOf(parts, d.range), d.range.start.line]),
      [['fig1', 11]],
    );
    // %zero is used before it is defined: still found.
    defs = await client.request<Location[]>('textDocument/definition', at('%zero)', 2));
    assert.deepEqual(
      defs.map((d) => [textOf(parts, d.range), d.range.start.line]),
      [['zero', 14]],
    );
    defs = await client.request<Location[]>('textDocument/definition', at('to_apply=%add_f32', 12));
    assert.deepEqual(
      defs.map((d) => [textOf(parts, d.range), d.range.start.line]),
      [['add_f32', 2]],
    );
  });

  it('finds references, with and without the declaration, scoped to the computation', async () => {
    const refs = await client.request<Location[]>('textDocument/references', {
      ...at('%y = ', 1),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(
      refs.map((r) => [textOf(parts, r.range), r.range.start.line]),
      [
        ['y', 10],
        ['y', 8],
        ['y', 13],
      ],
    );
    const comp = await client.request<Location[]>('textDocument/references', {
      ...at('%add_f32 (', 1),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      comp.map((r) => [textOf(parts, r.range), r.range.start.line]),
      [['add_f32', 13]],
    );
    // %a of add_f32 is not the %a of another computation.
    const a = await client.request<Location[]>('textDocument/references', {
      ...at('%a = ', 1),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      a.map((r) => r.range.start.line),
      [2, 5],
    );
  });

  it('counts the operands of an instruction written in place of an operand as references', async () => {
    const nestedUri = 'file:///w/nested-operand.hlo';
    const text =
      'c {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %r = f32[] add(%a, f32[] negate(f32[] multiply(%b, %a)))\n}\n';
    await client.open(nestedUri, text);
    const refs = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri: nestedUri },
      position: positionOf(text, '%b = ', 1),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      refs.map((r) => [textOf(text, r.range), offsetAt(text, r.range.start)]),
      [['b', text.indexOf('%b, %a') + 1]],
    );
    const defs = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: nestedUri },
      position: positionOf(text, '%b, %a', 1),
    });
    assert.deepEqual(
      defs.map((d) => d.range.start.line),
      [2],
    );
  });

  it('highlights the definition as write and uses as read', async () => {
    const hl = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', at('%tail)', 2));
    assert.deepEqual(
      hl.map((h) => [h.range.start.line, h.kind]),
      [
        [12, 3],
        [16, 2],
      ],
    );
  });

  it('folds computations (keeping the brace visible) and multi-line statements', async () => {
    const text =
      'HloModule m, entry_computation_layout={(\n  f32[2]{0},\n  f32[2]{0})->f32[2]{0}}\n\nENTRY %e (a: f32[2], b: f32[2]) -> f32[2] {\n  %a = f32[2]{0} parameter(0)\n  ROOT %b = f32[2]{0} parameter(1)\n}\n';
    await client.open('file:///w/fold.hlo', text);
    const folds = await client.request<FoldingRange[]>('textDocument/foldingRange', {
      textDocument: { uri: 'file:///w/fold.hlo' },
    });
    assert.deepEqual(
      folds.map((f) => [f.startLine, f.endLine]),
      [
        [4, 6],
        [0, 2],
      ],
    );
  });

  it('scopes computations to each part of a file split by // ----- (XLA tests run with --split-input-file)', async () => {
    const split = [
      '%add {',
      '  ROOT %s = f32[] parameter(0)',
      '}',
      'e {',
      '  ROOT r = f32[] call(), to_apply=%add',
      '}',
      '// -----',
      '%add {',
      '  ROOT %t = f32[] parameter(0)',
      '}',
      'e {',
      '  ROOT r = f32[] call(), to_apply=%add',
      '}',
      '',
    ].join('\n');
    const u = 'file:///w/split.hlo';
    await client.open(u, split);
    const defs = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: u },
      position: positionOf(split, 'to_apply=%add', 11, 1),
    });
    assert.deepEqual(
      defs.map((d) => [textOf(split, d.range), d.range.start.line]),
      [['add', 7]],
    );
    const refs = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri: u },
      position: positionOf(split, '%add {', 1),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      refs.map((r) => r.range.start.line),
      [4],
    );
    // Header-less parts have no module symbol: their computations stand at the top of the outline.
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
      textDocument: { uri: u },
    });
    assert.deepEqual(
      symbols.map((x) => [x.name, x.range.start.line]),
      [
        ['add', 0],
        ['e', 3],
        ['add', 7],
        ['e', 10],
      ],
    );
  });

  it("finds for every name of every corpus file the occurrences core's module model resolves to it", async () => {
    let checked = 0;
    for (const file of readdirSync(CORPUS).filter((f) => f.endsWith('.hlo'))) {
      const text = readFileSync(join(CORPUS, file), 'utf8');
      const u = `file:///corpus/model/${file}`;
      await client.open(u, text);
      checked += await assertReferencesAsModel(client, u, text, file);
    }
    assert.ok(checked > 500, String(checked));
  });

  for (const file of readdirSync(CORPUS).filter((f) => f.endsWith('.hlo'))) {
    it(`resolves every operand of ${file} to a definition in its computation`, async () => {
      const text = readFileSync(join(CORPUS, file), 'utf8');
      const u = `file:///corpus/${file}`;
      await client.open(u, text);
      const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
        textDocument: { uri: u },
      });
      const computations = symbols.flatMap((s) => (s.kind === 2 ? (s.children ?? []) : [s]));
      assert.ok(computations.length > 0);
      // The ROOT of each computation: its operands' definitions lie inside the same computation.
      for (const c of computations) {
        const root = c.children?.[c.children.length - 1];
        if (!root) continue;
        const line = text.split('\n')[root.range.start.line];
        const op = /\(\s*%?([A-Za-z_][\w.-]*)\s*[,)]/.exec(line.slice(line.indexOf('=')));
        if (!op || /constant|parameter|iota/.test(line)) continue;
        const character = line.indexOf(op[1], line.indexOf('=') + op.index);
        const defs = await client.request<Location[]>('textDocument/definition', {
          textDocument: { uri: u },
          position: { line: root.range.start.line, character },
        });
        assert.equal(defs.length, 1, `${file}: ${op[1]} in ${line.trim()}`);
        assert.equal(textOf(text, defs[0].range), op[1]);
        assert.ok(
          defs[0].range.start.line >= c.range.start.line && defs[0].range.end.line <= c.range.end.line,
        );
      }
    });
  }
});

describe('server: outline of a document with more items than outline.maxItems', () => {
  const uri = 'file:///w/parts.hlo';
  const outline = (client: TestClient) =>
    client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
  /** Module → computation → instruction names, in document order. */
  const tree = (symbols: DocumentSymbol[]) =>
    symbols.map((m) => [m.name, m.children!.map((c) => [c.name, c.children!.map((i) => i.name)])]);
  const limits = (client: TestClient) =>
    client.notifications.filter((n) => n.method === OutlineLimitNotification.method).map((n) => n.params);

  it('lists the ENTRY computation, then the others, then instructions, ENTRY first, and says how much it cut', async () => {
    const { client } = await TestClient.start({ outline: { maxItems: 5 } });
    await client.open(uri, parts);
    // Two computations and eleven instructions; five fit: both computations and main's first three.
    assert.deepEqual(tree(await outline(client)), [
      [
        'parts',
        [
          ['add_f32', []],
          ['main', ['x', 'y', 'fig1']],
        ],
      ],
    ]);
    assert.deepEqual(limits(client), [{ uri, shown: 5, total: 13 }]);
    await client.dispose();
  });

  it('lists only the ENTRY computation when one item fits', async () => {
    const { client } = await TestClient.start({ outline: { maxItems: 1 } });
    await client.open(uri, parts);
    assert.deepEqual(tree(await outline(client)), [['parts', [['main', []]]]]);
    assert.deepEqual(limits(client), [{ uri, shown: 1, total: 13 }]);
    await client.dispose();
  });

  it('says once that a document whose outline was cut has a whole one again, and nothing for whole ones', async () => {
    const { client } = await TestClient.start({ outline: { maxItems: 13 } });
    await client.open(uri, parts);
    assert.equal(tree(await outline(client))[0][1].length, 2);
    assert.deepEqual(limits(client), [], 'exactly maxItems items: nothing cut');
    const line = (n: number) => ({ start: { line: n, character: 0 }, end: { line: n, character: 0 } });
    await client.change(uri, [{ range: line(10), text: '  %extra = f32[] constant(1)\n' }]);
    // Fourteen items: ENTRY's instructions come before those of add_f32, which loses its last.
    assert.deepEqual(tree(await outline(client)), [
      [
        'parts',
        [
          ['add_f32', ['a', 'b']],
          ['main', ['x', 'extra', 'y', 'fig1', 'tail', 'r', 'zero', 'comb', 't']],
        ],
      ],
    ]);
    assert.deepEqual(limits(client), [{ uri, shown: 13, total: 14 }]);
    await client.change(uri, [{ range: { start: line(10).start, end: line(11).start }, text: '' }]);
    await outline(client);
    await outline(client);
    assert.deepEqual(limits(client), [
      { uri, shown: 13, total: 14 },
      { uri, shown: 13, total: 13 },
    ]);
    await client.dispose();
  });
});

describe('server: a name used 150,000 times in one statement', function () {
  this.timeout(90_000);
  // More than a spread into push() takes as arguments.
  const USES = 150_000;
  const text =
    'HloModule m\n\nENTRY %main () -> f32[] {\n  %a = f32[2] parameter(0)\n' +
    `  %t = (${Array(USES).fill('f32[2]').join(',')}) tuple(${Array(USES).fill('%a').join(', ')})\n` +
    '  ROOT %c = f32[] constant(1)\n}\n';
  const uri = 'file:///w/many-uses.hlo';
  const onA = { textDocument: { uri }, position: { line: 3, character: 3 } };
  let client: TestClient;
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(uri, text);
  });
  after(() => client.dispose());

  it('answers every use to references and rename', async () => {
    const refs = await client.request<Location[]>('textDocument/references', {
      ...onA,
      context: { includeDeclaration: true },
    });
    assert.equal(refs.length, USES + 1);
    assert.deepEqual(refs[USES].range.start.line, 4);
    const edit = await client.request<{ changes: Record<string, unknown[]> }>('textDocument/rename', {
      ...onA,
      newName: 'b',
    });
    assert.equal(edit.changes[uri].length, USES + 1);
    assert.deepEqual(client.logs, []);
  });

  it('looks the statement up once, not once per use', async () => {
    // Each use found in the text was placed in its statement, though one parse gives them all.
    const { prototype } = HloDocument;
    const indexAt = Object.getOwnPropertyDescriptor(prototype, 'statementIndexAt')?.value as (
      offset: number,
    ) => number;
    let lookups = 0;
    prototype.statementIndexAt = function (this: HloDocument, offset: number) {
      lookups++;
      return indexAt.call(this, offset);
    };
    try {
      for (const method of ['textDocument/references', 'textDocument/documentHighlight']) {
        lookups = 0;
        const answer = await client.request<unknown[]>(method, {
          ...onA,
          context: { includeDeclaration: true },
        });
        assert.equal(answer.length, USES + 1);
        assert.ok(lookups < 20, `${method}: ${lookups} statement lookups`);
      }
    } finally {
      prototype.statementIndexAt = indexAt;
    }
  });
});
