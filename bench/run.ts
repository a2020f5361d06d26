/**
 * Benchmark runner (`npm run bench [-- --sizes 10MB,100MB,1GB] [--real-layers 6,48] [--check-only]`):
 * builds the CLI, runs the check-vs-ripgrep benchmark at each size and on real jax dumps of
 * transformers of those layer counts (bench/real-dump.ts), then (unless --check-only) every other
 * `bench/*.bench.ts` file's exported `run…Bench` functions (memory map, server, webview, …), and
 * prints a Markdown table.
 *
 * Adding a benchmark = adding a `bench/<name>.bench.ts` file that exports a function named
 * `run<Something>Bench()` (no required arguments, sync or async) returning an object or array of
 * objects with at least `name`, and ideally `ms`, `referenceMs` and `targetMs` (or any numeric
 * fields, which are listed as they are).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CLI_PATH, runCheckBench, runCheckBenchOn, type CheckBenchResult } from './check.bench';
import { NAME_CHECK_MAX_CHARS } from '../core/src';
import { parseSize } from './generate-dump';
import { ensureRealDump } from './real-dump';

interface Row {
  readonly benchmark: string;
  readonly result: string;
  readonly reference: string;
  readonly ratio: string;
  readonly target: string;
  readonly verdict: string;
}

function sizesFromArgs(argv: readonly string[]): string[] {
  const i = argv.findIndex((a) => a === '--sizes' || a.startsWith('--sizes='));
  if (i < 0) return ['100MB'];
  const raw = argv[i]?.includes('=') ? argv[i]?.split('=')[1] : argv[i + 1];
  return (raw ?? '100MB')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `--real-layers 6,48` (the default): the layer counts of the real jax dumps; `--real-layers none` skips them. */
function realLayersFromArgs(argv: readonly string[]): number[] {
  const i = argv.findIndex((a) => a === '--real-layers' || a.startsWith('--real-layers='));
  const raw = i < 0 ? '6,48' : argv[i]?.includes('=') ? argv[i]?.split('=')[1] : argv[i + 1];
  if (raw === 'none') return [];
  return (raw ?? '6,48')
    .split(',')
    .map((n) => Number(n.trim()))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** Runs the project's own build, so the measured bundles are current. */
function buildCli(): void {
  execFileSync(process.execPath, [path.join(__dirname, '..', 'esbuild.js')], {
    cwd: path.join(__dirname, '..'),
    stdio: 'inherit',
  });
}

const s = (x: number): string => `${x.toFixed(2)} s`;

/** A wall time with the range of its repeated runs: "1.23 s (1.10-1.60, 5 runs)". */
const wall = (m: { wallSeconds: number; wallRange?: readonly [number, number] }, runs: number): string =>
  runs > 1 && m.wallRange
    ? `${s(m.wallSeconds)} (${m.wallRange[0].toFixed(2)}-${m.wallRange[1].toFixed(2)}, median of ${runs})`
    : s(m.wallSeconds);

function checkRows(r: CheckBenchResult, runs: number): Row[] {
  const rows: Row[] = [];
  const size =
    r.bytes < 10 * 1024 * 1024 ? (r.bytes / 1024 / 1024).toFixed(1) : (r.bytes / 1024 / 1024).toFixed(0);
  const kind = r.profile === 'model' ? '' : r.profile === 'real' ? ` real jax (${r.size})` : ` ${r.profile}`;
  const mb = `${size} MiB${kind}`;
  const ok = r.check.exitCode === 0;
  if (r.rg) {
    const wallRatio = r.check.wallSeconds / r.rg.wallSeconds;
    const cpuRatio = r.check.cpuSeconds / r.rg.cpuSeconds;
    rows.push({
      benchmark: `check ${mb} dump, wall`,
      result: wall(r.check, runs),
      reference: `rg ${wall(r.rg, runs)}, ${r.rgMatches ?? '?'} matches`,
      ratio: `${wallRatio.toFixed(1)}x`,
      target: '<= 2x rg',
      verdict: ok ? (wallRatio <= 2 ? 'ok' : 'MISS') : `check exit ${r.check.exitCode}`,
    });
    rows.push({
      benchmark: `check ${mb} dump, CPU (user+sys)`,
      result: s(r.check.cpuSeconds),
      reference: `rg ${Number.isNaN(r.rg.cpuSeconds) ? 'n/a' : s(r.rg.cpuSeconds)}`,
      ratio: Number.isNaN(cpuRatio) ? 'n/a' : `${cpuRatio.toFixed(1)}x`,
      // The target is on time; CPU shows what the threads cost together.
      target: '',
      verdict: '',
    });
  } else {
    rows.push({
      benchmark: `check ${mb} dump`,
      result: s(r.check.wallSeconds),
      reference: 'rg not installed (apt-get install -y ripgrep)',
      ratio: '',
      target: '',
      verdict: '',
    });
  }
  if (r.bytes <= NAME_CHECK_MAX_CHARS)
    rows.push({
      benchmark: `check ${mb} dump with name checks, wall (Node's start included)`,
      result: wall(r.check, runs),
      reference: '',
      ratio: '',
      target: '< 0.25 s',
      verdict: ok ? (r.check.wallSeconds < 0.25 ? 'ok' : 'MISS') : `check exit ${r.check.exitCode}`,
    });
  const rssMb = r.check.maxRssKiB !== undefined ? r.check.maxRssKiB / 1024 : NaN;
  rows.push({
    benchmark: `check ${mb} dump, peak RSS`,
    result: Number.isNaN(rssMb) ? 'n/a' : `${rssMb.toFixed(0)} MiB`,
    reference: r.rg?.maxRssKiB ? `rg ${(r.rg.maxRssKiB / 1024).toFixed(0)} MiB (${r.method})` : r.method,
    ratio: '',
    target: '< 200 MiB',
    verdict: Number.isNaN(rssMb) ? '' : rssMb < 200 ? 'ok' : 'MISS',
  });
  return rows;
}

/** Renders one result object of an auto-discovered benchmark. */
function genericRow(file: string, value: unknown): Row {
  const o = (typeof value === 'object' && value !== null ? value : { value }) as Record<string, unknown>;
  const num = (k: string): number | undefined => (typeof o[k] === 'number' ? o[k] : undefined);
  const name = typeof o.name === 'string' ? o.name : file;
  const ms = num('ms');
  const ref = num('referenceMs');
  const target = num('targetMs');
  if (ms !== undefined) {
    return {
      benchmark: name,
      result: `${ms.toFixed(1)} ms`,
      reference: ref !== undefined ? `${ref.toFixed(1)} ms` : '',
      ratio: ref ? `${(ms / ref).toFixed(1)}x` : '',
      target: target !== undefined ? `< ${target} ms` : '',
      verdict: target !== undefined ? (ms < target ? 'ok' : 'MISS') : '',
    };
  }
  const fields = Object.entries(o)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string')
    .map(([k, v]) => `${k}=${String(v)}`);
  return { benchmark: name, result: fields.join(', '), reference: '', ratio: '', target: '', verdict: '' };
}

/** Imports every other `*.bench.ts` here and runs its `run…Bench` exports. */
async function otherBenchmarks(): Promise<Row[]> {
  const rows: Row[] = [];
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts') && f !== 'check.bench.ts')
    .sort();
  for (const file of files) {
    let mod: Record<string, unknown>;
    try {
      mod = (await import(path.join(__dirname, file))) as Record<string, unknown>;
    } catch (e) {
      rows.push({
        benchmark: file,
        result: `failed to load: ${(e as Error).message.split('\n')[0]}`,
        reference: '',
        ratio: '',
        target: '',
        verdict: 'ERROR',
      });
      continue;
    }
    for (const [name, fn] of Object.entries(mod)) {
      if (!/^run\w*Bench$/.test(name) || typeof fn !== 'function') continue;
      console.error(`running ${file} ${name}…`);
      try {
        const result: unknown = await (fn as () => unknown)();
        for (const r of Array.isArray(result) ? result : [result]) rows.push(genericRow(file, r));
      } catch (e) {
        rows.push({
          benchmark: `${file} ${name}`,
          result: `failed: ${(e as Error).message.split('\n')[0]}`,
          reference: '',
          ratio: '',
          target: '',
          verdict: 'ERROR',
        });
      }
    }
  }
  return rows;
}

function markdown(rows: readonly Row[]): string {
  const head: Row = {
    benchmark: 'benchmark',
    result: 'result',
    reference: 'reference (same run)',
    ratio: 'ratio',
    target: 'target',
    verdict: 'verdict',
  };
  const cells = [head, ...rows].map((r) => [
    r.benchmark,
    r.result,
    r.reference,
    r.ratio,
    r.target,
    r.verdict,
  ]);
  const lines = cells.map((c) => `| ${c.join(' | ')} |`);
  lines.splice(1, 0, `|${cells[0]?.map(() => '---').join('|')}|`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const sizes = sizesFromArgs(process.argv.slice(2));
  console.error('building dist/cli.js…');
  buildCli();
  const rows: Row[] = [];
  console.error(
    `check runs with its default threads (${Math.min(4, os.availableParallelism())} on this machine for files from 16 MiB)`,
  );
  // Targets are judged on the model profile; the stress profile (random shapes) is reported up to 100 MB.
  const runs = [
    ...sizes.map((size) => [size, 'model'] as const),
    ...sizes.filter((size) => parseSize(size) <= 100 * 1024 * 1024).map((size) => [size, 'stress'] as const),
  ];
  for (const [size, profile] of runs) {
    console.error(`check vs rg on ${size} ${profile} (the dump is generated into bench/data/ once)…`);
    // Five alternating runs each up to 100 MB; the 1 GB runs take long enough to be steadier.
    const repeats = parseSize(size) <= 100 * 1024 * 1024 ? 5 : 1;
    const r = runCheckBench(size, CLI_PATH, profile, repeats);
    console.error(
      `  check ${s(r.check.wallSeconds)} wall, ${s(r.check.cpuSeconds)} CPU, ${r.check.maxRssKiB ?? '?'} KiB peak; rg ${r.rg ? `${s(r.rg.wallSeconds)} wall, ${s(r.rg.cpuSeconds)} CPU` : 'missing'}`,
    );
    rows.push(...checkRows(r, repeats));
  }
  // Real jax dumps beside the synthetic ones: a small one (name checks on) and a 48-layer model.
  for (const layers of realLayersFromArgs(process.argv.slice(2))) {
    console.error(`check vs rg on a real jax dump of ${layers} layers (compiled into bench/data/ once)…`);
    const file = ensureRealDump(layers);
    if (file === undefined) break;
    rows.push(...checkRows(runCheckBenchOn(file, `${layers} layers`, 'real', CLI_PATH, 5), 5));
  }
  if (!process.argv.includes('--check-only')) rows.push(...(await otherBenchmarks()));
  console.log(markdown(rows));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
