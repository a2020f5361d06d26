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
        [12, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
        [13, 'f32[65536,4]{1,0:T(8,128)}', '1 MiB → 32 MiB (32x)'],
      ],
    );
    assert.equal(out[0].paddingLeft, true);
    assert.match(
      out[0].tooltip as string,
      /^1,048,576 bytes logical, 33,554,432 bytes physical\. dim 1 \(size 4, minor-most\)/,
    );
  });

  it('answers only for the requested range', async () => {
    // f32[3,5] pads 36 bytes: below the default minWastedBytes, shown with the thresholds at their minimum.
    const all = { inlayHints: { minExpansion: 1, minWastedBytes: 0 } };
    const out = await hints(all, 'file:///w/dump.hlo', padded, {
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

  it('leaves out padding that changes no decision: scalars, small waste, small factors', async () => {
    const text = [
      'HloModule m',
      'ENTRY %e {',
      '  %scalar = f32[]{:T(256)} parameter(0)',
      '  %small = f32[8,4]{1,0:T(8,128)} parameter(1)',
      '  %slight = f32[1000,1024]{1,0:T(8,128)} parameter(2)',
      '  %big = f32[1024,4]{1,0:T(8,128)} parameter(3)',
      '}',
      '',
    ].join('\n');
    const labels = async (settings: unknown) =>
      (await hints(settings, 'file:///w/some.after_optimizations.hlo', text)).map((h) => [
        h.position.line,
        h.label,
      ]);
    // f32[] wastes 1,020 B; f32[8,4] wastes 3,968 B (32x); f32[1000,1024] pads 1000 to 1000 rows
    // and nothing else: 1x; f32[1024,4] wastes 496 KiB (32x).
    assert.deepEqual(await labels({}), [
      [3, '128 B → 4 KiB (32x)'],
      [5, '16 KiB → 512 KiB (32x)'],
    ]);
    assert.deepEqual(await labels({ inlayHints: { minWastedBytes: 4096 } }), [[5, '16 KiB → 512 KiB (32x)']]);
    assert.deepEqual(await labels({ inlayHints: { scalars: true, minWastedBytes: 0 } }), [
      [2, '4 B → 1 KiB (256x)'],
      [3, '128 B → 4 KiB (32x)'],
      [5, '16 KiB → 512 KiB (32x)'],
    ]);
    // Asked for, a scalar gets its hint with the default minimum of wasted bytes, which it is under.
    assert.deepEqual(await labels({ inlayHints: { scalars: true } }), [
      [2, '4 B → 1 KiB (256x)'],
      [3, '128 B → 4 KiB (32x)'],
      [5, '16 KiB → 512 KiB (32x)'],
    ]);
    assert.deepEqual(await labels({ inlayHints: { minExpansion: 64 } }), []);
  });

  it("keeps the hints of a tuple's line within what VS Code shows of one line", async () => {
    const leaf = 'f32[1024,4]{1,0:T(8,128)}';
    const tuple = (n: number) => `(${Array.from({ length: n }, () => leaf).join(', ')})`;
    const text = [
      'HloModule m',
      'ENTRY %e {',
      `  %one = ${tuple(1)} parameter(0)`,
      `  %two = ${tuple(2)} parameter(1)`,
      `  %many = ${tuple(15)} parameter(2)`,
      '}',
      '',
    ].join('\n');
    const out = await hints({}, 'file:///w/t.after_optimizations.hlo', text);
    const byLine = (line: number) =>
      out.filter((h) => h.position.line === line).map((h) => h.label as string);
    assert.deepEqual(byLine(2), ['16 KiB → 512 KiB (32x)']);
    // Two full labels are 44 characters, past the 43 VS Code shows of a line: the factors.
    assert.deepEqual(byLine(3), ['32x', '32x']);
    assert.match(
      out.find((h) => h.position.line === 3)?.tooltip as string,
      /^16,384 bytes logical, 524,288 bytes physical/,
    );
    // Fifteen factors are 45 characters: one hint after the last leaf, every leaf in its tooltip.
    const many = out.filter((h) => h.position.line === 4);
    assert.deepEqual(
      many.map((h) => h.label),
      ['15 arrays pad, up to 32x'],
    );
    assert.equal(many[0].position.character, text.split('\n')[4].lastIndexOf(leaf) + leaf.length);
    assert.equal((many[0].tooltip as string).split('\n').length, 15);
    for (const line of [2, 3, 4])
      assert.ok(byLine(line).join('').length <= 43, `line ${line}: ${byLine(line).join(' ')}`);
  });
});
