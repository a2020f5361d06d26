/**
 * Benchmark: core's buffer-assignment reader on a 40 MB `*-buffer-assignment.txt` (target: under a
 * second), streamed from disk in 64 KiB pieces as `xla-layout memory` reads it, beside two
 * references timed in the same run on the same file: `wc -l`, and Node reading and decoding the
 * file in the same pieces and splitting it into lines without looking at them. Wall and CPU time
 * (medians of 5, interleaved). Also the whole memory model of that assignment (every value made
 * an object and sized by our layout math).
 *
 * The file is generated once into bench/data/ (seeded): allocations in the form XLA prints them
 * (parameters, constants, outputs, thread-local scratch, temp arenas holding thousands of values),
 * values of the tiled TPU shapes a transformer's layers repeat, tuples and memory spaces.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { isAscii } from 'buffer';
import { StringDecoder } from 'string_decoder';
import { BufferAssignmentReader, joinMemory, type BufferAssignmentFile } from '../core/src';
import { mulberry32 } from '../test/support/prng';
import { DATA_DIR } from './generate-dump';
import { median } from './stats';

const TARGET_BYTES = 40 * 1024 * 1024;
const FILE = path.join(DATA_DIR, 'module_9999.jit_bench.after_optimizations-buffer-assignment.txt');
const RUNS = 5;
const CHUNK = 64 * 1024;

const SHAPES = [
  ['f32[8,2048,4096]{2,1,0:T(8,128)}', 268435456n],
  ['bf16[8,2048,4096]{2,1,0:T(8,128)(2,1)}', 134217728n],
  ['bf16[4096,4096]{1,0:T(8,128)(2,1)}', 33554432n],
  ['f32[8,16,2048,2048]{3,2,1,0:T(8,128)}', 2147483648n],
  ['f32[8,2048,1]{2,1,0:T(8,128)}', 8388608n],
  ['s32[8,2048]{1,0:T(8,128)}', 65536n],
  ['pred[8,2048,2048]{2,1,0:T(8,128)(4,1)}', 33554432n],
  ['f32[4096]{0:T(1024)}', 16384n],
  ['bf16[4096,1024]{1,0:T(8,128)(2,1)S(1)}', 8388608n],
  ['(f32[8,2048,4096]{2,1,0:T(8,128)}, s32[]{:T(128)})', 16n],
] as const;

/** Writes the 40 MB file unless it is there. */
function ensureFile(): void {
  if (fs.existsSync(FILE) && fs.statSync(FILE).size >= TARGET_BYTES) return;
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const random = mulberry32(40);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const fd = fs.openSync(FILE, 'w');
  let parts: string[] = ['BufferAssignment:\n'];
  let size = 0;
  let written = 0;
  const line = (s: string): void => {
    parts.push(s, '\n');
    size += s.length + 1;
    if (size >= 1 << 20) {
      fs.writeSync(fd, parts.join(''));
      written += size;
      parts = [];
      size = 0;
    }
  };
  let index = 0;
  let id = 0;
  while (written + size < TARGET_BYTES) {
    const [shape, bytes] = pick(SHAPES);
    const layer = Math.floor(random() * 48);
    const kind = random();
    if (kind < 0.1) {
      line(
        `allocation ${index++}: size ${bytes}, parameter ${index}, shape |${shape.replace(/\{[^}]*\}/g, '')}| at ShapeIndex {}:`,
      );
      line(` value: <${id++} param.${index} @0> (size=${bytes},offset=0): ${shape}`);
    } else if (kind < 0.2) {
      line(`allocation ${index++}: size 4, thread-local:`);
      line(` value: <${id++} add.${id} @0> (size=4,offset=0): f32[]`);
    } else {
      // A temp arena of a layer: hundreds of values at reused offsets.
      const values = 50 + Math.floor(random() * 400);
      line(`allocation ${index++}: size 17179869184, preallocated-temp:`);
      for (let v = 0; v < values; v++) {
        const [s, b] = pick(SHAPES);
        const name = `${pick(['fusion', 'copy', 'convolution', 'reduce', 'dot', 'transpose'])}.${layer}${v}`;
        const index = s.startsWith('(') ? '{}' : '';
        line(
          ` value: <${id++} ${name}${index} @0> (size=${b},offset=${BigInt(Math.floor(random() * 64)) * 268435456n}): ${s}`,
        );
      }
    }
  }
  fs.writeSync(fd, parts.join(''));
  fs.closeSync(fd);
}

/** Reads FILE in 64 KiB pieces, decoded, handing each to `write`. */
function stream(write: (text: string) => void): void {
  const fd = fs.openSync(FILE, 'r');
  const buffer = Buffer.allocUnsafe(CHUNK);
  const decoder = new StringDecoder('utf8');
  /** The decoder may hold the start of a UTF-8 sequence cut by the previous read. */
  let pending = false;
  for (let at = 0; ;) {
    const n = fs.readSync(fd, buffer, 0, CHUNK, at);
    if (n === 0) break;
    at += n;
    const bytes = buffer.subarray(0, n);
    // As the CLI reads: ASCII pieces (nearly all of a dump) decode as Latin-1, a copy.
    const ascii = isAscii(bytes);
    write(ascii && !pending ? bytes.toString('latin1') : decoder.write(bytes));
    pending = !ascii;
  }
  write(decoder.end());
  fs.closeSync(fd);
}

/** Wall time and CPU time (this process, all its threads) of `f`. */
function timed<T>(f: () => T): { ms: number; cpuMs: number; value: T } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = f();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000, value };
}

export function runBufferAssignmentBench(): Record<string, unknown>[] {
  ensureFile();
  const bytes = fs.statSync(FILE).size;
  const mb = `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  const readerMs: number[] = [];
  const readerCpu: number[] = [];
  const wcMs: number[] = [];
  const splitMs: number[] = [];
  const splitCpu: number[] = [];
  let file: BufferAssignmentFile | undefined;
  let lines = 0;
  // Interleaved, so that a busy moment of the machine falls on all three alike.
  for (let r = 0; r < RUNS; r++) {
    // The previous run's file is garbage now: collected before this run, not during it
    // (npm run bench runs Node with --expose-gc).
    file = undefined;
    (globalThis as { gc?: () => void }).gc?.();
    const read = timed(() => {
      const reader = new BufferAssignmentReader();
      stream((t) => reader.write(t));
      return reader.end();
    });
    readerMs.push(read.ms);
    readerCpu.push(read.cpuMs);
    file = read.value;
    const wc = timed(() => spawnSync('wc', ['-l', FILE], { encoding: 'utf8' }).stdout);
    wcMs.push(wc.ms);
    lines = Number(wc.value.trim().split(/\s+/)[0]);
    const split = timed(() => {
      let n = 0;
      let carry = '';
      stream((t) => {
        const parts = (carry + t).split('\n');
        carry = parts.pop() ?? '';
        n += parts.length;
      });
      return n;
    });
    splitMs.push(split.ms);
    splitCpu.push(split.cpuMs);
  }
  const model = timed(() => joinMemory({ bufferAssignment: file! }));
  const values = file!.allocations.reduce((n, a) => n + a.values.length, 0);
  return [
    {
      name: `buffer-assignment reader, ${mb} (${lines.toLocaleString('en')} lines, ${values.toLocaleString('en')} values) vs wc -l`,
      ms: median(readerMs),
      referenceMs: median(wcMs),
      targetMs: 1000,
    },
    {
      name: `buffer-assignment reader, ${mb} vs Node reading it and splitting lines`,
      ms: median(readerMs),
      referenceMs: median(splitMs),
      targetMs: 1000,
    },
    {
      // CPU time stays meaningful when other processes share the cores; wall time does not.
      name: `buffer-assignment reader, ${mb}, CPU time vs Node reading and splitting lines`,
      ms: median(readerCpu),
      referenceMs: median(splitCpu),
      targetMs: 1000,
    },
    {
      name: `memory model of that assignment (${values.toLocaleString('en')} values made objects and sized, after reading)`,
      ms: model.ms,
    },
  ];
}
