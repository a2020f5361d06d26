/**
 * Call hierarchy over computations. A computation calls another when one of its instructions
 * names it in `calls=`, `to_apply=`, `condition=`, `body=`, `branch_computations=`, ...: so the
 * ENTRY computation calls a while loop's condition and body, which call fusions, which call their
 * fused computations. Incoming calls are found like references (a text search over the module,
 * confirmed by parsing each hit's statement); outgoing calls by parsing the computation's own
 * instructions. A computation written in place (`calls=\n{ ... }`) has no name of its own: its calls
 * are those of the computation it is written in. Nothing is kept between requests: an item is found
 * again by its name and place.
 */
import {
  type CallHierarchyIncomingCall,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  type CancellationToken,
} from 'vscode-languageserver';
import type { TextRange } from '../../core/src';
import type { ComputationEntry, HloDocument } from './document';
import { TimeSlice } from './guard';
import {
  computationNamed,
  computationOccurrences,
  isComputationRole,
  moduleComputations,
  nameAt,
} from './navigation';
import { computationSymbol } from './outline';
import { toOffset, toRange } from './positions';

/** The item of computation `c`, as the outline shows it; only a named computation can be called. */
function itemOf(doc: HloDocument, c: ComputationEntry): CallHierarchyItem | undefined {
  if (c.name === undefined) return undefined;
  const { name, kind, detail, range, selectionRange } = computationSymbol(doc, c);
  return { name, kind, ...(detail !== undefined ? { detail } : {}), uri: doc.uri, range, selectionRange };
}

/**
 * textDocument/prepareCallHierarchy: the computation named at `offset` (its definition, or a
 * `calls=` / `to_apply=` ... reference), else the computation around `offset`.
 */
export function prepareCallHierarchy(doc: HloDocument, offset: number): CallHierarchyItem[] {
  const hit = nameAt(doc, offset);
  let c: ComputationEntry | undefined;
  if (hit && isComputationRole(hit.target)) c = computationNamed(doc, hit.target.name.name, hit.index);
  else {
    const index = doc.statementIndexAt(offset);
    const around = index >= 0 ? doc.computationOf(index) : undefined;
    c = around && doc.outermost(around);
  }
  const item = c && itemOf(doc, c);
  return item ? [item] : [];
}

/**
 * The computation an item stands for: the one whose name is at the item's selection range, or,
 * when edits moved it since, the first computation of that name in the document.
 */
function computationOfItem(doc: HloDocument, item: CallHierarchyItem): ComputationEntry | undefined {
  const index = doc.statementIndexAt(toOffset(doc.text, item.selectionRange.start));
  const there = index >= 0 ? doc.computationOf(index) : undefined;
  if (there?.header === index && there.name === item.name) return there;
  return doc.computations().find((c) => c.name === item.name);
}

/** Appends `range` to the list kept under `key`, creating it on first use (insertion order is text order). */
function add<K>(groups: Map<K, TextRange[]>, key: K, range: TextRange): void {
  const list = groups.get(key);
  if (list) list.push(range);
  else groups.set(key, [range]);
}

/** callHierarchy/incomingCalls: the computations that call the item, each with its call sites. */
export async function incomingCalls(
  doc: HloDocument,
  item: CallHierarchyItem,
  token: CancellationToken,
): Promise<CallHierarchyIncomingCall[]> {
  const callee = computationOfItem(doc, item);
  if (!callee) return [];
  const occurrences = await computationOccurrences(doc, callee.header, item.name, token);
  const byCaller = new Map<ComputationEntry, TextRange[]>();
  for (const r of occurrences.references) {
    // A call from a computation written in place is its named computation's call.
    const caller = doc.computationOf(doc.statementIndexAt(r.start));
    if (caller) add(byCaller, doc.outermost(caller), r);
  }
  const out: CallHierarchyIncomingCall[] = [];
  for (const [caller, ranges] of byCaller) {
    const from = itemOf(doc, caller);
    if (from) out.push({ from, fromRanges: ranges.map((r) => toRange(doc.text, r)) });
  }
  return out;
}

/** callHierarchy/outgoingCalls: the computations the item's instructions call, each with its call sites. */
export async function outgoingCalls(
  doc: HloDocument,
  item: CallHierarchyItem,
  token: CancellationToken,
): Promise<CallHierarchyOutgoingCall[]> {
  const caller = computationOfItem(doc, item);
  if (!caller) return [];
  const slice = new TimeSlice([doc]);
  const byName = new Map<string, TextRange[]>();
  for (let i = caller.header + 1; i <= caller.last; i++) {
    await slice.tick(token);
    if (doc.summary(i).kind !== 'instruction') continue;
    const st = doc.parse(i);
    if (st.kind !== 'instruction') continue;
    for (const ref of st.calledComputations) add(byName, ref.name, ref.range);
  }
  const computations = moduleComputations(doc, caller.header);
  const out: CallHierarchyOutgoingCall[] = [];
  for (const [name, ranges] of byName) {
    const callee = computations.get(name);
    const to = callee && itemOf(doc, callee);
    if (to) out.push({ to, fromRanges: ranges.map((r) => toRange(doc.text, r)) });
  }
  return out;
}
