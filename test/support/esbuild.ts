/** Runs the repository's esbuild script the way the browser tests need it. */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root (this file is test/support/esbuild.ts). */
const ROOT = resolve(__dirname, '..', '..');

/**
 * Runs `node esbuild.js` (every entry) and fails unless `output` (relative to the repository, e.g.
 * `dist/webview.js`) exists and, if esbuild reported an error, was rebuilt by this run: other
 * entries may fail to build while their owners edit them, and only `output` matters to the caller.
 */
export async function buildBundle(output: string): Promise<void> {
  const out = join(ROOT, output);
  const before = existsSync(out) ? statSync(out).mtimeMs : 0;
  const { error, stderr } = await new Promise<{ error: Error | null; stderr: string }>((done) => {
    execFile(process.execPath, ['esbuild.js'], { cwd: ROOT }, (err, _stdout, errText) =>
      done({ error: err, stderr: errText }),
    );
  });
  if (!existsSync(out) || (error !== null && statSync(out).mtimeMs <= before)) {
    throw new Error(`esbuild did not produce ${output}:\n${stderr}`);
  }
}
