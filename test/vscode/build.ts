/**
 * Builds what a real VS Code loads: the extension bundles (the repo's esbuild.js) and the
 * extension-host suite (test/vscode/suite/*.ts → out/vscode-suite/*.js, one file per test so
 * mocha can load them after it defines its globals).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { REPO } from './harness';

export const SUITE_OUT = join(REPO, 'out', 'vscode-suite');

/** Runs `node esbuild.js` in the repository (bundles dist/extension.js, dist/server.js, …). */
export function buildExtension(): void {
  execFileSync(process.execPath, ['esbuild.js'], { cwd: REPO, stdio: 'inherit' });
}

/** Compiles the suite; returns the runner module's path for `extensionTestsPath`. */
export async function buildSuite(): Promise<string> {
  const dir = join(REPO, 'test', 'vscode', 'suite');
  const entries = readdirSync(dir)
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
  rmSync(SUITE_OUT, { recursive: true, force: true });
  await build({
    entryPoints: entries,
    outdir: SUITE_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    sourcemap: 'inline',
    // vscode is provided by the extension host; mocha is loaded from the repo's node_modules.
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return join(SUITE_OUT, 'index.js');
}
