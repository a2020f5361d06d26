/**
 * What XLA's memory files beside a dumped module say, as read: `*-buffer-assignment.txt`,
 * `*-buffer-assignment-values.txt`, `*-memory-usage-report.txt` and `*-live-range.txt`. Byte
 * counts are exact (`bigint`); the readers never throw, and what they cannot read is listed in
 * `problems` with its line.
 */

/** One line a reader could not make sense of. */
export interface MemoryReadProblem {
  /** 1-based line. */
  readonly line: number;
  readonly message: string;
}

/** Problems kept per file; further ones are only counted (`problemCount`). */
export const MAX_READ_PROBLEMS = 100;

/** The words XLA's `BufferAllocation::ToShortString` writes after an allocation's size. */
export type AllocationKind =
  'parameter' | 'output' | 'constant' | 'thread-local' | 'maybe-live-out' | 'preallocated-temp';

/**
 * An HLO value as XLA names it (`HloValue::ToShortString`): `<12 fusion.3{1} (phi) @0>` is value
 * 12, defined by `fusion.3` at tuple index {1}, a phi, in memory space (colour) 0.
 */
export interface ValueRef {
  readonly id: number;
  /** The defining instruction's name. */
  readonly instruction: string;
  /** Index into the instruction's tuple shape; absent when the instruction's shape is not a tuple. */
  readonly shapeIndex?: readonly number[];
  readonly phi: boolean;
  /** The memory space the value was coloured with, when XLA printed one. */
  readonly color?: number;
}

/** A value placed in an allocation: ` value: <id name @c> (size=S,offset=O): shape`. */
export interface AssignedValue extends ValueRef {
  /** XLA's own size of the value, bytes. */
  readonly size: bigint;
  /** Offset in the allocation, bytes. */
  readonly offset: bigint;
  /** The value's shape with its layout, as XLA printed it. */
  readonly shape: string;
  readonly line: number;
}

/** The entry parameter (or the piece of one at `shapeIndex`) an allocation holds. */
export interface AllocatedParameter {
  readonly number: number;
  readonly shape: string;
  readonly shapeIndex: readonly number[];
}

/** `allocation N: size S, ...:` and the values placed in it. */
export interface BufferAllocationRecord {
  readonly index: number;
  readonly size: bigint;
  /** The allocation's memory space (XLA prints `color N` when it is not 0). */
  readonly color: number;
  readonly kinds: readonly AllocationKind[];
  /** For `parameter N, shape |...| at ShapeIndex {...}`: an entry parameter (or a piece of one). */
  readonly parameter?: AllocatedParameter;
  /** For `output shape is |...|`: the entry computation's result. */
  readonly outputShape?: string;
  /** Words after the size this reader does not know, as written (newer XLA may add some). */
  readonly other: readonly string[];
  readonly values: readonly AssignedValue[];
  /** Values of another memory space that reuse this allocation's free space (listed above as well). */
  readonly reusedByOtherColors: readonly ValueRef[];
  readonly line: number;
}

/** A whole `*-buffer-assignment.txt`. */
export interface BufferAssignmentFile {
  readonly allocations: readonly BufferAllocationRecord[];
  /** The sum of the allocations' sizes: what XLA calls "Total bytes used". */
  readonly totalBytes: bigint;
  /** `Total bytes used:` as written, when the file has it (older XLA wrote the values here too). */
  readonly reportedTotalBytes?: bigint;
  /** `Used values:`, when the file has them (older XLA; newer XLA writes `-buffer-assignment-values.txt`). */
  readonly values?: BufferValuesFile;
  readonly lines: number;
  readonly problems: readonly MemoryReadProblem[];
  readonly problemCount: number;
}

/** One value of `Used values:` (`HloValue::ToString`). */
export interface UsedValue extends ValueRef {
  /** Every position holding the value, `name` or `name{index}` as written: the first defines it. */
  readonly positions: readonly string[];
  /** Its uses, `user, operand N [index]`, as written. */
  readonly uses: readonly string[];
  /** The `from instruction:` text, cut at {@link MAX_INSTRUCTION_TEXT} characters. */
  readonly instructionText?: string;
  readonly line: number;
}

/** Longest `from instruction:` text kept per value. */
export const MAX_INSTRUCTION_TEXT = 400;

/** A whole `*-buffer-assignment-values.txt` (or the `Used values:` part of an older buffer assignment). */
export interface BufferValuesFile {
  readonly totalBytes?: bigint;
  readonly values: readonly UsedValue[];
  readonly lines: number;
  readonly problems: readonly MemoryReadProblem[];
  readonly problemCount: number;
}

/** One row of an allocation's block: the values placed at one offset. */
export interface UsageReportRow {
  /** Size of the largest value at this offset, as XLA printed it (`784.0KiB`). */
  readonly size: string;
  readonly offset: bigint;
  readonly values: number;
  /** The shapes, `2×f32[64,256], f32[64,128]`, as written. */
  readonly shapes: string;
  readonly line: number;
}

/** One allocation's part of the memory-usage report. */
export interface UsageReportAllocation {
  /** The allocation's index, where the report names it (older XLA wrote the allocation's line). */
  readonly index?: number;
  /** Its size as printed in that line. */
  readonly size?: string;
  readonly rows: readonly UsageReportRow[];
  /** "The rest N values are less than ..." */
  readonly valuesNotShown?: number;
  readonly line: number;
}

/** `Memory Space: name (color=N)` with its `Total bytes:` and allocations. */
export interface UsageReportSpace {
  /** `default`, `vmem`, `hbm`, ... as XLA names the colour; absent in older reports, which have none. */
  readonly name?: string;
  readonly color?: number;
  readonly totalBytes: bigint;
  readonly allocations: readonly UsageReportAllocation[];
  readonly line: number;
}

/** A whole `*-memory-usage-report.txt`. */
export interface MemoryUsageReportFile {
  /**
   * `by-memory-space`: `Memory Space: ... Total bytes: ...` sections (current XLA);
   * `sorted-by-size`: `Total bytes used: ... Allocations sorted by size:` (older XLA).
   */
  readonly format: 'by-memory-space' | 'sorted-by-size' | 'unknown';
  readonly spaces: readonly UsageReportSpace[];
  /** Sum of the spaces' totals. */
  readonly totalBytes: bigint;
  readonly lines: number;
  readonly problems: readonly MemoryReadProblem[];
  readonly problemCount: number;
}

/** When a value is live, in steps of the schedule: `name{index}:start-end`. */
export interface LiveRange {
  readonly start: number;
  readonly end: number;
}

/** A value live at the peak: `name{}: N bytes (cumulative: M bytes)`. */
export interface PeakValue {
  /** `name{index}` as written. */
  readonly position: string;
  readonly bytes: bigint;
}

/** A whole `*-live-range.txt` (`HloLiveRange::ToString`). */
export interface LiveRangeFile {
  /** `HloLiveRange (max N)`: the schedule's length. */
  readonly maxTime?: number;
  /** Instruction names in schedule order (`InstructionSequence:`). */
  readonly schedule: readonly string[];
  /** By `name{index}` as written. */
  readonly ranges: ReadonlyMap<string, LiveRange>;
  /** `Live ranges at T (peak):`, when present. */
  readonly peak?: {
    readonly time: number;
    /** The last cumulative figure (or the stack-trace breakdown's total). */
    readonly bytes: bigint;
    readonly values: readonly PeakValue[];
  };
  readonly lines: number;
  readonly problems: readonly MemoryReadProblem[];
  readonly problemCount: number;
}
