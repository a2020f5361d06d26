/**
 * What the other-editor tests (Neovim, Emacs) hand their probe scripts: a dump with one bad tile
 * in a fresh folder, and the environment that tells the probe where the server, the file and its
 * answer file are and where to hover and go to definition.
 */
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** `T(-1,128)` on line 4 (0-based), characters 29-31, with metadata naming model.py line 7. */
const BAD_TILE_DUMP =
  'HloModule bad\n\nENTRY %main (p: f32[8,128]) -> f32[8,128] {\n  %p = f32[8,128]{1,0} parameter(0)\n  ROOT %t = f32[8,128]{1,0:T(-1,128)} copy(%p), metadata={source_file="model.py" source_line=7}\n}\n';

/** Builds the bundled server (dist/server.js) the probes start. */
export function buildServer(): void {
  execFileSync('node', ['esbuild.js'], { cwd: ROOT, stdio: 'inherit' });
}

export interface ProbeCase {
  /** The folder holding the dump (relative source paths resolve against it). */
  readonly dir: string;
  /** Where the probe writes what the editor received, as JSON. */
  readonly out: string;
  /**
   * The probe's environment: hover on `%t`'s shape, definition on the `model.py` value, completion
   * right after the `%` of `copy(%p)`, rename of `%p` at its definition.
   */
  readonly env: NodeJS.ProcessEnv;
}

/** Writes the bad-tile dump into a fresh folder named after `editor`. */
export function badTileCase(editor: string): ProbeCase {
  const dir = mkdtempSync(join(tmpdir(), `xla-${editor}-`));
  const file = join(dir, 'bad_tile.hlo');
  writeFileSync(file, BAD_TILE_DUMP);
  const out = join(dir, 'out.json');
  const lines = BAD_TILE_DUMP.split('\n');
  const definitionChar = lines[4].indexOf('model.py') + 1;
  const completeChar = lines[4].indexOf('copy(%') + 'copy(%'.length;
  const env = {
    ...process.env,
    XLA_SERVER: join(ROOT, 'dist', 'server.js'),
    XLA_FILE: file,
    XLA_OUT: out,
    XLA_LINE: '4',
    XLA_CHAR: '14',
    XLA_DEF_LINE: '4',
    XLA_DEF_CHAR: String(definitionChar),
    XLA_COMPLETE_LINE: '4',
    XLA_COMPLETE_CHAR: String(completeChar),
    XLA_RENAME_LINE: '3',
    XLA_RENAME_CHAR: String(lines[3].indexOf('%p') + 1),
  };
  return { dir, out, env };
}

/** Runs an editor's probe (`command args`) on `probe`'s dump and returns what it wrote (as `T`). */
export function runProbe<T>(command: string, args: readonly string[], probe: ProbeCase): T {
  const r = spawnSync(command, args, { env: probe.env, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(readFileSync(probe.out, 'utf8')) as T;
}
