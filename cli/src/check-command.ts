/**
 * `xla-layout check FILE...`: every shape in the files, parsed and validated as XLA would, reported
 * like a compiler. Streams each file through core's CheckStream, so a 1 GB dump runs in bounded
 * memory; validation is memoised by shape text (dumps repeat the same shapes thousands of times).
 */
import { CheckStream } from '../../core/src/report';
import { createShapeChecker } from '../../core/src/validate';
import { parseArgs } from './args';
import { FileError, UsageError } from './errors';
import type { Output } from './output';
import { streamFile } from './read-statements';

export const CHECK_HELP = `Usage: xla-layout check FILE... [--json] [--quiet]

Finds every shape in each HLO file (instruction results, operand annotations, signatures,
entry_computation_layout, attribute values) and reports XLA's parse and validation errors and
this tool's warnings as
  FILE:LINE:COL: SEVERITY: MESSAGE [CODE]
with 1-based line and column (UTF-16 code units). Files are streamed: memory stays flat for
dumps of any size.

  --json    one JSON document: {"files": [{"file", "diagnostics": [{"line", "column",
            "endLine", "endColumn", "severity", "code", "message"}]}], "errors", "warnings", "shapes"}
  --quiet   print only errors (warnings and information are still counted)

Exit status: 0 no errors, 1 errors found, 2 a file could not be read (or bad usage).`;

interface Located {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

/** Runs `check`. */
export function runCheck(argv: readonly string[], out: Output): number {
  const args = parseArgs(argv, { flags: ['json', 'help', 'quiet'], values: [] });
  if (args.flags.has('help')) {
    out.write(CHECK_HELP);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError('check needs at least one FILE');
  const json = args.flags.has('json');
  const quiet = args.flags.has('quiet');
  // One checker for every file: dumps of one program share most of their shapes.
  const checker = createShapeChecker({ maxEntries: 20_000 });
  let errors = 0;
  let warnings = 0;
  let shapes = 0;
  let unreadable = false;
  const files: { file: string; diagnostics: Located[]; error?: string }[] = [];
  for (const file of args.positionals) {
    const located: Located[] = [];
    const stream = new CheckStream(({ diagnostic: d, start, end }) => {
      if (quiet && d.severity !== 'error') return;
      if (json) located.push({ line: start.line, column: start.column, endLine: end.line, endColumn: end.column, severity: d.severity, code: d.code, message: d.message });
      else out.write(`${file}:${start.line}:${start.column}: ${d.severity}: ${d.message} [${d.code}]`);
    }, { checker });
    try {
      streamFile(file, stream);
      files.push({ file, diagnostics: located });
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      unreadable = true;
      if (json) files.push({ file, diagnostics: located, error: e.message });
      else out.error(`xla-layout: ${e.message}`);
    }
    // Counts include what a read error cut short, as the diagnostics printed so far do.
    const counts = stream.end();
    errors += counts.errors;
    warnings += counts.warnings;
    shapes += counts.shapes;
  }
  if (json) out.write(JSON.stringify({ files, errors, warnings, shapes }));
  else if (errors + warnings > 0) out.error(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${shapes} shapes`);
  return unreadable ? 2 : errors > 0 ? 1 : 0;
}
