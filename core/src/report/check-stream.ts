/**
 * The streaming check: every shape in a stream of HLO text, parsed and validated as XLA would,
 * each diagnostic handed out with its 1-based line and column as soon as its statement is
 * complete. Shared by `xla-layout check` and the editor's Check File on files VS Code does not
 * hand to extensions. Validation is memoised by shape text, so memory stays flat.
 */
import { movedDiagnostic, type LayoutDiagnostic } from '../diagnostics';
import { createShapeChecker, type ShapeChecker } from '../validate/shape-checker';
import type { ValidateOptions } from '../validate/validate-shape';
import type { LineColumn } from './line-counter';
import { StatementStream } from './statement-stream';

/** A diagnostic with its range absolute in the whole stream, and where it is in lines. */
export interface LocatedDiagnostic {
  readonly diagnostic: LayoutDiagnostic;
  /** 1-based line/column (UTF-16 units) of the range's start. */
  readonly start: LineColumn;
  /** 1-based line/column just past the range's end. */
  readonly end: LineColumn;
}

/** Counts over the whole stream. */
export interface CheckCounts {
  readonly shapes: number;
  readonly errors: number;
  readonly warnings: number;
  /** Information and hints. */
  readonly other: number;
}

/** Options of {@link CheckStream}. */
export interface CheckStreamOptions extends ValidateOptions {
  /** A checker to share between streams (its caches carry over); a fresh one by default. */
  readonly checker?: ShapeChecker;
  /** Distinct shape texts each cache holds (default 20,000). */
  readonly maxEntries?: number;
  /** Cap on one statement's length in UTF-16 units (see `splitStatements`). */
  readonly maxStatementLength?: number;
}

/** Incremental check: {@link write} chunks in order, then {@link end}; diagnostics go to `onDiagnostic`. */
export class CheckStream {
  private readonly stream: StatementStream;
  private shapes = 0;
  private errors = 0;
  private warnings = 0;
  private other = 0;

  constructor(onDiagnostic: (d: LocatedDiagnostic) => void, options: CheckStreamOptions = {}) {
    const maxEntries = options.maxEntries ?? 20_000;
    const checker = options.checker ?? createShapeChecker({ ...options, maxEntries });
    this.stream = new StatementStream((text, statements, base, lines) => {
      for (const s of statements) {
        const before = checker.shapesChecked;
        const diagnostics = checker.checkStatement(text, s.start, s.end);
        this.shapes += checker.shapesChecked - before;
        if (diagnostics.length === 0) continue;
        // Diagnostics of one shape are in source order only per kind; sort so line counting moves forward.
        const sorted = diagnostics.sort((a, b) => a.range.start - b.range.start);
        for (const d of sorted) {
          if (d.severity === 'error') this.errors++;
          else if (d.severity === 'warning') this.warnings++;
          else this.other++;
          const start = lines.at(d.range.start);
          const end = lines.endOf(d.range, start);
          onDiagnostic({
            diagnostic: movedDiagnostic(d, base),
            start,
            end,
          });
        }
      }
    }, options);
  }

  /** Feeds the next piece of text, cut anywhere. */
  write(chunk: string): void {
    this.stream.write(chunk);
  }

  /** Feeds text that ends where a statement starts; see {@link StatementStream.writeComplete}. */
  writeComplete(chunk: string): void {
    this.stream.writeComplete(chunk);
  }

  /** Ends the stream (reporting the last statement's diagnostics) and returns the counts. */
  end(): CheckCounts {
    this.stream.end();
    return this.counts;
  }

  /** Counts so far. */
  get counts(): CheckCounts {
    return { shapes: this.shapes, errors: this.errors, warnings: this.warnings, other: this.other };
  }
}
