/**
 * The real XLA, for the tests that make it the judge: the Python of the virtual environment that
 * scripts/setup-xla.sh fills with the pinned jax/jaxlib, and a real dump folder written by
 * test/xla/dump_programs.py (made once per version of that script and cached).
 *
 * Where the environment is missing (a machine without Python), {@link realXla} says so loudly and
 * the layer does not run; under CI=true a missing XLA is an error, since CI must run the layer.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..');
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'xla-layout-lens');
/** The virtual environment scripts/setup-xla.sh installs (same variable, same default). */
export const XLA_VENV = process.env.XLA_LENS_XLA_VENV ?? join(CACHE, 'xla-venv');
const PROGRAMS = join(REPO, 'test', 'xla', 'dump_programs.py');
const REQUIREMENTS = join(REPO, 'test', 'xla', 'requirements.txt');

export interface RealXla {
  /** The venv's python, with jax and jaxlib importable. */
  python: string;
}

let warned = false;

/**
 * The real XLA, or undefined after printing why the layer does not run. Throws under CI=true,
 * where the layer must run.
 */
export function realXla(): RealXla | undefined {
  const python = join(XLA_VENV, 'bin', 'python');
  const installed =
    existsSync(python) &&
    existsSync(join(XLA_VENV, '.requirements')) &&
    readFileSync(join(XLA_VENV, '.requirements'), 'utf8') === readFileSync(REQUIREMENTS, 'utf8');
  if (installed) return { python };
  const why = `the real-XLA layer did not run: no jax/jaxlib environment at ${XLA_VENV} (run bash scripts/setup-xla.sh)`;
  if (process.env.CI === 'true') throw new Error(`${why}; CI must run it`);
  if (!warned) {
    warned = true;
    process.stderr.write(`\n${'*'.repeat(100)}\n*** ${why}\n${'*'.repeat(100)}\n\n`);
  }
  return undefined;
}

/**
 * A real `--xla_dump_to` folder of the programs in test/xla/dump_programs.py: every pass's HLO,
 * the optimized modules and their buffer assignments, live ranges and memory-usage reports.
 * Written once per version of the programs and the pinned jaxlib (about 15 s), then reused.
 */
export function realDumpDir(xla: RealXla): string {
  const hash = createHash('sha256')
    .update(readFileSync(PROGRAMS))
    .update(readFileSync(REQUIREMENTS))
    .digest('hex')
    .slice(0, 16);
  const dir = join(CACHE, 'real-dumps', hash);
  if (existsSync(dir)) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync(xla.python, [PROGRAMS, partial], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
  try {
    renameSync(partial, dir);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw e; // another run wrote it first otherwise
  }
  return dir;
}

/**
 * A mocha suite that asks the real XLA: `body` gets the environment. Where XLA is missing the suite
 * holds no test and {@link realXla} has said so loudly; under CI=true the suite holds one failing
 * test saying why, since CI must run it.
 */
export function describeWithXla(title: string, body: (this: Mocha.Suite, xla: RealXla) => void): void {
  let xla: RealXla | undefined;
  let missing: Error | undefined;
  try {
    xla = realXla();
  } catch (e) {
    missing = e as Error;
  }
  describe(title, function () {
    if (missing) it('runs the real XLA', () => Promise.reject(missing));
    else if (xla) body.call(this, xla);
  });
}
