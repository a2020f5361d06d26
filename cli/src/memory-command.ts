/**
 * `xla-layout memory PATH...`: what a dump really allocates, from XLA's own buffer assignment.
 * Per module: XLA's total, the peak where its live ranges say so, how much is padding and the worst
 * offender with what to change, then the allocations largest first with their values: XLA's bytes
 * beside our layout model's physical and logical bytes, the padding and which dimension causes it.
 * A value whose bytes by our model are not XLA's is a disagreement (exit status 1).
 */
import {
  counted,
  groupDigits,
  headline,
  humanBytes,
  memoryModuleJson,
  valueLabel,
  ValueSizeCache,
  byCost,
  moduleRank,
  type ModuleRank,
  formatPercent,
  peakGroupLabel,
  type MemoryAllocation,
  type MemoryModule,
  type MemoryPeak,
  type MemoryValue,
} from '../../core/src';
import { intOption, parseArgs } from './args';
import { FileError, UsageError } from './errors';
import { table } from './format';
import { modulesAt, readModule, type ModuleFiles } from './memory-files';
import type { Output } from './output';

export const MEMORY_HELP = `Usage: xla-layout memory PATH... [--top N] [--modules N] [--json]

What a compiled module really allocates, from the files XLA writes beside it with --xla_dump_to:
*-buffer-assignment.txt (allocations and the values placed in them), *-memory-usage-report.txt,
*-live-range.txt and *-buffer-assignment-values.txt. PATH is a module's HLO dump (its companions
are found by name), one of the companions, or a dump folder (every module with a buffer
assignment). Several modules are first ranked by XLA's total, peak and padding, and detailed in
that order. Per module: XLA's total bytes and the peak, with what is live then by source line, how
much of it is padding and the value with the most, then the allocations largest first with their values: XLA's
bytes, our layout model's physical and logical bytes, the padding and the dimension that causes
it, the instruction's source line. Without a buffer assignment, an estimate from the HLO (every
value its own buffer), labelled as one.

  --top N      allocations (and places live at the peak) to list per module (default 10; 0 = all)
  --modules N  modules to detail after the ranking, largest first (default 0 = all)
  --json    {"ranking": [{"file", "module", "totalBytes", "peakBytes", "paddingBytes"}],
            "modules": [{"file", "module", "basis", "headline", "totalBytes", "paddingBytes",
            "spaces", "peak", "allocations": [{"index", "size", "kinds", "paddingBytes",
            "values": [{"name", "shape", "xlaBytes", "physicalBytes", "logicalBytes",
            "paddingBytes", "cause", "instruction": {"line", "source", ...}, ...}]}],
            "disagreements": [...]}]}; byte counts are decimal strings

Every value whose physical bytes by our layout model differ from XLA's is listed as a
disagreement (a tuple's value is its table of 8-byte pointers, as XLA counts it).

Exit status: 0 ok, 1 our layout model disagrees with XLA on some value, 2 a file could not be
read (or bad usage).`;

/** Values listed per allocation in text output. */
const VALUES_PER_ALLOCATION = 20;

function shorten(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

const bytes = (n: bigint | undefined): string => (n === undefined ? '?' : humanBytes(n));

function allocationLabel(m: MemoryModule, a: MemoryAllocation): string {
  const kinds = a.kinds.length > 0 ? ` ${a.kinds.join(', ')}` : '';
  const space = a.color !== 0 ? ` S(${a.color})` : '';
  return m.basis === 'estimate' ? `${kinds.trim() || 'value'}${space}` : `${a.index}${space}${kinds}`;
}

function valueCells(v: MemoryValue): string[] {
  return [
    '',
    bytes(v.xlaBytes ?? v.size.bytes),
    bytes(v.size.physical),
    bytes(v.size.logical),
    v.paddingBytes > 0n ? humanBytes(v.paddingBytes) : '-',
    shorten(valueLabel(v), 40),
    shorten(v.shape, 60),
    v.hlo?.source ?? '',
  ];
}

/** The allocation table: one row per allocation, its values below it, causes and disagreements under those. */
function allocationLines(m: MemoryModule, top: number): string[] {
  const shown = top === 0 ? m.allocations : m.allocations.slice(0, top);
  const rows: string[][] = [];
  const notes = new Map<number, string[]>();
  for (const a of shown) {
    rows.push([
      allocationLabel(m, a),
      humanBytes(a.size),
      '',
      '',
      a.paddingBytes > 0n ? humanBytes(a.paddingBytes) : '-',
      `${a.values.length} value${a.values.length === 1 ? '' : 's'}`,
      a.parameter ? `parameter ${a.parameter.number} {${a.parameter.shapeIndex.join(',')}}` : '',
      '',
    ]);
    for (const v of a.values.slice(0, VALUES_PER_ALLOCATION)) {
      rows.push(valueCells(v));
      const extra: string[] = [];
      if (v.size.cause) extra.push(`pads: ${v.size.cause.text}`);
      if (v.size.fix)
        extra.push(`fix: ${v.size.fix.description}; saves ${humanBytes(v.size.fix.savedBytes)}`);
      if (v.disagreement) extra.push(`DISAGREES: ${v.disagreement}`);
      if (extra.length > 0) notes.set(rows.length, extra);
    }
    if (a.values.length > VALUES_PER_ALLOCATION)
      rows.push(['', '', '', '', '', `… ${a.values.length - VALUES_PER_ALLOCATION} more values`, '', '']);
  }
  const header = [
    m.basis === 'estimate' ? 'buffer' : 'allocation',
    m.basis === 'estimate' ? 'bytes' : 'XLA bytes',
    'physical',
    'logical',
    'padding',
    'value',
    'shape',
    'source',
  ];
  const lines = table([header, ...rows], new Set([0, 5, 6, 7])).split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    out.push(`  ${line}`);
    for (const note of notes.get(i) ?? []) out.push(`        ${note}`);
  });
  if (shown.length < m.allocations.length) {
    let rest = 0n;
    for (const a of m.allocations.slice(shown.length)) rest += a.size;
    out.push(
      `  … ${counted(m.allocations.length - shown.length, 'more allocation')}, ${humanBytes(rest)} (--top 0 lists all)`,
    );
  }
  return out;
}

/** What is live at the peak, by source line: share, bytes, values, where, the largest value. */
function peakLines(p: MemoryPeak, top: number): string[] {
  const shown = top === 0 ? p.groups : p.groups.slice(0, top);
  const rows = shown.map((g) => {
    const v = g.largest.value;
    const largest = v ? `${shorten(valueLabel(v), 40)} ${shorten(v.shape, 40)}` : g.largest.position;
    return [
      share(g.bytes, p.bytes),
      humanBytes(g.bytes),
      String(g.values),
      shorten(peakGroupLabel(g), 60),
      g.values > 1 ? `largest ${largest}` : largest,
    ];
  });
  const at = p.instruction !== undefined ? `, %${p.instruction}` : '';
  const out = [`  Live at the peak (step ${p.time}${at}), by source line:`];
  for (const line of table([['share', 'bytes', 'values', 'from', 'value'], ...rows], new Set([3, 4])).split(
    '\n',
  ))
    out.push(`  ${line}`);
  if (shown.length < p.groups.length) {
    let rest = 0n;
    for (const g of p.groups.slice(shown.length)) rest += g.bytes;
    out.push(
      `  … ${counted(p.groups.length - shown.length, 'more place')}, ${humanBytes(rest)} (--top 0 lists all)`,
    );
  }
  return out;
}

function share(part: bigint, whole: bigint): string {
  return whole > 0n ? formatPercent(Number((part * 1_000_000n) / whole) / 1_000_000) : '0%';
}

/** The text of one module: the answer first, then the table. */
function moduleText(files: ModuleFiles, m: MemoryModule, top: number): string[] {
  const h = headline(m);
  const out = [`${m.module}  (${files.hlo ?? files.companions['buffer-assignment'] ?? ''})`];
  const peak = [h.peak, h.peakWhy, h.xlaPeak]
    .filter((l): l is string => l !== undefined)
    .map((l) => `  ${l}`);
  if (h.lead === 'peak') out.push(...peak);
  out.push(`  ${h.memory}`);
  if (files.assignedAt)
    out.push(
      `  Estimate from this HLO alone: XLA's buffer assignment of the module is of its optimized HLO, xla-layout memory ${files.assignedAt}`,
    );
  else if (h.note) out.push(`  ${h.note}`);
  if (h.lead !== 'peak') out.push(...peak);
  if (h.worst) out.push(`  ${h.worst}`);
  if (h.change) out.push(`  ${h.change}`);
  if (m.spaces.length > 1)
    out.push(`  Memory spaces: ${m.spaces.map((s) => `${s.name} ${humanBytes(s.bytes)}`).join(', ')}.`);
  for (const s of m.spaces)
    if (s.reportedBytes !== undefined && s.reportedBytes !== s.bytes)
      out.push(
        `  The memory-usage report gives ${s.name} ${groupDigits(s.reportedBytes)} B; the allocations add up to ${groupDigits(s.bytes)} B.`,
      );
  if (m.basis === 'buffer-assignment')
    out.push(
      h.disagreements
        ? `  ${h.disagreements}`
        : `  Our layout model agrees with XLA on all ${groupDigits(m.valueCount)} values.`,
    );
  if (m.missingInstructions > 0)
    out.push(
      m.missingInstructions === 1
        ? '  1 value names an instruction the HLO text does not have.'
        : `  ${groupDigits(m.missingInstructions)} values name instructions the HLO text does not have.`,
    );
  if (m.problemCount > 0)
    out.push(
      `  ${counted(m.problemCount, 'line')} could not be read, first: ${m.problems[0]?.file}:${m.problems[0]?.line}: ${m.problems[0]?.message}`,
    );
  if (m.peak && m.peak.groups.length > 0) out.push('', ...peakLines(m.peak, top));
  out.push('', ...allocationLines(m, top));
  const listed = new Set(m.allocations.slice(0, top === 0 ? undefined : top).map((a) => a.index));
  const hidden = m.disagreements.filter((d) => !listed.has(d.allocation));
  if (hidden.length > 0) {
    out.push('', '  Disagreements in allocations not listed:');
    for (const d of hidden)
      out.push(`    allocation ${d.allocation}: ${valueLabel(d)} ${shorten(d.shape, 80)}: ${d.disagreement}`);
  }
  return out;
}

const fileOf = (files: ModuleFiles): string | undefined => files.hlo ?? files.companions['buffer-assignment'];

/** Stands in for a module whose JSON is already made (only its rank is kept). */
const EMPTY = {} as MemoryModule;

/** The modules ranked by XLA's total, then peak, then padding: the big one first. */
function rankingLines(ranked: readonly { rank: ModuleRank }[]): string[] {
  const rows = ranked.map(({ rank: r }, i) => [
    String(i + 1),
    humanBytes(r.totalBytes),
    r.peakBytes !== undefined ? humanBytes(r.peakBytes) : '-',
    r.paddingBytes > 0n ? humanBytes(r.paddingBytes) : '-',
    `${r.module}${r.basis === 'estimate' ? ' (estimate)' : ''}`,
  ]);
  const lines = table([['#', 'total', 'peak', 'padding', 'module'], ...rows], new Set([4])).split('\n');
  return [`${counted(ranked.length, 'module')}, largest first:`, ...lines.map((l) => `  ${l}`)];
}

/** Runs `memory`. */
export function runMemory(argv: readonly string[], out: Output): number {
  const args = parseArgs(argv, { flags: ['json', 'help'], values: ['top', 'modules'] });
  if (args.flags.has('help')) {
    out.write(MEMORY_HELP);
    return 0;
  }
  if (args.positionals.length === 0)
    throw new UsageError('memory needs a PATH (an HLO dump, a companion or a folder)');
  const top = intOption(args, 'top', 10);
  const shownModules = intOption(args, 'modules', 0);
  const json = args.flags.has('json');
  const sizes = new ValueSizeCache();
  const modules: unknown[] = [];
  const read: { files: ModuleFiles; m: MemoryModule; rank: ModuleRank }[] = [];
  let status = 0;
  for (const target of args.positionals) {
    let found: ModuleFiles[];
    try {
      found = modulesAt(target);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      out.error(`xla-layout: ${e.message}`);
      status = 2;
      continue;
    }
    for (const files of found) {
      let m: MemoryModule;
      try {
        m = readModule(files, sizes);
      } catch (e) {
        if (!(e instanceof FileError)) throw e;
        out.error(`xla-layout: ${e.message}`);
        status = 2;
        continue;
      }
      if (m.disagreements.length > 0 && status === 0) status = 1;
      if (json) modules.push({ file: fileOf(files), ...memoryModuleJson(m) });
      // The JSON of each module is made as it is read; the text needs them all for the ranking.
      read.push({ files, m: json ? EMPTY : m, rank: moduleRank(m) });
    }
  }
  const ranked = [...read].sort((a, b) => byCost(a.rank, b.rank));
  if (!json) {
    const blocks: string[] = [];
    if (ranked.length > 1) blocks.push(rankingLines(ranked).join('\n'));
    const detailed = shownModules === 0 ? ranked : ranked.slice(0, shownModules);
    for (const r of detailed) blocks.push(moduleText(r.files, r.m, top).join('\n'));
    if (detailed.length < ranked.length)
      blocks.push(`… ${counted(ranked.length - detailed.length, 'more module')} (--modules 0 details all)`);
    out.write(blocks.join('\n\n'));
  }
  if (json) {
    let text: string;
    try {
      const ranking = ranked.map((r) => ({
        file: fileOf(r.files),
        module: r.rank.module,
        totalBytes: r.rank.totalBytes.toString(),
        ...(r.rank.peakBytes !== undefined ? { peakBytes: r.rank.peakBytes.toString() } : {}),
        paddingBytes: r.rank.paddingBytes.toString(),
      }));
      text = JSON.stringify({ ranking, modules }, null, 2);
    } catch (e) {
      // Each value of a tuple nested thousands deep carries its own shape text: together they
      // can exceed the longest string V8 makes.
      if (!(e instanceof RangeError)) throw e;
      out.error(
        'xla-layout memory: the JSON answer is longer than the longest string Node can make (the values of tuples nested thousands deep each carry their shape); the text output lists the largest values',
      );
      return 2;
    }
    out.write(text);
  }
  return status;
}
