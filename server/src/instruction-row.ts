/** One instruction as a row of the padding report and of the instructions of a source line. */
import { expansionOf, sourceLabel, type InstructionStatement, type MetadataSource } from '../../core/src';
import type { PaddingReportRow } from '../../protocol/src/lsp';
import type { Analyzer } from './analyzer';
import type { HloDocument } from './document';
import { toRange } from './positions';

/**
 * The report row of an instruction (tuple leaves summed), with its sizes as numbers; undefined
 * without a shape. `source`: where it comes from (source-location.ts `instructionSource`).
 */
export function instructionRow(
  doc: HloDocument,
  analyzer: Analyzer,
  st: InstructionStatement,
  computation: string,
  source: MetadataSource | undefined,
): { row: PaddingReportRow; logical: bigint; physical: bigint } | undefined {
  if (!st.shape) return undefined;
  const text = doc.text.getText();
  let logical = 0n;
  let physical = 0n;
  for (const leaf of analyzer.shapeFacts(text, st.shape).leaves) {
    logical += leaf.logicalBytes;
    physical += leaf.physicalBytes;
  }
  const row: PaddingReportRow = {
    name: st.name.name,
    computation,
    shape: text.slice(st.shape.range.start, st.shape.range.end),
    range: toRange(doc.text, st.shape.range),
    logicalBytes: logical.toString(),
    physicalBytes: physical.toString(),
    expansion: expansionOf(logical, physical),
    ...(source ? { source: sourceLabel(source.file, source.line) } : {}),
  };
  return { row, logical, physical };
}
