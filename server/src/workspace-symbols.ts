/**
 * workspace/symbol: the computations and instructions of every open HLO document whose names match
 * the query, for Go to Symbol in Workspace (Ctrl+T). It is also how to reach any instruction of a
 * dump whose outline was cut at outline.maxItems: the search reads each statement's name in place,
 * without parsing it, and parses only the statements it returns.
 */
import { SymbolKind, type CancellationToken, type SymbolInformation } from 'vscode-languageserver';
import { isIdentifierChar } from '../../core/src';
import type { ComputationEntry, HloDocument } from './document';
import { TimeSlice } from './guard';
import { instructionEquals } from '../../core/src';
import { toRange } from './positions';

/** Most symbols one query returns: more are no use in a picker, and a one-letter query matches nearly every name. */
export const MAX_WORKSPACE_SYMBOLS = 1000;

/**
 * How well `name` matches `query` (already lower case), best first: 0 the same name, 1 a prefix,
 * 2 a substring, 3 the query's characters in order (as VS Code's picker matches); -1 no match.
 * Case is ignored.
 */
function matchRank(name: string, query: string): number {
  const lower = name.toLowerCase();
  if (lower === query) return 0;
  const at = lower.indexOf(query);
  if (at === 0) return 1;
  if (at > 0) return 2;
  let k = 0;
  for (let i = 0; i < lower.length && k < query.length; i++)
    if (lower.charCodeAt(i) === query.charCodeAt(k)) k++;
  return k === query.length ? 3 : -1;
}

/** The name before the `=` at `equals` (blanks between skipped): `text[from, to)`, without `%`. */
function nameBefore(text: string, start: number, equals: number): { from: number; to: number } {
  let to = equals;
  while (to > start && ' \t\r\n'.includes(text[to - 1])) to--;
  let from = to;
  while (from > start && isIdentifierChar(text.charCodeAt(from - 1))) from--;
  return { from, to };
}

/**
 * Whether the characters of `query` (lower case) occur in order in `text[from, to)`, ignoring ASCII
 * case: the loosest match, tested in place so that the names that do not match (nearly all, for a
 * query of a few letters) cost no string of their own.
 */
function containsInOrder(text: string, from: number, to: number, query: string): boolean {
  let k = 0;
  for (let i = from; i < to && k < query.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if (c === query.charCodeAt(k)) k++;
  }
  return k === query.length;
}

/** A match found by name: its computation, and the instruction statement (undefined for the computation itself). */
interface Candidate {
  readonly doc: HloDocument;
  readonly computation: ComputationEntry;
  readonly statement?: number;
}

/** The symbol of a candidate, parsed now; undefined when its statement does not parse as expected. */
function symbolOf(c: Candidate): SymbolInformation | undefined {
  const { doc, computation } = c;
  if (c.statement === undefined) {
    const header = doc.parse(computation.header);
    if (header.kind !== 'computation' || !header.name) return undefined;
    return {
      name: header.name.name,
      kind: SymbolKind.Function,
      location: { uri: doc.uri, range: toRange(doc.text, header.name.range) },
    };
  }
  const st = doc.parse(c.statement);
  if (st.kind !== 'instruction') return undefined;
  return {
    name: st.name.name,
    kind: st.opcode?.name === 'parameter' ? SymbolKind.Variable : SymbolKind.Field,
    location: { uri: doc.uri, range: toRange(doc.text, st.name.range) },
    ...(doc.outermost(computation).name !== undefined
      ? { containerName: doc.outermost(computation).name }
      : {}),
  };
}

/**
 * Symbols of `docs` matching `query`: exact names first, then prefixes, substrings and
 * subsequences, each in document order, at most {@link MAX_WORKSPACE_SYMBOLS}.
 */
export async function workspaceSymbols(
  docs: readonly HloDocument[],
  query: string,
  token: CancellationToken,
): Promise<SymbolInformation[]> {
  const q = query.toLowerCase();
  const tiers: Candidate[][] = [[], [], [], []];
  const slice = new TimeSlice(docs);
  const keep = (text: string, from: number, to: number, candidate: Candidate) => {
    if (!containsInOrder(text, from, to, q)) return;
    const rank = q === '' ? 3 : matchRank(text.slice(from, to), q);
    if (rank >= 0 && tiers[rank].length < MAX_WORKSPACE_SYMBOLS) tiers[rank].push(candidate);
  };
  for (const doc of docs) {
    const text = doc.text.getText();
    for (const computation of doc.computations()) {
      await slice.tick(token);
      if (computation.name !== undefined)
        keep(computation.name, 0, computation.name.length, { doc, computation });
      for (const i of doc.statementsOf(computation)) {
        if ((i & 1023) === 0) await slice.tick(token);
        if (doc.summary(i).kind !== 'instruction') continue;
        const r = doc.range(i);
        const equals = instructionEquals(text, r.start, r.end);
        if (equals < 0) continue;
        const name = nameBefore(text, r.start, equals);
        keep(text, name.from, name.to, { doc, computation, statement: i });
      }
    }
  }
  const out: SymbolInformation[] = [];
  for (const candidate of tiers.flat()) {
    if (out.length >= MAX_WORKSPACE_SYMBOLS) break;
    const symbol = symbolOf(candidate);
    if (symbol) out.push(symbol);
  }
  return out;
}
