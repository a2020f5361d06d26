/** Builds dist/cli.js once and runs it as a child process, as users do. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
