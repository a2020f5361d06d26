/**
 * `xla-layout check FILE...`: every shape in the files, parsed and validated as XLA would, reported
 * like a compiler. Streams each file statement by statement, so a 1 GB dump runs in bounded memory;
 * validation is memoised by shape text (dumps repeat the same shapes thousands of times).
 */
import type { LayoutDiagnostic } from '../../core/src/diagnostics';
import { scanShapes } from '../../core/src/parse';
import { createShapeChecker } from '../../core/src/validate';
import { parseArgs } from './args';
import { FileError, UsageError } from './errors';
import type { Output } from './output';
import { forEachStatementBatch } from './read-statements';

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
  const checker = createShapeChecker({ maxEntries: 20_000 });
  let errors = 0;
  let warnings = 0;
  let shapes = 0;
  let unreadable = false;
  const files: { file: string; diagnostics: Located[]; error?: string }[] = [];
  for (const file of args.positionals) {
    const located: Located[] = [];
    const report = (d: LayoutDiagnostic, start: { line: number; column: number }, end: { line: number; column: number }): void => {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      if (quiet && d.severity !== 'error') return;
      if (json) located.push({ line: start.line, column: start.column, endLine: end.line, endColumn: end.column, severity: d.severity, code: d.code, message: d.message });
      else out.write(`${file}:${start.line}:${start.column}: ${d.severity}: ${d.message} [${d.code}]`);
    };
    try {
      forEachStatementBatch(file, (text, statements, lines) => {
        for (const s of statements) {
          // The checker caches by slices of the text it is given; a detached copy of the statement
          // keeps those slices from pinning whole 4 MiB chunks in memory.
          const statement = detach(text.slice(s.start, s.end));
          for (const found of scanShapes(statement, 0, statement.length)) {
            shapes++;
            const diagnostics = checker.check(statement, found);
            if (diagnostics.length === 0) continue;
            // Diagnostics of one shape are in source order only per kind; sort so line counting moves forward.
            const sorted = [...diagnostics].sort((a, b) => a.range.start - b.range.start);
            for (const d of sorted) {
              const absolute = { ...d, range: { start: d.range.start + s.start, end: d.range.end + s.start } };
              const start = lines.at(absolute.range.start);
              report(absolute, start, lineEnd(text, absolute, start));
            }
          }
        }
      });
      files.push({ file, diagnostics: located });
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      unreadable = true;
      if (json) files.push({ file, diagnostics: located, error: e.message });
      else out.error(`xla-layout: ${e.message}`);
    }
  }
  if (json) out.write(JSON.stringify({ files, errors, warnings, shapes }));
  else if (errors + warnings > 0) out.error(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${shapes} shapes`);
  return unreadable ? 2 : errors > 0 ? 1 : 0;
}

/**
 * A flat copy of `s` that shares no memory with the string it was sliced from (V8 keeps a slice's
 * parent alive; concatenating then slicing forces a fresh flat string).
 */
function detach(s: string): string {
  return (' ' + s).slice(1);
}

/** End position of a diagnostic, computed from its start without moving the line counter. */
function lineEnd(text: string, d: LayoutDiagnostic, start: { line: number; column: number }): { line: number; column: number } {
  let line = start.line;
  let lineStart = d.range.start - (start.column - 1);
  let nl = text.indexOf('\n', d.range.start);
  while (nl >= 0 && nl < d.range.end) {
    line++;
    lineStart = nl + 1;
    nl = text.indexOf('\n', nl + 1);
  }
  return { line, column: d.range.end - lineStart + 1 };
}
