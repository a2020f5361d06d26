/**
 * Benchmark: reading an open document's whole text at once, as the Memory View indexes an HLO dump
 * open in the editor (core's HloIndexer) and the Padding Report reads one (PaddingReporter), beside
 * the same readers fed 64 KiB pieces as the CLI streams a file from disk: the one-piece read must
 * not be slower than the streamed one (target: within 1.5x). On the real 48-layer jax dump
 * (bench/real-dump.ts); medians of 3, interleaved.
 */
import * as fs from 'fs';
import { HloIndexer, PaddingReporter } from '../core/src';
import { ensureRealDump } from './real-dump';
import { median } from './stats';

const RUNS = 3;
const CHUNK = 64 * 1024;

interface Reader {
  write(text: string): void;
  end(): unknown;
}

function timed(make: () => Reader, text: string, piece: number): number {
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = performance.now();
  const reader = make();
  for (let i = 0; i < text.length; i += piece) reader.write(text.slice(i, i + piece));
  reader.end();
  return performance.now() - t0;
}

export function runOpenDumpIndexBench(): Record<string, unknown>[] {
  const file = ensureRealDump(48);
  if (file === undefined) return [{ name: 'open dump index: skipped (no jax environment)' }];
  const text = fs.readFileSync(file, 'utf8');
  const mib = `${(text.length / 1024 / 1024).toFixed(1)} MiB`;
  const rows: Record<string, unknown>[] = [];
  for (const [what, make] of [
    ['HloIndexer (Memory View)', () => new HloIndexer()],
    ['PaddingReporter (Padding Report)', () => new PaddingReporter()],
  ] as const) {
    const whole: number[] = [];
    const pieces: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      whole.push(timed(make, text, text.length));
      pieces.push(timed(make, text, CHUNK));
    }
    const ms = median(whole);
    const referenceMs = median(pieces);
    rows.push({
      name: `${what}: real 48-layer dump (${mib}) in one piece vs 64 KiB pieces`,
      ms: Math.round(ms),
      referenceMs: Math.round(referenceMs),
      targetMs: Math.round(referenceMs * 1.5),
    });
  }
  return rows;
}
