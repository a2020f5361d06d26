/**
 * Text of the Padding Report QuickPick: byte sizes, expansion factors, rows and the totals title.
 * Free of `vscode` so it can be unit-tested in plain Node.
 */
import { formatFactor, humanBytes } from '../../core/src';
import type { PaddingReportResult, PaddingReportRow } from '../../protocol/src/lsp';

/** Bytes as core formats them everywhere; input is a decimal string (sizes pass 2^53). */
export function formatBytes(decimal: string): string {
  try {
    return humanBytes(BigInt(decimal));
  } catch {
    return decimal;
  }
}

/** Expansion as shown to people: `32x`, `1.5x`, `—` for empty arrays. */
export function formatExpansion(expansion: number): string {
  return expansion > 0 ? formatFactor(expansion) : '—';
}

/** A QuickPick item (structurally vscode.QuickPickItem) carrying its row. */
export interface RowItem {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  readonly row: PaddingReportRow;
}

/**
 * One QuickPick item per row: name and expansion first, since that is what users scan for; the
 * source line last, unless `withSource` is false (a list of one source line's instructions).
 */
export function rowItem(row: PaddingReportRow, withSource = true): RowItem {
  const source = withSource && row.source !== undefined ? `  ·  ${row.source}` : '';
  return {
    label: `${formatExpansion(row.expansion)}  ${row.name}`,
    description: `${formatBytes(row.logicalBytes)} → ${formatBytes(row.physicalBytes)}`,
    detail: `${row.shape}  ·  ${row.computation}${source}`,
    row,
  };
}

/** Title line with the document's totals. */
export function totalsTitle(result: PaddingReportResult): string {
  const logical = BigInt(result.totalLogicalBytes);
  const physical = BigInt(result.totalPhysicalBytes);
  const factor = logical > 0n ? ` (${formatFactor(Number((physical * 1000n) / logical) / 1000)})` : '';
  return `Padding: ${formatBytes(result.totalLogicalBytes)} logical → ${formatBytes(result.totalPhysicalBytes)} physical${factor}, ${result.rows.length} buffer${result.rows.length === 1 ? '' : 's'}`;
}
