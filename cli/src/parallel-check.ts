/**
 * `check --jobs N`: a large file is cut at statement boundaries (segments.ts) and its pieces are
 * checked by N worker threads (check-worker.ts) at once, while this thread prints each piece's
 * diagnostics in file order with its line numbers shifted by the lines before it. The output is
 * the same as checking the file in one stream. At most two pieces per worker are handed out ahead
 * of the first one still being printed, so memory stays bounded whatever the file size.
 */
import { setFlagsFromString } from 'v8';
import { Worker } from 'worker_threads';
import { PaddingCollector, type CheckCounts, type PaddingThresholds } from '../../core/src';
import {
  WORKER_ROLE,
  type SegmentDiagnostic,
  type SegmentResult,
  type SegmentTask,
  type UnplacedDiagnostic,
} from './check-worker';
import { FileError } from './errors';
import { segmentBoundaries } from './segments';

/** Counts a check adds to. */
export type MutableCounts = { -readonly [K in keyof CheckCounts]: CheckCounts[K] };

/** Piece size: about eight pieces per worker, so that they finish close together, within bounds. */
function pieceBytesFor(size: number, jobs: number): number {
  return Math.min(8 * 1024 * 1024, Math.max(64 * 1024, Math.ceil(size / (jobs * 8))));
}

/** Worker threads that check pieces of files; {@link close} them when done. */
export class CheckPool {
  private readonly workers: Worker[];

  /** `cores`: how many threads the machine runs at once. */
  constructor(jobs: number, cores: number) {
    // With a checking thread on every core, V8's background compiler threads can only take time
    // from them, so each thread compiles its own hot code (process-wide from here on; workers are
    // created after this). docs/performance.md has the measurements.
    if (jobs >= cores) setFlagsFromString('--no-concurrent-recompilation');
    // The bundle is its own worker script: its entry point serves pieces when started with this role.
    // A small young generation keeps each worker's heap near its live data (the checker's caches and
    // one chunk): with V8's default every thread grows tens of MiB of short-lived strings.
    this.workers = Array.from(
      { length: jobs },
      () =>
        new Worker(__filename, {
          workerData: { role: WORKER_ROLE },
          resourceLimits: { maxYoungGenerationSizeMb: 8 },
        }),
    );
  }

  /**
   * Checks the open file `fd` (`size` bytes, named `file`), handing out diagnostics in file order
   * and adding each printed piece's counts to `counts`: when a piece cannot be read, the counts
   * cover what was printed before it, as a single stream's would.
   */
  checkFile(
    file: string,
    fd: number,
    size: number,
    onDiagnostic: (d: SegmentDiagnostic) => void,
    counts: MutableCounts,
    padding: PaddingThresholds | false,
  ): Promise<void> {
    const cuts = segmentBoundaries(fd, size, pieceBytesFor(size, this.workers.length));
    const tasks: SegmentTask[] = cuts
      .slice(0, -1)
      .map((start, id) => ({ id, fd, start, end: cuts[id + 1], last: id === cuts.length - 2, padding }));
    if (tasks.length === 0) return Promise.resolve();
    // The pieces' padding events, collected in file order: a warning holds or not by later calls.
    const collector = new PaddingCollector<SegmentDiagnostic>((d) => {
      counts.warnings++;
      onDiagnostic(d);
    });
    return new Promise<void>((resolve, reject) => {
      const results = new Map<number, SegmentResult>();
      const idle = [...this.workers];
      const ahead = 2 * this.workers.length;
      let next = 0;
      let printed = 0;
      let lineOffset = 0;
      // A diagnostic of a range's last statement that goes at the next range's first token.
      let waiting: UnplacedDiagnostic | undefined;
      let settled = false;
      const listeners = new Map<
        Worker,
        { message: (r: SegmentResult) => void; error: (e: Error) => void; exit: (code: number) => void }
      >();
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        for (const [w, l] of listeners) {
          w.off('message', l.message);
          w.off('error', l.error);
          w.off('exit', l.exit);
        }
        if (error) reject(error);
        else resolve();
      };
      const hand = () => {
        while (idle.length > 0 && next < tasks.length && next < printed + ahead)
          idle.pop()?.postMessage(tasks[next++]);
      };
      const print = () => {
        for (let r = results.get(printed); r !== undefined; r = results.get(printed)) {
          results.delete(printed);
          if (r.error !== undefined) return finish(new FileError(`${file}: cannot read: ${r.error}`));
          if (waiting && r.firstToken) {
            const line = r.firstToken.line + lineOffset;
            const { column } = r.firstToken;
            onDiagnostic({ ...waiting, line, column, endLine: line, endColumn: column + 1 });
            if (waiting.severity === 'error') counts.errors++;
            else if (waiting.severity === 'warning') counts.warnings++;
            else counts.other++;
            waiting = undefined;
          }
          for (const d of r.diagnostics)
            onDiagnostic({ ...d, line: d.line + lineOffset, endLine: d.endLine + lineOffset });
          for (const e of r.padding)
            collector.add(
              e.kind === 'warning'
                ? {
                    ...e,
                    warning: {
                      ...e.warning,
                      line: e.warning.line + lineOffset,
                      endLine: e.warning.endLine + lineOffset,
                    },
                  }
                : e,
            );
          lineOffset += r.newlines;
          waiting ??= r.waiting;
          counts.shapes += r.counts.shapes;
          counts.errors += r.counts.errors;
          counts.warnings += r.counts.warnings;
          counts.other += r.counts.other;
          printed++;
        }
        if (printed === tasks.length) {
          collector.flush();
          finish();
        }
      };
      for (const w of this.workers) {
        const l = {
          message: (r: SegmentResult) => {
            results.set(r.id, r);
            idle.push(w);
            print();
            hand();
          },
          error: (e: Error) => finish(e),
          exit: (code: number) => finish(new Error(`a check worker stopped (exit code ${code})`)),
        };
        listeners.set(w, l);
        w.on('message', l.message);
        w.on('error', l.error);
        w.on('exit', l.exit);
      }
      hand();
    });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
