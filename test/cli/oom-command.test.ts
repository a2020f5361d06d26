/** `xla-layout oom`: a TPU out-of-memory message from a log file or standard input, as users run it. */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliAndTempDir, cli, CLI, ROOT } from './run-cli';

const EXAMPLE = 'examples/oom-hbm.log';

describe('cli: oom', function () {
  this.timeout(120_000);
  let dir: string;
  useCliAndTempDir('xla-layout-oom-', (d) => (dir = d));

  it('explains each allocation of the example, with the sizes in the message notation, and exits 0', () => {
    const r = cli('oom', EXAMPLE);
    assert.equal(r.code, 0);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 7), [
      '92.5% of the 22.38G in the listed allocations is padding (20.70G); the 3 layout changes below save 20.70G and bring hbm use from 22.39G to about 1.69G, under the 15.48G capacity, so it would fit.',
      'Out of memory in hbm: 22.39G used of 15.48G, 6.91G over (line 4).',
      '',
      '1. 16.00G in hbm, line 19: s32[2097152,16,2]{2,1,0:T(8,128)}',
      "   logical 256.00M -> physical 16.00G (64x); the message's 16.00G agrees",
      '   pads: dim 2, size 2, minor-most: T(8,128) pads 2 to 128 (64x)',
      '   fix: use minor_to_major {0,1,2} instead of {2,1,0}; dim 2 (size 2) is no longer minor-most -> 256.00M, saves 15.75G',
    ]);
    assert.ok(lines.includes('   source: model/grid.py line 41'));
    assert.equal(r.stderr, '');
  });

  it('reads standard input for -, as a pipe from the program that ran out of memory', () => {
    const piped = spawnSync(process.execPath, [CLI, 'oom', '-'], {
      cwd: ROOT,
      encoding: 'utf8',
      input: readFileSync(join(ROOT, EXAMPLE), 'utf8'),
    });
    assert.equal(piped.status, 0);
    assert.equal(piped.stdout, cli('oom', EXAMPLE).stdout);
  });

  it('--json gives each allocation with exact byte counts, 1-based lines and the padding causes', () => {
    const r = cli('oom', EXAMPLE, '--json');
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout) as {
      summaries: { line: number }[];
      allocations: Record<string, unknown>[];
    };
    assert.deepEqual(
      out.summaries.map((s) => s.line),
      [4],
    );
    const [first, , third, , fifth] = out.allocations;
    assert.deepEqual(
      [
        first.line,
        first.physicalBytes,
        first.logicalBytes,
        first.physicalSize,
        first.sizeAgrees,
        first.unpaddedAgrees,
      ],
      [19, '17179869184', '268435456', '16.00G', true, true],
    );
    assert.deepEqual(first.padding, [
      {
        dim: 2,
        size: '2',
        minorMost: true,
        factor: 64,
        causes: [{ tile: 0, entry: 1, from: '2', to: '128' }],
      },
    ]);
    assert.deepEqual((first.fix as { savedBytes: string }).savedBytes, '16911433728');
    assert.equal(third.assumedTiling, 'TPU 32-bit: (8,128)');
    assert.equal(fifth.problem, 'the message gives no shape for it');
  });

  it('exits 1 with a note on text holding no such message, and 2 on files it cannot read', () => {
    const none = cli('oom', 'README.md');
    assert.equal(none.code, 1);
    assert.match(none.stdout, /^No XLA out-of-memory message/);
    const binary = join(dir, 'core.bin');
    writeFileSync(binary, Buffer.from([0x52, 0x61, 0x00, 0x6e]));
    const bin = cli('oom', binary);
    assert.equal(bin.code, 2);
    assert.equal(
      bin.stderr,
      `xla-layout oom: ${binary}: binary file (NUL byte at offset 2), not a text log\n`,
    );
    const usage = cli('oom');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /oom takes one FILE/);
  });
});
