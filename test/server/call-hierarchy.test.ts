/** Call hierarchy of computations over the real protocol: prepare, incoming and outgoing calls. */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SymbolKind,
  type CallHierarchyIncomingCall,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  type DocumentSymbol,
  type Range,
} from 'vscode-languageserver';
import { positionOf, TestClient, textOf } from './harness';
import { CORPUS_HLO_DIR } from '../support/corpus';

/** A while loop whose body calls one fused computation twice, a reduce, and a second module with a `%fused` of its own. */
const TEXT = `HloModule calls, entry_computation_layout={(f32[8]{0})->f32[]}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%fused (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%p)
}

%cond (c: (s32[], f32[8])) -> pred[] {
  %c = (s32[], f32[8]{0}) parameter(0)
  %i = s32[] get-tuple-element(%c), index=0
  %k = s32[] constant(4)
  ROOT %lt = pred[] compare(%i, %k), direction=LT
}

%body (b: (s32[], f32[8])) -> (s32[], f32[8]) {
  %b = (s32[], f32[8]{0}) parameter(0)
  %i = s32[] get-tuple-element(%b), index=0
  %v = f32[8]{0} get-tuple-element(%b), index=1
  %f = f32[8]{0} fusion(%v), kind=kLoop, calls=%fused
  %g = f32[8]{0} fusion(%f), kind=kLoop, calls=%fused
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  ROOT %t = (s32[], f32[8]{0}) tuple(%j, %g)
}

ENTRY %main (x: f32[8]) -> f32[] {
  %x = f32[8]{0} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[8]{0}) tuple(%zero, %x)
  %w = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body
  %r = f32[8]{0} get-tuple-element(%w), index=1
  %z = f32[] constant(0)
  ROOT %sum = f32[] reduce(%r, %z), dimensions={0}, to_apply=%add
}

HloModule other

%fused (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} abs(%p)
}

ENTRY %main2 (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  ROOT %f = f32[8]{0} fusion(%x), kind=kLoop, calls=%fused
}
`;

/** An item's name, the line of its selection range (the header), and its detail. */
function brief(item: CallHierarchyItem): [string, number, string] {
  return [item.name, item.selectionRange.start.line, item.detail ?? ''];
}

describe('server: call hierarchy', () => {
  let client: TestClient;
  const uri = 'file:///w/calls.hlo';
  const at = (needle: string, delta = 0, occurrence = 0) => ({
    textDocument: { uri },
    position: positionOf(TEXT, needle, delta, occurrence),
  });
  const prepare = (needle: string, delta = 0, occurrence = 0) =>
    client.request<CallHierarchyItem[] | null>(
      'textDocument/prepareCallHierarchy',
      at(needle, delta, occurrence),
    );
  const incoming = (item: CallHierarchyItem) =>
    client.request<CallHierarchyIncomingCall[] | null>('callHierarchy/incomingCalls', { item });
  const outgoing = (item: CallHierarchyItem) =>
    client.request<CallHierarchyOutgoingCall[] | null>('callHierarchy/outgoingCalls', { item });
  const sites = (ranges: Range[]) => ranges.map((r) => [textOf(TEXT, r), r.start.line]);

  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(uri, TEXT);
  });
  after(async () => {
    await client.dispose();
  });

  it('prepares the computation named at the cursor, or the one around it', async () => {
    const [main] = (await prepare('%main (', 1))!;
    assert.deepEqual(brief(main), ['main', 31, 'ENTRY']);
    assert.equal(textOf(TEXT, main.selectionRange), 'main');
    assert.deepEqual([main.range.start.line, main.range.end.line], [31, 39]);
    // A calls= reference names the computation it calls, in its own module.
    assert.deepEqual((await prepare('calls=%fused', 8))!.map(brief), [['fused', 8, '']]);
    assert.deepEqual((await prepare('calls=%fused', 8, 2))!.map(brief), [['fused', 43, '']]);
    // Anywhere else inside a computation: that computation.
    assert.deepEqual((await prepare('%j = ', 1))!.map(brief), [['body', 20, '']]);
    // The module header is in no computation.
    assert.deepEqual(await prepare('HloModule calls', 3), []);
  });

  it('lists the computations an ENTRY calls, in the order of their first call, with the call sites', async () => {
    const [main] = (await prepare('%main (', 1))!;
    const calls = (await outgoing(main))!;
    assert.deepEqual(
      calls.map((c) => [...brief(c.to), sites(c.fromRanges)]),
      [
        ['cond', 13, '', [['cond', 35]]],
        ['body', 20, '', [['body', 35]]],
        ['add', 2, '', [['add', 38]]],
      ],
    );
  });

  it('groups two calls of one computation, and finds callers only in the same module', async () => {
    const [body] = (await prepare('%body (', 1))!;
    const out = (await outgoing(body))!;
    assert.deepEqual(
      out.map((c) => [...brief(c.to), sites(c.fromRanges)]),
      [
        [
          'fused',
          8,
          '',
          [
            ['fused', 24],
            ['fused', 25],
          ],
        ],
      ],
    );
    const into = (await incoming(out[0].to))!;
    assert.deepEqual(
      into.map((c) => [...brief(c.from), sites(c.fromRanges)]),
      [
        [
          'body',
          20,
          '',
          [
            ['fused', 24],
            ['fused', 25],
          ],
        ],
      ],
    );
    const [other] = (await prepare('calls=%fused', 8, 2))!;
    assert.deepEqual(
      (await incoming(other))!.map((c) => [...brief(c.from), sites(c.fromRanges)]),
      [['main2', 48, 'ENTRY', [['fused', 50]]]],
    );
  });

  it('has no calls into an ENTRY and none out of a leaf computation', async () => {
    const [main] = (await prepare('%main (', 1))!;
    assert.deepEqual(await incoming(main), []);
    const [add] = (await prepare('%add (', 1))!;
    assert.deepEqual(await outgoing(add), []);
    assert.deepEqual(
      (await incoming(add))!.map((c) => brief(c.from)),
      [['main', 31, 'ENTRY']],
    );
  });

  it('still answers for an item prepared before an edit moved its computation', async () => {
    const edited = 'file:///w/calls-edited.hlo';
    await client.open(edited, TEXT);
    const [body] = await client.request<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', {
      textDocument: { uri: edited },
      position: positionOf(TEXT, '%body (', 1),
    });
    const blank = { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } };
    await client.change(edited, [{ range: blank, text: '\n\n\n' }]);
    const calls = await client.request<CallHierarchyOutgoingCall[]>('callHierarchy/outgoingCalls', {
      item: body,
    });
    assert.deepEqual(
      calls.map((c) => [c.to.name, c.to.selectionRange.start.line, c.fromRanges.map((r) => r.start.line)]),
      [['fused', 11, [27, 28]]],
    );
  });

  for (const file of readdirSync(CORPUS_HLO_DIR).filter((f) => f.endsWith('.hlo'))) {
    it(`counts every call site of ${file} once from each side`, async () => {
      const text = readFileSync(join(CORPUS_HLO_DIR, file), 'utf8');
      const fileUri = `file:///corpus/${file}`;
      await client.open(fileUri, text);
      const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
        textDocument: { uri: fileUri },
      });
      const computations = symbols.flatMap((s) =>
        s.kind === SymbolKind.Function
          ? [s]
          : (s.children ?? []).filter((c) => c.kind === SymbolKind.Function),
      );
      const key = (item: CallHierarchyItem, r: Range) =>
        `${item.name}@${item.selectionRange.start.line}<-${r.start.line}:${r.start.character}`;
      const outSites: string[] = [];
      const inSites: string[] = [];
      for (const c of computations) {
        const [item] = await client.request<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', {
          textDocument: { uri: fileUri },
          position: c.selectionRange.start,
        });
        assert.equal(item.name, c.name);
        for (const call of await client.request<CallHierarchyOutgoingCall[]>('callHierarchy/outgoingCalls', {
          item,
        })) {
          for (const r of call.fromRanges) outSites.push(key(call.to, r));
        }
        for (const call of await client.request<CallHierarchyIncomingCall[]>('callHierarchy/incomingCalls', {
          item,
        })) {
          for (const r of call.fromRanges) inSites.push(key(item, r));
        }
      }
      // An independent count: the names of defined computations after a computation-valued attribute.
      const defined = new Set(computations.map((c) => c.name));
      const lists = text.matchAll(
        /\b(?:calls|to_apply|condition|body|branch_computations|true_computation|false_computation|select|scatter|called_computations)=\s*(\{[^}]*\}|%?[\w.-]+)/g,
      );
      const expected = [...lists]
        .flatMap((m) => m[1].replace(/[{}%\s]/g, '').split(','))
        .filter((name) => defined.has(name)).length;
      assert.deepEqual(inSites.sort(), outSites.sort());
      assert.equal(outSites.length, expected, `call sites of ${file}`);
    });
  }
});
