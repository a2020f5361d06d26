/**
 * `xla-layout check --padding` gives the padding warnings the editor gives, on the same lines with
 * the same sentences: on the values XLA allocates only, also when a large file is checked in pieces
 * by worker threads (a fused computation's role is decided by a call in a later piece). Warnings
 * leave the exit status 0 unless --fail-on-warnings.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestClient } from '../server/harness';
import { cli, ROOT, useCliAndTempDir } from './run-cli';

const TPU = join(ROOT, 'test/memory/fixtures/tpu/module_0042.jit_train_step.after_optimizations.txt');
const EXAMPLE = join(ROOT, 'examples/tpu_padding.hlo');

interface Printed {
  readonly line: number;
  readonly column: number;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

/** The CLI's diagnostics of `file` as [line, column, code, message] (1-based). */
function checked(file: string, ...options: string[]): (string | number)[][] {
  const r = cli('check', '--json', '--padding', ...options, file);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { files: { diagnostics: Printed[] }[] };
  return j.files[0].diagnostics.map((d) => [d.line, d.column, d.code, d.message]);
}

describe("cli: check gives the editor's padding warnings", function () {
  this.timeout(120_000);
  let dir: string;
  useCliAndTempDir('xla-layout-padding-', (d) => (dir = d));

  for (const file of [EXAMPLE, TPU]) {
    it(`on ${file.slice(ROOT.length + 1)}: the same lines, columns and sentences as the server`, async () => {
      const { client } = await TestClient.start();
      try {
        const diags = await client.open('file:///w/f.hlo', readFileSync(file, 'utf8'));
        const editor = diags.map((d) => [
          d.range.start.line + 1,
          d.range.start.character + 1,
          String(d.code),
          d.message,
        ]);
        assert.ok(editor.length >= 3);
        assert.deepEqual(checked(file), editor);
      } finally {
        await client.dispose();
      }
    });
  }

  it('warns on the TPU fixture only on the three buffers of its buffer assignment', () => {
    assert.deepEqual(
      checked(TPU).map((d) => d[0]),
      [48, 49, 50],
    );
    assert.deepEqual(
      checked(EXAMPLE).map((d) => d[0]),
      [14, 16, 20],
    );
  });

  it('follows --warn-expansion and --warn-min-wasted-bytes, and gives none without --padding', () => {
    assert.deepEqual(
      checked(EXAMPLE, '--warn-expansion', '100').map((d) => d[0]),
      [16],
    );
    assert.deepEqual(
      checked(EXAMPLE, '--warn-min-wasted-bytes', '1000000').map((d) => d[0]),
      [16],
    );
    const printed = (...args: string[]): Printed[] =>
      (JSON.parse(cli('check', '--json', ...args, EXAMPLE).stdout) as { files: { diagnostics: Printed[] }[] })
        .files[0].diagnostics;
    assert.deepEqual(printed(), []);
    // A threshold asks for padding warnings on its own.
    assert.deepEqual(
      printed('--warn-expansion', '100').map((d) => d.line),
      [16],
    );
    assert.equal(cli('check', '--warn-expansion', '0.5', EXAMPLE).code, 2);
  });

  it('exits 0 on warnings alone, 1 with --fail-on-warnings', () => {
    const r = cli('check', '--padding', EXAMPLE);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /0 errors, 3 warnings/);
    assert.equal(cli('check', '--padding', '--fail-on-warnings', EXAMPLE).code, 1);
    assert.equal(cli('check', '--fail-on-warnings', EXAMPLE).code, 0);
  });

  it('decides fused computations over the whole file when it is checked in pieces', () => {
    // 2 MB of fused computations before the ENTRY that calls them: the pieces that hold them
    // learn only from the last one that they are fused.
    const text = readFileSync(TPU, 'utf8');
    const entry = text.indexOf('ENTRY');
    const fused = text.slice(
      text.indexOf('%fused_computation.44044'),
      text.indexOf('%fused_computation.10062'),
    );
    const copies = Array.from({ length: 6000 }, (_, i) =>
      fused.replaceAll('%fused_computation.44044', `%fused_computation.x${i}`),
    ).join('');
    const calls = Array.from(
      { length: 6000 },
      (_, i) =>
        `  %f.x${i} = u32[12582912,1]{1,0:T(8,128)} fusion(%copy.40488), kind=kLoop, calls=%fused_computation.x${i}\n`,
    ).join('');
    const entryText = text.slice(entry).replace('  %fusion.44044 =', `${calls}  %fusion.44044 =`);
    const big = text.slice(0, entry) + copies + entryText;
    assert.ok(big.length > 2_000_000);
    const file = join(dir, 'big.after_optimizations.txt');
    writeFileSync(file, big);
    const firstCall = big.split('\n').findIndex((l) => l.startsWith('  %f.x0 ')) + 1;
    const expected = [firstCall - 1, ...Array.from({ length: 6000 }, (_, i) => firstCall + i)];
    for (const jobs of ['1', '3']) {
      const lines = checked(file, '--jobs', jobs).map((d) => d[0]);
      assert.equal(lines.length, 6003, `--jobs ${jobs}`);
      assert.deepEqual(lines.slice(0, 6001), expected, `--jobs ${jobs}`);
    }
  });
});
