/**
 * The memory model of one compiled module: XLA's allocations with the values placed in them, each
 * value joined to the instruction that defines it (where it is written, its source line), to our
 * layout model's bytes for its shape (physical, logical, the padding and what causes it), and to
 * when it is live. Where our bytes differ from XLA's, the value is a disagreement of our layout
 * model with XLA. Built from what the readers of ./buffer-assignment.ts and its siblings read.
 */
import type { HloIndex, HloInstructionInfo } from './hlo-index';
import { peakOf, type MemoryPeak } from './peak';
import { positionKey } from './read-helpers';
import type {
  BufferAllocationRecord,
  BufferAssignmentFile,
  BufferValuesFile,
  LiveRange,
  LiveRangeFile,
  MemoryUsageReportFile,
} from './types';
import { ValueSizeCache, type ValueSize } from './value-size';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One value: placed by XLA, or (in an estimate) one the HLO defines. */
export interface MemoryValue {
  /** XLA's value id; absent in an estimate. */
  readonly id?: number;
  /** The defining instruction. */
  readonly instruction: string;
  /** Index into the instruction's tuple shape; absent for an instruction that is not a tuple. */
  readonly shapeIndex?: readonly number[];
  readonly phi: boolean;
  /** Index of the allocation holding it. */
  readonly allocation: number;
  /** Offset in that allocation, bytes (absent in an estimate). */
  readonly offset?: bigint;
  /** XLA's own size of the value, bytes (absent in an estimate). */
  readonly xlaBytes?: bigint;
  /** The value's shape as XLA (or the HLO) wrote it. */
  readonly shape: string;
  /** What our layout model says of the shape. */
  readonly size: ValueSize;
  /** physical − logical bytes (0 when the shape could not be sized). */
  readonly paddingBytes: bigint;
  /** The instruction in the HLO text, when the text was read. */
  readonly hlo?: HloInstructionInfo;
  /** When it is live, in schedule steps (live-range file). */
  readonly live?: LiveRange;
  /** Other positions holding the same value (`tuple.3{1}`, `get-tuple-element.2`), from the values file. */
  readonly sharedWith?: readonly string[];
  /** Why our bytes are not XLA's (set only for disagreements). */
  readonly disagreement?: string;
}

/** An allocation as the buffer-assignment file describes it, with its values joined to the HLO. */
export interface MemoryAllocation extends Pick<
  BufferAllocationRecord,
  'index' | 'size' | 'color' | 'kinds' | 'parameter' | 'outputShape' | 'other'
> {
  /** In XLA's order (by value id). */
  readonly values: readonly MemoryValue[];
  /**
   * Padding inside the allocation, counted as XLA's memory-usage report counts its space: values
   * grouped by offset, each offset as large as its largest value, here that value's padding.
   */
  readonly paddingBytes: bigint;
}

/** One memory space's share. */
export interface MemorySpaceTotal {
  readonly color: number;
  /** XLA's name for it (`default`, `vmem`, ...), from the usage report or XLA's table. */
  readonly name: string;
  readonly bytes: bigint;
  readonly paddingBytes: bigint;
  readonly allocations: number;
  /** `Total bytes:` of the usage report for this space, when it has one. */
  readonly reportedBytes?: bigint;
}

export interface MemoryModule {
  readonly module: string;
  /** `buffer-assignment`: XLA's own figures. `estimate`: from the HLO alone, every value its own buffer. */
  readonly basis: 'buffer-assignment' | 'estimate';
  /** XLA's total (the sum of its allocations), or the estimate's. */
  readonly totalBytes: bigint;
  readonly paddingBytes: bigint;
  readonly spaces: readonly MemorySpaceTotal[];
  readonly peak?: MemoryPeak;
  /** Largest first (then most padding, then index). */
  readonly allocations: readonly MemoryAllocation[];
  readonly valueCount: number;
  /** Values whose bytes by our layout model are not XLA's. */
  readonly disagreements: readonly MemoryValue[];
  /** The value with the most padding, when any value pads. */
  readonly worst?: MemoryValue;
  /** Values whose instruction the HLO text does not have (when it was read). */
  readonly missingInstructions: number;
  /** What the readers could not read, per file. */
  readonly problems: readonly { readonly file: string; readonly line: number; readonly message: string }[];
  readonly problemCount: number;
}

/** XLA's names of memory-space colours (`GetMemorySpaceName` in buffer_assignment.cc). */
export function memorySpaceName(color: number): string {
  return ['default', 'vmem', 'smem', 'hbm', 'host', 'cmem'][color] ?? `color_${color}`;
}

/** What {@link joinMemory} joins; everything but the buffer assignment is optional. */
export interface MemoryInputs {
  /** The module's name (else the HLO's `HloModule` name, else ''). */
  readonly module?: string;
  readonly bufferAssignment: BufferAssignmentFile;
  readonly values?: BufferValuesFile;
  readonly usageReport?: MemoryUsageReportFile;
  readonly liveRange?: LiveRangeFile;
  readonly hlo?: HloIndex;
  /** Shared between modules (a dump folder repeats shapes). */
  readonly sizes?: ValueSizeCache;
}

/** Allocations largest first, then most padding, then by index. */
export function byWorst(a: MemoryAllocation, b: MemoryAllocation): number {
  if (a.size !== b.size) return a.size > b.size ? -1 : 1;
  if (a.paddingBytes !== b.paddingBytes) return a.paddingBytes > b.paddingBytes ? -1 : 1;
  return a.index - b.index;
}

/** Padding of an allocation's values grouped by offset, each group by its largest value. */
export function allocationPadding(size: bigint, values: readonly MemoryValue[]): bigint {
  const largest = new Map<bigint, MemoryValue>();
  for (const v of values) {
    const key = v.offset ?? 0n;
    const held = largest.get(key);
    if (held === undefined || (v.xlaBytes ?? 0n) > (held.xlaBytes ?? 0n)) largest.set(key, v);
  }
  let padding = 0n;
  for (const v of largest.values()) padding += v.paddingBytes;
  return padding < size ? padding : size;
}

function disagreementOf(xla: bigint, size: ValueSize): string | undefined {
  if (size.bytes === undefined) return `our layout model cannot size it: ${size.error ?? 'unknown shape'}`;
  if (size.bytes === xla) return undefined;
  return `XLA gives ${xla} bytes, our layout model ${size.bytes}`;
}

/** Per-file problems, tagged with the file they come from. */
function problemsOf(inputs: MemoryInputs): { list: MemoryModule['problems']; count: number } {
  const list: { file: string; line: number; message: string }[] = [];
  let count = 0;
  const add = (
    file: string,
    f: { problems: readonly { line: number; message: string }[]; problemCount: number } | undefined,
  ) => {
    if (!f) return;
    count += f.problemCount;
    for (const p of f.problems) list.push({ file, ...p });
  };
  add('buffer-assignment', inputs.bufferAssignment);
  add('buffer-assignment-values', inputs.values ?? inputs.bufferAssignment.values);
  add('memory-usage-report', inputs.usageReport);
  add('live-range', inputs.liveRange);
  return { list, count };
}

/** Joins what was read of one module into its memory model. */
export function joinMemory(inputs: MemoryInputs): MemoryModule {
  const sizes = inputs.sizes ?? new ValueSizeCache();
  const { hlo, liveRange } = inputs;
  const valuesFile = inputs.values ?? inputs.bufferAssignment.values;
  const shared = new Map<number, readonly string[]>();
  for (const v of valuesFile?.values ?? [])
    if (v.positions.length > 1) shared.set(v.id, v.positions.slice(1));
  const disagreements: MemoryValue[] = [];
  let worst: MemoryValue | undefined;
  let valueCount = 0;
  let missing = 0;
  const allocations: MemoryAllocation[] = inputs.bufferAssignment.allocations.map((a) => {
    const values = a.values.map((v): MemoryValue => {
      const size = sizes.of(v.shape);
      const paddingBytes =
        size.physical !== undefined && size.logical !== undefined ? size.physical - size.logical : 0n;
      // Built field by field: spreading optional fields cost seconds on 400,000 values.
      const value: Mutable<MemoryValue> = {
        instruction: v.instruction,
        phi: v.phi,
        allocation: a.index,
        shape: v.shape,
        size,
        paddingBytes,
      };
      value.id = v.id;
      if (v.shapeIndex) value.shapeIndex = v.shapeIndex;
      value.offset = v.offset;
      value.xlaBytes = v.size;
      const info = hlo?.instructions.get(v.instruction);
      if (info) value.hlo = info;
      else if (hlo) missing++;
      const live = liveRange?.ranges.get(positionKey(v.instruction, v.shapeIndex));
      if (live) value.live = live;
      const positions = shared.get(v.id);
      if (positions) value.sharedWith = positions;
      const disagreement = disagreementOf(v.size, size);
      if (disagreement) {
        value.disagreement = disagreement;
        disagreements.push(value);
      }
      if (paddingBytes > 0n && (worst === undefined || paddingBytes > worst.paddingBytes)) worst = value;
      return value;
    });
    valueCount += values.length;
    return {
      index: a.index,
      size: a.size,
      color: a.color,
      kinds: a.kinds,
      ...(a.parameter ? { parameter: a.parameter } : {}),
      ...(a.outputShape !== undefined ? { outputShape: a.outputShape } : {}),
      other: a.other,
      values,
      paddingBytes: allocationPadding(a.size, values),
    };
  });
  const spaces = spaceTotals(allocations, inputs.usageReport);
  let total = 0n;
  let padding = 0n;
  for (const a of allocations) {
    total += a.size;
    padding += a.paddingBytes;
  }
  const problems = problemsOf(inputs);
  const peak = liveRange ? peakOf(liveRange, allocations, hlo) : undefined;
  return {
    module: inputs.module ?? hlo?.module ?? '',
    basis: 'buffer-assignment',
    totalBytes: total,
    paddingBytes: padding,
    spaces,
    ...(peak ? { peak } : {}),
    allocations: [...allocations].sort(byWorst),
    valueCount,
    disagreements,
    ...(worst ? { worst } : {}),
    missingInstructions: missing,
    problems: problems.list,
    problemCount: problems.count,
  };
}

function spaceTotals(
  allocations: readonly MemoryAllocation[],
  report: MemoryUsageReportFile | undefined,
): MemorySpaceTotal[] {
  const by = new Map<number, { bytes: bigint; padding: bigint; count: number }>();
  for (const a of allocations) {
    const s = by.get(a.color) ?? { bytes: 0n, padding: 0n, count: 0 };
    s.bytes += a.size;
    s.padding += a.paddingBytes;
    s.count++;
    by.set(a.color, s);
  }
  return [...by.entries()]
    .sort(([a], [b]) => a - b)
    .map(([color, s]) => {
      const reported = report?.spaces.find((r) => r.color === color);
      return {
        color,
        name: reported?.name ?? memorySpaceName(color),
        bytes: s.bytes,
        paddingBytes: s.padding,
        allocations: s.count,
        ...(reported ? { reportedBytes: reported.totalBytes } : {}),
      };
    });
}
