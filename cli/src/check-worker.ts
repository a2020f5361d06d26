/**
 * The worker side of `check --jobs`: checks byte ranges of a file that segments.ts cut at statement
 * boundaries, with one memoising checker for every range the worker gets, and sends back each
 * range's diagnostics (line numbers relative to the range's first line) and how many lines it has.
 */
import { parentPort } from 'worker_threads';
import { CheckStream, readableMessage, type CheckCounts } from '../../core/src';
import type {
  LayoutDiagnostic,
  LineColumn,
  LocatedDiagnostic,
  PaddingEvent,
  PaddingThresholds,
  StatementHandler,
} from '../../core/src';
import { createShapeChecker, type ShapeChecker } from '../../core/src';
import { forEachTextPiece } from './read-statements';

/** One range of a file to check. */
export interface SegmentTask {
  readonly id: number;
  /** The main thread's descriptor of the open file (descriptors belong to the whole process). */
  readonly fd: number;
  readonly start: number;
  readonly end: number;
  /** Whether the range ends the file: else text follows it, which the next range checks. */
  readonly last: boolean;
  /** The padding-overhead thresholds, or false when they are off. */
  readonly padding: PaddingThresholds | false;
}

/** A diagnostic as it crosses to the main thread: 1-based lines relative to the range, columns as in the file. */
export interface SegmentDiagnostic {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

/** A {@link SegmentDiagnostic} whose place is not known yet. */
export type UnplacedDiagnostic = Pick<SegmentDiagnostic, 'severity' | 'code' | 'message'>;

export interface SegmentResult {
  readonly id: number;
  /** Line breaks in the range: how far the next range's line numbers are shifted. */
  readonly newlines: number;
  readonly diagnostics: readonly SegmentDiagnostic[];
  readonly counts: CheckCounts;
  /**
   * The range's padding events (lines relative to the range), which the main thread collects over
   * the whole file: whether a warning holds depends on calls in later ranges.
   */
  readonly padding: readonly PaddingEvent<SegmentDiagnostic>[];
  /**
   * A diagnostic that XLA reports at the first token after the range's last statement (a missing
   * attribute): the main thread places it at the next range's {@link firstToken}. Unset on the last range.
   */
  readonly waiting?: UnplacedDiagnostic;
  /** Where the range's first token is (line relative to the range), when it holds one. */
  readonly firstToken?: LineColumn;
  /** Set when the range could not be read; nothing else is then meaningful. */
  readonly error?: string;
}

/** Marks a worker started by parallel-check.ts, so the CLI's entry point runs {@link serveSegments}. */
export const WORKER_ROLE = 'xla-layout-check-segment';

/** `d`, which runs from `start` to just before `end`, in the form the CLI prints. */
export function segmentDiagnostic(
  d: LayoutDiagnostic,
  start: LineColumn,
  end: LineColumn,
): SegmentDiagnostic {
  return {
    line: start.line,
    column: start.column,
    endLine: end.line,
    endColumn: end.column,
    severity: d.severity,
    code: d.code,
    message: readableMessage(d),
  };
}

/**
 * A check stream with `checker`'s caches that hands each diagnostic to `emit` in its printed form,
 * with padding warnings under `padding` (false: none); `paddingEvents` takes their events instead, and
 * `onStatement` each statement as the check read it.
 */
export function checkStreamTo(
  checker: ShapeChecker,
  emit: (d: SegmentDiagnostic) => void,
  padding: PaddingThresholds | false,
  paddingEvents?: (e: PaddingEvent<SegmentDiagnostic>) => void,
  onStatement?: StatementHandler,
): CheckStream {
  const printed = ({ diagnostic, start, end }: LocatedDiagnostic) =>
    segmentDiagnostic(diagnostic, start, end);
  return new CheckStream((d) => emit(printed(d)), {
    checker,
    padding,
    ...(onStatement ? { onStatement } : {}),
    ...(paddingEvents
      ? {
          paddingEvents: (e: PaddingEvent<LocatedDiagnostic>) =>
            paddingEvents(e.kind === 'warning' ? { ...e, warning: printed(e.warning) } : e),
        }
      : {}),
  });
}

/** Checks text bytes [start, end) of `fd` with `checker`'s caches. */
function checkRange(task: SegmentTask, checker: ShapeChecker): SegmentResult {
  const diagnostics: SegmentDiagnostic[] = [];
  const padding: PaddingEvent<SegmentDiagnostic>[] = [];
  const stream = checkStreamTo(
    checker,
    (d) => diagnostics.push(d),
    task.padding,
    (e) => padding.push(e),
  );
  // The range ends where a statement starts (or at the end of the file): its last piece is complete too.
  const newlines = forEachTextPiece(
    task.fd,
    (text, complete) => (complete ? stream.writeComplete(text) : stream.write(text)),
    task.start,
    task.end,
  );
  const { counts, waiting } = task.last ? { counts: stream.end(), waiting: undefined } : stream.endPiece();
  const { firstToken } = stream;
  return {
    id: task.id,
    newlines,
    diagnostics,
    counts,
    padding,
    ...(waiting
      ? { waiting: { severity: waiting.severity, code: waiting.code, message: readableMessage(waiting) } }
      : {}),
    ...(firstToken ? { firstToken } : {}),
  };
}

/** The worker's loop: answers every task message with its result until the main thread ends it. */
export function serveSegments(): void {
  const port = parentPort;
  if (!port) return;
  const checker = createShapeChecker({ maxEntries: 50_000 });
  port.on('message', (task: SegmentTask) => {
    try {
      port.postMessage(checkRange(task, checker));
    } catch (e) {
      const none: CheckCounts = { shapes: 0, errors: 0, warnings: 0, other: 0 };
      port.postMessage({
        id: task.id,
        newlines: 0,
        diagnostics: [],
        counts: none,
        padding: [],
        error: e instanceof Error ? e.message : String(e),
      } satisfies SegmentResult);
    }
  });
}
