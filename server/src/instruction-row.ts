/** One instruction as a row of the padding report and of the instructions of a source line. */
import { expansionOf, sourceLabel, type InstructionStatement } from '../../core/src';
import type { PaddingReportRow } from '../../protocol/src/lsp';
import type { Analyzer } from './analyzer';
import type { HloDocument } from './document';
import { toRange } from './positions';

/** The report row of an instruction (tuple leaves summed), with its sizes as numbers; undefined without a shape. */
export function instructionRow(
  doc: HloDocument,
  analyzer: Analyzer,
  st: InstructionStatement,
  computation: string,
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
    ...(st.metadata?.sourceFile
      ? { source: sourceLabel(st.metadata.sourceFile, st.metadata.sourceLine) }
      : {}),
  };
  return { row, logical, physical };
}
