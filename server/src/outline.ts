/**
 * The outline (modules → computations → instructions, each instruction with its shape as detail,
 * and a computation written in place under the instruction that opens it) and folding ranges
 * (computations, and statements that span several lines such as a long
 * `entry_computation_layout={(...)}` header).
 */
import {
  FoldingRangeKind,
  SymbolKind,
  type CancellationToken,
  type DocumentSymbol,
  type FoldingRange,
} from 'vscode-languageserver';
import { declaredName } from '../../core/src';
import type { ComputationEntry, HloDocument } from './document';
import { TimeSlice } from './guard';
import { toPosition, toRange } from './positions';

/** Outline details are one line; shapes of huge tuples are cut. */
const MAX_DETAIL = 200;

function detailOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL - 1)}…` : flat;
}

/**
 * Computations written in place inside each other nest in the outline at most this deep; deeper
 * ones are listed flat at that depth. A client reads the outline with a recursive JSON parser, and
 * 10,000 levels overflowed the server's own `JSON.stringify` (the request was never answered).
 */
const MAX_INLINE_DEPTH = 8;

/** The symbol that lists a computation's instructions, and how deep it is among computations written in place. */
interface Holder {
  readonly symbol: DocumentSymbol;
  readonly depth: number;
}

/**
 * The holder of computation `k`'s instructions: its own, or that of the nearest computation around
 * it that has one (one written in place whose opening instruction has no name), else `outermost`.
 */
function holderOf(
  doc: HloDocument,
  holders: ReadonlyMap<number, Holder>,
  k: ComputationEntry,
  outermost: Holder,
): Holder {
  for (let at: ComputationEntry | undefined = k; at; at = doc.around(at)) {
    const h = holders.get(at.index);
    if (h) return h;
  }
  return outermost;
}

/** An outline and how much of the document it lists. */
export interface Outline {
  readonly symbols: DocumentSymbol[];
  /** Computations and instructions listed. */
  readonly shown: number;
  /** Computations and instruction statements in the document (what a whole outline would list). */
  readonly total: number;
}

/**
 * The symbol of computation `c` (its whole text as range, its name as selection range), without
 * children yet. The call hierarchy's items too. The name is read in place: parsing every header
 * with its signature's shapes would cost as much as the rest of the outline.
 */
export function computationSymbol(doc: HloDocument, c: ComputationEntry): DocumentSymbol {
  // The header may be one of several statements on its line (`} ENTRY %e {`), and so may the `}`.
  const header = { start: doc.partStart(c.header, c.headerPart), end: doc.partEnd(c.header, c.headerPart) };
  const name = declaredName(doc.text.getText(), header, 'ENTRY');
  return {
    name: c.name || '(unnamed computation)',
    kind: SymbolKind.Function,
    ...(c.entry ? { detail: 'ENTRY' } : {}),
    range: toRange(doc.text, { start: header.start, end: doc.partEnd(c.last, c.lastPart) }),
    selectionRange: toRange(doc.text, name !== undefined && name.name === c.name ? name.range : header),
    children: [],
  };
}

/**
 * textDocument/documentSymbol, hierarchical: modules → computations → instructions, at most
 * `maxItems` computations and instructions. VS Code asks for the outline of every file it opens
 * (breadcrumbs, sticky scroll), and the whole outline of a large dump is hundreds of thousands of
 * items, seconds of work on both ends. So computations come first (the ENTRY ones, then the
 * others in document order) and instructions fill what is left (ENTRY's first): every computation
 * of a dump with fewer than `maxItems` of them is listed, and the main program's instructions
 * before those of fused computations.
 */
export async function documentSymbols(
  doc: HloDocument,
  token: CancellationToken,
  maxItems = Number.POSITIVE_INFINITY,
): Promise<Outline> {
  const text = doc.text.getText();
  const slice = new TimeSlice([doc]);
  // Computations written in place are listed under the instruction that opens them.
  const computations = doc.computations().filter((c) => c.parent === undefined);
  const byPriority = [...computations.filter((c) => c.entry), ...computations.filter((c) => !c.entry)];
  let shown = 0;
  const listed = new Map<ComputationEntry, DocumentSymbol>();
  for (const c of byPriority) {
    if (shown >= maxItems) break;
    await slice.tick(token);
    listed.set(c, computationSymbol(doc, c));
    shown++;
  }
  for (const c of byPriority) {
    const symbol = listed.get(c);
    if (!symbol) continue;
    // Where the instructions of each computation go, by computation index: `c`'s symbol, or the
    // symbol of the instruction that opens a computation written in place.
    const outermost: Holder = { symbol, depth: 0 };
    const holders = new Map<number, Holder>([[c.index, outermost]]);
    for (let i = c.header; i <= c.last && shown < maxItems; i++) {
      const summary = doc.summary(i);
      // A statement XLA reads several statements in (`ENTRY %e { %a = ... ROOT %r = ... }`) is
      // listed part by part, those of `c` only.
      const several = summary.parts !== undefined;
      if (!several && (i === c.header || summary.kind !== 'instruction')) continue;
      const statements = several ? doc.parseParts(i) : [doc.parse(i)];
      for (let k = 0; k < statements.length && shown < maxItems; k++) {
        const part = several ? k - 1 : -1;
        if ((i === c.header && part <= c.headerPart) || (i === c.last && part > c.lastPart)) continue;
        const st = statements[k];
        if (st.kind !== 'instruction' || st.name.name === '') continue;
        const holder = holderOf(doc, holders, doc.computationOf(i) ?? c, outermost);
        // The summary says whether the statement's last part opens a computation written in place.
        const inline = summary.opensComputation && k === statements.length - 1 ? doc.openedBy(i) : undefined;
        const nests = inline !== undefined && holder.depth < MAX_INLINE_DEPTH;
        const instruction: DocumentSymbol = {
          name: st.name.name,
          kind: st.opcode?.name === 'parameter' ? SymbolKind.Variable : SymbolKind.Field,
          ...(st.shape ? { detail: detailOf(text.slice(st.shape.range.start, st.shape.range.end)) } : {}),
          // It holds the computation it opens, so its range runs to that computation's `}`.
          range: toRange(
            doc.text,
            nests ? { start: st.range.start, end: doc.range(inline.last).end } : st.range,
          ),
          selectionRange: toRange(doc.text, st.name.range),
          ...(nests ? { children: [] } : {}),
        };
        if (inline)
          holders.set(inline.index, nests ? { symbol: instruction, depth: holder.depth + 1 } : holder);
        (holder.symbol.children ??= []).push(instruction);
        shown++;
        await slice.tick(token);
      }
    }
  }
  const symbols: DocumentSymbol[] = [];
  const modules = new Map<number, DocumentSymbol>();
  let total = 0;
  for (const c of computations) {
    total++;
    for (let i = c.header + 1; i <= c.last; i++) if (doc.summary(i).kind === 'instruction') total++;
    const symbol = listed.get(c);
    if (!symbol) continue;
    // Computations before any module header, or in a header-less part of a split file, stand alone.
    if (c.module < 0 || doc.summary(c.module).kind !== 'module') {
      symbols.push(symbol);
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
      symbols.push(m);
    }
    m.children!.push(symbol);
    // A module's range runs to the end of its last computation.
    m.range = { start: m.range.start, end: symbol.range.end };
  }
  return { symbols, shown, total };
}

/** textDocument/foldingRange. */
export async function foldingRanges(doc: HloDocument, token: CancellationToken): Promise<FoldingRange[]> {
  const text = doc.text.getText();
  const slice = new TimeSlice([doc]);
  const out: FoldingRange[] = [];
  for (const c of doc.computations()) {
    await slice.tick(token);
    const startLine = toPosition(doc.text, doc.computationStart(c)).line;
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
    if (endLine > startLine)
      out.push({
        startLine,
        endLine,
        ...(kind === 'comment' || kind === 'separator' ? { kind: FoldingRangeKind.Comment } : {}),
      });
  }
  return out;
}
