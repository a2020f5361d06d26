/**
 * Language-server benchmark on a generated after-optimizations dump (50 MB by default), driving the
 * bundled `node dist/server.js` as a child process over real JSON-RPC, like an editor. It is started
 * as the VS Code client starts it (`TransportKind.ipc`: `--node-ipc`, messages over Node's IPC
 * channel); the model dump's default case is also run over `--stdio`, the transport of Neovim,
 * Helix and Emacs. Measured:
 * open → all diagnostics (judged; the server publishes those found so far while it analyses a large
 * document, and the first of those publishes is timed too), hover latency (p50/p99 over many shape positions), one-line edit →
 * diagnostics arriving at the client, the outline and folding ranges VS Code asks for after an
 * open, and the server's resident memory against the file size.
 * Wall times are taken on a machine that may be loaded, so the server's own CPU time (from
 * /proc/PID/stat) is reported next to them. Reference figures from the same run: reading the
 * file, a JSON round trip of its text (what merely shipping it to the server costs) and `rg -c`.
 *
 * Two generated dumps (bench/generate-dump.ts): `model`, a sharded transformer's dump (a few
 * thousand distinct shapes, 148 padding warnings per 50 MB), on which the targets are judged, and
 * `stress` (random shapes, 30,586 padding warnings per 50 MB), reported without targets. Each is measured twice, with default settings and with `padding-overhead` turned
 * off (what a user drowning in warnings would set), so the cost of publishing the warnings shows
 * separately.
 *
 * The judged open (model dump, default settings) is timed in three fresh servers and reported by
 * the median, with the reference measured before each.
 *
 * Memory is read right after the complete diagnostics (`rssAfterOpenMiB`, before the server's
 * post-open garbage collection), once the server has answered its first request after the open
 * (`rssSettledMiB`, what the document costs while it stays open), after 20 edits, once the server
 * has been idle for a while after them (`rssIdleMiB`: a large publish schedules a collection for
 * its first quiet spell), and at its peak.
 *
 * `npm run bench` picks up {@link runServerBench}; alone:
 * `npx tsx bench/server.bench.ts [size] [--profile DIR] [--node-arg ARG]... [--profile-only model|stress]` (`--profile` runs the
 * server under `node --cpu-prof` and leaves one .cpuprofile per server in DIR; each `--node-arg`
 * passes a node option to the server, as a client's `execArgv` would).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import {
  createMessageConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { SymbolKind, type DocumentSymbol, type PublishDiagnosticsParams } from 'vscode-languageserver';
import { AnalysisProgressNotification, type AnalysisProgressParams } from '../protocol/src/lsp';
import { SERVER_ENVIRONMENT, SERVER_NODE_ARGS } from '../protocol/src/server-environment';
import { IDLE_COLLECTION_MS } from '../server/src/idle-collection';
import { ensureDump, type DumpProfile } from './generate-dump';
import { median } from './stats';

const ROOT = join(__dirname, '..');
const SERVER = join(ROOT, 'dist', 'server.js');
/** Clock ticks per second of /proc/PID/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** One row for bench/run.ts: `ms` against `referenceMs` and `targetMs`. */
export interface ServerBenchRow {
  readonly name: string;
  readonly ms?: number;
  readonly referenceMs?: number;
  readonly targetMs?: number;
  readonly [key: string]: string | number | undefined;
}

export interface ServerBenchOptions {
  /** Directory for `node --cpu-prof` profiles of the server processes. */
  readonly profileDir?: string;
  /** Extra node options for the server processes (e.g. `--max-semi-space-size=32`). */
  readonly nodeArgs?: readonly string[];
  /** Which dumps to run (default both, model first). */
  readonly profiles?: readonly DumpProfile[];
}

/** How the server is started and spoken to: VS Code's `TransportKind.ipc`, or stdio as other editors do. */
type Transport = 'ipc' | 'stdio';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** User + system CPU time a process has used so far, in ms (10 ms resolution). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Reference: ripgrep counting the lines with a layout, the cheapest full pass over the file. */
function ripgrepMs(file: string): number | undefined {
  const t = performance.now();
  const r = spawnSync('rg', ['-c', '\\]\\{', file], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : performance.now() - t;
}

interface Client {
  readonly rpc: MessageConnection;
  readonly pid: number;
  /** Resolves with the first publishDiagnostics at `version` or later. */
  nextDiagnostics(version: number): Promise<PublishDiagnosticsParams>;
  /**
   * Resolves with the first publishDiagnostics after the server's next "analysis finished"
   * notification: the complete diagnostics of a large document just opened, which the server
   * precedes with partial publishes while it analyses.
   */
  completeDiagnostics(): Promise<PublishDiagnosticsParams>;
  /** Shuts the server down politely (so a CPU profile gets written) and waits for it to exit. */
  stop(): Promise<void>;
}

async function startServer(
  settings: unknown,
  options: ServerBenchOptions,
  transport: Transport,
): Promise<Client> {
  const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  // The environment and node options the VS Code client gives the server (protocol/src/server-environment.ts).
  const env = { ...process.env, ...SERVER_ENVIRONMENT };
  const args = [...SERVER_NODE_ARGS, ...(options.nodeArgs ?? []), ...profile, SERVER];
  let rpc: MessageConnection;
  let child;
  if (transport === 'ipc') {
    // vscode-languageclient's TransportKind.ipc: a fourth stdio entry for Node's IPC channel (the
    // client shows what the server prints in its output channel; nobody reads it here).
    child = spawn(process.execPath, [...args, '--node-ipc'], {
      stdio: ['pipe', 'ignore', 'inherit', 'ipc'],
      env,
    });
    rpc = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
  } else {
    child = spawn(process.execPath, [...args, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env });
    rpc = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
  }
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const waiters: ((p: PublishDiagnosticsParams) => void)[] = [];
  let finished: ((p: PublishDiagnosticsParams) => void)[] = [];
  const afterFinished: ((p: PublishDiagnosticsParams) => void)[] = [];
  rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    waiters.splice(0).forEach((w) => w(p));
    afterFinished.splice(0).forEach((w) => w(p));
  });
  rpc.onNotification(AnalysisProgressNotification, (p: AnalysisProgressParams) => {
    if (p.state === 'finished') afterFinished.push(...finished.splice(0));
  });
  rpc.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => settings));
  rpc.listen();
  await rpc.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: { workspace: { configuration: true } },
  });
  await rpc.sendNotification('initialized', {});
  return {
    rpc,
    pid: child.pid!,
    nextDiagnostics: (version) =>
      new Promise<PublishDiagnosticsParams>((resolve) => {
        const wait = (p: PublishDiagnosticsParams) =>
          (p.version ?? 0) >= version ? resolve(p) : waiters.push(wait);
        waiters.push(wait);
      }),
    completeDiagnostics: () =>
      new Promise<PublishDiagnosticsParams>((resolve) => (finished = [...finished, resolve])),
    stop: async () => {
      await rpc.sendRequest('shutdown');
      await rpc.sendNotification('exit');
      await exited;
      rpc.dispose();
    },
  };
}

/** One open of a document: when its first (partial) and its complete diagnostics arrived. */
interface OpenTimes {
  /** Diagnostics in the complete publish. */
  readonly published: number;
  /** Open → complete diagnostics. */
  readonly openMs: number;
  readonly openCpuMs: number;
  /** Open → first publish (the diagnostics of the part analysed so far, for a large document). */
  readonly firstMs: number;
  /** Diagnostics in the first publish. */
  readonly firstPublished: number;
}

/** Sends `text` as a didOpen and waits for its first and its complete diagnostics. */
async function timeOpen(client: Client, uri: string, text: string): Promise<OpenTimes> {
  const cpu0 = cpuMsOf(client.pid);
  const t = performance.now();
  const first = client
    .nextDiagnostics(1)
    .then((p) => ({ ms: performance.now() - t, count: p.diagnostics.length }));
  const complete = client.completeDiagnostics();
  await client.rpc.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'hlo', version: 1, text },
  });
  const diags = await complete;
  const openMs = performance.now() - t;
  const openCpuMs = cpuMsOf(client.pid) - cpu0;
  const { ms: firstMs, count: firstPublished } = await first;
  return { published: diags.diagnostics.length, openMs, openCpuMs, firstMs, firstPublished };
}

interface CaseResult extends OpenTimes {
  /** Fastest and slowest of the opens whose median is `openMs`, when there were several. */
  readonly openRange?: readonly [number, number];
  readonly hoverMs: readonly number[];
  readonly editMs: readonly number[];
  /** The outline and folding ranges VS Code asks for after an open (breadcrumbs, sticky scroll, folding). */
  readonly outlineMs: number;
  readonly outlineItems: number;
  readonly rssAfterOpen: number;
  readonly rssSettled: number;
  readonly rssAtEnd: number;
  readonly rssIdle: number;
  readonly peak: number;
}

/**
 * Where to hover (shapes spread over the file) and where to edit (20 lines in the middle). Taken
 * before the server starts: splitting 50 MB into lines during the hovers made this process's own
 * garbage collector pause for 15-25 ms twice, and those pauses counted as hover latency.
 */
function positionsIn(text: string): {
  targets: { line: number; character: number }[];
  edits: { line: number; character: number }[];
} {
  const lines = text.split('\n');
  const targets: { line: number; character: number }[] = [];
  const step = Math.max(1, Math.floor(lines.length / 1000));
  for (let line = 0; line < lines.length && targets.length < 1000; line += step) {
    const at = lines[line].indexOf('[');
    if (at > 2 && lines[line].length < 2000) targets.push({ line, character: at - 1 });
  }
  const mid = Math.floor(lines.length / 2);
  const edits = Array.from({ length: 20 }, (_, i) => ({
    line: mid + i * 7,
    character: Math.max(0, lines[mid + i * 7].indexOf('[') + 1),
  }));
  return { targets, edits };
}

/** Opens `text` in a fresh server with `settings`, hovers, edits, and measures. */
async function runCase(
  file: string,
  text: string,
  settings: unknown,
  options: ServerBenchOptions,
  transport: Transport = 'ipc',
): Promise<CaseResult> {
  const { targets, edits } = positionsIn(text);
  // The lines are garbage now: collect them here (`npm run bench` exposes gc) rather than mid-measurement.
  (globalThis as { gc?: () => void }).gc?.();
  const client = await startServer(settings, options, transport);
  const uri = `file://${file}`;
  try {
    const opened = await timeOpen(client, uri, text);
    const rssAfterOpen = memoryOf(client.pid).rss;

    const hoverMs: number[] = [];
    let settled = rssAfterOpen;
    for (const position of targets) {
      const h0 = performance.now();
      await client.rpc.sendRequest('textDocument/hover', { textDocument: { uri }, position });
      hoverMs.push(performance.now() - h0);
      if (hoverMs.length === 1) settled = memoryOf(client.pid).rss;
    }
    hoverMs.sort((a, b) => a - b);

    // One-line edits in the middle of the file → diagnostics of that version at the client.
    const editMs: number[] = [];
    let version = 1;
    for (const [i, { line, character }] of edits.entries()) {
      version++;
      const published = client.nextDiagnostics(version);
      const e0 = performance.now();
      await client.rpc.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [
          { range: { start: { line, character }, end: { line, character } }, text: i % 2 === 0 ? '1' : '' },
        ],
      });
      await published;
      editMs.push(performance.now() - e0);
    }
    editMs.sort((a, b) => a - b);
    const o0 = performance.now();
    const [symbols] = await Promise.all([
      client.rpc.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }),
      client.rpc.sendRequest('textDocument/foldingRange', { textDocument: { uri } }),
    ]);
    const outlineMs = performance.now() - o0;
    const count = (list: readonly DocumentSymbol[]): number =>
      list.reduce((n, s) => n + (s.kind === SymbolKind.Module ? 0 : 1) + count(s.children ?? []), 0);
    const mem = memoryOf(client.pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_COLLECTION_MS + 1000));
    const idle = memoryOf(client.pid);
    return {
      ...opened,
      hoverMs,
      editMs,
      outlineMs,
      outlineItems: count(symbols),
      rssAfterOpen,
      rssSettled: settled,
      rssAtEnd: mem.rss,
      rssIdle: idle.rss,
      peak: idle.peak,
    };
  } finally {
    await client.stop();
  }
}

/** Opens `text` in a fresh server with `settings` and times its diagnostics only. */
async function openOnce(
  file: string,
  text: string,
  settings: unknown,
  options: ServerBenchOptions,
): Promise<OpenTimes> {
  const client = await startServer(settings, options, 'ipc');
  try {
    return await timeOpen(client, `file://${file}`, text);
  } finally {
    await client.stop();
  }
}

/** Reading the file and a JSON round trip of its text: what merely getting it to a server costs. */
function referenceTimes(file: string): { readMs: number; jsonMs: number; text: string } {
  let t = performance.now();
  const text = readFileSync(file, 'utf8');
  const readMs = performance.now() - t;
  t = performance.now();
  JSON.parse(JSON.stringify({ text })) as unknown;
  return { readMs, jsonMs: performance.now() - t, text };
}

const mib = (b: number) => Math.round(b / 1024 / 1024);
const round1 = (x: number) => Math.round(x * 10) / 10;

function caseRows(
  label: string,
  bytes: number,
  r: CaseResult,
  referenceMs: number,
  reference: Record<string, number>,
  judged: boolean,
): ServerBenchRow[] {
  const target = (ms: number) => (judged ? { targetMs: ms } : {});
  const servers = r.openRange ? 'median of 3 servers, ' : '';
  return [
    {
      name: `server${label}: open ${mib(bytes)} MiB dump → all diagnostics (${r.published} published; ${servers}${r.openRange ? `${Math.round(r.openRange[0])}-${Math.round(r.openRange[1])} ms; ` : ''}server CPU ${Math.round(r.openCpuMs)} ms)`,
      ms: r.openMs,
      referenceMs,
      ...target(1000),
      ...reference,
    },
    {
      name: `server${label}: open ${mib(bytes)} MiB dump → first diagnostics shown, those of the part analysed so far (${r.firstPublished} of ${r.published}; ${servers}not judged)`,
      ms: r.firstMs,
      referenceMs,
    },
    {
      name: `server${label}: hover p99 (${r.hoverMs.length} shape positions; p50 ${percentile(r.hoverMs, 50).toFixed(2)} ms)`,
      ms: percentile(r.hoverMs, 99),
      ...target(5),
    },
    {
      name: `server${label}: one-line edit → diagnostics at the client, median of 20 (max ${r.editMs[r.editMs.length - 1].toFixed(1)} ms)`,
      ms: percentile(r.editMs, 50),
      ...target(50),
    },
    {
      name: `server${label}: outline (${r.outlineItems} computations and instructions, cut at outline.maxItems) and folding ranges, as VS Code asks for them after an open`,
      ms: r.outlineMs,
    },
    {
      name: `server${label}: memory`,
      rssAfterOpenMiB: mib(r.rssAfterOpen),
      rssSettledMiB: mib(r.rssSettled),
      rssAtEndMiB: mib(r.rssAtEnd),
      rssIdleMiB: mib(r.rssIdle),
      peakRssMiB: mib(r.peak),
      fileMiB: mib(bytes),
      rssPerFileSize: Number((r.rssAfterOpen / bytes).toFixed(2)),
      settledPerFileSize: Number((r.rssSettled / bytes).toFixed(2)),
      endPerFileSize: Number((r.rssAtEnd / bytes).toFixed(2)),
      idlePerFileSize: Number((r.rssIdle / bytes).toFixed(2)),
      peakPerFileSize: Number((r.peak / bytes).toFixed(2)),
      ...(judged ? { target: '< 4x file size' } : {}),
    },
  ];
}

/** Both cases (default settings, padding-overhead off) on the `profile` dump of `size`. */
async function runProfile(
  size: string,
  profile: DumpProfile,
  options: ServerBenchOptions,
): Promise<ServerBenchRow[]> {
  const file = ensureDump(size, profile);
  const bytes = statSync(file).size;

  const first = referenceTimes(file);
  const text = first.text;
  const judged = profile === 'model';
  const label = judged ? '' : ` [${profile} dump]`;
  const defaults = await runCase(file, text, {}, options);
  // The judged open is timed in three fresh servers, each right after its reference, and reported
  // by the medians: one open of the same server varies by up to 1.5x on these shared machines.
  const opens: OpenTimes[] = [defaults];
  const references = [first.readMs + first.jsonMs];
  const reads = [first.readMs];
  const jsons = [first.jsonMs];
  for (let i = 0; judged && i < 2; i++) {
    const r = referenceTimes(file);
    reads.push(r.readMs);
    jsons.push(r.jsonMs);
    references.push(r.readMs + r.jsonMs);
    opens.push(await openOnce(file, text, {}, options));
  }
  const walls = opens.map((o) => o.openMs);
  const firsts = opens.map((o) => o.firstMs);
  const opened: CaseResult = {
    ...defaults,
    openMs: median(walls),
    openCpuMs: median(opens.map((o) => o.openCpuMs)),
    firstMs: median(firsts),
    firstPublished: opens[firsts.indexOf(median(firsts))]?.firstPublished ?? defaults.firstPublished,
    ...(opens.length > 1 ? { openRange: [Math.min(...walls), Math.max(...walls)] as const } : {}),
  };
  const rgMs = ripgrepMs(file);
  const reference = {
    readFileMs: round1(median(reads)),
    jsonRoundTripMs: round1(median(jsons)),
    ...(rgMs !== undefined ? { rgCountMs: round1(rgMs) } : {}),
  };
  const filtered = await runCase(
    file,
    text,
    { diagnostics: { severity: { 'padding-overhead': 'off' } } },
    options,
  );
  const rows = [
    ...caseRows(label, bytes, opened, median(references), reference, judged),
    ...caseRows(
      `${label} (padding-overhead off)`,
      bytes,
      filtered,
      first.readMs + first.jsonMs,
      reference,
      judged,
    ),
  ];
  if (judged) {
    const r = referenceTimes(file);
    const stdio = await runCase(file, text, {}, options, 'stdio');
    rows.push(
      ...caseRows(
        ' (over stdio, as other editors start it)',
        bytes,
        stdio,
        r.readMs + r.jsonMs,
        reference,
        false,
      ),
    );
  }
  return rows;
}

/**
 * Runs the benchmark on dumps of `size` (default 50MB), the `model` dump (targets) then the
 * `stress` dump (reported), and returns their rows.
 */
export async function runServerBench(
  size = '50MB',
  options: ServerBenchOptions = {},
): Promise<ServerBenchRow[]> {
  esbuild.buildSync({
    entryPoints: [join(ROOT, 'server', 'src', 'node-main.ts')],
    outfile: SERVER,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  });
  const rows: ServerBenchRow[] = [];
  for (const profile of options.profiles ?? (['model', 'stress'] as const))
    rows.push(...(await runProfile(size, profile, options)));
  return rows;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const p = args.indexOf('--profile');
  const profileDir = p >= 0 ? args.splice(p, 2)[1] : undefined;
  const nodeArgs: string[] = [];
  for (let i = args.indexOf('--node-arg'); i >= 0; i = args.indexOf('--node-arg'))
    nodeArgs.push(args.splice(i, 2)[1]);
  const only = args.indexOf('--profile-only');
  const profiles = only >= 0 ? [args.splice(only, 2)[1] as DumpProfile] : undefined;
  runServerBench(args[0], {
    ...(profileDir ? { profileDir } : {}),
    nodeArgs,
    ...(profiles ? { profiles } : {}),
  }).then(
    (rows) => console.log(JSON.stringify(rows, null, 2)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
