/**
 * Reads `*-live-range.txt` (`HloLiveRange::ToString`): the schedule (`InstructionSequence:`), when
 * each value is live (`BufferLiveRange:`, `name{index}:start-end`), and the values live at the
 * peak with their bytes (`Live ranges at T (peak):`). The stack-trace breakdown that follows is
 * only read for its total.
 */
import { LineSplitter, byLine } from './line-splitter';
import { ProblemLog, quoted } from './read-helpers';
import type { LiveRange, LiveRangeFile, PeakValue } from './types';

type Section = 'sequence' | 'ranges' | 'peak' | 'breakdown' | undefined;

const HEADER = /^HloLiveRange \(max (\d+)\):$/;
const SEQUENCE_ITEM = /^(\d+):(.+)$/;
const RANGE_ITEM = /^(.+):(-?\d+)-(-?\d+)$/;
const PEAK_HEADER = /^Live ranges at (\d+) \(peak\):$/;
const PEAK_ITEM = /^(.+): (\d+) bytes \(cumulative: (\d+) bytes\)$/;
const BREAKDOWN = /^Stack trace breakdown for peak usage: ([\d ]+) bytes$/;

/** Incremental reader: {@link write} chunks in order, then {@link end}. */
export class LiveRangeReader {
  private readonly splitter = new LineSplitter(byLine((text, n) => this.line(text, n)));
  private readonly log = new ProblemLog();
  private maxTime: number | undefined;
  private readonly schedule: string[] = [];
  private readonly ranges = new Map<string, LiveRange>();
  private peakTime: number | undefined;
  private peakBytes: bigint | undefined;
  private readonly peakValues: PeakValue[] = [];
  private section: Section;
  private result: LiveRangeFile | undefined;

  /** Feeds the next piece of text, cut anywhere. */
  write(chunk: string): void {
    this.splitter.write(chunk);
  }

  /** Ends the text and returns what it held; later calls return the same result. */
  end(): LiveRangeFile {
    if (this.result) return this.result;
    this.splitter.end();
    this.result = {
      ...(this.maxTime !== undefined ? { maxTime: this.maxTime } : {}),
      schedule: this.schedule,
      ranges: this.ranges,
      ...(this.peakTime !== undefined
        ? { peak: { time: this.peakTime, bytes: this.peakBytes ?? 0n, values: this.peakValues } }
        : {}),
      lines: this.splitter.lines,
      problems: this.log.problems,
      problemCount: this.log.count,
    };
    return this.result;
  }

  private line(line: string, n: number): void {
    const text = line.trim();
    if (text === '') return;
    const header = HEADER.exec(text);
    if (header) {
      this.maxTime = Number(header[1]);
      return;
    }
    if (text === 'InstructionSequence:') {
      this.section = 'sequence';
      return;
    }
    if (text === 'BufferLiveRange:') {
      this.section = 'ranges';
      return;
    }
    const peak = PEAK_HEADER.exec(text);
    if (peak) {
      this.section = 'peak';
      this.peakTime = Number(peak[1]);
      return;
    }
    const breakdown = BREAKDOWN.exec(text);
    if (breakdown) {
      this.section = 'breakdown';
      // Digits grouped by spaces: "2 887 252".
      this.peakBytes ??= BigInt(breakdown[1].replace(/ /g, ''));
      return;
    }
    switch (this.section) {
      case 'sequence': {
        const m = SEQUENCE_ITEM.exec(text);
        if (m) this.schedule.push(m[2]);
        else this.log.add(n, quoted('not a scheduled instruction', line));
        return;
      }
      case 'ranges': {
        const m = RANGE_ITEM.exec(text);
        if (m) this.ranges.set(m[1], { start: Number(m[2]), end: Number(m[3]) });
        else this.log.add(n, quoted('not a live range', line));
        return;
      }
      case 'peak': {
        const m = PEAK_ITEM.exec(text);
        if (m) {
          this.peakValues.push({ position: m[1], bytes: BigInt(m[2]) });
          this.peakBytes = BigInt(m[3]);
        } else this.log.add(n, quoted('not a value live at the peak', line));
        return;
      }
      case 'breakdown':
        return;
      default:
        this.log.add(n, quoted('not part of a live-range file', line));
    }
  }
}

/** Reads a whole live-range text at once. */
export function readLiveRange(text: string): LiveRangeFile {
  const reader = new LiveRangeReader();
  reader.write(text);
  return reader.end();
}
