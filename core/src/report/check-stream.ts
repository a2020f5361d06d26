/**
 * The streaming check: every shape in a stream of HLO text, parsed and validated as XLA would,
 * each diagnostic handed out with its 1-based line and column as soon as its statement is
 * complete. Shared by `xla-layout check` and the editor's Check File on files VS Code does not
 * hand to extensions. Validation is memoised by shape text, so memory stays flat.
 */
import { atNextToken, movedDiagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import type { HloStatement } from '../hlo/types';
import { skipTrivia } from '../hlo/lex';
import { createShapeChecker, type ShapeChecker } from '../validate/shape-checker';
import type { ValidateOptions } from '../validate/validate-shape';
import type { LineColumn } from './line-counter';
import { StatementStream } from './statement-stream';
import { PaddingCollector, PaddingScanner, type PaddingEvent } from './padding-sites';
import { DEFAULT_PADDING_THRESHOLDS, type PaddingThresholds } from './padding-warning';

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
  /**
   * When padding-overhead warnings are given (default: the editor's defaults); `false`: never.
   * They come when their module ends (which computations are fused is known only then), after
   * the module's other diagnostics.
   */
  readonly padding?: PaddingThresholds | false;
  /**
   * Takes the padding events instead of this stream's own collector (a worker thread of `check`
   * hands them to the thread that prints, which collects them); their warnings are then not counted here.
   */
  readonly paddingEvents?: (e: PaddingEvent<LocatedDiagnostic>) => void;
  /** A checker to share between streams (its caches carry over); a fresh one by default. */
  readonly checker?: ShapeChecker;
  /** Distinct shape texts each cache holds (default 20,000). */
  readonly maxEntries?: number;
  /** Cap on one statement's length in UTF-16 units (see `splitStatements`). */
  readonly maxStatementLength?: number;
  /**
   * Receives each statement right after its check, with what the check read of it (see
   * `ShapeChecker.lastParsed` and `lastPlainResultEnd`): the name checks of a whole text read its
   * statements from there (`NameStatements`) rather than parse them all again.
   */
  readonly onStatement?: StatementHandler;
}

/**
 * One statement at `range` of `text`, whose first character is at `base` of the stream; `parsed`
 * and `plainResultEnd` are what the checker read of it (offsets in `text`).
 */
export type StatementHandler = (
  text: string,
  range: TextRange,
  base: number,
  parsed: HloStatement | undefined,
  plainResultEnd: number,
) => void;

/** Incremental check: {@link write} chunks in order, then {@link end}; diagnostics go to `onDiagnostic`. */
export class CheckStream {
  private readonly stream: StatementStream;
  private readonly padding: (e: PaddingEvent<LocatedDiagnostic>) => void;
  private readonly collector: PaddingCollector<LocatedDiagnostic> | undefined;
  private shapes = 0;
  private errors = 0;
  private warnings = 0;
  private other = 0;
  /** A diagnostic that XLA reports at the next statement's first token, until that statement comes. */
  private waiting: LayoutDiagnostic | undefined;
  /** Where the stream's first token is, once a statement holding one has come. */
  private firstTokenAt: LineColumn | undefined;

  constructor(
    private readonly onDiagnostic: (d: LocatedDiagnostic) => void,
    options: CheckStreamOptions = {},
  ) {
    const maxEntries = options.maxEntries ?? 20_000;
    const checker = options.checker ?? createShapeChecker({ ...options, maxEntries });
    const thresholds = options.padding === undefined ? DEFAULT_PADDING_THRESHOLDS : options.padding;
    const scanner = thresholds === false ? undefined : new PaddingScanner(thresholds, maxEntries);
    const collector = new PaddingCollector<LocatedDiagnostic>((d) => {
      this.count(d.diagnostic);
      onDiagnostic(d);
    });
    this.padding = options.paddingEvents ?? ((e) => collector.add(e));
    this.collector = options.paddingEvents ? undefined : collector;
    const events: PaddingEvent<LayoutDiagnostic>[] = [];
    const padding = (e: PaddingEvent<LayoutDiagnostic>) => events.push(e);
    const onStatement = options.onStatement;
    this.stream = new StatementStream((text, statements, base, lines) => {
      const locate = (d: LayoutDiagnostic): LocatedDiagnostic => {
        const start = lines.at(d.range.start);
        return { diagnostic: movedDiagnostic(d, base), start, end: lines.endOf(d.range, start) };
      };
      for (const s of statements) {
        if (this.firstTokenAt === undefined) {
          const first = skipTrivia(text, s.start, s.end);
          if (first < s.end) this.firstTokenAt = lines.at(first);
        }
        const waiting = this.waiting;
        if (waiting) {
          // The first token of the next statement that holds one is where XLA reports it.
          const first = skipTrivia(text, s.start, s.end);
          if (first < s.end) {
            this.waiting = undefined;
            const d = atNextToken(waiting, base + first, base + text.length);
            const start = lines.at(first);
            this.count(d);
            onDiagnostic({ diagnostic: d, start, end: lines.endOf({ start: first, end: first + 1 }, start) });
          }
        }
        const before = checker.shapesChecked;
        const diagnostics = checker.checkStatement(text, s.start, s.end);
        this.shapes += checker.shapesChecked - before;
        if (onStatement) onStatement(text, s, base, checker.lastParsed, checker.lastPlainResultEnd);
        if (scanner) scanner.statement(text, s.start, s.end, padding);
        if (diagnostics.length === 0 && events.length === 0) continue;
        // Line counting moves forward only: the statement's padding warnings are located in turn.
        const warnings: LayoutDiagnostic[] = [];
        for (const e of events) if (e.kind === 'warning') warnings.push(e.warning);
        if (warnings.length === 0 && diagnostics.length === 0) {
          for (const e of events) if (e.kind !== 'warning') this.padding(e);
          events.length = 0;
          continue;
        }
        const located = new Map<LayoutDiagnostic, LocatedDiagnostic>();
        // Diagnostics of one shape are in source order only per kind; sort so line counting moves forward.
        const sorted = [...diagnostics, ...warnings].sort((a, b) => a.range.start - b.range.start);
        const own = new Set(diagnostics);
        for (const d of sorted) {
          const l = locate(d);
          if (!own.has(d)) {
            located.set(d, l);
            continue;
          }
          if (d.atNextToken) {
            this.waiting = l.diagnostic;
            continue;
          }
          this.count(d);
          onDiagnostic(l);
        }
        for (const e of events)
          this.padding(e.kind === 'warning' ? { ...e, warning: located.get(e.warning)! } : e);
        events.length = 0;
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

  /** Ends the stream (reporting the last statement's diagnostics and its module's padding warnings) and returns the counts. */
  end(): CheckCounts {
    const textEnd = this.stream.end();
    if (this.waiting) {
      const d = atNextToken(this.waiting, textEnd.offset, textEnd.offset);
      this.waiting = undefined;
      this.count(d);
      this.onDiagnostic({ diagnostic: d, start: textEnd.at, end: textEnd.at });
    }
    this.collector?.flush();
    return this.counts;
  }

  /**
   * {@link end} for a piece of a text that goes on after it (`check --jobs`): a diagnostic waiting
   * for the next statement's first token is returned, unplaced and uncounted, for the caller to
   * place at the next piece's {@link firstToken}, instead of at the piece's end.
   */
  endPiece(): { counts: CheckCounts; waiting: LayoutDiagnostic | undefined } {
    this.stream.end();
    const waiting = this.waiting;
    this.waiting = undefined;
    this.collector?.flush();
    return { counts: this.counts, waiting };
  }

  /** Where the first token of the text is (1-based line and column), when it has one. */
  get firstToken(): LineColumn | undefined {
    return this.firstTokenAt;
  }

  private count(d: LayoutDiagnostic): void {
    if (d.severity === 'error') this.errors++;
    else if (d.severity === 'warning') this.warnings++;
    else this.other++;
  }

  /** Counts so far. */
  get counts(): CheckCounts {
    return { shapes: this.shapes, errors: this.errors, warnings: this.warnings, other: this.other };
  }
}
