/** Number formatting shared by the subcommands: exact digits first, human units second. */
import { groupDigits } from '../../core/src/format';

export { groupDigits } from '../../core/src/format';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'];

/** Bytes in binary units with one decimal: `4096n` → `4.0 KiB`; below 1 KiB exact. */
export function humanBytes(n: bigint): string {
  if (n < 1024n) return `${n} B`;
  let unit = 0;
  let whole = n;
  while (whole >= 1024n * 1024n && unit < UNITS.length - 2) {
    whole /= 1024n;
    unit++;
  }
  // One more step in floating point keeps the decimal; `whole` is < 2^20 here, so it is exact enough.
  return `${(Number(whole) / 1024).toFixed(1)} ${UNITS[unit + 1]}`;
}

/** `4096n` → `4,096 B (4.0 KiB)`. */
export function bytesWithUnit(n: bigint): string {
  return n < 1024n ? `${groupDigits(n)} B` : `${groupDigits(n)} B (${humanBytes(n)})`;
}

/** An expansion factor for display: `32x`, `1.5x`, `1x`. */
export function factor(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toString()}x`;
}

/** A share as a percentage with one decimal: `0.96875` → `96.9%`. */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

/** JSON number when exactly representable (a safe integer, <= 2^53 - 1), else a decimal string. */
export function jsonInteger(n: bigint): number | string {
  return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
}

/** `[8, 256]` style list of sizes. */
export function dimsList(dims: readonly bigint[]): string {
  return `[${dims.join(',')}]`;
}

/** Right-aligns each column of `rows` (the first row is the header). */
export function table(rows: readonly (readonly string[])[], alignLeft: ReadonlySet<number> = new Set()): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows
    .map((r) => r.map((c, i) => (alignLeft.has(i) ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd())
    .join('\n');
}
