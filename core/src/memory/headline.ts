/**
 * The answer first: how much memory a module takes, how much of it is padding, and the worst
 * offender with what to change, in plain words. The CLI prints these lines on top and the Memory
 * View shows them above its table.
 */
import { formatPercent, groupDigits, humanBytes } from '../format';
import { ratio } from '../layout/bigint-math';
import type { MemoryModule, MemoryValue } from './model';
import type { MemoryPeak, PeakGroup } from './peak';

export interface MemoryHeadline {
  /**
   * Which line answers first: `peak` when padding is not the story (under 5% of the total) and
   * the live ranges give a peak, else `memory`.
   */
  readonly lead: 'memory' | 'peak';
  /** How much memory and how much of it is padding. */
  readonly memory: string;
  /** What an estimate is, when the figures are one. */
  readonly note?: string;
  /** The peak, when XLA's live ranges give it: how much, at which instruction, how much padding. */
  readonly peak?: string;
  /** What is live at the peak, by source line, largest first. */
  readonly peakWhy?: string;
  /** The live-range file's own peak, when it names another step. */
  readonly xlaPeak?: string;
  /** The value with the most padding and the dimension that causes it. */
  readonly worst?: string;
  /** What to change about it, when a computed layout pads less. */
  readonly change?: string;
  /** Values on which our layout model and XLA disagree. */
  readonly disagreements?: string;
}

function share(part: bigint, whole: bigint): string {
  const r = ratio(part, whole);
  return r ? formatPercent(r.value) : '0%';
}

function paddingClause(padding: bigint, total: bigint): string {
  return padding === 0n
    ? 'none of it is padding'
    : `${humanBytes(padding)} of it (${share(padding, total)}) is padding`;
}

/** `%fusion.7`, or `%fusion.7{1}` (`{}` for a tuple's table) for a value of a tuple instruction. */
export function valueLabel(v: {
  readonly instruction: string;
  readonly shapeIndex?: readonly number[];
}): string {
  return `%${v.instruction}${v.shapeIndex ? `{${v.shapeIndex.join(',')}}` : ''}`;
}

function worstLine(m: MemoryModule, v: MemoryValue): string {
  const bytes = v.xlaBytes ?? v.size.bytes ?? 0n;
  const where = m.basis === 'buffer-assignment' ? ` in allocation ${v.allocation}` : '';
  const cause = v.size.cause ? `: ${v.size.cause.text}` : '';
  return `Most padding: ${valueLabel(v)} ${v.shape}${where}, ${humanBytes(v.paddingBytes)} of its ${humanBytes(bytes)}${cause}.`;
}

/** Groups named in the headline at most. */
const HEADLINE_GROUPS = 3;

/** `cnn.py:18 (conv_general_dilated)`, `inputs`. */
export function peakGroupLabel(g: PeakGroup): string {
  if (g.kind === 'inputs') return `inputs (${g.values} parameter${g.values === 1 ? '' : 's'})`;
  return g.opName !== undefined ? `${g.label} (${g.opName})` : g.label;
}

function peakLine(p: MemoryPeak): string {
  const where =
    p.instruction !== undefined
      ? `, at ${valueLabel({ instruction: p.instruction })}${p.at?.source !== undefined ? ` (${p.at.source})` : ''}`
      : '';
  return `Peak: ${humanBytes(p.bytes)} live at step ${p.time}${p.of !== undefined ? ` of ${p.of}` : ''}${where}; ${paddingClause(p.paddingBytes, p.bytes)}.`;
}

function peakWhyLine(p: MemoryPeak): string | undefined {
  if (p.groups.length === 0 || p.bytes === 0n) return undefined;
  const named = p.groups
    .slice(0, HEADLINE_GROUPS)
    .map((g) => `${share(g.bytes, p.bytes)} ${peakGroupLabel(g)}`);
  const rest = p.groups.length - named.length;
  return `Live then: ${named.join(', ')}${rest > 0 ? `, and ${rest} more` : ''}.`;
}

function xlaPeakLine(p: MemoryPeak): string | undefined {
  const x = p.xla;
  if (x === undefined) return undefined;
  const named =
    x.time !== p.time
      ? `XLA's live-range file names step ${x.time} (${humanBytes(x.bytes)} live) as its peak`
      : `XLA's live-range file gives ${humanBytes(x.bytes)} live at this step`;
  const how = [
    ...(x.bytes > p.bytes
      ? [
          "counts each live value on its own, also values that share one buffer (an input updated in place, a loop's state)",
        ]
      : []),
    ...(x.time !== p.time ? ['picks its step while it still counts the values freed the step before'] : []),
  ];
  const ours = x.time !== p.time ? `; counted by buffer, step ${p.time} holds the most` : '';
  return `${named}: it ${how.join(', and ')}${ours}.`;
}

/** The headline of one module's memory. */
export function headline(m: MemoryModule): MemoryHeadline {
  const count = m.allocations.length;
  const memory =
    m.basis === 'buffer-assignment'
      ? `XLA allocates ${humanBytes(m.totalBytes)} (${groupDigits(m.totalBytes)} B) in ${groupDigits(count)} allocation${count === 1 ? '' : 's'}; ${paddingClause(m.paddingBytes, m.totalBytes)}.`
      : `About ${humanBytes(m.totalBytes)} if each of its ${groupDigits(count)} value${count === 1 ? '' : 's'} had a buffer of its own; ${paddingClause(m.paddingBytes, m.totalBytes)}.`;
  const w = m.worst;
  const fix = w?.size.fix;
  const p = m.peak;
  const why = p ? peakWhyLine(p) : undefined;
  const xla = p ? xlaPeakLine(p) : undefined;
  return {
    lead: p && m.paddingBytes * 20n < m.totalBytes ? 'peak' : 'memory',
    memory,
    ...(m.basis === 'estimate'
      ? {
          note: "Estimate from the HLO alone: no buffer assignment beside this dump. XLA's own total is often lower (it reuses a buffer once its value is dead) and can be higher (alignment, copies it adds); dump with --xla_dump_to for its figures.",
        }
      : {}),
    ...(p ? { peak: peakLine(p) } : {}),
    ...(why ? { peakWhy: why } : {}),
    ...(xla ? { xlaPeak: xla } : {}),
    ...(w ? { worst: worstLine(m, w) } : {}),
    ...(fix ? { change: `Change: ${fix.description}; saves ${humanBytes(fix.savedBytes)}.` } : {}),
    ...(m.disagreements.length > 0
      ? {
          disagreements: `Our layout model disagrees with XLA on ${groupDigits(m.disagreements.length)} value${m.disagreements.length === 1 ? '' : 's'} of ${groupDigits(m.valueCount)}.`,
        }
      : {}),
  };
}
