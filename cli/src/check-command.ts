/**
 * `xla-layout check FILE...`: every shape in the files, parsed and validated as XLA would, reported
 * like a compiler. Streams each file through core's CheckStream, so a 1 GB dump runs in bounded
 * memory; validation is memoised by shape text (dumps repeat the same shapes thousands of times).
 * Files small enough for core's name checks (HLO written by hand) get them too, as in the editor.
 */
import * as os from 'os';
import type { LayoutDiagnostic } from '../../core/src';
import {
  buildComputations,
  checkNames,
  NAME_CHECK_MAX_CHARS,
  NameStatements,
  type HloStatement,
} from '../../core/src';
import { LineCounter } from '../../core/src';
import { createShapeChecker } from '../../core/src';
import { DEFAULT_PADDING_THRESHOLDS, type PaddingThresholds } from '../../core/src';
import { intOption, parseArgs, type ParsedArgs } from './args';
import { checkStreamTo, segmentDiagnostic, type SegmentDiagnostic } from './check-worker';
import { FileError, UsageError } from './errors';
import type { Output } from './output';
import { checkTargets, skippedNote } from './dump-folder';
import { CheckPool, type MutableCounts } from './parallel-check';
import { closeText, openText, readWhole, streamText } from './read-statements';

/** Files from this size on are checked by several threads unless --jobs says otherwise. */
const PARALLEL_FROM_BYTES = 16 * 1024 * 1024;
/** Threads used by default: the machine's, up to this many (beyond it reading the file dominates). */
const MAX_DEFAULT_JOBS = 4;

export const CHECK_HELP = `Usage: xla-layout check FILE|FOLDER... [--json] [--quiet] [--jobs N] [padding options]

Finds every shape in each HLO file (instruction results, operand annotations, signatures,
entry_computation_layout, attribute values) and reports XLA's parse and validation errors and
this tool's warnings as
  FILE:LINE:COL: SEVERITY: MESSAGE [CODE]
with 1-based line and column (UTF-16 code units). FILE - reads standard input, and pipes work
too (zcat dump.txt.gz | xla-layout check -). Files are streamed: memory stays flat for
dumps of any size. Files of up to ${NAME_CHECK_MAX_CHARS.toLocaleString('en-US')} bytes also get the name checks of
XLA's parser (operands and calls naming nothing defined before them, names defined twice).
A FOLDER (an --xla_dump_to folder) is walked for HLO files; links to folders are not followed.
The files XLA writes beside its HLO (buffer assignments, live ranges, memory-usage reports, debug
options, LLVM IR, ...), named or found, are skipped with a one-line note.

  --json    one JSON document: {"files": [{"file", "diagnostics": [{"line", "column",
            "endLine", "endColumn", "severity", "code", "message"}]}], "skipped": [{"file",
            "kind"}], "errors", "warnings", "shapes"}
  --quiet   print only errors (warnings and information are still counted)
  --jobs N  threads per file (default: one per core, up to ${MAX_DEFAULT_JOBS}, for files of
            ${PARALLEL_FROM_BYTES / 1024 / 1024} MiB and more; 1 for smaller files, and always 1 for files
            with name checks and for pipes); the output is the same

Padding warnings (padding-overhead), as the editor gives them, with --padding (they take about
twice the time; 'xla-layout report' and 'memory' answer padding too): on each array XLA
allocates (not inside fused computations, not on values that alias another) whose tiling pads
it to at least --warn-expansion times its size with at least --warn-min-wasted-bytes of padding
(the editor's xlaLayout.padding.* settings and their defaults). They come after the other
diagnostics of their module, in line order.
  --padding                   give padding warnings (implied by the two thresholds below)
  --warn-expansion X          default ${DEFAULT_PADDING_THRESHOLDS.warnExpansion}
  --warn-min-wasted-bytes N   default ${DEFAULT_PADDING_THRESHOLDS.warnMinWastedBytes}
  --fail-on-warnings          exit 1 when there are warnings too

Exit status: 0 no errors, 1 errors found (or warnings, with --fail-on-warnings), 2 a file could
not be read, no HLO file was found in the FILEs and FOLDERs given (or bad usage). Warnings alone
leave it 0.`;

/** The padding thresholds the options ask for, or false without --padding or a threshold. */
function paddingOptions(args: ParsedArgs): PaddingThresholds | false {
  const asked = ['warn-expansion', 'warn-min-wasted-bytes'].some((name) => args.values.has(name));
  if (!asked && !args.flags.has('padding')) return false;
  const number = (name: string, min: number, fallback: number): number => {
    const raw = args.values.get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min)
      throw new UsageError(`--${name} expects a number of at least ${min}, got '${raw}'`);
    return n;
  };
  return {
    warnExpansion: number('warn-expansion', 1, DEFAULT_PADDING_THRESHOLDS.warnExpansion),
    warnMinWastedBytes: number('warn-min-wasted-bytes', 0, DEFAULT_PADDING_THRESHOLDS.warnMinWastedBytes),
  };
}

/**
 * The name diagnostics of a whole file's `text`, whose statements are `statements` (see core's
 * name-checks.ts), located like the others; and where the operand-count errors they replace start
 * (`line:column`), which XLA never reaches.
 */
function nameDiagnostics(
  text: string,
  statements: readonly HloStatement[],
): { diagnostics: SegmentDiagnostic[]; replaced: Set<string> } {
  const names = checkNames(buildComputations(statements), text).sort((a, b) => a.range.start - b.range.start);
  // A counter visits offsets in increasing order: one for these, one for the diagnostics.
  const replaced = new Set<string>();
  const counter = new LineCounter();
  counter.reset(text);
  for (const at of names.flatMap((d) => (d.replaces ? [d.replaces.start] : [])).sort((a, b) => a - b)) {
    const p = counter.at(at);
    replaced.add(`${p.line}:${p.column}`);
  }
  const lines = new LineCounter();
  lines.reset(text);
  const diagnostics = names.map((d: LayoutDiagnostic) => {
    const start = lines.at(d.range.start);
    return segmentDiagnostic(d, start, lines.endOf(d.range, start));
  });
  return { diagnostics, replaced };
}

/** Whether `d` is an operand-count error that a name diagnostic replaces (`replaced`: see {@link nameDiagnostics}). */
function isReplaced(d: SegmentDiagnostic, replaced: ReadonlySet<string>): boolean {
  return d.code.startsWith('operand-count') && replaced.has(`${d.line}:${d.column}`);
}

/** Runs `check`. */
export async function runCheck(argv: readonly string[], out: Output): Promise<number> {
  const args = parseArgs(argv, {
    flags: ['json', 'help', 'quiet', 'padding', 'fail-on-warnings'],
    values: ['jobs', 'warn-expansion', 'warn-min-wasted-bytes'],
  });
  if (args.flags.has('help')) {
    out.write(CHECK_HELP);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError('check needs at least one FILE or FOLDER');
  const json = args.flags.has('json');
  const padding = paddingOptions(args);
  const quiet = args.flags.has('quiet');
  const explicitJobs = args.values.has('jobs') ? intOption(args, 'jobs', 1) : undefined;
  if (explicitJobs === 0) throw new UsageError('--jobs expects at least 1');
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const autoJobs = Math.min(MAX_DEFAULT_JOBS, cores);
  // One checker for every file: dumps of one program share most of their shapes.
  const checker = createShapeChecker({ maxEntries: 50_000 });
  let pool: CheckPool | undefined;
  let errors = 0;
  let warnings = 0;
  let shapes = 0;
  let unreadable = false;
  const files: { file: string; diagnostics: SegmentDiagnostic[]; error?: string }[] = [];
  const targets = checkTargets(args.positionals);
  const note = skippedNote(targets.skipped);
  if (note !== undefined) out.error(note);
  // A wrong or not yet written dump folder must not pass a CI step silently; beside files that are
  // checked (a shell glob over a dump folder), a folder without HLO is not a fault.
  const nothing = targets.files.length === 0 ? targets.empty : [];
  for (const folder of nothing) out.error(`xla-layout check: no HLO files in ${folder}`);
  try {
    for (const file of targets.files) {
      const located: SegmentDiagnostic[] = [];
      const emit = (d: SegmentDiagnostic) => {
        if (quiet && d.severity !== 'error') return;
        if (json) located.push(d);
        else out.write(`${file}:${d.line}:${d.column}: ${d.severity}: ${d.message} [${d.code}]`);
      };
      const counts: MutableCounts = { shapes: 0, errors: 0, warnings: 0, other: 0 };
      try {
        const input = openText(file);
        try {
          // Small enough for the name checks (a stream is read that far to know): the whole text.
          const text = readWhole(input, file, NAME_CHECK_MAX_CHARS);
          const jobs = explicitJobs ?? (input.size >= PARALLEL_FROM_BYTES ? autoJobs : 1);
          if (text !== undefined) {
            // All of the file's diagnostics, in line order.
            const found: SegmentDiagnostic[] = [];
            // The check hands on each statement it read, which the name checks then need not parse.
            const statements = new NameStatements(text);
            const stream = checkStreamTo(
              checker,
              (d) => found.push(d),
              padding,
              undefined,
              (...s) => statements.add(...s),
            );
            let names: SegmentDiagnostic[] = [];
            try {
              try {
                stream.write(text);
              } finally {
                Object.assign(counts, stream.end());
              }
              const named = nameDiagnostics(text, statements.statements);
              names = named.diagnostics;
              if (named.replaced.size > 0) {
                const kept = found.filter((d) => !isReplaced(d, named.replaced));
                counts.errors -= found.length - kept.length;
                found.splice(0, found.length, ...kept);
              }
            } finally {
              for (const d of names) {
                if (d.severity === 'error') counts.errors++;
                else if (d.severity === 'warning') counts.warnings++;
                else counts.other++;
              }
              [...found, ...names].sort((a, b) => a.line - b.line || a.column - b.column).forEach(emit);
            }
          } else if (jobs > 1 && !input.stream) {
            pool ??= new CheckPool(jobs, cores);
            await pool.checkFile(file, input.fd, input.size, emit, counts, padding);
          } else {
            const stream = checkStreamTo(checker, emit, padding);
            try {
              streamText(input, file, stream);
            } finally {
              // Counts include what a read error cut short, as the diagnostics printed so far do.
              Object.assign(counts, stream.end());
            }
          }
        } finally {
          closeText(input);
        }
        files.push({ file, diagnostics: located });
      } catch (e) {
        if (!(e instanceof FileError)) throw e;
        unreadable = true;
        if (json) files.push({ file, diagnostics: located, error: e.message });
        else out.error(`xla-layout: ${e.message}`);
      }
      errors += counts.errors;
      warnings += counts.warnings;
      shapes += counts.shapes;
    }
  } finally {
    await pool?.close();
  }
  if (json) out.write(JSON.stringify({ files, skipped: targets.skipped, errors, warnings, shapes }));
  else if (errors + warnings > 0)
    out.error(
      `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${shapes} shape${shapes === 1 ? '' : 's'}`,
    );
  return unreadable || nothing.length > 0
    ? 2
    : errors > 0 || (args.flags.has('fail-on-warnings') && warnings > 0)
      ? 1
      : 0;
}
