/**
 * `xla-layout report FILE...`: one row per instruction with the logical and physical bytes of its
 * result (a tuple counts the sum over its array leaves), worst first, totals on top. Streams the
 * file; only the top N rows are kept, so memory stays flat.
 */
import type { ShapeNode } from '../../core/src/ast';
import { isLayoutError, sizes } from '../../core/src/layout';
import { parseStatement } from '../../core/src/hlo';
import { toArrayShape } from '../../core/src/to-model';
import { intOption, parseArgs } from './args';
import { FileError, UsageError } from './errors';
import { bytesWithUnit, factor, groupDigits, humanBytes, table } from './format';
import type { Output } from './output';
import { forEachStatementBatch } from './read-statements';

export const REPORT_HELP = `Usage: xla-layout report FILE... [--top N] [--json]

Lists every instruction's result buffer with its logical bytes (XLA ByteSizeOf) and physical
bytes (all tile levels and L(n) padding), the expansion physical/logical, worst first (most
padding bytes first, then highest expansion), with totals on top. A tuple result is one row whose
sizes are summed over its array leaves (tokens count 0). Shapes with errors are skipped and
counted. Files are streamed.

  --top N   rows to print per file (default 20; 0 = all)
  --json    {"reports": [{"file", "totals": {...}, "rows": [...]}]}; byte counts are decimal
            strings, expansion a number (physical / logical; 0 for empty buffers)

Exit status: 0 ok, 2 a file could not be read (or bad usage).`;

interface Row {
  readonly name: string;
  readonly computation: string;
  readonly line: number;
  readonly shape: string;
  readonly logicalBytes: bigint;
  readonly physicalBytes: bigint;
  readonly expansion: number;
}

interface Totals {
  buffers: number;
  skipped: number;
  logicalBytes: bigint;
  physicalBytes: bigint;
}

/** Memoised sizes by array-leaf text: dumps repeat the same shapes. */
class SizeCache {
  private readonly cache = new Map<string, { logical: bigint; physical: bigint } | null>();

  /** Sums over the array leaves of `node`; null when a leaf cannot be sized. */
  of(node: ShapeNode, text: string): { logical: bigint; physical: bigint } | null {
    if (node.kind === 'tuple') {
      let logical = 0n;
      let physical = 0n;
      for (const e of node.elements) {
        const s = this.of(e, text);
        if (!s) return null;
        logical += s.logical;
        physical += s.physical;
      }
      return { logical, physical };
    }
    const array = node.kind === 'buffer' ? node.element : node;
    if (array.kind !== 'array') return this.of(array, text);
    if (array.elementType === 'token') return { logical: 0n, physical: 0n };
    const key = text.slice(array.range.start, array.range.end);
    let hit = this.cache.get(key);
    if (hit === undefined) {
      const model = toArrayShape(array);
      const z = model ? sizes(model) : undefined;
      hit = z && !isLayoutError(z) ? { logical: z.logicalBytes, physical: z.physicalBytes } : null;
      if (this.cache.size > 50_000) this.cache.clear();
      this.cache.set(key, hit);
    }
    return hit;
  }
}

/** Worst first: most padding bytes, then highest expansion, then earliest line. */
function worse(a: Row, b: Row): number {
  const wa = a.physicalBytes - a.logicalBytes;
  const wb = b.physicalBytes - b.logicalBytes;
  if (wa !== wb) return wa > wb ? -1 : 1;
  if (a.expansion !== b.expansion) return b.expansion - a.expansion;
  return a.line - b.line;
}

/** Keeps the `limit` worst rows (all when limit is 0), sorted. */
class TopRows {
  readonly rows: Row[] = [];
  constructor(private readonly limit: number) {}

  add(row: Row): void {
    const rows = this.rows;
    if (this.limit > 0 && rows.length >= this.limit) {
      const last = rows[rows.length - 1];
      if (last && worse(row, last) >= 0) return;
      rows.pop();
    }
    if (this.limit === 0) {
      rows.push(row);
      return;
    }
    let i = rows.length;
    while (i > 0 && worse(row, rows[i - 1]) < 0) i--;
    rows.splice(i, 0, row);
  }

  sorted(): Row[] {
    return this.limit === 0 ? this.rows.sort(worse) : this.rows;
  }
}

function expansionOf(logical: bigint, physical: bigint): number {
  if (logical === 0n) return 0;
  // Scaled integer division keeps 6 decimals exact even for sizes past 2^53.
  return Number((physical * 1_000_000n) / logical) / 1_000_000;
}

function reportFile(file: string, limit: number, cache: SizeCache): { rows: Row[]; totals: Totals } {
  const top = new TopRows(limit);
  const totals: Totals = { buffers: 0, skipped: 0, logicalBytes: 0n, physicalBytes: 0n };
  let computation = '';
  forEachStatementBatch(file, (text, statements, lines) => {
    for (const range of statements) {
      const s = parseStatement(text, range);
      if (s.kind === 'computation') computation = s.name?.name ?? '';
      else if (s.kind === 'close') computation = '';
      if (s.kind !== 'instruction') continue;
      if (!s.shape) {
        totals.skipped++;
        continue;
      }
      const z = cache.of(s.shape, text);
      if (!z) {
        totals.skipped++;
        continue;
      }
      totals.buffers++;
      totals.logicalBytes += z.logical;
      totals.physicalBytes += z.physical;
      top.add({
        name: s.name.name,
        computation,
        line: lines.at(s.range.start).line,
        shape: text.slice(s.shape.range.start, s.shape.range.end),
        logicalBytes: z.logical,
        physicalBytes: z.physical,
        expansion: expansionOf(z.logical, z.physical),
      });
    }
  });
  return { rows: top.sorted(), totals };
}

function shorten(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 3)}...`;
}

/** Runs `report`. */
export function runReport(argv: readonly string[], out: Output): number {
  const args = parseArgs(argv, { flags: ['json', 'help'], values: ['top'] });
  if (args.flags.has('help')) {
    out.write(REPORT_HELP);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError('report needs at least one FILE');
  const limit = intOption(args, 'top', 20);
  const cache = new SizeCache();
  const reports: unknown[] = [];
  let status = 0;
  for (const file of args.positionals) {
    let result: { rows: Row[]; totals: Totals };
    try {
      result = reportFile(file, limit, cache);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      out.error(`xla-layout: ${e.message}`);
      status = 2;
      continue;
    }
    const { rows, totals } = result;
    const expansion = expansionOf(totals.logicalBytes, totals.physicalBytes);
    if (args.flags.has('json')) {
      reports.push({
        file,
        totals: { buffers: totals.buffers, skipped: totals.skipped, logicalBytes: totals.logicalBytes.toString(), physicalBytes: totals.physicalBytes.toString(), expansion },
        rows: rows.map((r) => ({ ...r, logicalBytes: r.logicalBytes.toString(), physicalBytes: r.physicalBytes.toString() })),
      });
      continue;
    }
    out.write(`${file}`);
    out.write(`  ${groupDigits(totals.buffers)} buffers${totals.skipped > 0 ? ` (${totals.skipped} skipped: shape errors)` : ''}: logical ${bytesWithUnit(totals.logicalBytes)}, physical ${bytesWithUnit(totals.physicalBytes)}, expansion ${factor(expansion)}, padding ${humanBytes(totals.physicalBytes - totals.logicalBytes)}`);
    if (rows.length === 0) continue;
    const cells = rows.map((r) => [humanBytes(r.physicalBytes), humanBytes(r.logicalBytes), factor(r.expansion), r.name, r.computation, String(r.line), shorten(r.shape, 80)]);
    const t = table([['physical', 'logical', 'expansion', 'instruction', 'computation', 'line', 'shape'], ...cells], new Set([3, 4, 6]));
    out.write(t.split('\n').map((l) => `  ${l}`).join('\n'));
  }
  if (args.flags.has('json')) out.write(JSON.stringify({ reports }, null, 2));
  return status;
}
