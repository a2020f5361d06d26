/**
 * `xla-layout report FILE...`: one row per instruction with the logical and physical bytes of its
 * result (a tuple counts the sum over its array leaves), worst first, totals on top. Streams the
 * file through core's PaddingReporter; only the top N rows are kept, so memory stays flat.
 */
import { LeafSizeCache, PaddingReporter, type PaddingReport } from '../../core/src';
import { intOption, parseArgs } from './args';
import { FileError, UsageError } from './errors';
import { bytesWithUnit, formatFactor, groupDigits, humanBytes } from '../../core/src';
import { table } from './format';
import type { Output } from './output';
import { streamFile } from './read-statements';

export const REPORT_HELP = `Usage: xla-layout report FILE... [--top N] [--json]

Lists every instruction's result buffer with its logical bytes (XLA ByteSizeOf) and physical
bytes (all tile levels and L(n) padding), the expansion physical/logical, worst first (most
padding bytes first, then highest expansion), with totals on top, and the source line each
instruction's metadata names. A tuple result is one row whose
sizes are summed over its array leaves (tokens count 0). Shapes with errors are skipped and
counted. Files are streamed.

  --top N   rows to print per file (default 20; 0 = all)
  --json    {"reports": [{"file", "totals": {...}, "rows": [...]}]}; byte counts are decimal
            strings, expansion a number (physical / logical; 0 for empty buffers), source the
            file:line the instruction's metadata names, when it names one

Exit status: 0 ok, 2 a file could not be read (or bad usage).`;

/** Reports one file; the size cache is shared so later files reuse what earlier ones computed. */
function reportFile(file: string, top: number, sizes: LeafSizeCache): PaddingReport {
  const reporter = new PaddingReporter({ top, sizes });
  streamFile(file, reporter);
  return reporter.end();
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
  const cache = new LeafSizeCache();
  const reports: unknown[] = [];
  let status = 0;
  for (const file of args.positionals) {
    let result: PaddingReport;
    try {
      result = reportFile(file, limit, cache);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      out.error(`xla-layout: ${e.message}`);
      status = 2;
      continue;
    }
    const { rows, totals } = result;
    const expansion = totals.expansion;
    if (args.flags.has('json')) {
      reports.push({
        file,
        totals: {
          buffers: totals.buffers,
          skipped: totals.skipped,
          logicalBytes: totals.logicalBytes.toString(),
          physicalBytes: totals.physicalBytes.toString(),
          expansion,
        },
        rows: rows.map((r) => ({
          name: r.name,
          computation: r.computation,
          line: r.start.line,
          column: r.start.column,
          shape: r.shape,
          logicalBytes: r.logicalBytes.toString(),
          physicalBytes: r.physicalBytes.toString(),
          expansion: r.expansion,
          ...(r.source !== undefined ? { source: r.source } : {}),
        })),
      });
      continue;
    }
    out.write(`${file}`);
    out.write(
      `  ${groupDigits(totals.buffers)} buffers${totals.skipped > 0 ? ` (${totals.skipped} skipped: shape errors)` : ''}: logical ${bytesWithUnit(totals.logicalBytes)}, physical ${bytesWithUnit(totals.physicalBytes)}, expansion ${formatFactor(expansion)}, padding ${humanBytes(totals.physicalBytes - totals.logicalBytes)}`,
    );
    if (rows.length === 0) continue;
    // The source column (file:line from the metadata) only when some row has one.
    const sourced = rows.some((r) => r.source !== undefined);
    const cells = rows.map((r) => [
      humanBytes(r.physicalBytes),
      humanBytes(r.logicalBytes),
      formatFactor(r.expansion),
      r.name,
      r.computation,
      String(r.start.line),
      ...(sourced ? [r.source ?? ''] : []),
      shorten(r.shape, 80),
    ]);
    const header = [
      'physical',
      'logical',
      'expansion',
      'instruction',
      'computation',
      'line',
      ...(sourced ? ['source'] : []),
      'shape',
    ];
    const t = table([header, ...cells], new Set(sourced ? [3, 4, 6, 7] : [3, 4, 6]));
    out.write(
      t
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
    );
  }
  if (args.flags.has('json')) out.write(JSON.stringify({ reports }, null, 2));
  return status;
}
