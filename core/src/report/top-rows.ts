/** The N worst rows of a padding report, kept sorted as rows stream in (memory stays O(N)). */

/** What the ordering needs of a row. */
export interface RankedRow {
  readonly logicalBytes: bigint;
  readonly physicalBytes: bigint;
  readonly expansion: number;
  /** Position in the file, the last tie-breaker (earlier first). */
  readonly offset: number;
}

/** Worst first: most padding bytes, then highest expansion, then earliest in the file. */
function worse(a: RankedRow, b: RankedRow): number {
  const wa = a.physicalBytes - a.logicalBytes;
  const wb = b.physicalBytes - b.logicalBytes;
  if (wa !== wb) return wa > wb ? -1 : 1;
  if (a.expansion !== b.expansion) return b.expansion - a.expansion;
  return a.offset - b.offset;
}

/** Keeps the `limit` worst rows (every row when limit is 0), sorted worst first. */
export class TopRows<R extends RankedRow> {
  private readonly rows: R[] = [];
  private sorted = true;

  constructor(private readonly limit: number) {}

  /** Whether {@link add} would keep a row ranked like `row` (cheap pre-check before building it). */
  wouldKeep(row: RankedRow): boolean {
    if (this.limit <= 0 || this.rows.length < this.limit) return true;
    const last = this.rows[this.rows.length - 1];
    return last === undefined || worse(row, last) < 0;
  }

  add(row: R): void {
    const rows = this.rows;
    if (this.limit <= 0) {
      // Unbounded: sort once at the end instead of inserting in order.
      rows.push(row);
      this.sorted = false;
      return;
    }
    if (rows.length >= this.limit) {
      const last = rows[rows.length - 1];
      if (last !== undefined && worse(row, last) >= 0) return;
      rows.pop();
    }
    let i = rows.length;
    while (i > 0 && worse(row, rows[i - 1]) < 0) i--;
    rows.splice(i, 0, row);
  }

  /** The kept rows, worst first. */
  result(): R[] {
    if (!this.sorted) {
      this.rows.sort(worse);
      this.sorted = true;
    }
    return this.rows.slice();
  }
}
