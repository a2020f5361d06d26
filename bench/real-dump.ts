/**
 * A real jax dump beside the synthetic profiles of generate-dump.ts: bench/real_dump.py compiles
 * the training step of a transformer of N layers with the real XLA (the venv of
 * scripts/setup-xla.sh) and this returns its optimized HLO, written once per layer count and
 * version of the script into bench/data/.
 */
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { realXla } from '../test/support/real-xla';
import { DATA_DIR } from './generate-dump';

const SCRIPT = path.join(__dirname, 'real_dump.py');

/**
 * The optimized HLO of the transformer of `layers` layers, or undefined (after realXla() said
 * why) when there is no jax environment.
 */
export function ensureRealDump(layers: number): string | undefined {
  const xla = realXla();
  if (xla === undefined) return undefined;
  const hash = createHash('sha256').update(fs.readFileSync(SCRIPT)).digest('hex').slice(0, 12);
  const dir = path.join(DATA_DIR, `real-${layers}-layers-${hash}`);
  if (!fs.existsSync(dir)) {
    const partial = `${dir}.partial-${process.pid}`;
    fs.rmSync(partial, { recursive: true, force: true });
    execFileSync(xla.python, [SCRIPT, partial, String(layers)], { stdio: ['ignore', 'ignore', 'inherit'] });
    fs.renameSync(partial, dir);
  }
  const optimized = fs
    .readdirSync(dir)
    .filter((f) => f.includes('jit_train_step') && f.endsWith('after_optimizations.txt'));
  if (optimized.length !== 1)
    throw new Error(`${dir}: expected one optimized train step, found ${optimized.join(', ')}`);
  return path.join(dir, optimized[0]);
}

if (require.main === module) {
  const file = ensureRealDump(Number(process.argv[2] ?? 48));
  if (file) console.log(`${file}: ${fs.statSync(file).size} bytes`);
}
