/** Number formatting shared by every user interface (hover, CLI, webview). */

/** Thousands separators for an exact integer of any size: 1234567 → "1,234,567". */
export function groupDigits(value: bigint | number): string {
  const s = value.toString();
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return neg ? `-${grouped}` : grouped;
}
