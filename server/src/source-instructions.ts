/**
 * xlaLayout/sourceInstructions: from a line of the program to the instructions XLA made of it. The
 * open HLO documents are searched for the source file's name (a native string search), and each
 * statement with a hit is parsed to check its metadata: the same file (the recorded path sharing
 * the longest tail with this machine's, as go to source picks files the other way round) and line.
 * Current dumps name a stack frame instead (`stack_frame_id=N`): each module's frames that
 * resolve to the file and line (core's `framesFrom`, the user frame the Memory View shows) are
 * found in its tables, then the statements naming one of them by a search for `stack_frame_id=`.
 */
import type { CancellationToken } from 'vscode-languageserver';
import {
  framesFrom,
  LongestTailMatches,
  metadataSource,
  pathSegments,
  SourceTextSearch,
  sourceMatch,
  type InstructionStatement,
  type StackFrameTables,
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

const STACK_FRAME_ID = 'stack_frame_id=';

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
  /** Offers statement `i` of `doc` when its source is the one asked for. */
  const offer = (doc: HloDocument, i: number, st: InstructionStatement, tables?: StackFrameTables) => {
    const source = metadataSource(st.metadata, tables);
    matches.offer(sourceMatch(source, params), () => {
      // Rows name the computation a user can find: the one a computation written in place is in.
      const c = doc.computationOf(i);
      const row = instructionRow(doc, analyzer, st, (c && doc.outermost(c).name) ?? '', source);
      if (!row) return undefined;
      return {
        ...row.row,
        uri: doc.uri,
        ...(source?.line !== undefined ? { sourceLine: source.line } : {}),
        ...(st.metadata?.opName !== undefined ? { opName: st.metadata.opName } : {}),
      };
    });
  };
  for (const doc of docs) {
    const text = doc.text.getText();
    // The file name is in a source_file or in a FileNames table: without it, nothing comes from there.
    if (!text.includes(name)) continue;
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
      if (st.kind !== 'instruction' || !st.shape || !st.metadata?.sourceFile) continue;
      offer(doc, i, st);
    }
    await framedInstructions(doc, text, params, token, slice, offer);
  }
  return { items: matches.items, truncated: matches.truncated, documents: docs.length };
}

/**
 * Offers the instructions of `doc` whose `stack_frame_id` resolves to the file and line asked for:
 * the frames of each module's tables that do, then every `stack_frame_id=` naming one of them.
 */
async function framedInstructions(
  doc: HloDocument,
  text: string,
  params: SourceInstructionsParams,
  token: CancellationToken,
  slice: TimeSlice,
  offer: (doc: HloDocument, i: number, st: InstructionStatement, tables: StackFrameTables) => void,
): Promise<void> {
  if (!text.includes(STACK_FRAME_ID)) return;
  // Each module's frames of the line (most files hold one module); their ids, all modules together.
  const byModule = new Map<StackFrameTables, ReadonlyMap<number, number>>();
  const wanted = new Set<number>();
  for (const c of doc.computations()) {
    const tables = doc.stackFrames(c.header);
    if (byModule.has(tables)) continue;
    const frames = framesFrom(tables, params);
    byModule.set(tables, frames);
    for (const id of frames.keys()) wanted.add(id);
  }
  if (wanted.size === 0) return;
  let lastParsed = -1;
  for (let at = text.indexOf(STACK_FRAME_ID); at >= 0; at = text.indexOf(STACK_FRAME_ID, at + 1)) {
    await slice.tick(token);
    const digits = /^\d+/.exec(text.slice(at + STACK_FRAME_ID.length, at + STACK_FRAME_ID.length + 20));
    if (!digits || !wanted.has(Number(digits[0]))) continue;
    const i = doc.statementIndexAt(at);
    if (i < 0 || i === lastParsed) continue;
    lastParsed = i;
    const tables = doc.stackFrames(i);
    const st = doc.parse(i);
    // The hit may be inside a string; the metadata's own frame decides, in its module's tables.
    const meta = st.kind === 'instruction' ? st.metadata : undefined;
    if (st.kind !== 'instruction' || !st.shape || !meta || meta.sourceFile || meta.stackFrameId === undefined)
      continue;
    if (!byModule.get(tables)?.has(meta.stackFrameId)) continue;
    offer(doc, i, st, tables);
  }
}
