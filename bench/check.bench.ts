/**
 * Benchmark: `xla-layout check` on a generated TPU dump, side by side with ripgrep extracting the
 * same shapes from the same file in the same run. Reports wall and CPU time of both, the ratio,
 * and peak RSS of the CLI. Targets: check within 2x of rg, peak RSS < 200 MB at any size.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ensureDump, type DumpProfile } from './generate-dump';
import { median } from './stats';

/** The shapes ripgrep extracts: element type, dims, optional layout. */
export const SHAPE_REGEX = String.raw`\b(?:pred|[su](?:1|2|4|8|16|32|64)|bf16|f(?:16|32|64)|f8e\w+|f4e2m1fn|c(?:64|128)|token|opaque)\[[^\]]*\](?:\{[^}]*\})?`;

export interface Measurement {
  /** Wall time; for repeated runs, the median. */
  readonly wallSeconds: number;
  /** Fastest and slowest wall time of the repeated runs. */
  readonly wallRange?: readonly [number, number];
  /** CPU time (user + sys); for repeated runs, the median. */
  readonly cpuSeconds: number;
  /** Peak resident set size in KiB (the largest of repeated runs); undefined when it could not be measured. */
  readonly maxRssKiB?: number;
  readonly exitCode: number;
  readonly stdout: string;
}

/** The synthetic profiles, or a real jax dump (bench/real-dump.ts). */
export type BenchProfile = DumpProfile | 'real';

export interface CheckBenchResult {
  readonly size: string;
  readonly profile: BenchProfile;
  readonly bytes: number;
  readonly check: Measurement;
  readonly rg?: Measurement;
  readonly rgMatches?: number;
  /** How `maxRssKiB` was measured. */
  readonly method: string;
}

const TIME = '/usr/bin/time';

/**
 * The environment both commands run in: this one without NODE_EXTRA_CA_CERTS. Node reads that
 * certificate bundle at every start, which this machine's proxy set-up makes cost about 60 ms
 * (`node -e 0`: 90 ms with it, 30 ms without); `check` opens no connection, and a user's shell
 * has no such variable unless their network needs it.
 */
const { NODE_EXTRA_CA_CERTS: _caCerts, ...ENV } = process.env;
/** Set when the variable was removed, for the report. */
export const REMOVED_CA_CERTS = _caCerts !== undefined;

/** Runs `command args` under GNU time (-f "%e %U %S %M"), capturing stdout. */
function timed(command: string, args: readonly string[]): Measurement {
  const r = spawnSync(TIME, ['-f', '@@TIME %e %U %S %M', command, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: ENV,
  });
  const line = (r.stderr ?? '').split('\n').find((l) => l.startsWith('@@TIME '));
  const [wall = 'NaN', user = 'NaN', sys = 'NaN', rss = 'NaN'] = (line ?? '').slice(7).split(' ');
  return {
    wallSeconds: Number(wall),
    cpuSeconds: Number(user) + Number(sys),
    maxRssKiB: Number(rss),
    exitCode: r.status ?? -1,
    stdout: r.stdout ?? '',
  };
}

/**
 * Without GNU time: the CLI runs inside a tiny Node wrapper that prints its own
 * process.resourceUsage() on exit (maxRSS and CPU of the very process that did the work).
 */
function wrapped(cli: string, args: readonly string[]): Measurement {
  const script = `process.on('exit',()=>{const u=process.resourceUsage();require('fs').writeSync(2,'@@USAGE '+JSON.stringify(u)+'\\n')});process.argv=[process.argv[0],${JSON.stringify(cli)},...${JSON.stringify(args)}];require(${JSON.stringify(cli)});`;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 1 << 30, env: ENV });
  const wallSeconds = (performance.now() - t0) / 1000;
  const line = (r.stderr ?? '').split('\n').find((l) => l.startsWith('@@USAGE '));
  const u = line
    ? (JSON.parse(line.slice(8)) as { userCPUTime: number; systemCPUTime: number; maxRSS: number })
    : undefined;
  return {
    wallSeconds,
    cpuSeconds: u ? (u.userCPUTime + u.systemCPUTime) / 1e6 : NaN,
    maxRssKiB: u?.maxRSS,
    exitCode: r.status ?? -1,
    stdout: r.stdout ?? '',
  };
}

/** Repeated runs of one command as one measurement: median times, their range, the largest peak RSS. */
function summarize(runs: readonly Measurement[]): Measurement {
  const walls = runs.map((r) => r.wallSeconds);
  const rss = runs.map((r) => r.maxRssKiB).filter((k): k is number => k !== undefined && !Number.isNaN(k));
  const failed = runs.find((r) => r.exitCode !== 0);
  return {
    wallSeconds: median(walls),
    wallRange: [Math.min(...walls), Math.max(...walls)],
    cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
    ...(rss.length > 0 ? { maxRssKiB: Math.max(...rss) } : {}),
    exitCode: failed?.exitCode ?? 0,
    stdout: runs[0].stdout,
  };
}

/**
 * Times check and rg on a dump of `size` (e.g. "100MB") in `profile`; `cli` is the built
 * dist/cli.js. The two run `repeats` times, alternating, and each is reported by its median: on
 * these shared machines one run of the same command varies by up to 1.5x, and alternating exposes
 * both commands to the same slow spells.
 */
export function runCheckBench(
  size: string,
  cli: string,
  profile: DumpProfile = 'model',
  repeats = 1,
): CheckBenchResult {
  return runCheckBenchOn(ensureDump(size, profile), size, profile, cli, repeats);
}

/** {@link runCheckBench} on the dump `file`, reported as `size` of `profile`. */
export function runCheckBenchOn(
  file: string,
  size: string,
  profile: BenchProfile,
  cli: string,
  repeats = 1,
): CheckBenchResult {
  const bytes = fs.statSync(file).size;
  const haveTime = fs.existsSync(TIME);
  // Warm the page cache so neither side pays for the first read.
  fs.readFileSync(file).subarray(0, 1);
  const haveRg = spawnSync('rg', ['--version']).status === 0;
  // Through a pipe: ripgrep stops early when its output is /dev/null, which would flatter it.
  const rgCommand = `rg -o --no-filename '${SHAPE_REGEX}' '${file}' | wc -l`;
  const checks: Measurement[] = [];
  const rgs: Measurement[] = [];
  for (let i = 0; i < Math.max(1, repeats); i++) {
    checks.push(haveTime ? timed(process.execPath, [cli, 'check', file]) : wrapped(cli, ['check', file]));
    if (haveRg) rgs.push(haveTime ? timed('sh', ['-c', rgCommand]) : wrappedShell(rgCommand));
  }
  const rg = rgs.length > 0 ? summarize(rgs) : undefined;
  const rgMatches = rg ? Number(rg.stdout.trim()) : undefined;
  return {
    size,
    profile,
    bytes,
    check: summarize(checks),
    ...(rg ? { rg } : {}),
    ...(rgMatches !== undefined ? { rgMatches } : {}),
    method: `${haveTime ? '/usr/bin/time' : 'process.resourceUsage() in a wrapper'}${REMOVED_CA_CERTS ? '; NODE_EXTRA_CA_CERTS unset' : ''}`,
  };
}

function wrappedShell(cmd: string): Measurement {
  const t0 = performance.now();
  const r = spawnSync('sh', ['-c', cmd], { encoding: 'utf8', env: ENV });
  return {
    wallSeconds: (performance.now() - t0) / 1000,
    cpuSeconds: NaN,
    exitCode: r.status ?? -1,
    stdout: r.stdout ?? '',
  };
}

/** Path of the CLI bundle next to this folder. */
export const CLI_PATH = path.join(__dirname, '..', 'dist', 'cli.js');
