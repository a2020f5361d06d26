/**
 * Writes a large synthetic TPU-style after-optimizations HLO dump: a module header with a long
 * entry_computation_layout, fusion computations, while bodies and conditions, tiled layouts
 * ((8,128), (8,128)(2,1), (8,128)(4,1), (8,128)(8,1)E(4)), tuples, S(1)/S(5) memory spaces,
 * metadata={op_name=... source_file=... source_line=...} and backend_config strings. Deterministic
 * (seeded), valid HLO shapes throughout, so `xla-layout check` must report nothing.
 *
 * Two profiles decide which shapes appear:
 * - `model` (the default, what the speed targets are measured on): the tensors of one sharded
 *   transformer (activations, weights, attention scores, masks, reductions, RNG state) repeated
 *   layer after layer, with transposed layouts, slices and memory spaces, plus one shape in a
 *   hundred drawn at random. A real program's dump repeats a small vocabulary of shapes: every
 *   layer of a 48-layer model has the same ones. This gives a few thousand distinct shapes per
 *   100 MB and padding warnings on about 1% of statements (`[batch, seq, 1]` reductions, odd
 *   random shapes), which is what users meet.
 * - `stress`: every dimension drawn at random from 1..4096, arrays of up to 2^43 elements that no
 *   device could hold, and an ENTRY that also copies each fusion's result six times, so that
 *   padded buffers XLA allocates are everywhere. No program looks like this; it measures the
 *   memoised checks with their caches missing and the server publishing tens of thousands of
 *   padding warnings.
 *
 * Run alone: `npx tsx bench/generate-dump.ts 100MB [out.txt] [--stress]`; bench/run.ts imports {@link ensureDump}.
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

/** Which shapes a dump is made of (see the file comment). */
export type DumpProfile = 'model' | 'stress';

/** Per-device sizes of a transformer sharded 4 ways: batch, sequence, model, heads, head dim, MLP, vocabulary. */
const B = 8n;
const SEQ = 2048n;
const D = 4096n;
const HEADS = 8n;
const HD = 128n;
const MLP = 3584n;
const VOCAB = 8000n;

interface Template {
  readonly types: readonly string[];
  readonly dims: readonly bigint[];
  /** Relative frequency (default 1). */
  readonly weight?: number;
}

/** The model profile's tensor vocabulary: element types it appears with, and dimensions. */
const TEMPLATES: readonly Template[] = [
  { types: ['bf16'], dims: [B, SEQ, D] },
  { types: ['bf16'], dims: [B, SEQ, MLP] },
  { types: ['bf16'], dims: [B, SEQ, HEADS, HD] },
  { types: ['bf16'], dims: [B, HEADS, SEQ, HD] },
  { types: ['bf16', 'f32'], dims: [B, HEADS, SEQ, SEQ] },
  { types: ['f32'], dims: [B, HEADS, SEQ] },
  { types: ['bf16'], dims: [B * SEQ, D] },
  { types: ['f32'], dims: [B, SEQ] },
  // A keep-dims reduction: padded 128x by T(8,128), the case users ask about; rare in a good program.
  { types: ['f32'], dims: [B, SEQ, 1n], weight: 0.1 },
  { types: ['bf16'], dims: [B, SEQ, VOCAB] },
  { types: ['bf16', 'f32', 's8'], dims: [D, MLP] },
  { types: ['bf16', 'f32', 's8'], dims: [MLP, D] },
  { types: ['bf16', 'f32', 's4'], dims: [D, HEADS, HD] },
  { types: ['bf16', 'f32'], dims: [HEADS, HD, D] },
  { types: ['bf16', 'f32'], dims: [VOCAB, D] },
  { types: ['f32', 'bf16'], dims: [D] },
  { types: ['f32'], dims: [MLP] },
  { types: ['s32', 'pred'], dims: [B, SEQ] },
  { types: ['pred'], dims: [SEQ, SEQ] },
  { types: ['s32'], dims: [B] },
  { types: ['u32'], dims: [2n] },
  { types: ['f32'], dims: [HEADS, 1n] },
];

const TEMPLATE_WEIGHT = TEMPLATES.reduce((sum, t) => sum + (t.weight ?? 1), 0);

/** TPU tiles by element type: 32-bit (8,128), narrower types packed along the second-minor dimension. */
const TILES_BY_TYPE: Readonly<Record<string, string>> = {
  f32: 'T(8,128)',
  s32: 'T(8,128)',
  u32: 'T(8,128)',
  bf16: 'T(8,128)(2,1)',
  s8: 'T(8,128)(4,1)',
  pred: 'T(8,128)(4,1)',
  s4: 'T(8,128)(8,1)E(4)',
};

/** Rank-1 arrays use 1-D tiles, as TPU dumps do. */
function rank1Tiles(type: string): string {
  return type === 's4'
    ? 'T(1024)E(4)'
    : type === 'f32' || type === 's32' || type === 'u32'
      ? 'T(128)'
      : 'T(512)';
}

class ShapeMaker {
  constructor(
    private readonly r: () => number,
    private readonly profile: DumpProfile,
  ) {}
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }
  /** An array shape with a TPU layout; `space` adds S(1)/S(5) sometimes. */
  array(space = true): string {
    return this.profile === 'model' && this.r() >= 0.01 ? this.modelArray(space) : this.randomArray(space);
  }
  private memorySpace(space: boolean): string {
    const s = space ? this.r() : 1;
    return s < 0.08 ? 'S(1)' : s < 0.1 ? 'S(5)' : '';
  }
  private template(): Template {
    let x = this.r() * TEMPLATE_WEIGHT;
    for (const t of TEMPLATES) {
      x -= t.weight ?? 1;
      if (x < 0) return t;
    }
    return TEMPLATES[TEMPLATES.length - 1];
  }
  private randomArray(space: boolean): string {
    const t = this.pick(TYPES);
    const rank = 1 + Math.floor(this.r() * 4);
    let dims = Array.from({ length: rank }, () => this.pick(SIZES));
    // The model profile's odd shapes still fit a device (at most 2^32 elements).
    while (this.profile === 'model' && dims.reduce((a, b) => a * b, 1n) > 1n << 32n)
      dims = dims.map(() => this.pick(SIZES));
    const order = dims.map((_, i) => rank - 1 - i).join(',');
    const tiles = rank === 1 ? rank1Tiles(t.type) : t.tiles;
    return `${t.type}[${dims.join(',')}]{${order}:${tiles}${this.memorySpace(space)}}`;
  }
  /** A tensor of the model: a template, sometimes sliced in one dimension, in the default or a transposed layout. */
  private modelArray(space: boolean): string {
    const t = this.template();
    const type = this.pick(t.types);
    const dims = [...t.dims];
    if (this.r() < 0.15) {
      const k = Math.floor(this.r() * dims.length);
      if (dims[k] % 4n === 0n) dims[k] /= this.pick([2n, 4n]);
    }
    const rank = dims.length;
    const order = dims.map((_, i) => rank - 1 - i);
    // Layout assignment transposes a share of rank >= 2 tensors: the two major-most dimensions, or
    // the two minor-most when both fill a 128-wide tile (TPU layouts avoid a small minor dimension).
    if (rank >= 2 && this.r() < 0.25) {
      const a = rank > 2 && this.r() < 0.5 ? 0 : rank - 2;
      if (a > 0 || (dims[rank - 1] % 128n === 0n && dims[rank - 2] % 128n === 0n))
        [order[a], order[a + 1]] = [order[a + 1], order[a]];
    }
    const tiles = rank === 1 ? rank1Tiles(type) : TILES_BY_TYPE[type];
    return `${type}[${dims.join(',')}]{${order.join(',')}:${tiles}${this.memorySpace(space)}}`;
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

const BACKEND =
  'backend_config={"flag_configs":[],"scoped_memory_configs":[],"used_scoped_memory_configs":[],"output_chunk_bound_config":{"output_chunk_bound":["1"]}}';

function fusion(w: BlockWriter, m: ShapeMaker, r: () => number, id: number): void {
  const params = Array.from({ length: 2 + Math.floor(r() * 3) }, () => m.array());
  const result = m.array();
  w.line(
    `%fused_computation.${id} (${params.map((p, i) => `param_${i}.${id}: ${p.replace(/\{.*$/, '')}`).join(', ')}) -> ${result.replace(/\{.*$/, '')} {`,
  );
  params.forEach((p, i) => w.line(`  %param_${i}.${id} = ${p} parameter(${i})`));
  let last = `%param_0.${id}`;
  const body = 3 + Math.floor(r() * 8);
  for (let k = 0; k < body; k++) {
    const op = m.pick(OPS);
    const name = `%${op}.${id}.${k}`;
    const operands =
      op === 'convert' || op === 'copy' || op === 'negate' || op === 'exponential'
        ? last
        : `${last}, %param_${k % params.length}.${id}`;
    w.line(
      `  ${k === body - 1 ? 'ROOT ' : ''}${name} = ${k === body - 1 ? result : m.array(false)} ${op}(${operands}), ${metadata(r, m, op)}`,
    );
    last = name;
  }
  w.line('}');
  w.line('');
}

function whileLoop(w: BlockWriter, m: ShapeMaker, r: () => number, id: number): void {
  const size = 3 + Math.floor(r() * 6);
  const state = m.tuple(size);
  w.line(
    `%while_body.${id} (arg_tuple.${id}: ${state.replace(/\{[^}]*\}/g, '')}) -> ${state.replace(/\{[^}]*\}/g, '')} {`,
  );
  w.line(`  %arg_tuple.${id} = ${state} parameter(0)`);
  w.line(`  %gte.${id} = s32[]{:T(128)} get-tuple-element(${state} %arg_tuple.${id}), index=0`);
  // A tuple takes one operand per element of its shape (XLA's parser refuses other counts).
  const operands = Array.from({ length: size }, () => `%gte.${id}`).join(', ');
  w.line(`  ROOT %tuple.${id} = ${state} tuple(${operands}), ${BACKEND}`);
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
export function generateDump(file: string, bytes: number, seed = 7, profile: DumpProfile = 'model'): void {
  // Seeded, so every run writes the same file.
  const r = mulberry32(seed);
  const m = new ShapeMaker(r, profile);
  const fd = fs.openSync(file, 'w');
  const w = new BlockWriter(fd);
  try {
    const params = Array.from({ length: 400 }, () => m.array());
    w.line(
      `HloModule jit_train_step, is_scheduled=true, entry_computation_layout={(${params.join(', ')})->${m.tuple(8)}}, allow_spmd_sharding_propagation_to_output={true}`,
    );
    w.line('');
    let id = 0;
    const entry: string[] = [];
    const call = (line: string): void => void entry.push(line);
    // Computations until a share of the budget, then one ENTRY calling them: the stress profile's
    // ENTRY also holds unfused copies, about a third of the file.
    const computations = profile === 'stress' ? 0.7 : 0.92;
    while (w.total < bytes * computations) {
      id++;
      if (id % 7 === 0) {
        whileLoop(w, m, r, id);
        call(
          `  %while.${id} = ${m.tuple(3)} while(%p0), condition=%while_cond.${id}, body=%while_body.${id}, ${BACKEND}`,
        );
      } else {
        fusion(w, m, r, id);
        call(
          `  %fusion.${id} = ${m.array()} fusion(%p0), kind=kLoop, calls=%fused_computation.${id}, ${metadata(r, m, 'fusion')}, ${BACKEND}`,
        );
        // Unfused copies in ENTRY each allocate a buffer of their own, where padding warnings go.
        if (profile === 'stress')
          for (let k = 0; k < 6; k++) call(`  %copy.${id}.${k} = ${m.array()} copy(%fusion.${id})`);
      }
    }
    w.line(`ENTRY %main (p0: f32[1024,4]) -> f32[1024,4] {`);
    w.line('  %p0 = f32[1024,4]{1,0:T(8,128)} parameter(0)');
    for (const line of entry) {
      if (w.total >= bytes) break;
      w.line(line);
    }
    w.line(
      `  %copy-start = (f32[1024,4]{1,0:T(8,128)S(1)}, f32[1024,4]{1,0:T(8,128)}, u32[]{:S(2)}) copy-start(%p0)`,
    );
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

/** The path of a cached dump of `sizeText` in `profile`, generating it when missing. */
export function ensureDump(sizeText: string, profile: DumpProfile = 'model'): string {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const name = profile === 'model' ? 'module_0002.jit_train_step_model' : 'module_0001.jit_train_step';
  const file = path.join(DATA_DIR, `${name}.${sizeText.toLowerCase()}.after_optimizations.txt`);
  if (!fs.existsSync(file)) generateDump(file, parseSize(sizeText), 7, profile);
  return file;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const profile: DumpProfile = args.includes('--stress') ? 'stress' : 'model';
  const [size = '10MB', out] = args.filter((a) => a !== '--stress');
  const file = out ?? ensureDump(size, profile);
  if (out) generateDump(out, parseSize(size), 7, profile);
  console.log(`${file}: ${fs.statSync(file).size} bytes`);
}
