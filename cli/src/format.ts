/** Output helpers of the subcommands (number formatting itself is core's, shared with the editor). */

/** JSON number when exactly representable (a safe integer, <= 2^53 - 1), else a decimal string. */
export function jsonInteger(n: bigint): number | string {
  return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(n)
    : n.toString();
}

/** `[8, 256]` style list of sizes. */
export function dimsList(dims: readonly bigint[]): string {
  return `[${dims.join(',')}]`;
}

/** Right-aligns each column of `rows` (the first row is the header). */
export function table(
  rows: readonly (readonly string[])[],
  alignLeft: ReadonlySet<number> = new Set(),
): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (alignLeft.has(i) ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
