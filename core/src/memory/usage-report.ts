/**
 * Reads `*-memory-usage-report.txt` (`BufferAssignment::MemoryUsageReport`) in both of XLA's forms:
 * current XLA writes one section per memory space (`Memory Space: default (color=0)`, `Total
 * bytes: N`, then one block per allocation, largest first, its values grouped by offset); older XLA
 * wrote `Total bytes used: N`, `Allocations sorted by size:` and then each allocation's line with its
 * block. Sizes in the blocks are printed rounded (`784.0KiB`) and kept as text; totals and offsets
 * are exact.
 */
import { LineSplitter, byLine } from './line-splitter';
import { ProblemLog, exactInteger, quoted } from './read-helpers';
import type { MemoryUsageReportFile, UsageReportRow, UsageReportSpace } from './types';

const SPACE = /^Memory Space: (.*) \(color=(-?\d{1,9})\)$/;
const SPACE_TOTAL = /^Total bytes: (\d+)/;
const OLD_TOTAL = /^Total bytes used: (\d+)/;
// The share of the total, which is 0/0 (`-nan%`) where every allocation has 0 bytes (tokens, `()`).
const SHARE = String.raw`\(\s*(?:\d+|-?nan|-?inf)%\)`;
const ROW = new RegExp(String.raw`^\s*\S+${SHARE};\s*(\S+);\s*(\d+);\s*(\d+);\s?(.*)$`);
const SUMMARY_ROW = new RegExp(String.raw`^\s*\S+${SHARE};\s*\S+; allocation `);
const ALLOCATION = /^allocation (\d{1,9}): size (\S+?),? .*:$|^allocation (\d{1,9}): size (\S+):$/;
const REST_VALUES = /^\s*The rest (\d+) values are/;

interface Space {
  name?: string;
  color?: number;
  totalBytes: bigint;
  allocations: Allocation[];
  line: number;
}

interface Allocation {
  index?: number;
  size?: string;
  rows: UsageReportRow[];
  valuesNotShown?: number;
  line: number;
}

/** Incremental reader: {@link write} chunks in order, then {@link end}. */
export class MemoryUsageReportReader {
  private readonly splitter = new LineSplitter(byLine((text, n) => this.line(text, n)));
  private readonly log = new ProblemLog();
  private readonly spaces: Space[] = [];
  private format: MemoryUsageReportFile['format'] = 'unknown';
  private space: Space | undefined;
  private allocation: Allocation | undefined;
  /** Inside the older report's summary table (its rows repeat what the allocations' lines say). */
  private inSummary = false;
  private result: MemoryUsageReportFile | undefined;

  /** Feeds the next piece of text, cut anywhere. */
  write(chunk: string): void {
    this.splitter.write(chunk);
  }

  /** Ends the text and returns what it held; later calls return the same result. */
  end(): MemoryUsageReportFile {
    if (this.result) return this.result;
    this.splitter.end();
    let total = 0n;
    for (const s of this.spaces) total += s.totalBytes;
    const spaces: UsageReportSpace[] = this.spaces.map((s) => ({
      ...(s.name !== undefined ? { name: s.name } : {}),
      ...(s.color !== undefined ? { color: s.color } : {}),
      totalBytes: s.totalBytes,
      allocations: s.allocations,
      line: s.line,
    }));
    this.result = {
      format: this.format,
      spaces,
      totalBytes: total,
      lines: this.splitter.lines,
      problems: this.log.problems,
      problemCount: this.log.count,
    };
    return this.result;
  }

  private newSpace(n: number, name?: string, color?: number): Space {
    const s: Space = {
      ...(name !== undefined ? { name } : {}),
      ...(color !== undefined ? { color } : {}),
      totalBytes: 0n,
      allocations: [],
      line: n,
    };
    this.spaces.push(s);
    this.space = s;
    this.allocation = undefined;
    return s;
  }

  private line(line: string, n: number): void {
    const text = line.trim();
    if (text === '' || /^-+$/.test(text)) return;
    const space = SPACE.exec(line);
    if (space) {
      this.format = 'by-memory-space';
      this.newSpace(n, space[1], Number(space[2]));
      return;
    }
    const spaceTotal = SPACE_TOTAL.exec(line);
    if (spaceTotal && this.space) {
      this.space.totalBytes = exactInteger(spaceTotal[1]) ?? 0n;
      return;
    }
    const oldTotal = OLD_TOTAL.exec(line);
    if (oldTotal) {
      this.format = 'sorted-by-size';
      this.newSpace(n).totalBytes = exactInteger(oldTotal[1]) ?? 0n;
      return;
    }
    if (text === 'Allocations sorted by size:') {
      this.inSummary = true;
      return;
    }
    if (text === 'Allocations sorted by size with their values:') {
      this.inSummary = false;
      return;
    }
    if (text.startsWith('cumulative_size;')) {
      // A block's header: in the current form it starts the next allocation's block.
      if (text.includes('used_by_n_values') && this.format !== 'sorted-by-size') this.startBlock(n);
      return;
    }
    if (text.startsWith('The rest ')) {
      const rest = REST_VALUES.exec(line);
      if (rest && this.allocation) this.allocation.valuesNotShown = Number(rest[1]);
      return;
    }
    if (this.format === 'sorted-by-size' && line.startsWith('allocation ')) {
      const m = ALLOCATION.exec(line);
      if (!m) {
        this.log.add(n, quoted('not an allocation line', line));
        return;
      }
      const space = this.space ?? this.newSpace(n);
      this.allocation = { index: Number(m[1] ?? m[3]), size: m[2] ?? m[4], rows: [], line: n };
      space.allocations.push(this.allocation);
      return;
    }
    if (this.inSummary && SUMMARY_ROW.test(line)) return;
    const row = ROW.exec(line);
    if (row) {
      const a = this.allocation ?? this.startBlock(n);
      a.rows.push({
        size: row[1],
        offset: BigInt(row[2]),
        values: Number(row[3]),
        shapes: row[4],
        line: n,
      });
      return;
    }
    this.log.add(n, quoted('not part of a memory-usage report', line));
  }

  private startBlock(n: number): Allocation {
    const space = this.space ?? this.newSpace(n);
    const a: Allocation = { rows: [], line: n };
    space.allocations.push(a);
    this.allocation = a;
    return a;
  }
}

/** Reads a whole memory-usage report at once. */
export function readMemoryUsageReport(text: string): MemoryUsageReportFile {
  const reader = new MemoryUsageReportReader();
  reader.write(text);
  return reader.end();
}
