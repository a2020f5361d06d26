/**
 * Computations written in place (`calls=\n{ ... }`, as XLA's own tests write fusions and reducers)
 * over the real protocol: their names are their own, as in XLA's parser, and the computation around
 * them goes on after their `}`.
 */
import { strict as assert } from 'node:assert';
import type {
  CallHierarchyItem,
  CompletionList,
  DocumentHighlight,
  DocumentSymbol,
  FoldingRange,
  Location,
  SelectionRange,
  SymbolInformation,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver';
import { PaddingReportRequest, SourceInstructionsRequest } from '../../protocol/src/lsp';
import fc from 'fast-check';
import { inlineBody, inlineModule } from '../support/inline-hlo';
import { assertReferencesAsModel, positionOf, TestClient, textOf } from './harness';

const TEXT = `HloModule inline

%add (x0: f32[], y0: f32[]) -> f32[] {
  %x0 = f32[] parameter(0)
  %y0 = f32[] parameter(1)
  ROOT %sum = f32[] add(%x0, %y0)
}

%outer (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  %t = f32[8]{0} fusion(%p), kind=kLoop, calls=
  {
    %p = f32[8]{0} parameter(0)
    %t = f32[8]{0} negate(%p)
    ROOT %u = f32[8]{0} add(%t, %p)
  }
  %z = f32[] constant(0)
  %r = f32[] reduce(%t, %z), dimensions={0}, to_apply={
    %a = f32[] parameter(0)
    %b = f32[] parameter(1)
    ROOT %s = f32[] call(%a, %b), to_apply=%add
  }
  ROOT %out = f32[8]{0} add(%t, %p)
}

ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  ROOT %c = f32[8]{0} call(%x), to_apply=%outer
}
`;

describe('server: computations written in place', () => {
  let client: TestClient;
  const uri = 'file:///w/inline.hlo';
  const at = (needle: string, delta = 0, occurrence = 0) => ({
    textDocument: { uri },
    position: positionOf(TEXT, needle, delta, occurrence),
  });
  const lines = (locations: readonly { range: { start: { line: number } } }[]) =>
    locations.map((l) => l.range.start.line);
  before(async () => {
    ({ client } = await TestClient.start());
    const diagnostics = await client.open(uri, TEXT);
    assert.deepEqual(diagnostics, []);
  });
  after(async () => {
    await client.dispose();
  });

  it('resolves a name inside to the definition inside, and one after the `}` to the definition outside', async () => {
    // `%p` in negate(%p), line 13, is the inline computation's parameter on line 12, not line 9's.
    let defs = await client.request<Location[]>('textDocument/definition', at('negate(%p)', 8));
    assert.deepEqual(lines(defs), [12]);
    // `%t` in add(%t, %p) of line 14 is line 13's negate; after the `}`, `%t` is line 10's fusion.
    defs = await client.request<Location[]>('textDocument/definition', at('add(%t, %p)', 5, 0));
    assert.deepEqual(lines(defs), [13]);
    defs = await client.request<Location[]>('textDocument/definition', at('add(%t, %p)', 5, 1));
    assert.deepEqual(lines(defs), [10]);
    defs = await client.request<Location[]>('textDocument/definition', at('reduce(%t', 8));
    assert.deepEqual(lines(defs), [10]);
  });

  it('finds references and highlights within one scope only', async () => {
    const outerP = await client.request<Location[]>('textDocument/references', {
      ...at('%p = ', 1, 0),
      context: { includeDeclaration: true },
    });
    // Line 9's %p: the signature's `p`, the fusion's operand and the ROOT's operand; not lines 12-14.
    assert.deepEqual(
      lines(outerP).sort((a, b) => a - b),
      [8, 9, 10, 22],
    );
    const innerP = await client.request<DocumentHighlight[]>(
      'textDocument/documentHighlight',
      at('%p = ', 1, 1),
    );
    assert.deepEqual(
      lines(innerP).sort((a, b) => a - b),
      [12, 13, 14],
    );
  });

  it('renames a name inside without touching the same name outside, and the other way round', async () => {
    const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
      ...at('%p = ', 1, 1),
      newName: 'q',
    });
    const edits = edit.changes?.[uri] ?? [];
    assert.deepEqual(edits.map((e: TextEdit) => [e.range.start.line, textOf(TEXT, e.range)]).sort(), [
      [12, 'p'],
      [13, 'p'],
      [14, 'p'],
    ]);
    // Line 10's %t is defined once in its scope, though the inline computation has a %t too.
    const outerT = await client.request<WorkspaceEdit>('textDocument/rename', {
      ...at('%t = ', 1, 0),
      newName: 'fused',
    });
    assert.deepEqual(
      (outerT.changes?.[uri] ?? []).map((e: TextEdit) => e.range.start.line).sort((a, b) => a - b),
      [10, 17, 22],
    );
  });

  it('completes the names of the innermost computation only', async () => {
    const inside = await client.request<CompletionList>('textDocument/completion', at('add(%t, %p)', 5, 0));
    assert.deepEqual(inside.items.map((i) => i.label).sort(), ['p', 't']);
    const after = await client.request<CompletionList>('textDocument/completion', at('add(%t, %p)', 5, 1));
    assert.deepEqual(after.items.map((i) => i.label).sort(), ['p', 'r', 't', 'z']);
  });

  it('outlines a computation written in place under the instruction that opens it', async () => {
    const [module] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
      textDocument: { uri },
    });
    assert.deepEqual(
      module.children!.map((c) => c.name),
      ['add', 'outer', 'main'],
    );
    const outer = module.children![1];
    assert.deepEqual(
      outer.children!.map((c) => [c.name, (c.children ?? []).map((k) => k.name)]),
      [
        ['p', []],
        ['t', ['p', 't', 'u']],
        ['z', []],
        ['r', ['a', 'b', 's']],
        ['out', []],
      ],
    );
    // The opener's range holds its computation, so the outline follows the cursor into it.
    const t = outer.children![1];
    assert.deepEqual([t.range.start.line, t.range.end.line], [10, 15]);
  });

  it('folds a computation written in place from its `{`', async () => {
    const folds = await client.request<FoldingRange[]>('textDocument/foldingRange', {
      textDocument: { uri },
    });
    const regions = folds.map((f) => [f.startLine, f.endLine]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    assert.deepEqual(regions, [
      [2, 5],
      [8, 22],
      [10, 11],
      [11, 14],
      [17, 20],
      [25, 27],
    ]);
  });

  it('expands the selection from an instruction inside to its computation, then the one around it', async () => {
    const [chain] = await client.request<SelectionRange[]>('textDocument/selectionRange', {
      textDocument: { uri },
      positions: [positionOf(TEXT, '%b = ', 1)],
    });
    const ranges: string[] = [];
    for (let r: SelectionRange | undefined = chain; r; r = r.parent) ranges.push(textOf(TEXT, r.range));
    const inline = TEXT.slice(TEXT.indexOf('{\n    %a'), TEXT.indexOf('  }\n  ROOT %out') + 3);
    const outer = TEXT.slice(TEXT.indexOf('%outer'), TEXT.indexOf('}\n\nENTRY') + 1);
    assert.deepEqual(ranges.slice(0, 4), ['b', '%b = f32[] parameter(1)', inline, outer]);
  });

  it('counts calls from inside as calls of the named computation around it', async () => {
    const [item] = await client.request<CallHierarchyItem[]>(
      'textDocument/prepareCallHierarchy',
      at('%a = ', 1),
    );
    assert.equal(item.name, 'outer');
    const outgoing = await client.request<
      { to: CallHierarchyItem; fromRanges: { start: { line: number } }[] }[]
    >('callHierarchy/outgoingCalls', { item });
    assert.deepEqual(
      outgoing.map((c) => [c.to.name, c.fromRanges.map((r) => r.start.line)]),
      [['add', [20]]],
    );
    const [add] = await client.request<CallHierarchyItem[]>(
      'textDocument/prepareCallHierarchy',
      at('%add (', 1),
    );
    const incoming = await client.request<
      { from: CallHierarchyItem; fromRanges: { start: { line: number } }[] }[]
    >('callHierarchy/incomingCalls', { item: add });
    assert.deepEqual(
      incoming.map((c) => [c.from.name, c.fromRanges.map((r) => r.start.line)]),
      [['outer', [20]]],
    );
  });

  it('follows edits that open and close a computation written in place', async () => {
    const editUri = 'file:///w/inline-edit.hlo';
    const text =
      'c {\n  a = f32[] parameter(0)\n  r = f32[] reduce(a, a), dimensions={}, to_apply=%add\n  ROOT x = f32[] negate(r)\n}\n';
    await client.open(editUri, text);
    const outline = async () => {
      const [c] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
        textDocument: { uri: editUri },
      });
      return c.children!.map(
        (k) => `${k.name}${k.children?.length ? `(${k.children.map((g) => g.name).join(' ')})` : ''}`,
      );
    };
    assert.deepEqual(await outline(), ['a', 'r', 'x']);
    // `%add` becomes `{` with a body of its own: the instruction now opens a computation.
    const start = positionOf(text, '%add');
    const body = '{\n    ROOT s = f32[] add(a, a)\n  }';
    await client.change(editUri, [
      { range: { start, end: { line: start.line, character: start.character + 4 } }, text: body },
    ]);
    assert.deepEqual(await outline(), ['a', 'r(s)', 'x']);
    const edited = text.replace('%add', body);
    const defs = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: editUri },
      position: positionOf(edited, 'add(a', 4),
    });
    assert.deepEqual(lines(defs), [], '`a` is not defined in the computation written in place');
    // Only the `{` changes, so only that statement's summary: the computation index must notice.
    const brace = { start, end: { line: start.line, character: start.character + 1 } };
    await client.change(editUri, [{ range: brace, text: '%add' }]);
    assert.deepEqual(await outline(), ['a', 'r', 's'], 'the `}` now closes c');
    await client.change(editUri, [
      { range: { start, end: { line: start.line, character: start.character + 4 } }, text: '{' },
    ]);
    assert.deepEqual(await outline(), ['a', 'r(s)', 'x']);
    // And back.
    await client.change(editUri, [
      { range: { start, end: positionOf(edited, '}\n  ROOT', 1) }, text: '%add' },
    ]);
    assert.deepEqual(await outline(), ['a', 'r', 'x']);
  });

  it('nests the outline at most 8 computations deep and lists deeper instructions flat there', async () => {
    const deepUri = 'file:///w/inline-deep.hlo';
    const levels = 12;
    const opening = (k: number) =>
      `  %p${k} = f32[] parameter(0)\n  %t${k} = f32[] fusion(%p${k}), kind=kLoop, calls=\n  {\n`;
    const text = `c {\n${Array.from({ length: levels }, (_, k) => opening(k)).join('')}  ROOT %leaf = f32[] constant(0)\n${'  }\n'.repeat(levels)}}\n`;
    await client.open(deepUri, text);
    const [c] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
      textDocument: { uri: deepUri },
    });
    const names: string[] = [];
    let depth = 0;
    const walk = (s: DocumentSymbol, d: number) => {
      depth = Math.max(depth, d);
      for (const k of s.children ?? []) {
        names.push(k.name);
        walk(k, d + 1);
      }
    };
    walk(c, 0);
    assert.equal(depth, 9, 'c, then 8 levels of openers, then their instructions');
    assert.deepEqual(
      names.sort(),
      [...Array.from({ length: levels }, (_, k) => [`p${k}`, `t${k}`]).flat(), 'leaf'].sort(),
    );
  });

  it('names the computation around one written in place in the padding report, source rows and workspace symbols, each instruction once', async () => {
    const reportUri = 'file:///w/inline-report.hlo';
    const text = [
      'HloModule r',
      'ENTRY %main {',
      '  %p = f32[8]{0:T(128)} parameter(0)',
      '  %t = f32[8]{0:T(128)} fusion(%p), kind=kLoop, calls=',
      '  {',
      '    %q = f32[8]{0:T(128)} parameter(0)',
      '    ROOT %n = f32[8]{0:T(128)} negate(%q), metadata={source_file="m.py" source_line=3}',
      '  }',
      '  ROOT %r = f32[8]{0:T(128)} copy(%t)',
      '}',
    ].join('\n');
    await client.open(reportUri, text);
    const report = await client.request(PaddingReportRequest, {
      textDocument: { uri: reportUri },
    });
    assert.ok(report);
    assert.deepEqual(report.rows.map((r) => `${r.name} ${r.computation}`).sort(), [
      'n main',
      'p main',
      'q main',
      'r main',
      't main',
    ]);
    const source = await client.request(SourceInstructionsRequest, {
      path: '/src/m.py',
      line: 3,
    });
    assert.ok(source);
    assert.deepEqual(
      source.items.filter((i) => i.uri === reportUri).map((i) => `${i.name} ${i.computation}`),
      ['n main'],
    );
    const symbols = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'q' });
    assert.deepEqual(
      symbols.filter((x) => x.location.uri === reportUri && x.name === 'q').map((x) => x.containerName),
      ['main'],
    );
  });

  it("finds for every name of random nests the occurrences core's module model resolves to it", async () => {
    let checked = 0;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(inlineBody(4), async (body) => {
        const { text } = inlineModule(body);
        const u = `file:///w/inline-random-${run++}.hlo`;
        await client.open(u, text);
        checked += await assertReferencesAsModel(client, u, text, text);
        await client.close(u);
      }),
      { numRuns: 40 },
    );
    assert.ok(checked > 200, String(checked));
  });
});
