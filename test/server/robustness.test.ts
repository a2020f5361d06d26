/**
 * The document model under edits, cancellation, big files and hostile input: incremental analysis
 * must equal a fresh analysis of the same text, long requests must stop when cancelled, big files
 * announce their analysis, and nothing may take the server down.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import {
  LSPErrorCodes,
  type CallHierarchyItem,
  type Connection,
  type Diagnostic,
  type DocumentSymbol,
  type Hover,
  type SelectionRange,
} from 'vscode-languageserver';
import {
  AnalysisProgressNotification,
  AnalyzeShapeRequest,
  PaddingReportRequest,
  type AnalysisProgressParams,
} from '../../protocol/src/lsp';
import { TestClient } from './harness';
import { Analyzer } from '../../server/src/analyzer';
import { HloDocument } from '../../server/src/document';
import type { DiagnosticsPublisher } from '../../server/src/publisher';
import { analyzeWhole } from '../../server/src/whole-analysis';
import { readSettingsSection } from '../../protocol/src/settings';
import { ManualClock } from '../support/manual-clock';
import { CORPUS_HLO_DIR } from '../support/corpus';

const CORPUS = CORPUS_HLO_DIR;
const FIXTURES = join(__dirname, 'fixtures');
const texts = [
  ...['invalid.hlo', 'parts.hlo', 'padded.after_optimizations.hlo'].map((f) =>
    readFileSync(join(FIXTURES, f), 'utf8'),
  ),
  ...readdirSync(CORPUS)
    .filter((f) => f.endsWith('.hlo'))
    .slice(0, 8)
    .map((f) => readFileSync(join(CORPUS, f), 'utf8')),
];
/** Snippets an edit may insert: brackets that change statement boundaries, bad tiles, newlines. */
const SNIPPETS = [
  '(',
  ')',
  '{',
  '}',
  '\n',
  ',',
  'T()',
  ':T(8,-1)',
  'f32[2]{0}',
  ' %x = f32[3]{1} copy(%y)\n',
  '',
  '//',
  '"',
];

function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length - 1, character: offset - before.lastIndexOf('\n') - 1 };
}

/** Diagnostics and outline in a comparable form. */
async function state(client: TestClient, uri: string, diags: Diagnostic[]): Promise<unknown> {
  const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
    textDocument: { uri },
  });
  const flat = (s: DocumentSymbol[]): unknown[] =>
    s.map((x) => [x.name, x.range, x.detail, flat(x.children ?? [])]);
  return { diags: diags.map((d) => [d.code, d.range, d.message]), symbols: flat(symbols) };
}

describe('server: incremental analysis', () => {
  it('after random edits equals a fresh analysis of the same text', async () => {
    const { client } = await TestClient.start();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: texts.length - 1 }),
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(40), fc.constantFrom(...SNIPPETS)),
          { minLength: 1, maxLength: 6 },
        ),
        async (which, edits) => {
          run++;
          const uri = `file:///w/edit-${run}.hlo`;
          let text = texts[which];
          let diags = await client.open(uri, text);
          for (const [where, length, insert] of edits) {
            const start = Math.floor(where * text.length);
            const end = Math.min(text.length, start + length);
            const range = { start: positionAt(text, start), end: positionAt(text, end) };
            text = text.slice(0, start) + insert + text.slice(end);
            diags = await client.change(uri, [{ range, text: insert }]);
          }
          const fresh = `file:///w/fresh-${run}.hlo`;
          const freshDiags = await client.open(fresh, text);
          assert.deepEqual(await state(client, uri, diags), await state(client, fresh, freshDiags));
          await client.close(uri);
          await client.close(fresh);
        },
      ),
      { numRuns: 60, seed: 20261122 },
    );
    await client.dispose();
  });

  it('applies several changes of one notification in order, and full-text replacements', async () => {
    const { client } = await TestClient.start();
    const uri = 'file:///w/multi.hlo';
    const text = 'HloModule m\nENTRY %e () -> f32[2] {\n  ROOT %c = f32[2]{0} constant({...})\n}\n';
    await client.open(uri, text);
    const after = await client.change(uri, [
      { range: { start: { line: 2, character: 19 }, end: { line: 2, character: 20 } }, text: '1' },
      { range: { start: { line: 2, character: 20 }, end: { line: 2, character: 20 } }, text: ':T()' },
    ]);
    assert.deepEqual(
      after.map((d) => d.code),
      ['minor-to-major-out-of-bounds', 'tile-empty'],
    );
    const full = await client.change(uri, [{ text }]);
    assert.deepEqual(full, []);
    await client.dispose();
  });
});

/** A tiled dump of `n` instructions in one computation. */
function bigDump(n: number): string {
  const lines = [
    'HloModule big',
    '',
    'ENTRY %main (p: f32[1024,4]) -> f32[1024,4] {',
    '  %i0 = f32[1024,4]{1,0:T(8,128)} parameter(0)',
  ];
  for (let i = 1; i < n; i++)
    lines.push(
      `  %i${i} = f32[1024,4]{1,0:T(8,128)} add(f32[1024,4]{1,0:T(8,128)} %i${i - 1}, f32[1024,4]{1,0:T(8,128)} %i0), metadata={op_name="jit(f)/add" source_file="model.py" source_line=${i}}`,
    );
  lines.push(`  ROOT %out = f32[1024,4]{1,0:T(8,128)} copy(%i${n - 1})`, '}', '');
  return lines.join('\n');
}

describe('server: large documents and cancellation', () => {
  it('announces the analysis of a document over 5 MB: started, how far it got, finished', async () => {
    const { client } = await TestClient.start({}, undefined, { progressMs: 1 });
    const text = bigDump(40000);
    assert.ok(text.length > 5 * 1024 * 1024);
    await client.open('file:///w/big.hlo', text);
    const progress = client.notifications
      .filter((n) => n.method === AnalysisProgressNotification.method)
      .map((n) => n.params as AnalysisProgressParams);
    assert.deepEqual(progress[0], { uri: 'file:///w/big.hlo', state: 'started', size: text.length });
    assert.deepEqual(progress.at(-1), { uri: 'file:///w/big.hlo', state: 'finished', size: text.length });
    // Reported at every slice after the first millisecond: each a larger share, below 1.
    const shares = progress.slice(1, -1).map((p) => {
      assert.deepEqual([p.uri, p.state, p.size], ['file:///w/big.hlo', 'progress', text.length]);
      return p.done ?? NaN;
    });
    assert.ok(shares.length > 0, 'at least one report of how far the analysis got');
    shares.forEach((s, i) =>
      assert.ok(s > (shares[i - 1] ?? 0) && s < 1, `share ${s} after ${shares[i - 1]}`),
    );
    await client.dispose();
  });

  it('publishes the diagnostics found so far while it analyses a large document it opened, top of the file first', async () => {
    // Every instruction's f32[1024,4] pads 32x under T(8,128): a warning on each, with no minimum
    // waste, and all of them listed (diagnostics.maxWarnings would cut them at 1,000).
    const { client } = await TestClient.start(
      { padding: { warnMinWastedBytes: 0 }, diagnostics: { maxWarnings: 1_000_000 } },
      undefined,
      {
        partialDiagnosticsMs: 1,
      },
    );
    const uri = 'file:///w/big.hlo';
    const all = await client.open(uri, bigDump(40000));
    assert.ok(all.length > 39000, `${all.length} padding warnings`);
    assert.ok(client.partials.length > 0, 'some diagnostics were published before the analysis finished');
    assert.ok(client.partials[0].diagnostics.length < all.length);
    let previous = 0;
    for (const p of client.partials) {
      assert.equal(p.uri, uri);
      assert.equal(p.version, 1);
      // Each is the start of the complete list: the statements analysed so far, in text order.
      const n = p.diagnostics.length;
      assert.ok(n > previous, 'each partial publish adds diagnostics');
      assert.deepEqual(p.diagnostics, all.slice(0, n));
      previous = n;
    }

    // A re-analysis (a padding threshold changed) leaves the diagnostics on screen until the new ones are complete.
    const partialsBefore = client.partials.length;
    const bracketing = () =>
      client.notifications.filter(
        (n) =>
          n.method === AnalysisProgressNotification.method &&
          (n.params as AnalysisProgressParams).state !== 'progress',
      ).length;
    const progressBefore = bracketing();
    client.settings = {
      padding: { warnMinWastedBytes: 0, warnExpansion: 64 },
      diagnostics: { maxWarnings: 1_000_000 },
    };
    const quiet = client.waitFor(uri, (p) => p.diagnostics.length === 0);
    await client.rpc.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await quiet;
    assert.equal(bracketing(), progressBefore + 2, 'the re-analysis ran, started then finished');
    assert.equal(client.partials.length, partialsBefore);
    await client.dispose();
  });

  it('publishes nothing before the analysis finishes when the warnings found are turned off', async () => {
    const settings = {
      padding: { warnMinWastedBytes: 0 },
      diagnostics: { severity: { 'padding-overhead': 'off' } },
    };
    const { client } = await TestClient.start(settings, undefined, { partialDiagnosticsMs: 1 });
    assert.deepEqual(await client.open('file:///w/big.hlo', bigDump(40000)), []);
    assert.deepEqual(client.partials, []);
    await client.dispose();
  });

  it('looks for diagnostics to show a wait apart while there are none, not at every slice', async () => {
    const settings = readSettingsSection({
      padding: { warnMinWastedBytes: 0 },
      diagnostics: { severity: { 'padding-overhead': 'off' } },
    }).settings;
    const doc = new HloDocument('file:///w/big.hlo', 'hlo', 1, bigDump(40000), new Analyzer(settings));
    let looks = 0;
    const publisher = {
      publishFoundSoFar: (_doc: HloDocument, shown: number) => {
        looks++;
        return shown;
      },
    } as unknown as DiagnosticsPublisher;
    const connection = { sendNotification: () => Promise.resolve() } as unknown as Connection;
    const start = Date.now();
    await analyzeWhole(doc, { connection, publisher, options: { partialDiagnosticsMs: 50 } });
    const elapsed = Date.now() - start;
    assert.ok(looks >= 1, 'it looked');
    assert.ok(looks <= elapsed / 50 + 1, `${looks} looks in ${elapsed} ms`);
  });

  it('collects garbage before and after analysing a document over 5 MB, and not for small ones', async () => {
    const calls: string[] = [];
    const { client } = await TestClient.start({}, undefined, { collectGarbage: () => calls.push('gc') });
    await client.open('file:///w/small.hlo', bigDump(10));
    assert.deepEqual(calls, []);
    const text = bigDump(40000);
    const diagnostics = await client.open('file:///w/big.hlo', text);
    // The second collection runs after the publish, before the next message is handled.
    const h = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: 'file:///w/big.hlo' },
      position: { line: 3, character: 12 },
    });
    assert.deepEqual(calls, ['gc', 'gc']);
    assert.match((h?.contents as { value: string }).value, /Result of `%i0`/);
    const fresh = await TestClient.start();
    assert.deepEqual(diagnostics, await fresh.client.open('file:///w/big.hlo', text));
    await fresh.client.dispose();
    await client.dispose();
  });

  it('collects garbage once, after a quiet spell, when edits republish 10,000 diagnostics or more', async () => {
    const calls: string[] = [];
    const quietMs = 1000;
    const idleClock = new ManualClock();
    // Every result f32[1024,4] padded to 128 columns gets a padding warning (496 KiB wasted each),
    // all of them listed (diagnostics.maxWarnings would cut them at 1,000).
    const { client } = await TestClient.start(
      { padding: { warnMinWastedBytes: 0 }, diagnostics: { maxWarnings: 1_000_000 } },
      undefined,
      {
        collectGarbage: () => calls.push('gc'),
        idleCollectionMs: quietMs,
        idleClock,
      },
    );
    // A document under 5 MB (no collection around its open) with a padding warning per instruction.
    const uri = 'file:///w/many.hlo';
    const text = bigDump(10_500);
    assert.ok(text.length < 5 * 1024 * 1024);
    await client.open('file:///w/few.hlo', bigDump(10));
    await client.change('file:///w/few.hlo', [
      { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, text: ' ' },
    ]);
    assert.equal(idleClock.pending, 0, 'a small list schedules nothing');
    const opened = await client.open(uri, text);
    assert.ok(opened.length >= 10_000, String(opened.length));
    for (const edit of [' ', '']) {
      idleClock.advance(quietMs - 1);
      const range = { start: { line: 5, character: 0 }, end: { line: 5, character: edit === '' ? 1 : 0 } };
      assert.ok((await client.change(uri, [{ range, text: edit }])).length >= 10_000);
    }
    assert.deepEqual(calls, [], 'nothing while publishes follow each other');
    assert.equal(idleClock.pending, 1, 'each large publish moves the one collection on');
    idleClock.advance(quietMs - 1);
    assert.deepEqual(calls, [], 'not before the quiet spell is over');
    idleClock.advance(1);
    assert.deepEqual(calls, ['gc'], 'one collection for the three publishes');
    assert.equal(idleClock.pending, 0, 'none while nothing is published');
    await client.dispose();
  });

  it('collects garbage once, after a quiet spell, when an outline lists 10,000 items', async () => {
    const calls: string[] = [];
    const quietMs = 100;
    const idleClock = new ManualClock();
    // Each array wastes 496 KiB: under a 1 MiB floor, no padding warnings.
    const { client } = await TestClient.start({ padding: { warnMinWastedBytes: 1048576 } }, undefined, {
      collectGarbage: () => calls.push('gc'),
      idleCollectionMs: quietMs,
      idleClock,
    });
    const outline = (uri: string) =>
      client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    // Under 5 MB and without warnings: neither the open nor its publish collects.
    await client.open('file:///w/many.hlo', bigDump(10_500));
    await client.open('file:///w/few.hlo', bigDump(10));
    await outline('file:///w/few.hlo');
    assert.equal(idleClock.pending, 0, 'a small outline schedules nothing');
    const symbols = await outline('file:///w/many.hlo');
    assert.equal(symbols[0].children![0].children!.length, 9_999, 'the outline is cut at 10,000 items');
    idleClock.advance(quietMs);
    assert.deepEqual(calls, ['gc']);
    await client.dispose();
  });

  it('answers ContentModified when the document is edited under a long request', async function () {
    // Two padding reports over 40,000 instructions: 8-18 s on a loaded 2-core machine.
    this.timeout(120_000);
    const { client } = await TestClient.start();
    const uri = 'file:///w/big.hlo';
    await client.open(uri, bigDump(40000));
    const pending = client.rpc.sendRequest(PaddingReportRequest, { textDocument: { uri } });
    const changed = client.change(uri, [
      { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: ' ' },
    ]);
    await assert.rejects(pending, (e: unknown) => e instanceof ResponseError && e.code === -32801);
    await changed;
    // Asked again, it answers for the edited text.
    const report = await client.request(PaddingReportRequest, { textDocument: { uri } });
    assert.ok(report);
    assert.equal(report.totalRows, 40001);
    assert.deepEqual(
      client.logs.filter((l) => /failed/.test(l)),
      [],
    );
    await client.dispose();
  });

  it('answers null to a padding report whose document closes under it', async function () {
    this.timeout(120_000);
    const { client } = await TestClient.start();
    const uri = 'file:///w/big.hlo';
    await client.open(uri, bigDump(20000));
    const pending = client.rpc.sendRequest(PaddingReportRequest, { textDocument: { uri } });
    await client.rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
    assert.equal(await pending, null);
    await client.dispose();
  });

  it('stops a long outline request when it is cancelled', async () => {
    const { client } = await TestClient.start();
    await client.open('file:///w/big.hlo', bigDump(40000));
    const source = new CancellationTokenSource();
    const pending = client.rpc.sendRequest(
      'textDocument/documentSymbol',
      { textDocument: { uri: 'file:///w/big.hlo' } },
      source.token,
    );
    source.cancel();
    await assert.rejects(pending, (e: unknown) => e instanceof ResponseError && e.code === -32800);
    // The server still answers afterwards.
    const h = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: 'file:///w/big.hlo' },
      position: { line: 3, character: 12 },
    });
    assert.match((h?.contents as { value: string }).value, /Result of `%i0`/);
    await client.dispose();
  });
});

describe('server: hostile input', function () {
  // Many requests over heavy documents: it takes 10-20 s on a loaded 2-core machine.
  this.timeout(120_000);
  it('answers every request on random bytes, deep nesting (of tuples and of computations written in place), a 200,000-character line and 20,000 unknown names', async () => {
    // Every error listed: the 20,000 unknown names are counted below.
    const { client } = await TestClient.start({ diagnostics: { maxErrors: 1_000_000 } });
    const junk = Array.from({ length: 4000 }, (_, i) => String.fromCharCode((i * 7919) % 251 || 1)).join('');
    const deep = `HloModule d\nENTRY %e () -> f32[] {\n  ROOT %t = ${'('.repeat(10000)}f32[]${')'.repeat(10000)} tuple()\n}\n`;
    // Computations written in place, each inside the one before: 10,000 scopes deep.
    const inline = `HloModule i\nENTRY %e {\n${'  %p = f32[] parameter(0)\n  %t = f32[] fusion(%p), kind=kLoop, calls=\n  {\n'.repeat(10000)}${'  ROOT %r = f32[] negate(%p)\n  }\n'.repeat(10000)}}\n`;
    const wide = `HloModule w, entry_computation_layout={(${Array.from({ length: 8000 }, () => 'bf16[8,128]{1,0:T(8,128)(2,1)}').join(', ')})->f32[]}\n`;
    // 20,000 operands of a computation written in place, each naming one of the 10,000 instructions around it.
    const unseen = `HloModule u\nENTRY %e {\n${Array.from({ length: 10000 }, (_, i) => `  %a${i} = f32[] parameter(${i})\n`).join('')}  ROOT %f = f32[] fusion(%a0), kind=kLoop, calls=\n  {\n    ROOT %r = f32[] add(${Array.from({ length: 20000 }, (_, i) => `%a${i % 10000}`).join(', ')})\n  }\n}\n`;
    for (const [name, text] of [
      ['junk', junk],
      ['deep', deep],
      ['inline', inline],
      ['wide', wide],
      ['unseen', unseen],
    ] as const) {
      const uri = `file:///w/${name}.hlo`;
      await client.open(uri, text);
      const lines = text.split('\n');
      const items = new Set<string>();
      for (let line = 0; line < Math.min(lines.length, 50); line++) {
        for (const character of [0, 1, 5, 17, 100, 5000, 199999]) {
          if (character > lines[line].length) continue;
          const p = { textDocument: { uri }, position: { line, character } };
          await client.request('textDocument/hover', p);
          await client.request('textDocument/definition', p);
          await client.request(AnalyzeShapeRequest, p);
          await client.request('textDocument/completion', p);
          const [selection] = await client.request<SelectionRange[]>('textDocument/selectionRange', {
            textDocument: p.textDocument,
            positions: [p.position],
          });
          let depth = 0;
          for (let s: SelectionRange | undefined = selection; s; s = s.parent) depth++;
          assert.ok(depth <= 24, `${name}: ${depth} nested selection ranges`);
          // A rename may be refused (with its reason), never fail otherwise.
          const refused = (e: unknown) =>
            assert.ok(e instanceof ResponseError && e.code === LSPErrorCodes.RequestFailed, String(e));
          await client.request('textDocument/prepareRename', p).catch(refused);
          await client.request('textDocument/rename', { ...p, newName: 'renamed' }).catch(refused);
          for (const item of (await client.request<CallHierarchyItem[]>(
            'textDocument/prepareCallHierarchy',
            p,
          )) ?? []) {
            // Each item's calls once: the outgoing calls of a 40,000-statement computation take 0.2-0.3 s.
            const key = `${item.name}@${item.selectionRange.start.line}`;
            if (items.has(key)) continue;
            items.add(key);
            await client.request('callHierarchy/incomingCalls', { item });
            await client.request('callHierarchy/outgoingCalls', { item });
          }
        }
      }
      await client.request('workspace/symbol', { query: text.slice(0, 3) });
      await client.request('textDocument/documentSymbol', { textDocument: { uri } });
      await client.request('textDocument/foldingRange', { textDocument: { uri } });
      await client.request('textDocument/inlayHint', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } },
      });
    }
    const deepDiags = client.diagnostics('file:///w/deep.hlo');
    assert.ok(deepDiags.some((d) => d.code === 'recursion-depth'));
    const unseenDiags = client.diagnostics('file:///w/unseen.hlo');
    assert.equal(
      unseenDiags.filter(
        (d) =>
          d.code === 'instruction-undefined' && /belongs to the computation around this one/.test(d.message),
      ).length,
      20000,
    );
    assert.deepEqual(
      client.logs.filter((l) => /failed/.test(l)),
      [],
    );
    await client.dispose();
  });
});
