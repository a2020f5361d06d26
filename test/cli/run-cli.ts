/** Builds dist/cli.js once and runs it as a child process, as users do. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

let built = false;

/** `node esbuild.js` (the real build); fails loudly when it does not produce dist/cli.js. */
export function buildCli(): void {
  if (built) return;
  const r = spawnSync(process.execPath, ['esbuild.js'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(CLI)) {
    throw new Error(`node esbuild.js failed (exit ${r.status}):\n${r.stderr}`);
  }
  built = true;
}

/**
 * Registers the suite's `before` hook, which builds the CLI and makes a temporary folder (named
 * from `prefix`) that it hands to `use`, and its `after` hook, which removes the folder.
 */
export function useCliAndTempDir(prefix: string, use: (dir: string) => void): void {
  let dir: string | undefined;
  before(() => {
    buildCli();
    dir = mkdtempSync(join(tmpdir(), prefix));
    use(dir);
  });
  after(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node dist/cli.js ...args` in the repository root. */
export function cli(...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
