/**
 * Text of the Padding Report QuickPick: byte sizes, expansion factors, rows and the totals title.
 * Free of `vscode` so it can be unit-tested in plain Node.
 */
import type { PaddingReportResult, PaddingReportRow } from '../../protocol/src/lsp';

/** Bytes with binary units, exact below 1 KiB; input is a decimal string (sizes pass 2^53). */
export function formatBytes(decimal: string): string {
  let bytes: bigint;
  try {
    bytes = BigInt(decimal);
  } catch {
    return decimal;
  }
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let unit = 0;
  let scaled = bytes;
  while (scaled >= 1024n * 1024n && unit < units.length - 2) {
    scaled /= 1024n;
    unit++;
  }
  if (scaled < 1024n) return `${scaled} ${units[unit]}`;
  return `${(Number(scaled) / 1024).toFixed(1)} ${units[unit + 1]}`;
}

/** Expansion as shown to people: `32x`, `1.5x`, `—` for empty arrays. */
export function formatExpansion(expansion: number): string {
  if (!(expansion > 0)) return '—';
  return `${Number.isInteger(expansion) ? expansion : expansion.toFixed(2)}x`;
}

/** A QuickPick item (structurally vscode.QuickPickItem) carrying its row. */
export interface RowItem {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  readonly row: PaddingReportRow;
}

/** One QuickPick item per row: name and expansion first, since that is what users scan for. */
export function rowItem(row: PaddingReportRow): RowItem {
  return {
    label: `${formatExpansion(row.expansion)}  ${row.name}`,
    description: `${formatBytes(row.logicalBytes)} → ${formatBytes(row.physicalBytes)}`,
    detail: `${row.shape}  ·  ${row.computation}`,
    row,
  };
}

/** Title line with the document's totals. */
export function totalsTitle(result: PaddingReportResult): string {
  const logical = BigInt(result.totalLogicalBytes);
  const physical = BigInt(result.totalPhysicalBytes);
  const factor = logical > 0n ? ` (${(Number((physical * 1000n) / logical) / 1000).toFixed(2)}x)` : '';
  return `Padding: ${formatBytes(result.totalLogicalBytes)} logical → ${formatBytes(result.totalPhysicalBytes)} physical${factor}, ${result.rows.length} buffer${result.rows.length === 1 ? '' : 's'}`;
}
