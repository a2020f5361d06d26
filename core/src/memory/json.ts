/**
 * The memory model as JSON, shared by `xla-layout memory --json` and the editor's Memory View:
 * byte counts are exact decimal strings (they pass 2^53), as in the CLI's other JSON outputs.
 */
import { headline, peakGroupLabel, type MemoryHeadline } from './headline';
import type { HloInstructionInfo } from './hlo-index';
import type { MemoryAllocation, MemoryModule, MemoryValue } from './model';
import type { MemoryPeak, PeakGroup } from './peak';
import type { AllocatedParameter } from './types';

export interface MemoryValueJson {
  /** The defining instruction. */
  readonly name: string;
  readonly shapeIndex?: readonly number[];
  /** XLA's value id (absent in an estimate). */
  readonly id?: number;
  readonly phi?: boolean;
  readonly shape: string;
  readonly allocation: number;
  readonly offset?: string;
  /** XLA's size (absent in an estimate). */
  readonly xlaBytes?: string;
  /** Our layout model's bytes (absent when it cannot size the shape). */
  readonly physicalBytes?: string;
  readonly logicalBytes?: string;
  readonly paddingBytes: string;
  /** The dimension that pads most: `dim 1 (x), size 4, minor-most: T(8,128) pads 4 to 128 (32x)`. */
  readonly cause?: string;
  readonly causeDim?: number;
  /** A layout that pads less and what it saves. */
  readonly fix?: string;
  readonly fixSavesBytes?: string;
  /** Set when our bytes are not XLA's. */
  readonly disagreement?: string;
  /** Where the instruction is written (1-based line and column of its name) and where it comes from. */
  readonly instruction?: Omit<InstructionPlaceJson, 'name'> & {
    readonly computation: string;
    readonly opcode: string;
  };
  readonly live?: { readonly start: number; readonly end: number };
  readonly sharedWith?: readonly string[];
}

export interface MemoryAllocationJson {
  readonly index: number;
  readonly size: string;
  readonly color: number;
  readonly kinds: readonly string[];
  readonly parameter?: AllocatedParameter;
  readonly outputShape?: string;
  readonly paddingBytes: string;
  readonly values: readonly MemoryValueJson[];
  /** Values of this allocation left out of `values` (see {@link MemoryJsonOptions}). */
  readonly omittedValues?: number;
}

export interface MemoryModuleJson {
  readonly module: string;
  readonly basis: 'buffer-assignment' | 'estimate';
  readonly headline: MemoryHeadline;
  readonly totalBytes: string;
  readonly paddingBytes: string;
  readonly spaces: readonly {
    readonly color: number;
    readonly name: string;
    readonly bytes: string;
    readonly paddingBytes: string;
    readonly allocations: number;
    readonly reportedBytes?: string;
  }[];
  readonly peak?: MemoryPeakJson;
  readonly valueCount: number;
  readonly allocations: readonly MemoryAllocationJson[];
  readonly disagreements: readonly MemoryValueJson[];
  readonly worst?: MemoryValueJson;
  readonly missingInstructions: number;
  readonly problems: readonly { readonly file: string; readonly line: number; readonly message: string }[];
  readonly problemCount: number;
}

/** Where an instruction is written and where it comes from. */
export interface InstructionPlaceJson {
  readonly name: string;
  readonly line: number;
  readonly column: number;
  readonly source?: string;
  readonly sourceFile?: string;
  readonly sourceLine?: number;
  readonly opName?: string;
}

/** The values live at the peak from one place of the program (see core/src/memory/peak.ts). */
export interface PeakGroupJson {
  readonly kind: PeakGroup['kind'];
  /** `cnn.py:18 (conv_general_dilated)`, `inputs (3 parameters)`. */
  readonly label: string;
  readonly bytes: string;
  /** Share of the peak, 0..1. */
  readonly share: number;
  readonly values: number;
  /** The largest value of the group. */
  readonly largest: { readonly position: string; readonly bytes: string; readonly shape?: string };
  /** Its instruction, when the HLO has it: what a click on the group opens. */
  readonly instruction?: InstructionPlaceJson;
}

export interface MemoryPeakJson {
  readonly time: number;
  readonly of?: number;
  /** The instruction scheduled at the peak's step. */
  readonly instruction?: InstructionPlaceJson | { readonly name: string };
  readonly bytes: string;
  readonly paddingBytes: string;
  /** Live at the peak, largest first; a buffer shared by live values counts once. */
  readonly values: readonly {
    readonly position: string;
    readonly bytes: string;
    readonly sharedWith?: readonly string[];
  }[];
  /** By source line (else op_name), largest first; their bytes add up to `bytes`. */
  readonly groups: readonly PeakGroupJson[];
  /** The live-range file's own peak, when it names another step or figure. */
  readonly xla?: { readonly time: number; readonly bytes: string };
  readonly unplaced?: number;
}

/** How much of a large model goes into the JSON. */
export interface MemoryJsonOptions {
  /**
   * Most values listed over all allocations (the most padded and largest first); the rest are
   * counted in `omittedValues`. Default: all.
   */
  readonly maxValues?: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One value as JSON; built field by field, as a dump can have hundreds of thousands. */
export function valueJson(v: MemoryValue): MemoryValueJson {
  const s = v.size;
  const j: Mutable<MemoryValueJson> = {
    name: v.instruction,
    shape: v.shape,
    allocation: v.allocation,
    paddingBytes: '',
  };
  if (v.shapeIndex) j.shapeIndex = v.shapeIndex;
  if (v.id !== undefined) j.id = v.id;
  if (v.phi) j.phi = true;
  if (v.offset !== undefined) j.offset = v.offset.toString();
  if (v.xlaBytes !== undefined) j.xlaBytes = v.xlaBytes.toString();
  if (s.bytes !== undefined) j.physicalBytes = s.bytes.toString();
  if (s.logical !== undefined) j.logicalBytes = s.logical.toString();
  j.paddingBytes = v.paddingBytes.toString();
  if (s.cause) {
    j.cause = s.cause.text;
    j.causeDim = s.cause.dim;
  }
  if (s.fix) {
    j.fix = s.fix.description;
    j.fixSavesBytes = s.fix.savedBytes.toString();
  }
  if (v.disagreement) j.disagreement = v.disagreement;
  const info = v.hlo;
  if (info) {
    const instruction: Mutable<NonNullable<MemoryValueJson['instruction']>> = {
      computation: info.computation,
      opcode: info.opcode,
      line: info.start.line,
      column: info.start.column,
    };
    if (info.source !== undefined) instruction.source = info.source;
    if (info.sourceFile !== undefined) instruction.sourceFile = info.sourceFile;
    if (info.sourceLine !== undefined) instruction.sourceLine = info.sourceLine;
    if (info.opName !== undefined) instruction.opName = info.opName;
    j.instruction = instruction;
  }
  if (v.live) j.live = { start: v.live.start, end: v.live.end };
  if (v.sharedWith) j.sharedWith = v.sharedWith;
  return j;
}

/** Most padded first, then largest (XLA's bytes, else ours), then by value id. */
function byInterest(a: MemoryValue, b: MemoryValue): number {
  if (a.paddingBytes !== b.paddingBytes) return a.paddingBytes > b.paddingBytes ? -1 : 1;
  const sa = a.xlaBytes ?? a.size.bytes ?? 0n;
  const sb = b.xlaBytes ?? b.size.bytes ?? 0n;
  if (sa !== sb) return sa > sb ? -1 : 1;
  return (a.id ?? 0) - (b.id ?? 0);
}

/** The values that make the cut of `maxValues`, over all allocations. */
function keptValues(m: MemoryModule, maxValues: number | undefined): Set<MemoryValue> | undefined {
  if (maxValues === undefined || m.valueCount <= maxValues) return undefined;
  const all = m.allocations.flatMap((a) => a.values);
  all.sort(byInterest);
  return new Set(all.slice(0, maxValues));
}

function allocationJson(a: MemoryAllocation, kept: Set<MemoryValue> | undefined): MemoryAllocationJson {
  const values = kept ? a.values.filter((v) => kept.has(v)) : a.values;
  return {
    index: a.index,
    size: a.size.toString(),
    color: a.color,
    kinds: a.kinds,
    ...(a.parameter ? { parameter: a.parameter } : {}),
    ...(a.outputShape !== undefined ? { outputShape: a.outputShape } : {}),
    paddingBytes: a.paddingBytes.toString(),
    values: values.map(valueJson),
    ...(values.length < a.values.length ? { omittedValues: a.values.length - values.length } : {}),
  };
}

function placeJson(info: HloInstructionInfo): InstructionPlaceJson {
  return {
    name: info.name,
    line: info.start.line,
    column: info.start.column,
    ...(info.source !== undefined ? { source: info.source } : {}),
    ...(info.sourceFile !== undefined ? { sourceFile: info.sourceFile } : {}),
    ...(info.sourceLine !== undefined ? { sourceLine: info.sourceLine } : {}),
    ...(info.opName !== undefined ? { opName: info.opName } : {}),
  };
}

/** share of whole, 0..1, to six places. */
function shareOf(part: bigint, whole: bigint): number {
  return whole > 0n ? Number((part * 1_000_000n) / whole) / 1_000_000 : 0;
}

function peakJson(p: MemoryPeak): MemoryPeakJson {
  return {
    time: p.time,
    ...(p.of !== undefined ? { of: p.of } : {}),
    ...(p.at
      ? { instruction: placeJson(p.at) }
      : p.instruction !== undefined
        ? { instruction: { name: p.instruction } }
        : {}),
    bytes: p.bytes.toString(),
    paddingBytes: p.paddingBytes.toString(),
    values: p.values.map((v) => ({
      position: v.position,
      bytes: v.bytes.toString(),
      ...(v.sharedWith ? { sharedWith: v.sharedWith } : {}),
    })),
    groups: p.groups.map((g) => ({
      kind: g.kind,
      label: peakGroupLabel(g),
      bytes: g.bytes.toString(),
      share: shareOf(g.bytes, p.bytes),
      values: g.values,
      largest: {
        position: g.largest.position,
        bytes: g.largest.bytes.toString(),
        ...(g.largest.value ? { shape: g.largest.value.shape } : {}),
      },
      ...(g.largest.value?.hlo ? { instruction: placeJson(g.largest.value.hlo) } : {}),
    })),
    ...(p.xla ? { xla: { time: p.xla.time, bytes: p.xla.bytes.toString() } } : {}),
    ...(p.unplaced > 0 ? { unplaced: p.unplaced } : {}),
  };
}

/** The JSON of one module's memory model. */
export function memoryModuleJson(m: MemoryModule, options: MemoryJsonOptions = {}): MemoryModuleJson {
  const kept = keptValues(m, options.maxValues);
  return {
    module: m.module,
    basis: m.basis,
    headline: headline(m),
    totalBytes: m.totalBytes.toString(),
    paddingBytes: m.paddingBytes.toString(),
    spaces: m.spaces.map((s) => ({
      color: s.color,
      name: s.name,
      bytes: s.bytes.toString(),
      paddingBytes: s.paddingBytes.toString(),
      allocations: s.allocations,
      ...(s.reportedBytes !== undefined ? { reportedBytes: s.reportedBytes.toString() } : {}),
    })),
    ...(m.peak ? { peak: peakJson(m.peak) } : {}),
    valueCount: m.valueCount,
    allocations: m.allocations.map((a) => allocationJson(a, kept)),
    disagreements: m.disagreements.map(valueJson),
    ...(m.worst ? { worst: valueJson(m.worst) } : {}),
    missingInstructions: m.missingInstructions,
    problems: m.problems,
    problemCount: m.problemCount,
  };
}
