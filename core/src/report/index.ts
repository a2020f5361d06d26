/**
 * Streaming reports over HLO text of any size, fed in chunks: statement splitting across chunk
 * boundaries, line/column tracking, the padding report and the check. Shared by the CLI and the
 * editor extension (which reads files VS Code does not hand to extensions).
 */
export { LineCounter, type LineColumn } from './line-counter';
export { StatementStream, type StatementBatchHandler, type StatementStreamOptions } from './statement-stream';
export { LeafSizeCache, expansionOf, type BufferBytes } from './leaf-sizes';
export {
  PaddingReporter,
  paddingReportOf,
  type PaddingReport,
  type PaddingRow,
  type PaddingTotals,
  type PaddingReporterOptions,
} from './padding-reporter';
export {
  CheckStream,
  type CheckCounts,
  type CheckStreamOptions,
  type LocatedDiagnostic,
  type StatementHandler,
} from './check-stream';
export {
  parseOomMessage,
  xlaBytes,
  OOM_MAX_CHARS,
  type OomMessage,
  type OomAllocation,
  type OomSummary,
  type PrintedSize,
} from './oom-message';
export { checkOomAllocation, type OomAllocationCheck } from './oom-check';
export { oomReportLines } from './oom-text';
export {
  DEFAULT_PADDING_THRESHOLDS,
  paddingCause,
  paddingFix,
  paddingWarningText,
  paddingWarns,
  type PaddedArray,
  type PaddingFix,
  type PaddingThresholds,
} from './padding-warning';
export { PaddingCollector, PaddingScanner, type PaddingEvent } from './padding-sites';
