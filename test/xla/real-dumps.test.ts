/**
 * A real `--xla_dump_to` folder, written at test time by the pinned jaxlib from the jax programs
 * of dump_programs.py (training step, attention forward and backward, conv net, loops, sorting,
 * gathers and scatters, narrow and complex types, collectives over 8 devices), every pass dumped.
 * Every HLO file XLA wrote gets no error from this tool, `xla-layout check DIR` and
 * `check DIR/*` exit 0 on the folder, and XLA's companion files are recognised by name and
 * content and skipped, never reported as HLO errors.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dumpCompanion } from '../../core/src';
import { buildCli, cli } from '../cli/run-cli';
import { describeWithXla } from '../support/real-xla';
import { judgedDumpFolder, type DumpFolder } from './dump-files';
import { rejects, type XlaVerdict } from './oracle';
import { serverErrors } from './our-verdicts';
import { oneLine } from './tally';

interface CheckJson {
  files: { file: string; diagnostics: { severity: string; code: string; line: number; message: string }[] }[];
  skipped: { file: string; kind: string }[];
  errors: number;
}

describeWithXla("the real XLA's dump folder", function (xla) {
  this.timeout(300_000);
  let dir = '';
  let folder: DumpFolder;

  let verdicts: readonly XlaVerdict[] = [];

  before(async () => {
    ({ dir, folder, verdicts } = await judgedDumpFolder(xla));
    buildCli();
    console.log(
      `      ${dir}: ${folder.hlo.length} HLO files (${folder.distinctHlo.length} distinct), ${folder.companions.length} other files`,
    );
  });

  it('XLA accepts every HLO file it wrote (parsed and validated again)', () => {
    const refused = folder.distinctHlo.flatMap((f, i) =>
      rejects(verdicts[i]) ? [`${f.name}: ${oneLine(verdicts[i].message)}`] : [],
    );
    assert.deepEqual(refused, []);
  });

  it('xla-layout check DIR walks the folder, checks every HLO file without an error and skips the rest', () => {
    const r = cli('check', '--json', dir);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as CheckJson;
    const errors = json.files.flatMap((f) =>
      f.diagnostics
        .filter((d) => d.severity === 'error')
        .map((d) => `${f.file}:${d.line}: ${d.message} [${d.code}]`),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(
      json.files.map((f) => f.file).sort(),
      folder.hlo.map((f) => f.path).sort(),
      'the HLO files are exactly the ones checked',
    );
    assert.equal(json.skipped.length, folder.companions.length);
    assert.match(
      r.stderr,
      /^xla-layout check: skipped \d+ files that are not HLO: .*buffer assignment \(\d+\)/,
    );
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one line of note, nothing else');
  });

  it('xla-layout check DIR/* (what a shell glob gives) exits 0', () => {
    const r = cli('check', ...readdirSync(dir).map((name) => join(dir, name)));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
  });

  it('tells every companion XLA wrote from HLO, by name and by content', () => {
    const unknown = folder.companions.filter((c) => c.kind === undefined).map((c) => c.name);
    assert.deepEqual(unknown, []);
    // By content alone: a text companion or a text proto renamed `.txt` is still no HLO.
    for (const c of folder.companions.filter((f) => /\.(txt|textproto)$|debug_options$/.test(f.name))) {
      const head = readFileSync(c.path, 'utf8').slice(0, 4096);
      assert.ok(dumpCompanion('renamed.txt', head), `${c.name} by its content`);
    }
    for (const f of folder.hlo)
      assert.equal(dumpCompanion(f.name, readFileSync(f.path, 'utf8').slice(0, 4096)), undefined, f.name);
  });

  it('the language server publishes no error on the HLO files XLA wrote (over LSP, a sample)', async () => {
    // Every tenth distinct text: the server and `check` share their core, and check read them all.
    const sample = folder.distinctHlo.filter((_, i) => i % 10 === 0);
    const errors = await serverErrors(sample.map((f) => f.text));
    const found = sample.flatMap((f, i) =>
      errors[i].map((e) => `${f.name}:${e.line}: ${e.message} [${e.code}]`),
    );
    assert.deepEqual(found, []);
  });
});
