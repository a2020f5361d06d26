/**
 * The command-line tool on input an attacker (or a careless pipeline) hands it: standard input,
 * pipes, FIFOs and process substitution instead of files, endless and binary streams, tuples nested
 * 10,000 deep, layouts of 20,000 tile levels and 20,000 dimensions. Each must give the answer a
 * file would, or refuse in one clear message, in bounded time and memory.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_JSON_LIST, OOM_MAX_CHARS } from '../../core/src';
import { useCliAndTempDir, cli, CLI, ROOT, type CliResult } from './run-cli';

const FIXTURE = 'test/server/fixtures/invalid.hlo';

/**
 * `command` run by bash in the repository root, where `xla-layout` runs `node dist/cli.js`. A
 * minute at most: a FIFO nobody opens would otherwise block its writer, and the test, for good.
 */
function bash(command: string): CliResult {
  const r = spawnSync('bash', ['-c', `xla-layout() { "$NODE_BIN" "$CLI_JS" "$@"; }\n${command}`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_BIN: process.execPath, CLI_JS: CLI },
    maxBuffer: 1 << 28,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The output of `check FILE` with the file's name written as `name`. */
function renamed(r: CliResult, file: string, name: string): string {
  return r.stdout.split(`${file}:`).join(`${name}:`);
}

describe('cli: hostile input', function () {
  this.timeout(180_000);
  let dir: string;
  useCliAndTempDir('xla-layout-hostile-', (d) => (dir = d));

  describe('standard input, pipes and FIFOs read as the file would be', () => {
    it('check and report take -, /dev/stdin and <(cat FILE)', () => {
      const file = cli('check', FIXTURE);
      assert.equal(file.code, 1);
      assert.ok(file.stdout.length > 0);
      for (const [how, name] of [
        [`cat ${FIXTURE} | xla-layout check -`, '-'],
        [`cat ${FIXTURE} | xla-layout check /dev/stdin`, '/dev/stdin'],
      ] as const) {
        const r = bash(how);
        assert.equal(r.code, 1, `${how}: ${r.stderr}`);
        assert.equal(r.stdout, renamed(file, FIXTURE, name), how);
        assert.equal(r.stderr, file.stderr, how);
      }
      const substituted = bash(`xla-layout check <(cat ${FIXTURE})`);
      assert.equal(substituted.code, 1, substituted.stderr);
      const name = /^(\/dev\/fd\/\d+|\/proc\/self\/fd\/\d+):/.exec(substituted.stdout)?.[1] ?? '?';
      assert.equal(substituted.stdout, renamed(file, FIXTURE, name));
      const report = cli('report', '--json', FIXTURE);
      const piped = bash(`cat ${FIXTURE} | xla-layout report --json -`);
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stdout, report.stdout.split(FIXTURE).join('-'));
    });

    it('a FIFO, and a stream past the name-check size (read once, in order, in pieces)', () => {
      // 8,000 copies: 2.6 MB, past NAME_CHECK_MAX_CHARS, so the stream is checked in pieces after
      // its first megabyte was read to find out.
      const big = join(dir, 'big.hlo');
      writeFileSync(big, readFileSync(join(ROOT, FIXTURE), 'utf8').repeat(8_000));
      const file = cli('check', big);
      assert.equal(file.stdout.split('\n').length, 32_001);
      const fifo = join(dir, 'fifo');
      const r = bash(`mkfifo ${fifo} && (cat ${big} > ${fifo} &) && xla-layout check ${fifo}`);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, renamed(file, big, fifo));
      const piped = bash(`cat ${big} | xla-layout check -`);
      assert.equal(piped.stdout, renamed(file, big, '-'));
    });
  });

  describe('oom reads at most its cap', () => {
    it('refuses /dev/zero as binary at once', () => {
      const r = bash('xla-layout oom - < /dev/zero');
      assert.equal(r.code, 2);
      assert.equal(
        r.stderr,
        'xla-layout oom: standard input: binary file (NUL byte at offset 0), not a text log\n',
      );
    });

    it('stops reading an endless stream at OOM_MAX_CHARS', async () => {
      const child = spawn(process.execPath, [CLI, 'oom', '-'], {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const line = Buffer.from(
        'I1127 12:00:00.000000 step 12 loss 0.25 (not an out-of-memory message)\n'.repeat(1024),
      );
      let written = 0;
      let open = true;
      child.stdin.on('error', () => (open = false));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      // Write while the tool reads; it must exit on its own, having read no more than its cap.
      while (open && child.exitCode === null) {
        if (!child.stdin.write(line))
          await new Promise<void>((resume) => {
            const done = () => {
              child.stdin.off('drain', done).off('close', done);
              resume();
            };
            child.stdin.once('drain', done).once('close', done);
          });
        written += line.length;
        if (written > 4 * OOM_MAX_CHARS) break;
      }
      child.stdin.destroy();
      assert.equal(await exited, 1);
      assert.match(stdout, /No XLA out-of-memory message/);
      // What was written is the cap, plus what the pipe held when the tool stopped reading.
      assert.ok(written <= OOM_MAX_CHARS + 4 * 1024 * 1024, `${written} bytes written`);
    });
  });

  it('memory estimates a tuple parameter nested 8,000 deep (no stack overflow)', () => {
    const deep = join(dir, 'deep-memory.hlo');
    writeFileSync(
      deep,
      `HloModule m\n\nENTRY e {\n  p = ${'('.repeat(8_000)}f32[2]{0}${')'.repeat(8_000)} parameter(0)\n  ROOT c = f32[] constant(0)\n}\n`,
    );
    const r = cli('memory', deep);
    assert.equal(r.code, 0, r.stderr);
    // 8,000 tuple tables of one pointer (8 B), the f32[2] (8 B) and the constant (4 B).
    assert.match(r.stdout, /About 62\.5 KiB if each of its 8,002 values had a buffer of its own/);
  });

  it('check FOLDER tells a file of 40 empty comments from HLO at once (no backtracking)', () => {
    // A regular expression repeating comment patterns took 4.6 s at 24 comments and doubled per comment.
    const folder = join(dir, 'comments');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'notes.log'), `${'/**/'.repeat(40)}x\n`);
    writeFileSync(
      join(folder, 'module.log'),
      '\ufeff/* a */\n// b\nHloModule m\n\nENTRY e {\n  ROOT c = f32[] constant(0)\n}\n',
    );
    const r = cli('check', folder);
    assert.match(r.stderr, /skipped \S*notes\.log: not HLO text/);
    assert.match(r.stdout, /module\.log:1:1: error: the file starts with a byte-order mark/);
  });

  it('check FOLDER without HLO says so and exits 2; links to folders are not followed', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    const none = cli('check', empty);
    assert.deepEqual(
      [none.code, none.stdout, none.stderr],
      [2, '', `xla-layout check: no HLO files in ${empty}\n`],
    );
    // Links out to the whole file system and back into the folder, and an empty file: none is read.
    const linked = join(dir, 'linked');
    mkdirSync(linked, { recursive: true });
    symlinkSync('/', join(linked, 'root'));
    symlinkSync(linked, join(linked, 'self'));
    writeFileSync(join(linked, 'empty.hlo'), '');
    const started = Date.now();
    const walked = cli('check', linked, empty);
    assert.ok(Date.now() - started < 20_000);
    assert.deepEqual(
      [walked.code, walked.stderr],
      [2, `xla-layout check: no HLO files in ${linked}\nxla-layout check: no HLO files in ${empty}\n`],
    );
    // Beside files that are checked (a shell glob over a dump folder), a folder without HLO is fine.
    const globbed = cli('check', linked, empty, FIXTURE);
    assert.equal(globbed.code, 1);
    assert.doesNotMatch(globbed.stderr, /no HLO files/);
    assert.match(globbed.stdout, /invalid\.hlo:\d+:\d+: error: /);
  });

  it('report sums a tuple nested 10,000 deep as check reads it (no stack overflow)', () => {
    // Past XLA's nesting limit of 8192 the shape is an error: check says so and report skips it.
    const deep = join(dir, 'deep.hlo');
    const nested = (depth: number) => `${'('.repeat(depth)}f32[2]{0}${')'.repeat(depth)}`;
    writeFileSync(
      deep,
      `HloModule m\n\nENTRY e {\n  p0 = ${nested(8_000)} parameter(0)\n  p1 = ${nested(10_000)} parameter(1)\n  ROOT c = f32[] constant(0)\n}\n`,
    );
    const r = cli('report', '--json', deep);
    assert.equal(r.code, 0, r.stderr);
    const totals = (
      JSON.parse(r.stdout) as {
        reports: { totals: { buffers: number; skipped: number; logicalBytes: string } }[];
      }
    ).reports[0].totals;
    assert.deepEqual([totals.buffers, totals.skipped, totals.logicalBytes], [2, 1, '12']);
    const check = cli('check', deep);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /maximum recursion depth exceeded \[recursion-depth\]/);
  });

  describe('layouts of thousands of levels and dims', () => {
    const levels = `f32[3,5]{1,0:T(2,2)${'(1)'.repeat(20_000)}}`;

    it('index refuses 20,000 tile levels in one message, with the limit and a short caret line', () => {
      const r = cli('index', levels, '2,3');
      assert.equal(r.code, 2);
      const [message, shown, caret] = r.stderr.trimEnd().split('\n');
      assert.equal(
        message,
        'xla-layout index: error: the layout has 20,001 tile levels over up to 20,004 dims, too many to lay out step by step: its tiling plan would hold 200,090,006 sizes, more than the 65,536 this tool builds (a bound that keeps every answer fast)',
      );
      assert.ok(shown.length < 200 && shown.endsWith('…'), shown);
      assert.ok(caret.length < 200);
    });

    it('explain gives the sizes all the same', () => {
      const r = cli('explain', levels);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /no step-by-step plan: the layout has 20,001 tile levels/);
      assert.match(r.stdout, /physicalBytes {5}96 B {3}\(all tile levels\)/);
    });

    it('explain --json cuts lists of 20,000 dims to their first MAX_JSON_LIST and says so first', () => {
      const r = cli('explain', '--json', `f32[${Array(20_000).fill(1).join(',')}]`);
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout) as { cut: string; dims: unknown[]; physicalOrder: unknown[] };
      assert.equal(Object.keys(json)[0], 'cut');
      assert.match(
        json.cut,
        /^lists longer than 1,024 entries hold their first 1,024: dims \(20,000\), physicalOrder \(20,000\)/,
      );
      assert.equal(json.dims.length, MAX_JSON_LIST);
      assert.ok(r.stdout.length < 2_000_000, `${r.stdout.length} characters`);
    });
  });
});
