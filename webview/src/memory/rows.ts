/**
 * The Memory View's rows and columns: allocations and values of the model the host sent, with what
 * each column shows, how it sorts (exact byte counts compare as bigints) and what a filter matches.
 */
import {
  formatPercent,
  groupDigits,
  humanBytes,
  type MemoryAllocationJson,
  type MemoryValueJson,
} from '../../../core/src';

/** One allocation, or one value with the allocation holding it. */
export interface AllocationRow {
  readonly kind: 'allocation';
  readonly allocation: MemoryAllocationJson;
  readonly size: bigint;
  readonly padding: bigint;
  /** padding / size, 0..1. */
  readonly share: number;
}

export interface ValueRow {
  readonly kind: 'value';
  readonly allocation: MemoryAllocationJson;
  readonly value: MemoryValueJson;
  /** Position of the value in its allocation's `values` (what the host is told on a click). */
  readonly position: number;
  readonly bytes: bigint;
  readonly padding: bigint;
  readonly share: number;
}

export type Row = AllocationRow | ValueRow;

/** A column: its heading, a cell's text, how rows compare, and whether it is a number (right-aligned). */
export interface Column<R> {
  readonly id: string;
  readonly title: string;
  /** A longer description for the heading's tooltip. */
  readonly help: string;
  readonly numeric: boolean;
  readonly text: (row: R) => string;
  readonly compare: (a: R, b: R) => number;
  /** A second line under the text (a cause, a source), in a quieter colour. */
  readonly detail?: (row: R) => string | undefined;
}

const big = (decimal: string | undefined): bigint => {
  if (decimal === undefined) return -1n;
  try {
    return BigInt(decimal);
  } catch {
    return -1n;
  }
};

const byBig = (a: bigint, b: bigint): number => (a === b ? 0 : a < b ? -1 : 1);
const byText = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

function shareOf(part: bigint, whole: bigint): number {
  if (whole <= 0n) return 0;
  return Number((part * 1_000_000n) / whole) / 1_000_000;
}

export function allocationRows(allocations: readonly MemoryAllocationJson[]): AllocationRow[] {
  return allocations.map((allocation) => {
    const size = big(allocation.size);
    const padding = big(allocation.paddingBytes);
    return { kind: 'allocation', allocation, size, padding, share: shareOf(padding, size) };
  });
}

export function valueRows(allocations: readonly MemoryAllocationJson[]): ValueRow[] {
  return allocations.flatMap((allocation) =>
    allocation.values.map((value, position): ValueRow => {
      const bytes = big(value.xlaBytes ?? value.physicalBytes);
      const padding = big(value.paddingBytes);
      return { kind: 'value', allocation, value, position, bytes, padding, share: shareOf(padding, bytes) };
    }),
  );
}

/** `%fusion.7{1}` */
function valueName(v: MemoryValueJson): string {
  return `%${v.name}${v.shapeIndex ? `{${v.shapeIndex.join(',')}}` : ''}`;
}

const bytesText = (n: bigint): string => (n < 0n ? '—' : humanBytes(n));
const paddingText = (n: bigint, share: number): string =>
  n <= 0n ? '—' : `${humanBytes(n)} · ${formatPercent(share)}`;

function kindsText(a: MemoryAllocationJson): string {
  const kinds = a.kinds.length > 0 ? a.kinds.join(', ') : 'value';
  return a.color !== 0 ? `${kinds} · S(${a.color})` : kinds;
}

/** Either table's Wasted column: a row's padding bytes and their share of its bytes. */
function wastedColumn<R extends Row>(help: string): Column<R> {
  return {
    id: 'padding',
    title: 'Wasted',
    help,
    numeric: true,
    text: (r) => paddingText(r.padding, r.share),
    compare: (a, b) => byBig(a.padding, b.padding) || a.share - b.share,
  };
}

export const ALLOCATION_COLUMNS: readonly Column<AllocationRow>[] = [
  {
    id: 'index',
    title: '#',
    help: "XLA's allocation number",
    numeric: true,
    text: (r) => String(r.allocation.index),
    compare: (a, b) => a.allocation.index - b.allocation.index,
  },
  {
    id: 'kinds',
    title: 'Kind',
    help: 'parameter, output, constant, maybe-live-out, thread-local, preallocated-temp; S(n) for another memory space',
    numeric: false,
    text: (r) => kindsText(r.allocation),
    compare: (a, b) => byText(kindsText(a.allocation), kindsText(b.allocation)),
    detail: (r) =>
      r.allocation.parameter
        ? `parameter ${r.allocation.parameter.number} {${r.allocation.parameter.shapeIndex.join(',')}}: ${r.allocation.parameter.shape}`
        : r.allocation.outputShape !== undefined
          ? `output ${r.allocation.outputShape}`
          : undefined,
  },
  {
    id: 'size',
    title: 'Size',
    help: "The allocation's size as XLA assigned it",
    numeric: true,
    text: (r) => bytesText(r.size),
    compare: (a, b) => byBig(a.size, b.size),
    detail: (r) => `${groupDigits(r.size)} B`,
  },
  wastedColumn(
    'Padding inside the allocation: values grouped by offset, each offset as large as its largest value',
  ),
  {
    id: 'values',
    title: 'Values',
    help: 'Values placed in the allocation (at different times or offsets)',
    numeric: true,
    text: (r) => groupDigits(r.allocation.values.length + (r.allocation.omittedValues ?? 0)),
    compare: (a, b) => a.allocation.values.length - b.allocation.values.length,
  },
  {
    id: 'largest',
    title: 'Largest value',
    help: "The allocation's largest value and its shape",
    numeric: false,
    text: (r) => {
      const v = largest(r.allocation);
      return v ? valueName(v) : '';
    },
    compare: (a, b) => byText(largest(a.allocation)?.name ?? '', largest(b.allocation)?.name ?? ''),
    detail: (r) => largest(r.allocation)?.shape,
  },
];

function largest(a: MemoryAllocationJson): MemoryValueJson | undefined {
  let best: MemoryValueJson | undefined;
  for (const v of a.values) if (best === undefined || big(v.xlaBytes) > big(best.xlaBytes)) best = v;
  return best;
}

export const VALUE_COLUMNS: readonly Column<ValueRow>[] = [
  {
    id: 'name',
    title: 'Value',
    help: 'The instruction defining the value ({index} inside a tuple), and where else the value is (tuples, get-tuple-elements); click to open it in the HLO',
    numeric: false,
    text: (r) => valueName(r.value),
    compare: (a, b) => byText(valueName(a.value), valueName(b.value)),
    detail: (r) => {
      const also = r.value.sharedWith?.length ? `also ${r.value.sharedWith.join(', ')}` : '';
      return [r.value.instruction?.opcode, also].filter(Boolean).join(' · ') || undefined;
    },
  },
  {
    id: 'allocation',
    title: 'Alloc.',
    help: 'The allocation holding the value, its offset there, and when it is live (steps of the schedule)',
    numeric: true,
    text: (r) => String(r.allocation.index),
    compare: (a, b) =>
      a.allocation.index - b.allocation.index || byBig(big(a.value.offset), big(b.value.offset)),
    detail: (r) => {
      const at = r.value.offset !== undefined ? `@${groupDigits(big(r.value.offset))}` : '';
      const live = r.value.live ? `live ${r.value.live.start}–${r.value.live.end}` : '';
      return [at, live].filter(Boolean).join(' · ') || undefined;
    },
  },
  {
    id: 'shape',
    title: 'Shape',
    help: 'The shape with its layout, as XLA wrote it',
    numeric: false,
    text: (r) => r.value.shape,
    compare: (a, b) => byText(a.value.shape, b.value.shape),
    detail: (r) => r.value.cause,
  },
  {
    id: 'xla',
    title: 'XLA bytes',
    help: "XLA's size of the value (for an estimate: our layout model's)",
    numeric: true,
    text: (r) => bytesText(r.bytes),
    compare: (a, b) => byBig(a.bytes, b.bytes),
  },
  wastedColumn('Physical minus logical bytes: the padding its tiles add'),
  {
    id: 'physical',
    title: 'Physical',
    help: "The bytes our layout model gives the value: every tile level's padding, or a tuple's table of 8-byte pointers; red where it is not XLA's",
    numeric: true,
    text: (r) => bytesText(big(r.value.physicalBytes)),
    compare: (a, b) => byBig(big(a.value.physicalBytes), big(b.value.physicalBytes)),
    detail: (r) => r.value.disagreement,
  },
  {
    id: 'logical',
    title: 'Logical',
    help: 'The bytes its elements need (XLA ByteSizeOf)',
    numeric: true,
    text: (r) => bytesText(big(r.value.logicalBytes)),
    compare: (a, b) => byBig(big(a.value.logicalBytes), big(b.value.logicalBytes)),
  },
  {
    id: 'source',
    title: 'Source',
    help: "The program line the instruction's metadata names; click to open it",
    numeric: false,
    text: (r) => r.value.instruction?.source ?? '',
    compare: (a, b) => byText(a.value.instruction?.source ?? '', b.value.instruction?.source ?? ''),
    detail: (r) => r.value.instruction?.opName,
  },
];

/** Whether a row matches every word of `filter` (case-insensitive) in one of its texts. */
export function matches(row: Row, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const haystack =
    row.kind === 'allocation'
      ? [
          `#${row.allocation.index}`,
          String(row.allocation.index),
          kindsText(row.allocation),
          ...row.allocation.values.map((v) => `${valueName(v)} ${v.shape}`),
        ]
      : [
          valueName(row.value),
          row.value.shape,
          `#${row.allocation.index}`,
          kindsText(row.allocation),
          row.value.cause ?? '',
          row.value.instruction?.source ?? '',
          row.value.instruction?.opName ?? '',
          row.value.instruction?.computation ?? '',
          row.value.disagreement ? 'disagrees' : '',
        ];
  const text = haystack.join('\n').toLowerCase();
  return words.every((w) => text.includes(w));
}
