/**
 * Text of the QuickPick rows that list instructions with their logical and physical bytes (Show
 * HLO Instructions for Source Line): byte sizes, expansion factors and rows. Free of `vscode` so it
 * can be unit-tested in plain Node.
 */
import { formatFactor, humanBytes } from '../../core/src';
import type { PaddingReportRow } from '../../protocol/src/lsp';

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
