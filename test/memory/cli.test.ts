/**
 * `xla-layout memory` as users run it: on a module dump (companions found by name), on a companion,
 * on a dump folder, on a real jax dump folder, with --json; a disagreement exits 1, an unreadable
 * path 2, and a dump without a buffer assignment gets an estimate labelled as one.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryModuleJson } from '../../core/src';
import { useCliAndTempDir, cli } from '../cli/run-cli';
import { realDumpDir, realXla } from '../support/real-xla';

const TPU = join(__dirname, 'fixtures', 'tpu');
const HLO = join(TPU, 'module_0042.jit_train_step.after_optimizations.txt');

function modules(stdout: string): (MemoryModuleJson & { file: string })[] {
  return (JSON.parse(stdout) as { modules: (MemoryModuleJson & { file: string })[] }).modules;
}

describe('cli: memory', function () {
  this.timeout(300_000);
  let dir: string;
  useCliAndTempDir('xla-layout-memory-', (d) => (dir = d));

  it('answers first for a module dump: total, padding, peak, worst offender and the change, then the allocations', () => {
    const r = cli('memory', HLO, '--top', '2');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.deepEqual(lines.slice(1, 9), [
      '  XLA allocates 40.1 GiB (43,050,405,904 B) in 9 allocations; 37 GiB of it (92.2%) is padding.',
      '  Peak: 40.1 GiB live at step 6 of 15, at %fusion.44044 (cic.py:47); 37 GiB of it (92.2%) is padding.',
      '  Live then: 79.8% cic.py:41 (jit(train_step)/cic_update/FloorMod), 15% cic.py:47 (jit(train_step)/cic_update/bitcast_convert_type), 5.2% inputs (4 parameters), and 1 more.',
      '  Most padding: %copy.40488 s32[8388608,8,4]{2,1,0:T(8,128)} in allocation 8, 31 GiB of its 32 GiB: dim 2, size 4, minor-most: T(8,128) pads 4 to 128 (32x).',
      '  Change: use minor_to_major {0,1,2} instead of {2,1,0}; dim 2 (size 4) is no longer minor-most; saves 31 GiB.',
      '  Memory spaces: default 40.1 GiB, vmem 64 KiB.',
      '  Our layout model agrees with XLA on all 15 values.',
      '',
    ]);
    // What is live at the peak, by source line, then the largest allocation first, its values with
    // XLA's and our bytes, the padding and the source line.
    assert.equal(lines[9], '  Live at the peak (step 6, %fusion.44044), by source line:');
    assert.match(
      lines[11],
      /^ {2}79\.8% +32 GiB +1 +cic\.py:41 \(jit\(train_step\)\/cic_update\/FloorMod\) +%copy\.40488 /,
    );
    const at = lines.findIndex((l) => l.startsWith('  allocation'));
    assert.match(lines[at + 1], /^ {2}8 preallocated-temp +38 GiB +37 GiB +6 values$/);
    assert.match(
      lines[at + 2],
      /^ +32 GiB +32 GiB +1 GiB +31 GiB +%copy\.40488 +s32\[8388608,8,4\]\{2,1,0:T\(8,128\)\} +cic\.py:41$/,
    );
    assert.equal(lines[at + 3].trim(), 'pads: dim 2, size 4, minor-most: T(8,128) pads 4 to 128 (32x)');
    assert.match(r.stdout, /… 7 more allocations, 1\.1 GiB \(--top 0 lists all\)/);
  });

  it('finds the module from any companion, and every module with a buffer assignment in a folder', () => {
    const fromCompanion = cli(
      'memory',
      join(TPU, 'module_0042.jit_train_step.after_optimizations-live-range.txt'),
      '--json',
    );
    const fromFolder = cli('memory', TPU, '--json');
    assert.equal(fromCompanion.code, 0);
    assert.deepEqual(modules(fromCompanion.stdout), modules(fromFolder.stdout));
  });

  it('--json: the required fields, byte counts as exact decimal strings', () => {
    const [m] = modules(cli('memory', HLO, '--json').stdout);
    assert.equal(m.module, 'module_0042.jit_train_step');
    assert.equal(m.totalBytes, '43050405904');
    const arena = m.allocations[0];
    assert.deepEqual([arena.index, arena.size, arena.kinds], [8, '40802189312', ['preallocated-temp']]);
    const copy = arena.values[0];
    assert.deepEqual(
      [
        copy.name,
        copy.shape,
        copy.xlaBytes,
        copy.physicalBytes,
        copy.logicalBytes,
        copy.paddingBytes,
        copy.causeDim,
      ],
      [
        'copy.40488',
        's32[8388608,8,4]{2,1,0:T(8,128)}',
        '34359738368',
        '34359738368',
        '1073741824',
        '33285996544',
        2,
      ],
    );
    assert.deepEqual(copy.instruction, {
      computation: 'main.1',
      opcode: 'copy',
      line: 48, // of the fixture, where %copy.40488 is written
      column: 4,
      source: 'cic.py:41',
      sourceFile: '/workspace/model/cic.py',
      sourceLine: 41,
      opName: 'jit(train_step)/cic_update/FloorMod',
    });
    assert.deepEqual(m.disagreements, []);
  });

  it('lists every value our layout model sizes otherwise than XLA as a disagreement, and exits 1', () => {
    const base = join(dir, 'module_0001.jit_f.after_optimizations');
    writeFileSync(
      `${base}-buffer-assignment.txt`,
      'BufferAssignment:\nallocation 0: size 1024, maybe-live-out:\n value: <0 a @0> (size=1024,offset=0): f32[64,1]{1,0:T(8,128)}\n',
    );
    const r = cli('memory', `${base}-buffer-assignment.txt`);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /Our layout model disagrees with XLA on 1 value of 1\./);
    assert.match(r.stdout, /DISAGREES: XLA gives 1024 bytes, our layout model 32768/);
    const [m] = modules(cli('memory', `${base}-buffer-assignment.txt`, '--json').stdout);
    assert.deepEqual(
      m.disagreements.map((d) => [d.name, d.xlaBytes, d.physicalBytes]),
      [['a', '1024', '32768']],
    );
  });

  it('estimates from the HLO when no buffer assignment is beside it, and says so', () => {
    const lone = join(dir, 'module_0042.jit_train_step.after_optimizations.txt');
    copyFileSync(HLO, lone);
    const r = cli('memory', lone);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout.split('\n')[1],
      /^ {2}About \d+(?:\.\d)? GiB if each of its \d+ values had a buffer of its own; /,
    );
    assert.match(
      r.stdout.split('\n')[2],
      /^ {2}Estimate from the HLO alone: no buffer assignment beside this dump\./,
    );
  });

  it("points a dump of another stage to its module's buffer assignment", () => {
    const before = join(dir, 'module_0042.jit_train_step.before_optimizations.txt');
    const assignment = join(dir, 'module_0042.jit_train_step.after_optimizations-buffer-assignment.txt');
    copyFileSync(HLO, before);
    copyFileSync(
      join(TPU, 'module_0042.jit_train_step.after_optimizations-buffer-assignment.txt'),
      assignment,
    );
    const r = cli('memory', before);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout.split('\n')[2],
      `  Estimate from this HLO alone: XLA's buffer assignment of the module is of its optimized HLO, xla-layout memory ${assignment}`,
    );
  });

  it('exits 2 on a path that does not exist or a binary file, with one clear line', () => {
    const missing = cli('memory', join(dir, 'nope.txt'));
    assert.equal(missing.code, 2);
    assert.equal(
      missing.stderr.trim(),
      `xla-layout: ${join(dir, 'nope.txt')}: cannot read: no such file or folder`,
    );
    const binary = join(dir, 'module_0003.x.after_optimizations-buffer-assignment.txt');
    writeFileSync(binary, Buffer.from([0, 1, 2, 3]));
    const r = cli('memory', binary);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /binary file \(NUL byte at offset 0\)/);
  });

  const xla = realXla();
  if (xla !== undefined)
    it('reads a whole real jax dump folder; our layout model agrees with XLA on every value', () => {
      const r = cli('memory', realDumpDir(xla), '--json');
      assert.equal(r.code, 0, r.stderr);
      const all = modules(r.stdout);
      assert.ok(all.length >= 60);
      let values = 0;
      for (const m of all) {
        assert.equal(m.basis, 'buffer-assignment');
        assert.deepEqual(m.disagreements, [], m.module);
        for (const a of m.allocations) values += a.values.length;
      }
      assert.ok(values > 800, `${values} values`);
    });

  if (xla !== undefined)
    it('ranks the modules of a folder by total first, then details them in that order (--modules N)', () => {
      const dir = realDumpDir(xla);
      const r = cli('memory', dir, '--modules', '2', '--top', '1');
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.split('\n');
      const all = modules(cli('memory', dir, '--json').stdout);
      assert.equal(lines[0], `${all.length} modules, largest first:`);
      const ranked = [...all].sort((a, b) => {
        const d = BigInt(b.totalBytes) - BigInt(a.totalBytes);
        return d > 0n ? 1 : d < 0n ? -1 : BigInt(b.peak?.bytes ?? 0) > BigInt(a.peak?.bytes ?? 0) ? 1 : 0;
      });
      // One row per module, the largest total first; the JSON's ranking is the same.
      const rows = lines.slice(2, 2 + all.length).map((l) => l.trim().split(/ {2,}/));
      assert.deepEqual(
        rows.map((row) => row.at(-1)),
        ranked.map((m) => m.module),
      );
      const json = JSON.parse(cli('memory', dir, '--json').stdout) as {
        ranking: { module: string; totalBytes: string }[];
      };
      assert.deepEqual(
        json.ranking.map((m) => [m.module, m.totalBytes]),
        ranked.map((m) => [m.module, m.totalBytes]),
      );
      // Then the two largest modules in detail, and how many more there are.
      const details = lines.filter((l) => /^module_\d+\.\S+ {2}\(/.test(l)).map((l) => l.split(' ')[0]);
      assert.deepEqual(
        details,
        ranked.slice(0, 2).map((m) => m.module),
      );
      assert.equal(
        lines.filter((l) => l !== '').at(-1),
        `… ${all.length - 2} more modules (--modules 0 details all)`,
      );
    });

  if (xla !== undefined)
    it('leads with the peak where nothing pads: the instruction, what is live by source line, adding up', () => {
      const dir = realDumpDir(xla);
      const hlo = join(dir, 'module_0056.jit_f.cpu_after_optimizations.txt');
      const text = cli('memory', hlo, '--top', '3');
      assert.equal(text.code, 0, text.stderr);
      const lines = text.stdout.split('\n');
      // The live ranges hold 1,060 B at step 21; XLA's file names step 52 with 776 B.
      assert.match(
        lines[1],
        /^ {2}Peak: 1 KiB live at step 21 of 66, at %ynn_fusion \(dump_programs\.py:\d+\); none of it is padding\.$/,
      );
      assert.match(lines[2], /^ {2}Live then: [\d.]+% \S+/);
      assert.match(
        lines[3],
        /^ {2}XLA's live-range file names step 52 \(776 B live\) as its peak: .*step 21 holds the most\.$/,
      );
      assert.match(lines[4], /^ {2}XLA allocates /);
      assert.ok(
        lines.includes(
          '  Live at the peak (step 21, %' + lines[1].split('%')[1].split(' ')[0] + '), by source line:',
        ),
      );
      const [m] = modules(cli('memory', hlo, '--json').stdout);
      const peak = m.peak!;
      assert.equal(peak.bytes, '1060');
      assert.deepEqual(peak.xla, { time: 52, bytes: '776' });
      assert.equal(m.headline.lead, 'peak');
      let sum = 0n;
      for (const g of peak.groups) sum += BigInt(g.bytes);
      assert.equal(sum, 1060n);
      let values = 0n;
      for (const v of peak.values) values += BigInt(v.bytes);
      assert.equal(values, 1060n);
      // The text's groups are the JSON's, largest first.
      const first = lines.findIndex((l) => l.startsWith('  Live at the peak'));
      assert.ok(lines[first + 2].includes(peak.groups[0].label), lines[first + 2]);
    });
});
