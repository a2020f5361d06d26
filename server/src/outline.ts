/**
 * The outline (modules → computations → instructions, each instruction with its shape as detail)
 * and folding ranges (computations, and statements that span several lines such as a long
 * `entry_computation_layout={(...)}` header).
 */
import { FoldingRangeKind, SymbolKind, type CancellationToken, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import type { HloDocument } from './document';
import { TimeSlice } from './guard';
import { toPosition, toRange } from './positions';

/** Outline details are one line; shapes of huge tuples are cut. */
const MAX_DETAIL = 200;

function detailOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL - 1)}…` : flat;
}

/** textDocument/documentSymbol, hierarchical. */
export async function documentSymbols(doc: HloDocument, token: CancellationToken): Promise<DocumentSymbol[]> {
  const text = doc.text.getText();
  const slice = new TimeSlice();
  const top: DocumentSymbol[] = [];
  const modules = new Map<number, DocumentSymbol>();
  for (const c of doc.computations()) {
    await slice.tick(token);
    const header = doc.parse(c.header);
    if (header.kind !== 'computation') continue;
    const children: DocumentSymbol[] = [];
    for (let i = c.header + 1; i <= c.last; i++) {
      if (doc.summary(i).kind !== 'instruction') continue;
      const st = doc.parse(i);
      if (st.kind !== 'instruction' || st.name.name === '') continue;
      children.push({
        name: st.name.name,
        kind: st.opcode?.name === 'parameter' ? SymbolKind.Variable : SymbolKind.Field,
        ...(st.shape ? { detail: detailOf(text.slice(st.shape.range.start, st.shape.range.end)) } : {}),
        range: toRange(doc.text, st.range),
        selectionRange: toRange(doc.text, st.name.range),
      });
      await slice.tick(token);
    }
    const range = { start: doc.range(c.header).start, end: doc.range(c.last).end };
    const name = header.name?.name || '(unnamed computation)';
    const symbol: DocumentSymbol = {
      name,
      kind: SymbolKind.Function,
      ...(c.entry ? { detail: 'ENTRY' } : {}),
      range: toRange(doc.text, range),
      selectionRange: toRange(doc.text, header.name?.range ?? header.range),
      children,
    };
    if (c.module < 0) {
      top.push(symbol);
      continue;
    }
    let m = modules.get(c.module);
    if (!m) {
      const st = doc.parse(c.module);
      const name = st.kind === 'module' && st.name ? st.name : undefined;
      m = {
        name: name?.name || 'HloModule',
        kind: SymbolKind.Module,
        range: toRange(doc.text, doc.range(c.module)),
        selectionRange: toRange(doc.text, name?.range ?? doc.range(c.module)),
        children: [],
      };
      modules.set(c.module, m);
      top.push(m);
    }
    m.children!.push(symbol);
    // A module's range runs to the end of its last computation.
    m.range = { start: m.range.start, end: symbol.range.end };
  }
  return top;
}

/** textDocument/foldingRange. */
export async function foldingRanges(doc: HloDocument, token: CancellationToken): Promise<FoldingRange[]> {
  const text = doc.text.getText();
  const slice = new TimeSlice();
  const out: FoldingRange[] = [];
  for (const c of doc.computations()) {
    await slice.tick(token);
    const startLine = toPosition(doc.text, doc.range(c.header).start).line;
    let endLine = toPosition(doc.text, doc.range(c.last).end).line;
    // Keep the closing brace visible, as editors do for code blocks.
    if (doc.summary(c.last).kind === 'close') endLine--;
    if (endLine > startLine) out.push({ startLine, endLine, kind: FoldingRangeKind.Region });
  }
  for (let i = 0; i < doc.statementCount; i++) {
    if ((i & 1023) === 0) await slice.tick(token);
    const r = doc.range(i);
    const nl = text.indexOf('\n', r.start);
    if (nl < 0 || nl >= r.end) continue;
    const kind = doc.summary(i).kind;
    const startLine = toPosition(doc.text, r.start).line;
    const endLine = toPosition(doc.text, r.end).line;
    if (endLine > startLine) out.push({ startLine, endLine, ...(kind === 'comment' ? { kind: FoldingRangeKind.Comment } : {}) });
  }
  return out;
}
