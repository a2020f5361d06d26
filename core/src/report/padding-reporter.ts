/**
 * The padding report over a stream of HLO text: one row per instruction with the logical and
 * physical bytes of its result (a tuple counts the sum over its array leaves), worst first, and
 * exact totals. Shared by `xla-layout report` and the editor's report on files VS Code does not
 * hand to extensions. Feed chunks with {@link PaddingReporter.write}; only the worst `top` rows
 * are kept, so memory stays flat for dumps of any size.
 */
import type { TextRange } from '../diagnostics';
import { firstNonBlank, lastNonBlank } from '../hlo/lex';
import { parseStatement } from '../hlo/parse-statement';
import { ScanState } from '../parse/scan-state';
import { SourceTextSearch, sourceMatch, sourceLabel, type SourceFilter } from '../hlo/source-path';
import { framesFrom, metadataSource, StackFrameTables } from '../hlo/stack-frames';
import { expansionOf, LeafSizeCache } from './leaf-sizes';
import type { LineColumn } from './line-counter';
import { StatementStream } from './statement-stream';
import { TopRows } from './top-rows';

/** One instruction's result buffer. */
export interface PaddingRow {
  /** Instruction name without `%`. */
  readonly name: string;
  /** Enclosing computation's name ('' outside any). */
  readonly computation: string;
  /** The result shape as written. */
  readonly shape: string;
  /** The shape's range in the whole stream (UTF-16 offsets). */
  readonly range: TextRange;
  /** 1-based line and column of the shape's start. */
  readonly start: LineColumn;
  /** 1-based line and column just past the shape's end. */
  readonly end: LineColumn;
  readonly logicalBytes: bigint;
  readonly physicalBytes: bigint;
  /** physical / logical to 6 decimals; 0 for empty buffers. */
  readonly expansion: number;
  /**
   * Where the instruction comes from, by its metadata (its source_file, or its stack frame's user
   * frame): file name and line (`train.py:12`).
   */
  readonly source?: string;
  /**
   * With {@link PaddingReporterOptions.from}: how many trailing path segments the instruction's
   * source file shares with the path asked for (1: the file name only).
   */
  readonly sourceMatch?: number;
}

/** Totals over every buffer that could be sized, exact. */
export interface PaddingTotals {
  /** Instructions counted. */
  readonly buffers: number;
  /** Instructions without a result shape or whose shape cannot be sized (shape errors). */
  readonly skipped: number;
  readonly logicalBytes: bigint;
  readonly physicalBytes: bigint;
  /** physical / logical over all buffers, like a row's. */
  readonly expansion: number;
}

/** The finished report. */
export interface PaddingReport {
  /** At most `top` rows, worst first: most padding bytes, then highest expansion, then earliest. */
  readonly rows: readonly PaddingRow[];
  readonly totals: PaddingTotals;
}

/** Options of {@link PaddingReporter}. */
export interface PaddingReporterOptions {
  /** Rows to keep (default 20; 0 keeps every row). */
  readonly top?: number;
  /** A size cache to share between reports (e.g. across files); a fresh one by default. */
  readonly sizes?: LeafSizeCache;
  /** Cap on one statement's length in UTF-16 units (see `splitStatements`). */
  readonly maxStatementLength?: number;
  /**
   * Only the instructions whose metadata names this source file (and line), by `source_file` or by
   * `stack_frame_id`; totals count only them.
   */
  readonly from?: SourceFilter;
}

type Ranked = PaddingRow & { readonly offset: number };

const CH_LBRACE = 123;
const CH_RBRACE = 125;
const CH_H = 72;

/** Incremental padding report: {@link write} chunks in order, then {@link end}. */
export class PaddingReporter {
  private readonly stream: StatementStream;
  private readonly top: TopRows<Ranked>;
  private readonly sizes: LeafSizeCache;
  private computation = '';
  private buffers = 0;
  private skipped = 0;
  private logical = 0n;
  private physical = 0n;
  /** How many computations written in place are open inside the current one. */
  private inlineDepth = 0;
  /** The current module's stack-frame tables (read before its first computation). */
  private tables = new StackFrameTables();
  /** Whether no computation of the current module has started yet: its tables may follow. */
  private header = true;

  /** `}` of a computation written in place (closing it), or of the named computation. */
  private closeBrace(): void {
    if (this.inlineDepth > 0) this.inlineDepth--;
    else this.computation = '';
  }

  constructor(options: PaddingReporterOptions = {}) {
    this.top = new TopRows(options.top ?? 20);
    this.sizes = options.sizes ?? new LeafSizeCache();
    const from = options.from;
    const wanted = from ? new SourceTextSearch(from) : undefined;
    this.stream = new StatementStream((text, statements, base, lines) => {
      wanted?.reset();
      // One scan state for the statements of a text: each fresh one would search the whole text.
      const scan = new ScanState();
      for (const range of statements) {
        // With a source filter, statements that cannot name it are not parsed, except what tells
        // the enclosing computation (headers: they end in `{`; closing braces) or the module
        // (`HloModule`, then its stack-frame tables).
        if (wanted !== undefined && !this.header && !wanted.mayName(text, range.start, range.end)) {
          const first = firstNonBlank(text, range.start, range.end);
          const last = lastNonBlank(text, range.start, range.end);
          if (last === CH_RBRACE && first === last) this.closeBrace();
          else if (last !== CH_LBRACE && first !== CH_H) continue;
        }
        const s = parseStatement(text, range, scan);
        if (s.kind === 'module') {
          this.tables = new StackFrameTables();
          this.header = true;
        } else if (s.kind === 'unknown' && this.header) this.tables.line(text.slice(range.start, range.end));
        else if (s.kind !== 'blank' && s.kind !== 'comment') this.tables.endTable();
        if ((s.kind === 'computation' || s.kind === 'instruction') && this.header) {
          // The tables are complete: the filter also looks for the frames of the source line.
          if (from && wanted) wanted.useFrames(new Set(framesFrom(this.tables, from).keys()));
          this.header = false;
        }
        if (s.kind === 'computation') {
          this.computation = s.name?.name ?? '';
          this.inlineDepth = 0;
        } else if (s.kind === 'close') this.closeBrace();
        if (s.kind !== 'instruction') continue;
        // Rows of a computation written in place (`calls=\n{ ... }`) name the computation it is in.
        if (s.inlineComputation) this.inlineDepth++;
        const source = metadataSource(s.metadata, this.tables);
        const match = from ? sourceMatch(source, from) : undefined;
        if (match === 0) continue;
        // A result the parser stopped in (a tuple nested past XLA's depth limit) is no buffer.
        const result = s.shape ? s.shapes.find((f) => f.shape === s.shape) : undefined;
        const broken = result?.diagnostics.some((d) => d.severity === 'error') ?? false;
        const z = s.shape && !broken ? this.sizes.of(s.shape, text) : undefined;
        if (s.shape === undefined || z === undefined) {
          this.skipped++;
          continue;
        }
        this.buffers++;
        this.logical += z.logical;
        this.physical += z.physical;
        const shape = s.shape.range;
        const expansion = expansionOf(z.logical, z.physical);
        // Most rows lose against the kept ones: decide before computing positions and copying text.
        if (
          !this.top.wouldKeep({
            logicalBytes: z.logical,
            physicalBytes: z.physical,
            expansion,
            offset: base + shape.start,
          })
        )
          continue;
        const start = lines.at(shape.start);
        this.top.add({
          name: s.name.name,
          computation: this.computation,
          shape: text.slice(shape.start, shape.end),
          range: { start: base + shape.start, end: base + shape.end },
          start,
          end: lines.endOf(shape, start),
          logicalBytes: z.logical,
          physicalBytes: z.physical,
          expansion,
          ...(source ? { source: sourceLabel(source.file, source.line) } : {}),
          ...(match !== undefined ? { sourceMatch: match } : {}),
          offset: base + shape.start,
        });
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

  /** Ends the stream and returns the report. */
  end(): PaddingReport {
    this.stream.end();
    return {
      rows: this.top.result().map(({ offset: _offset, ...row }) => row),
      totals: {
        buffers: this.buffers,
        skipped: this.skipped,
        logicalBytes: this.logical,
        physicalBytes: this.physical,
        expansion: expansionOf(this.logical, this.physical),
      },
    };
  }
}

/** The report of a whole text at once (same result as writing it in any chunks). */
export function paddingReportOf(text: string, options: PaddingReporterOptions = {}): PaddingReport {
  const reporter = new PaddingReporter(options);
  reporter.write(text);
  return reporter.end();
}
