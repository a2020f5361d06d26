/**
 * Writes a large synthetic TPU-style after-optimizations HLO dump: a module header with a long
 * entry_computation_layout, fusion computations, while bodies and conditions, tiled layouts
 * ((8,128), (8,128)(2,1), (8,128)(4,1), (8,128)(8,1)E(4)), tuples, S(1)/S(5) memory spaces,
 * metadata={op_name=... source_file=... source_line=...} and backend_config strings. Deterministic
 * (seeded), valid HLO shapes throughout, so `xla-layout check` must report nothing.
 *
 * Run alone: `npx tsx bench/generate-dump.ts 100MB [out.txt]`; bench/run.ts imports {@link ensureDump}.
 */
import * as fs from 'fs';
import * as path from 'path';
import { mulberry32 } from '../test/support/prng';

/** Where generated dumps are cached (gitignored). */
export const DATA_DIR = path.join(__dirname, 'data');

interface TypeStyle {
  readonly type: string;
  /** Tiles (and E) after the minor_to_major list. */
  readonly tiles: string;
}

const TYPES: readonly TypeStyle[] = [
  { type: 'f32', tiles: 'T(8,128)' },
  { type: 'bf16', tiles: 'T(8,128)(2,1)' },
  { type: 'bf16', tiles: 'T(8,128)(2,1)' },
  { type: 's8', tiles: 'T(8,128)(4,1)' },
  { type: 'pred', tiles: 'T(8,128)(4,1)' },
  { type: 's4', tiles: 'T(8,128)(8,1)E(4)' },
  { type: 'f32', tiles: 'T(8,128)' },
];
const SIZES = [1n, 4n, 8n, 16n, 128n, 256n, 512n, 1024n, 2048n, 4096n];
const OPS = ['add', 'multiply', 'subtract', 'maximum', 'convert', 'exponential', 'copy', 'negate'];
const FILES = ['/workspace/model/transformer.py', '/workspace/model/attention.py', '/workspace/train.py'];

/** Writes text in 1 MiB blocks. */
class BlockWriter {
  private parts: string[] = [];
  private size = 0;
  written = 0;
  constructor(private readonly fd: number) {}
  line(s: string): void {
    this.parts.push(s, '\n');
    this.size += s.length + 1;
    if (this.size >= 1 << 20) this.flush();
  }
  flush(): void {
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    fs.writeSync(this.fd, buf);
    this.written += buf.length;
    this.parts = [];
    this.size = 0;
  }
  get total(): number {
    return this.written + this.size;
  }
}

class ShapeMaker {
  constructor(private readonly r: () => number) {}
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }
  /** An array shape with a TPU layout; `space` adds S(1)/S(5) sometimes. */
  array(space = true): string {
    const t = this.pick(TYPES);
    const rank = 1 + Math.floor(this.r() * 4);
    const dims = Array.from({ length: rank }, () => this.pick(SIZES));
    const order = dims.map((_, i) => rank - 1 - i).join(',');
    const s = space ? this.r() : 1;
    const mem = s < 0.08 ? 'S(1)' : s < 0.1 ? 'S(5)' : '';
    // Rank-1 arrays use 1-D tiles, as TPU dumps do.
    const tiles = rank === 1 ? (t.type === 's4' ? 'T(1024)E(4)' : t.type === 'f32' ? 'T(128)' : 'T(512)') : t.tiles;
    return `${t.type}[${dims.join(',')}]{${order}:${tiles}${mem}}`;
  }
  scalar(): string {
    return this.pick(['s32[]{:T(128)}', 'f32[]{:T(256)}', 'pred[]{:T(512)}', 'u32[]{:T(128)S(1)}']);
  }
  tuple(n: number): string {
    return `(${Array.from({ length: n }, (_, i) => `${i > 0 && i % 5 === 0 ? `/*index=${i}*/` : ''}${this.array()}`).join(', ')})`;
  }
}

function metadata(r: () => number, m: ShapeMaker, op: string): string {
  return `metadata={op_name="jit(train_step)/jit(main)/transformer/layer_${Math.floor(r() * 48)}/${op}" source_file="${m.pick(FILES)}" source_line=${1 + Math.floor(r() * 900)}}`;
}

const BACKEND = 'backend_config={"flag_configs":[],"scoped_memory_configs":[],"used_scoped_memory_configs":[],"output_chunk_bound_config":{"output_chunk_bound":["1"]}}';

function fusion(w: BlockWriter, m: ShapeMaker, r: () => number, id: number): void {
  const params = Array.from({ length: 2 + Math.floor(r() * 3) }, () => m.array());
  const result = m.array();
  w.line(`%fused_computation.${id} (${params.map((p, i) => `param_${i}.${id}: ${p.replace(/\{.*$/, '')}`).join(', ')}) -> ${result.replace(/\{.*$/, '')} {`);
  params.forEach((p, i) => w.line(`  %param_${i}.${id} = ${p} parameter(${i})`));
  let last = `%param_0.${id}`;
  const body = 3 + Math.floor(r() * 8);
  for (let k = 0; k < body; k++) {
    const op = m.pick(OPS);
    const name = `%${op}.${id}.${k}`;
    const operands = op === 'convert' || op === 'copy' || op === 'negate' || op === 'exponential' ? last : `${last}, %param_${k % params.length}.${id}`;
    w.line(`  ${k === body - 1 ? 'ROOT ' : ''}${name} = ${k === body - 1 ? result : m.array(false)} ${op}(${operands}), ${metadata(r, m, op)}`);
    last = name;
  }
  w.line('}');
  w.line('');
}

function whileLoop(w: BlockWriter, m: ShapeMaker, r: () => number, id: number): void {
  const state = m.tuple(3 + Math.floor(r() * 6));
  w.line(`%while_body.${id} (arg_tuple.${id}: ${state.replace(/\{[^}]*\}/g, '')}) -> ${state.replace(/\{[^}]*\}/g, '')} {`);
  w.line(`  %arg_tuple.${id} = ${state} parameter(0)`);
  w.line(`  %gte.${id} = s32[]{:T(128)} get-tuple-element(${state} %arg_tuple.${id}), index=0`);
  w.line(`  ROOT %tuple.${id} = ${state} tuple(%gte.${id}), ${BACKEND}`);
  w.line('}');
  w.line('');
  w.line(`%while_cond.${id} (cond_arg.${id}: ${state.replace(/\{[^}]*\}/g, '')}) -> pred[] {`);
  w.line(`  %cond_arg.${id} = ${state} parameter(0)`);
  w.line(`  %c.${id} = s32[]{:T(128)} constant(10)`);
  w.line(`  ROOT %lt.${id} = pred[]{:T(512)} compare(%c.${id}, %c.${id}), direction=LT`);
  w.line('}');
  w.line('');
}

/** Writes a dump of about `bytes` bytes to `file` (deterministic for a given size). */
export function generateDump(file: string, bytes: number, seed = 7): void {
  // Seeded, so every run writes the same file.
  const r = mulberry32(seed);
  const m = new ShapeMaker(r);
  const fd = fs.openSync(file, 'w');
  const w = new BlockWriter(fd);
  try {
    const params = Array.from({ length: 400 }, () => m.array());
    w.line(`HloModule jit_train_step, is_scheduled=true, entry_computation_layout={(${params.join(', ')})->${m.tuple(8)}}, allow_spmd_sharding_propagation_to_output={true}`);
    w.line('');
    let id = 0;
    const entry: string[] = [];
    // Computations until ~92% of the budget, then one ENTRY calling them.
    while (w.total < bytes * 0.92) {
      id++;
      if (id % 7 === 0) {
        whileLoop(w, m, r, id);
        entry.push(`  %while.${id} = ${m.tuple(3)} while(%p0), condition=%while_cond.${id}, body=%while_body.${id}, ${BACKEND}`);
      } else {
        fusion(w, m, r, id);
        entry.push(`  %fusion.${id} = ${m.array()} fusion(%p0), kind=kLoop, calls=%fused_computation.${id}, ${metadata(r, m, 'fusion')}, ${BACKEND}`);
      }
    }
    w.line(`ENTRY %main (p0: f32[1024,4]) -> f32[1024,4] {`);
    w.line('  %p0 = f32[1024,4]{1,0:T(8,128)} parameter(0)');
    for (const line of entry) {
      if (w.total >= bytes) break;
      w.line(line);
    }
    w.line(`  %copy-start = (f32[1024,4]{1,0:T(8,128)S(1)}, f32[1024,4]{1,0:T(8,128)}, u32[]{:S(2)}) copy-start(%p0)`);
    w.line(`  ROOT %copy-done = f32[1024,4]{1,0:T(8,128)S(1)} copy-done(%copy-start)`);
    w.line('}');
    w.flush();
  } finally {
    fs.closeSync(fd);
  }
}

/** Parses `10MB`, `1GB`, `512KB` (binary units) or a byte count. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?$/i.exec(text.trim());
  if (!m) throw new Error(`bad size '${text}' (use e.g. 10MB, 1GB)`);
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[(m[2] ?? 'B').toUpperCase() as 'B'];
  return Math.round(Number(m[1]) * unit);
}

/** The path of a cached dump of `sizeText`, generating it when missing. */
export function ensureDump(sizeText: string): string {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const file = path.join(DATA_DIR, `module_0001.jit_train_step.${sizeText.toLowerCase()}.after_optimizations.txt`);
  if (!fs.existsSync(file)) generateDump(file, parseSize(sizeText));
  return file;
}

if (require.main === module) {
  const [size = '10MB', out] = process.argv.slice(2);
  const file = out ?? ensureDump(size);
  if (out) generateDump(out, parseSize(size));
  console.log(`${file}: ${fs.statSync(file).size} bytes`);
}
