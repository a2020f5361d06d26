/**
 * Incremental analysis of a document of several text chunks (server/src/text-store.ts keeps 64K
 * characters per chunk): after random edit sequences over the protocol, including deletes across
 * chunk seams, inserted line breaks of every kind and statements typed in, the published
 * diagnostics (codes, ranges, messages, in order) must equal those of a fresh server opening the
 * same text. Settings warn on any padding, so that thousands of diagnostics move with every edit
 * and the per-statement cache of converted diagnostics is exercised.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Diagnostic } from 'vscode-languageserver';
import { generateDump } from '../../bench/generate-dump';
import { CHUNK } from '../../server/src/text-store';
import { TestClient } from './harness';
import { positionAt, snap } from '../support/editor-positions';

const EAGER = { padding: { warnExpansion: 1, warnMinWastedBytes: 0 } };
const SNIPPETS = [
  '',
  '\n',
  '\r\n',
  '\r',
  '(',
  ')',
  '}',
  ',',
  ':T(8,-1)',
  'f32[2]{0:T()}',
  '  %x = bf16[3,5]{1,0:T(8,128)(2,1)} copy(%y)\n',
  'ENTRY %e () -> f32[] {\n',
  // What a computation is (fused, ENTRY) decides which padding warnings show.
  'ENTRY ',
  ' fusion(',
];

const comparable = (diags: readonly Diagnostic[]) =>
  diags.map((d) => [d.code, d.severity, d.range, d.message]);

describe('server: incremental analysis of a multi-chunk document', () => {
  let base = '';
  before(() => {
    const dir = mkdtempSync(join(tmpdir(), 'incremental-'));
    try {
      const file = join(dir, 'dump.after_optimizations.txt');
      generateDump(file, 5 * CHUNK, 3, 'model');
      base = readFileSync(file, 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publishes after random edit sequences what a fresh open of the same text publishes', async function () {
    this.timeout(300_000);
    assert.ok(base.length > 4 * CHUNK, `${base.length} characters span several chunks`);
    const { client } = await TestClient.start(EAGER);
    const fresh = await TestClient.start(EAGER);
    const initial = await client.open('file:///w/base.hlo', base);
    // Only ENTRY's buffers warn: the generated fused computations' values get no memory of their own.
    assert.ok(initial.length > 50, `${initial.length} diagnostics to move around`);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            // Mostly short deletes; now and then one across a chunk seam.
            fc.oneof(
              { weight: 5, arbitrary: fc.nat(60) },
              { weight: 1, arbitrary: fc.integer({ min: CHUNK / 2, max: 2 * CHUNK }) },
            ),
            fc.array(fc.constantFrom(...SNIPPETS), { maxLength: 3 }),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        async (edits) => {
          run++;
          const uri = `file:///w/edit-${run}.hlo`;
          let text = base;
          await client.open(uri, text);
          let diags: Diagnostic[] = [];
          for (const [where, length, insert] of edits) {
            const start = snap(text, Math.floor(where * text.length));
            const end = Math.max(start, snap(text, Math.min(text.length, start + length)));
            const inserted = insert.join('');
            const range = { start: positionAt(text, start), end: positionAt(text, end) };
            text = text.slice(0, start) + inserted + text.slice(end);
            diags = await client.change(uri, [{ range, text: inserted }]);
          }
          assert.deepEqual(
            comparable(diags),
            comparable(await fresh.client.open(`file:///w/fresh-${run}.hlo`, text)),
          );
          await client.close(uri);
          await fresh.client.close(`file:///w/fresh-${run}.hlo`);
        },
      ),
      { numRuns: 15 },
    );
    await client.dispose();
    await fresh.client.dispose();
  });
});
