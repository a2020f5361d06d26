/**
 * The answer first: how much memory a module takes, how much of it is padding, and the worst
 * offender with what to change, in plain words. The CLI prints these lines on top and the Memory
 * View shows them above its table.
 */
import { formatPercent, groupDigits, humanBytes } from '../format';
import { ratio } from '../layout/bigint-math';
import type { MemoryModule, MemoryValue } from './model';

export interface MemoryHeadline {
  /** How much memory and how much of it is padding. */
  readonly memory: string;
  /** What an estimate is, when the figures are one. */
  readonly note?: string;
  /** The peak, when XLA's live ranges give it. */
  readonly peak?: string;
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

/** The headline of one module's memory. */
export function headline(m: MemoryModule): MemoryHeadline {
  const count = m.allocations.length;
  const memory =
    m.basis === 'buffer-assignment'
      ? `XLA allocates ${humanBytes(m.totalBytes)} (${groupDigits(m.totalBytes)} B) in ${groupDigits(count)} allocation${count === 1 ? '' : 's'}; ${paddingClause(m.paddingBytes, m.totalBytes)}.`
      : `About ${humanBytes(m.totalBytes)} if each of its ${groupDigits(count)} value${count === 1 ? '' : 's'} had a buffer of its own; ${paddingClause(m.paddingBytes, m.totalBytes)}.`;
  const w = m.worst;
  const fix = w?.size.fix;
  return {
    memory,
    ...(m.basis === 'estimate'
      ? {
          note: "Estimate from the HLO alone: no buffer assignment beside this dump. XLA's own total is often lower (it reuses a buffer once its value is dead) and can be higher (alignment, copies it adds); dump with --xla_dump_to for its figures.",
        }
      : {}),
    ...(m.peak
      ? {
          peak: `Peak: ${humanBytes(m.peak.bytes)} live at step ${m.peak.time}${m.peak.of !== undefined ? ` of ${m.peak.of}` : ''} (XLA's live ranges); ${paddingClause(m.peak.paddingBytes, m.peak.bytes)}.`,
        }
      : {}),
    ...(w ? { worst: worstLine(m, w) } : {}),
    ...(fix ? { change: `Change: ${fix.description}; saves ${humanBytes(fix.savedBytes)}.` } : {}),
    ...(m.disagreements.length > 0
      ? {
          disagreements: `Our layout model disagrees with XLA on ${groupDigits(m.disagreements.length)} value${m.disagreements.length === 1 ? '' : 's'} of ${groupDigits(m.valueCount)}.`,
        }
      : {}),
  };
}
