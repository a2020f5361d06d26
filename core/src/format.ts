/**
 * Number formatting shared by every user interface (CLI, hover, inlay hints, padding report,
 * webview), so that one buffer reads the same wherever it is shown: exact counts are grouped
 * integers, human-readable sizes are rounded to the nearest (12,000,000,000,000 B is 10.9 TiB),
 * and factors and shares are rounded the same way everywhere. The CLI's `oom` output alone prints
 * sizes in XLA's own notation (core/src/report/oom-message.ts, `xlaBytes`), to match the message it explains.
 */

/** Thousands separators for an exact integer of any size: 1234567 → "1,234,567". */
export function groupDigits(value: bigint | number): string {
  const s = value.toString();
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return neg ? `-${grouped}` : grouped;
}

/**
 * "a" or "an" before the number `value` as read aloud: "an 8-slot tile", "an 11-slot", "an
 * 18,000-slot", "a 128-slot". Numbers read with a vowel sound first start with 8, or are 11 or 18
 * (also in thousands, millions, …).
 */
export function articleFor(value: bigint | number): 'a' | 'an' {
  const digits = (value < 0 ? -value : value).toString();
  const lead = digits.length % 3 === 0 ? digits.slice(0, 3) : digits.slice(0, digits.length % 3);
  return digits.startsWith('8') || lead === '11' || lead === '18' ? 'an' : 'a';
}

/** A grouped count with its noun, singular for one: "1 line", "1,024 lines". */
export function counted(value: bigint | number, noun: string, plural = `${noun}s`): string {
  return `${groupDigits(value)} ${value === 1 || value === 1n ? noun : plural}`;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** `numerator / divisor` rounded to the nearest integer, halves up (both non-negative). */
function roundedDiv(numerator: bigint, divisor: bigint): bigint {
  return (numerator * 2n + divisor) / (divisor * 2n);
}

/**
 * A byte count in binary units for quick reading, rounded to the nearest: "96 B", "4 KiB",
 * "1.5 MiB", "10.9 TiB", "128 KiB". One decimal below 100 units, none from 100 on, a trailing
 * ".0" dropped; a value that rounds up to 1024 of a unit is shown in the next one ("1 MiB").
 * Integer arithmetic, so exact past 2^53. The one size formatter of every interface.
 */
export function humanBytes(bytes: bigint): string {
  if (bytes < 0n) return `-${humanBytes(-bytes)}`;
  if (bytes < 1024n) return `${bytes} B`;
  let unit = 1;
  let divisor = 1024n;
  while (bytes >= divisor * 1024n && unit < UNITS.length - 1) {
    divisor *= 1024n;
    unit++;
  }
  // One division from the exact count: rounding at every unit step as well could be off by a tenth.
  const tenths = roundedDiv(bytes * 10n, divisor);
  if (tenths < 1000n) {
    const decimal = tenths % 10n === 0n ? '' : `.${tenths % 10n}`;
    return `${tenths / 10n}${decimal} ${UNITS[unit]}`;
  }
  const whole = roundedDiv(bytes, divisor);
  if (whole >= 1024n && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${whole} ${UNITS[unit]}`;
}

/** Exact bytes, with the binary-unit figure from 1 KiB on: "96 B", "4,096 B (4.0 KiB)". */
export function bytesWithUnit(bytes: bigint): string {
  return bytes < 1024n && bytes > -1024n
    ? `${groupDigits(bytes)} B`
    : `${groupDigits(bytes)} B (${humanBytes(bytes)})`;
}

/** An expansion factor: "32x", "1.07x", "170.7x" (two decimals below 10, one from 10 on). */
export function formatFactor(value: number): string {
  const rounded = value >= 10 ? Math.round(value * 10) / 10 : Math.round(value * 100) / 100;
  return `${rounded}x`;
}

/** A share as a percentage with one decimal, ".0" dropped: 0.96875 → "96.9%", 0.5 → "50%". */
export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

/**
 * `text` in at most `max` characters (at least 10): its middle replaced by " … " when longer, so a
 * message quoting a 1 MB shape names its start and end without copying it.
 */
export function elide(text: string, max = 200): string {
  if (text.length <= max) return text;
  const keep = Math.max(10, max) - 3;
  const head = Math.ceil((keep * 2) / 3);
  return `${text.slice(0, head)} … ${text.slice(text.length - (keep - head))}`;
}

/**
 * `items` joined by `separator`, at most `max` of them (the first ones, then a count of the rest),
 * converting only those shown: a 500,000-dimension shape costs what 64 dimensions do.
 */
export function elideList<T>(
  items: readonly T[],
  show: (item: T) => string = String,
  separator = ', ',
  max = 64,
): string {
  if (items.length <= max) return items.map(show).join(separator);
  const shown = items.slice(0, max).map(show).join(separator);
  return `${shown}${separator}… (${groupDigits(items.length - max)} more)`;
}
