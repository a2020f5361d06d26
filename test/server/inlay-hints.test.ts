/** Inlay hints after padded result shapes, by mode, and the assumed-tiling label. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InlayHint } from 'vscode-languageserver';
import { TestClient } from './harness';

const padded = readFileSync(join(__dirname, 'fixtures', 'padded.after_optimizations.hlo'), 'utf8');
const untiled =
  'HloModule m\n\nENTRY %e () -> f32[1024,4] {\n  ROOT %c = f32[1024,4]{1,0} constant({...})\n}\n';
const whole = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };

async function hints(settings: unknown, uri: string, text: string, range = whole): Promise<InlayHint[]> {
  const { client } = await TestClient.start(settings);
  await client.open(uri, text);
  const out = await client.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range });
  await client.dispose();
  return out;
}

describe('server: inlay hints', () => {
  it('labels each padded result with logical → physical bytes and the factor (auto: tiled dump)', async () => {
    const out = await hints({}, 'file:///w/dump.hlo', padded);
    const lines = padded.split('\n');
    assert.deepEqual(
      out.map((h) => [
        h.position.line,
        lines[h.position.line].slice(0, h.position.character).split(' ').pop(),
        h.label,
      ]),
      [
        [3, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
        [4, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
        [5, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
        [9, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
        [11, 'f32[3,5]{1,0:T(2,2)}', '60 B → 96 B (1.6x)'],
        [12, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
        [13, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
      ],
    );
    assert.equal(out[0].paddingLeft, true);
    assert.match(
      out[0].tooltip as string,
      /^1,048,576 bytes logical, 33,554,432 bytes physical\. dim 1 \(x, size 4\)/,
    );
  });

  it('answers only for the requested range', async () => {
    const out = await hints({}, 'file:///w/dump.hlo', padded, {
      start: { line: 11, character: 0 },
      end: { line: 11, character: 200 },
    });
    assert.deepEqual(
      out.map((h) => h.label),
      ['60 B → 96 B (1.6x)'],
    );
  });

  it('auto is off for an untiled dump without after_optimizations in its name; on forces them', async () => {
    assert.deepEqual(await hints({}, 'file:///w/plain.hlo', untiled), []);
    assert.deepEqual(await hints({ inlayHints: { mode: 'on' } }, 'file:///w/plain.hlo', untiled), []);
    assert.deepEqual(await hints({ inlayHints: { mode: 'off' } }, 'file:///w/dump.hlo', padded), []);
  });

  it('shows the assumed TPU padding, labelled assumed', async () => {
    const out = await hints(
      { inlayHints: { mode: 'on' }, assumedTiling: 'tpu' },
      'file:///w/plain.hlo',
      untiled,
    );
    assert.deepEqual(
      out.map((h) => h.label),
      ['assumed 16 KiB → 512 KiB (32x)'],
    );
    assert.match(out[0].tooltip as string, /Assumed TPU 32-bit: \(8,128\); the dump prints no tiles\./);
  });
});
