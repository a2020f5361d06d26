/**
 * xlaLayout/sourceInstructions: from a line of the program to the instructions XLA made of it. The
 * open HLO documents are searched for the source file's name (a native string search), and each
 * statement with a hit is parsed to check its metadata: the same file (the recorded path sharing
 * the longest tail with this machine's, as go to source picks files the other way round) and line.
 */
import type { CancellationToken } from 'vscode-languageserver';
import {
  LongestTailMatches,
  metadataSource,
  pathSegments,
  SourceTextSearch,
  sourceMatch,
} from '../../core/src';
import type {
  SourceInstruction,
  SourceInstructionsParams,
  SourceInstructionsResult,
} from '../../protocol/src/lsp';
import type { Analyzer } from './analyzer';
import { instructionRow } from './instruction-row';
import type { HloDocument } from './document';
import { TimeSlice } from './guard';

/** Most instructions one answer lists (a whole file of a large model can name tens of thousands). */
const SOURCE_INSTRUCTIONS_LIMIT = 500;

export async function sourceInstructions(
  docs: readonly HloDocument[],
  params: SourceInstructionsParams,
  analyzer: Analyzer,
  token: CancellationToken,
): Promise<SourceInstructionsResult> {
  const name = pathSegments(params.path).at(-1);
  if (name === undefined) return { items: [], truncated: false, documents: docs.length };
  const slice = new TimeSlice(docs);
  const search = new SourceTextSearch(params);
  const matches = new LongestTailMatches<SourceInstruction>(SOURCE_INSTRUCTIONS_LIMIT);
  for (const doc of docs) {
    const text = doc.text.getText();
    let lastParsed = -1;
    search.reset();
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      await slice.tick(token);
      const i = doc.statementIndexAt(at);
      if (i < 0 || i === lastParsed) continue;
      lastParsed = i;
      // For one line, a statement without its `source_line=N` is not parsed at all. Statements come
      // in text order, so the searches move forward only: one pass over the document.
      const { start, end } = doc.range(i);
      if (!search.mayName(text, start, end)) continue;
      const st = doc.parse(i);
      const meta = st.kind === 'instruction' ? st.metadata : undefined;
      if (st.kind !== 'instruction' || !st.shape || !meta) continue;
      matches.offer(sourceMatch(metadataSource(meta, undefined), params), () => {
        // Rows name the computation a user can find: the one a computation written in place is in.
        const c = doc.computationOf(i);
        const row = instructionRow(doc, analyzer, st, (c && doc.outermost(c).name) ?? '');
        if (!row) return undefined;
        return {
          ...row.row,
          uri: doc.uri,
          ...(meta.sourceLine !== undefined ? { sourceLine: meta.sourceLine } : {}),
          ...(meta.opName !== undefined ? { opName: meta.opName } : {}),
        };
      });
    }
  }
  return { items: matches.items, truncated: matches.truncated, documents: docs.length };
}
