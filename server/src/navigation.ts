/**
 * Go to definition, find references and document highlights for instruction and computation names
 * (and go to definition from metadata to the source line: source-location.ts).
 * Instruction names are scoped to their computation, computation names to their module. Both are
 * found by a text search over their scope, each hit confirmed by parsing its statement, and
 * resolved as core's `buildModule` resolves them (a corpus test holds the two to the same answers);
 * the computation index gives a computation's definition. Nothing document-wide is kept in memory
 * between requests.
 */
import {
  DocumentHighlightKind,
  type CancellationToken,
  type DocumentHighlight,
  type Location,
  type LocationLink,
} from 'vscode-languageserver';
import type { TextRange } from '../../core/src';
import { declaredName } from '../../core/src';
import { isIdentifierChar } from '../../core/src';
import type { ComputationEntry, HloDocument } from './document';
import { TimeSlice } from './guard';
import { targetAt, type NameTarget } from './locate';
import { toRange } from './positions';
import { sourceLocationAt } from './source-location';

/** A resolved name: where it is defined (if anywhere) and every reference. */
export interface Occurrences {
  readonly kind: 'instruction' | 'computation';
  readonly name: string;
  readonly definition?: TextRange;
  /** Every other occurrence; asked without a cancellation token, only signature parameters of an instruction's name. */
  readonly references: readonly TextRange[];
}

/** The name target under `offset`, with the statement index it is in. */
export function nameAt(doc: HloDocument, offset: number): { index: number; target: NameTarget } | undefined {
  const index = doc.statementIndexAt(offset);
  if (index < 0) return undefined;
  const target = targetAt(doc.parseAt(index, offset), offset);
  return target?.kind === 'name' ? { index, target } : undefined;
}

export function isComputationRole(t: NameTarget): boolean {
  return t.role === 'computation-definition' || t.role === 'called-computation';
}

/** Statement indexes [first, end) of the module around statement `at`: its header (or `// -----`) to the next one. */
function moduleStatements(
  doc: HloDocument,
  c: ComputationEntry | undefined,
  at: number,
): { first: number; end: number } {
  const first = Math.max(0, c?.module ?? -1);
  let end = doc.statementCount;
  for (let i = at + 1; i < doc.statementCount; i++) {
    const kind = doc.summary(i).kind;
    if (kind === 'module' || kind === 'separator') {
      end = i;
      break;
    }
  }
  return { first, end };
}

/** Where an instruction name occurs in one computation, in text order. */
export interface InstructionNameSites {
  /** Instructions defining the name (more than one: a clash). */
  readonly definitions: readonly TextRange[];
  /** Signature parameters of that name (`%c (p: f32[8]) -> ...`). */
  readonly parameters: readonly TextRange[];
  /** Operands and `control-predecessors` naming it (only when asked with a cancellation token). */
  readonly uses: readonly TextRange[];
}

/**
 * Every place the instruction name `name` occurs in the computation `c`: a text search for the
 * identifier, each hit confirmed by parsing its statement (so names in metadata strings do not
 * count). Only statements that mention the name are parsed: the ENTRY computation of a large dump
 * holds tens of thousands of instructions, too many to parse for every click. Without
 * `token` only definitions and signature parameters are wanted: a hit that is not where its
 * statement names what it defines is then skipped unparsed (hover and go to definition on a name
 * used by every instruction).
 */
export async function instructionNameSites(
  doc: HloDocument,
  c: ComputationEntry,
  name: string,
  token?: CancellationToken,
): Promise<InstructionNameSites> {
  const text = doc.text.getText();
  // A computation written in place starts after the instruction that opens it (the one around's).
  const from = c.parent === undefined ? doc.range(c.header).start : doc.range(c.header).end;
  const to = doc.range(c.last).end;
  const slice = new TimeSlice([doc]);
  const definitions: TextRange[] = [];
  const parameters: TextRange[] = [];
  const uses: TextRange[] = [];
  for (
    let at = text.indexOf(name, from);
    at >= 0 && at + name.length <= to;
    at = text.indexOf(name, at + 1)
  ) {
    if (token) await slice.tick(token);
    const end = at + name.length;
    // Whole identifiers only: `%x` must not match inside `%x.1`.
    if (
      (at > 0 && isIdentifierChar(text.charCodeAt(at - 1))) ||
      (end < text.length && isIdentifierChar(text.charCodeAt(end)))
    )
      continue;
    const i = doc.statementIndexAt(at);
    if (i < 0) continue;
    // Names in a computation written in place in `c` are its own: search on after its `}`.
    const inner = doc.innerAt(c, i);
    if (inner) {
      at = doc.range(inner.last).end;
      continue;
    }
    const { kind, parts } = doc.summary(i);
    const statementEnd = doc.range(i).end;
    if (!token && kind === 'instruction' && parts === undefined) {
      const declared = declaredName(text, doc.range(i), 'ROOT')?.range.start;
      if (declared === at) definitions.push({ start: at, end });
      // No later hit in this statement can be where it names what it defines.
      if (declared === undefined || declared <= at) at = statementEnd - 1;
      continue;
    }
    // One parse gives every use in the statement: search on after it, not hit by hit (a
    // statement may name `name` hundreds of thousands of times).
    at = statementEnd - 1;
    // Every statement XLA reads in the statement's text (`%a = ... %b = negate(%a)` on one line).
    for (const st of parts === undefined ? [doc.parse(i)] : doc.parseParts(i)) {
      // Appended one by one: a statement may name `name` hundreds of thousands of times, more
      // arguments than a spread into push() takes.
      if (st.kind === 'computation')
        for (const p of st.parameters) if (p.name === name) parameters.push(p.range);
      if (st.kind !== 'instruction') continue;
      if (st.name.name === name) definitions.push(st.name.range);
      const here: TextRange[] = [];
      for (const n of st.operands) if (n.name === name) here.push(n.range);
      for (const n of st.controlPredecessors) if (n.name === name) here.push(n.range);
      here.sort((a, b) => a.start - b.start);
      for (const r of here) uses.push(r);
    }
  }
  return { definitions, parameters, uses };
}

/**
 * The instruction `name` in the computation of statement `index`, resolved as core's buildModule
 * resolves it: its first defining instruction, or else its first signature parameter, is the
 * definition; signature parameters of an instruction's name refer to it.
 */
async function instructionOccurrences(
  doc: HloDocument,
  index: number,
  name: string,
  token?: CancellationToken,
): Promise<Occurrences | undefined> {
  const c = doc.computationOf(index);
  if (!c) return undefined;
  const sites = await instructionNameSites(doc, c, name, token);
  const definition = sites.definitions[0] ?? sites.parameters[0];
  const parameters = sites.definitions.length > 0 ? sites.parameters : sites.parameters.slice(1);
  const references = [...parameters, ...sites.uses].sort((a, b) => a.start - b.start);
  return { kind: 'instruction', name, ...(definition ? { definition } : {}), references };
}

/** The computation called `name` in the module of statement `index` (names are scoped to their module). */
export function computationNamed(
  doc: HloDocument,
  name: string,
  index: number,
): ComputationEntry | undefined {
  return namedIn(doc, name, moduleStatements(doc, doc.computationOf(index), index));
}

/** The computations of the module of statement `index`, in text order. */
export function computationsInModule(doc: HloDocument, index: number): ComputationEntry[] {
  const scope = moduleStatements(doc, doc.computationOf(index), index);
  return doc.computations().filter((c) => within(scope, c));
}

/** The computations of the module of statement `index` by name (the first of a name, as {@link computationNamed}). */
export function moduleComputations(doc: HloDocument, index: number): Map<string, ComputationEntry> {
  const out = new Map<string, ComputationEntry>();
  for (const c of computationsInModule(doc, index)) {
    if (c.name !== undefined && !out.has(c.name)) out.set(c.name, c);
  }
  return out;
}

function namedIn(
  doc: HloDocument,
  name: string,
  scope: { first: number; end: number },
): ComputationEntry | undefined {
  return doc.computations().find((c) => c.name === name && within(scope, c));
}

function within(scope: { first: number; end: number }, c: ComputationEntry): boolean {
  return c.header >= scope.first && c.header < scope.end;
}

/**
 * Where the computation `name` is defined and, when `token` is given, every reference to it in the
 * module of statement `index`.
 */
export async function computationOccurrences(
  doc: HloDocument,
  index: number,
  name: string,
  token: CancellationToken | undefined,
): Promise<Occurrences> {
  const own = doc.computationOf(index);
  const scope = moduleStatements(doc, own, index);
  const header = namedIn(doc, name, scope);
  let definition: TextRange | undefined;
  if (header) {
    const st = doc.parseAt(header.header, doc.partStart(header.header, header.headerPart));
    if (st.kind === 'computation' && st.name) definition = st.name.range;
  }
  const references: TextRange[] = [];
  if (token) {
    const text = doc.text.getText();
    const from = doc.range(scope.first).start;
    const to = scope.end < doc.statementCount ? doc.range(scope.end).start : text.length;
    const slice = new TimeSlice([doc]);
    let lastParsed = -1;
    for (
      let at = text.indexOf(name, from);
      at >= 0 && at + name.length <= to;
      at = text.indexOf(name, at + 1)
    ) {
      await slice.tick(token);
      const end = at + name.length;
      // Whole identifiers only: `%fused` must not match inside `%fused.1`.
      if (
        (at > 0 && isIdentifierChar(text.charCodeAt(at - 1))) ||
        (end < text.length && isIdentifierChar(text.charCodeAt(end)))
      )
        continue;
      // A computation is named after `=`, `{`, `,` or a blank (with or without `%`); this skips
      // the statements that mention it only in metadata (`op_name="jit(main)/..."`) unparsed.
      if (!canNameComputation(text, at)) continue;
      const i = doc.statementIndexAt(at);
      if (i < 0 || i === lastParsed) continue;
      lastParsed = i;
      for (const st of doc.summary(i).parts === undefined ? [doc.parse(i)] : doc.parseParts(i))
        if (st.kind === 'instruction')
          for (const ref of st.calledComputations) if (ref.name === name) references.push(ref.range);
    }
  }
  return { kind: 'computation', name, ...(definition ? { definition } : {}), references };
}

/** Whether a computation-valued attribute can name a computation at `at`, judged by the character before. */
function canNameComputation(text: string, at: number): boolean {
  const before = text[at - 1] === '%' ? at - 2 : at - 1;
  return before >= 0 && '={, \t\n\r'.includes(text[before]);
}

/** The name under `offset`: its definition, and with `token` given its references too (found in a time-sliced search). */
export async function occurrencesAt(
  doc: HloDocument,
  offset: number,
  token?: CancellationToken,
): Promise<Occurrences | undefined> {
  const hit = nameAt(doc, offset);
  if (!hit) return undefined;
  if (isComputationRole(hit.target))
    return computationOccurrences(doc, hit.index, hit.target.name.name, token);
  return instructionOccurrences(doc, hit.index, hit.target.name.name, token);
}

/**
 * textDocument/definition: of an instruction or computation name, or of a `source_file`,
 * `source_line` or `stack_frame_id` value (its source line; as a link underlining the whole value
 * when the client takes links). On the name an instruction defines, where going to its definition
 * would stay in place, its source line when its metadata has one.
 */
export async function definition(
  doc: HloDocument,
  offset: number,
  linkSupport = false,
): Promise<Location[] | LocationLink[]> {
  const hit = nameAt(doc, offset);
  const defined = hit?.target.role === 'instruction-definition' ? hit.target.name.range : undefined;
  const source = sourceLocationAt(doc, offset, defined);
  if (source) {
    const range = { start: { line: source.line, character: 0 }, end: { line: source.line, character: 0 } };
    if (!linkSupport) return [{ uri: source.uri, range }];
    return [
      {
        originSelectionRange: toRange(doc.text, source.origin),
        targetUri: source.uri,
        targetRange: range,
        targetSelectionRange: range,
      },
    ];
  }
  const occ = await occurrencesAt(doc, offset);
  return occ?.definition ? [{ uri: doc.uri, range: toRange(doc.text, occ.definition) }] : [];
}

/** textDocument/references. */
export async function references(
  doc: HloDocument,
  offset: number,
  includeDeclaration: boolean,
  token: CancellationToken,
): Promise<Location[]> {
  const occ = await occurrencesAt(doc, offset, token);
  if (!occ) return [];
  const ranges = [...(includeDeclaration && occ.definition ? [occ.definition] : []), ...occ.references];
  return ranges.map((r) => ({ uri: doc.uri, range: toRange(doc.text, r) }));
}

/** textDocument/documentHighlight: the definition as Write, references as Read. */
export async function highlights(
  doc: HloDocument,
  offset: number,
  token: CancellationToken,
): Promise<DocumentHighlight[]> {
  const occ = await occurrencesAt(doc, offset, token);
  if (!occ) return [];
  return [
    ...(occ.definition
      ? [{ range: toRange(doc.text, occ.definition), kind: DocumentHighlightKind.Write }]
      : []),
    ...occ.references.map((r) => ({ range: toRange(doc.text, r), kind: DocumentHighlightKind.Read })),
  ];
}
