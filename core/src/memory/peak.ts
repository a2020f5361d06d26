/**
 * What is live at the peak, and where it comes from. The step is the one at which the most bytes
 * are live by XLA's own live ranges (`BufferLiveRange:` of the live-range file) and XLA's own value
 * sizes (the buffer assignment's `size=`). Values that share a buffer while both are live (a while
 * loop's tuple and its body's parameter) hold its bytes once. The live values are then grouped by
 * the source line their instruction comes from (else its op_name), the module's inputs together,
 * largest first; the groups add up to the peak exactly.
 *
 * The live-range file's own `Live ranges at T (peak):` is not always that step: XLA picks T with a
 * running count in which the values that start at T are added before those that ended at T - 1 are
 * taken off (and a tuple's elements count as the tuple's pointer table), so T can be a step after
 * the real peak, with far less live. Its step and figure are kept beside ours when they differ.
 */
import type { HloComputationInfo, HloIndex, HloInstructionInfo } from './hlo-index';
import type { MemoryAllocation, MemoryValue } from './model';
import { positionKey } from './read-helpers';
import type { LiveRange, LiveRangeFile } from './types';

/** A value live at the peak, with the bytes it holds there. */
export interface PeakLiveValue {
  readonly position: string;
  readonly bytes: bigint;
  /** The value as joined (absent only when the live-range file names a value no allocation holds). */
  readonly value?: MemoryValue;
  /** Other values live at the same step in the same bytes (counted once, here). */
  readonly sharedWith?: readonly string[];
}

/** The values live at the peak that come from one place of the program. */
export interface PeakGroup {
  /** `source` (a source line), `op` (an op_name), `inputs` (the entry's parameters), `instruction`. */
  readonly kind: 'source' | 'op' | 'inputs' | 'instruction';
  /** `cnn.py:18`, `jit(f)/jvp()/sub`, `inputs`, `%constant.29`. */
  readonly label: string;
  readonly bytes: bigint;
  readonly values: number;
  /** The largest value of the group: what a click opens. */
  readonly largest: PeakLiveValue;
  /** The op_name of the largest value, when the label is not already it. */
  readonly opName?: string;
  readonly sourceFile?: string;
  readonly sourceLine?: number;
}

/** The peak of a module. */
export interface MemoryPeak {
  /** Step of the schedule (`InstructionSequence:` index). */
  readonly time: number;
  /** Schedule length (`HloLiveRange (max N)`). */
  readonly of?: number;
  /** The instruction scheduled at that step, and where it is written, when the HLO has it. */
  readonly instruction?: string;
  readonly at?: HloInstructionInfo;
  readonly bytes: bigint;
  /** Padding of the values live at the peak. */
  readonly paddingBytes: bigint;
  /** Largest first. */
  readonly values: readonly PeakLiveValue[];
  /** Largest first; their bytes add up to {@link bytes}. */
  readonly groups: readonly PeakGroup[];
  /** The live-range file's own peak, when it names another step or figure. */
  readonly xla?: { readonly time: number; readonly bytes: bigint };
  /** Live ranges of values no allocation holds (not counted). */
  readonly unplaced: number;
}

/** One place in memory: values at the same offset of the same allocation with the same size. */
interface Slot {
  readonly bytes: bigint;
  readonly held: { readonly value: MemoryValue; readonly position: string; readonly range: LiveRange }[];
}

function bySize(a: PeakLiveValue, b: PeakLiveValue): number {
  if (a.bytes !== b.bytes) return a.bytes > b.bytes ? -1 : 1;
  return a.position < b.position ? -1 : a.position > b.position ? 1 : 0;
}

/** Slots of the values that have live ranges; `unplaced` counts ranges of values no allocation holds. */
function slotsOf(
  liveRange: LiveRangeFile,
  allocations: readonly MemoryAllocation[],
): { slots: Slot[]; unplaced: number; last: number } {
  const byPosition = new Map<string, MemoryValue>();
  for (const a of allocations)
    for (const v of a.values) byPosition.set(positionKey(v.instruction, v.shapeIndex), v);
  const slots = new Map<string, Slot>();
  let unplaced = 0;
  let last = liveRange.maxTime ?? 0;
  for (const [position, range] of liveRange.ranges) {
    const value = byPosition.get(position);
    if (value === undefined || range.end < range.start) {
      unplaced++;
      continue;
    }
    const bytes = value.xlaBytes ?? value.size.bytes ?? 0n;
    const key = `${value.allocation}:${value.offset ?? 0n}:${bytes}`;
    let slot = slots.get(key);
    if (slot === undefined) slots.set(key, (slot = { bytes, held: [] }));
    slot.held.push({ value, position, range });
    if (range.end > last) last = range.end;
  }
  return { slots: [...slots.values()], unplaced, last };
}

/** The first step with the most bytes live, and those bytes. */
function busiestStep(slots: readonly Slot[], last: number): { time: number; bytes: bigint } {
  const delta = new Array<bigint>(last + 2).fill(0n);
  for (const slot of slots) {
    // A slot holds its bytes once while any of its values is live.
    const ranges = slot.held.map((h) => h.range).sort((a, b) => a.start - b.start);
    let start = -1;
    let end = -2;
    const close = () => {
      if (start < 0) return;
      delta[start] += slot.bytes;
      delta[end + 1] -= slot.bytes;
    };
    for (const r of ranges) {
      if (start >= 0 && r.start <= end + 1) {
        if (r.end > end) end = r.end;
        continue;
      }
      close();
      start = Math.max(0, r.start);
      end = r.end;
    }
    close();
  }
  let live = 0n;
  let best = { time: 0, bytes: -1n };
  for (let t = 0; t <= last; t++) {
    live += delta[t];
    if (live > best.bytes) best = { time: t, bytes: live };
  }
  return best.bytes < 0n ? { time: 0, bytes: 0n } : best;
}

/** The values live at `time`: per slot the value defined last (the one in it then), others shared. */
function liveAt(slots: readonly Slot[], time: number): PeakLiveValue[] {
  const out: PeakLiveValue[] = [];
  for (const slot of slots) {
    const live = slot.held.filter((h) => h.range.start <= time && time <= h.range.end);
    if (live.length === 0) continue;
    live.sort((a, b) => b.range.start - a.range.start);
    const [holder, ...others] = live;
    out.push({
      position: holder.position,
      bytes: slot.bytes,
      value: holder.value,
      ...(others.length > 0 ? { sharedWith: others.map((o) => o.position) } : {}),
    });
  }
  return out.sort(bySize);
}

interface GroupKey {
  readonly key: string;
  readonly kind: PeakGroup['kind'];
  readonly label: string;
}

/**
 * Where an instruction comes from: its own metadata, else (a fusion XLA made, whose metadata it
 * left empty) that of the computation it calls, from its root up.
 */
class Origins {
  private readonly computations: Map<string, HloComputationInfo>;
  private readonly memo = new Map<string, HloInstructionInfo | undefined>();

  constructor(private readonly hlo: HloIndex | undefined) {
    this.computations = new Map((hlo?.computations ?? []).map((c) => [c.name, c]));
  }

  of(info: HloInstructionInfo | undefined, depth = 0): HloInstructionInfo | undefined {
    if (info === undefined || info.sourceFile !== undefined || info.opName !== undefined) return info;
    if (info.calls === undefined || depth > 2) return undefined;
    if (this.memo.has(info.name)) return this.memo.get(info.name);
    let found: HloInstructionInfo | undefined;
    for (const callee of info.calls) {
      const c = this.computations.get(callee);
      if (c === undefined) continue;
      const names =
        c.root !== undefined ? [c.root, ...[...c.instructions].reverse()] : [...c.instructions].reverse();
      for (const name of names) {
        const inner = this.hlo?.instructions.get(name);
        if (inner === undefined || inner.opcode === 'parameter') continue;
        found = this.of(inner, depth + 1);
        if (found?.sourceFile !== undefined) break;
      }
      if (found !== undefined) break;
    }
    this.memo.set(info.name, found);
    return found;
  }
}

function groupKey(v: PeakLiveValue, entry: string | undefined, origins: Origins): GroupKey {
  const own = v.value?.hlo;
  const name = v.value?.instruction ?? v.position;
  if (own?.opcode === 'parameter' && entry !== undefined && own.computation === entry)
    return { key: 'inputs', kind: 'inputs', label: 'inputs' };
  const info = origins.of(own);
  if (info?.sourceFile !== undefined)
    return {
      key: `source:${info.sourceFile}:${info.sourceLine ?? ''}`,
      kind: 'source',
      label: info.source ?? info.sourceFile,
    };
  if (info?.opName !== undefined) return { key: `op:${info.opName}`, kind: 'op', label: info.opName };
  return { key: `instruction:${name}`, kind: 'instruction', label: `%${name}` };
}

/** Groups the live values (largest first) by where they come from, largest group first. */
function groupsOf(values: readonly PeakLiveValue[], hlo: HloIndex | undefined): PeakGroup[] {
  const entry = hlo?.computations.find((c) => c.entry)?.name;
  const origins = new Origins(hlo);
  const groups = new Map<
    string,
    { k: GroupKey; bytes: bigint; values: number; largest: PeakLiveValue; origin?: HloInstructionInfo }
  >();
  for (const v of values) {
    const k = groupKey(v, entry, origins);
    const g = groups.get(k.key);
    if (g === undefined) {
      const origin = origins.of(v.value?.hlo);
      groups.set(k.key, { k, bytes: v.bytes, values: 1, largest: v, ...(origin ? { origin } : {}) });
    } else {
      g.bytes += v.bytes;
      g.values++;
    }
  }
  return [...groups.values()]
    .map((g): PeakGroup => {
      const info = g.origin;
      return {
        kind: g.k.kind,
        label: g.k.label,
        bytes: g.bytes,
        values: g.values,
        largest: g.largest,
        ...(g.k.kind !== 'op' && info?.opName !== undefined ? { opName: info.opName } : {}),
        ...(info?.sourceFile !== undefined ? { sourceFile: info.sourceFile } : {}),
        ...(info?.sourceLine !== undefined ? { sourceLine: info.sourceLine } : {}),
      };
    })
    .sort((a, b) => (a.bytes !== b.bytes ? (a.bytes > b.bytes ? -1 : 1) : a.label < b.label ? -1 : 1));
}

/**
 * The peak of a module from its live-range file, its joined allocations and (for where things
 * come from) its HLO. Undefined when the file has neither live ranges nor a peak.
 */
export function peakOf(
  liveRange: LiveRangeFile,
  allocations: readonly MemoryAllocation[],
  hlo: HloIndex | undefined,
): MemoryPeak | undefined {
  const file = liveRange.peak;
  let time: number;
  let bytes: bigint;
  let values: PeakLiveValue[];
  let unplaced = 0;
  if (liveRange.ranges.size > 0) {
    const s = slotsOf(liveRange, allocations);
    ({ time, bytes } = busiestStep(s.slots, s.last));
    values = liveAt(s.slots, time);
    unplaced = s.unplaced;
  } else if (file) {
    // No ranges to count from: the file's own peak, as listed.
    const byPosition = new Map<string, MemoryValue>();
    for (const a of allocations)
      for (const v of a.values) byPosition.set(positionKey(v.instruction, v.shapeIndex), v);
    time = file.time;
    bytes = file.bytes;
    values = file.values
      .map((p): PeakLiveValue => {
        const value = byPosition.get(p.position);
        return { position: p.position, bytes: p.bytes, ...(value ? { value } : {}) };
      })
      .sort(bySize);
  } else return undefined;
  let padding = 0n;
  for (const v of values) padding += v.value?.paddingBytes ?? 0n;
  const instruction = liveRange.schedule[time];
  const at = instruction !== undefined ? hlo?.instructions.get(instruction) : undefined;
  return {
    time,
    ...(liveRange.maxTime !== undefined ? { of: liveRange.maxTime } : {}),
    ...(instruction !== undefined ? { instruction } : {}),
    ...(at ? { at } : {}),
    bytes,
    paddingBytes: padding < bytes ? padding : bytes,
    values,
    groups: groupsOf(values, hlo),
    ...(file && (file.time !== time || file.bytes !== bytes)
      ? { xla: { time: file.time, bytes: file.bytes } }
      : {}),
    unplaced,
  };
}
