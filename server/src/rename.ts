/**
 * textDocument/prepareRename and textDocument/rename of instruction and computation names. The
 * definition and every reference navigation finds get the new name: operands, control-predecessors
 * and signature parameter names for an instruction (scoped to its computation); `calls=`,
 * `to_apply=`, `body=`… for a computation (scoped to its module). Names inside strings
 * (`op_name="…"`) are left alone, as is the `%` sigil. A new name must be an HLO identifier, not a
 * keyword or element type, and not taken in its scope, where XLA's parser would reject it; a name
 * defined nowhere or twice in its scope is not renamed.
 */
import {
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Range,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { primitiveType } from '../../core/src';
import { isIdentifierChar, isIdentifierStart } from '../../core/src';
import type { HloDocument } from './document';
import {
  computationsInModule,
  instructionNameSites,
  isComputationRole,
  nameAt,
  occurrencesAt,
} from './navigation';
import type { NameTarget } from './locate';
import { toPosition, toRange } from './positions';

/** Words the HLO parser reads as keywords where a name without `%` stands. */
const KEYWORDS: ReadonlySet<string> = new Set(['ROOT', 'ENTRY', 'HloModule', 'true', 'false']);

function refuse(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/** Why `name` cannot name an instruction or computation, or undefined when it can. */
function invalidName(name: string): string | undefined {
  if (name.length === 0) return 'A name cannot be empty.';
  if (!isIdentifierStart(name.charCodeAt(0)))
    return `${JSON.stringify(name)} is not an HLO name: it must start with a letter or _.`;
  for (let i = 1; i < name.length; i++) {
    if (!isIdentifierChar(name.charCodeAt(i)))
      return `${JSON.stringify(name)} is not an HLO name: ${JSON.stringify(name[i])} cannot appear in one (letters, digits, _, . and - can).`;
  }
  if (KEYWORDS.has(name) || primitiveType(name) !== undefined)
    return `${JSON.stringify(name)} is an HLO keyword or element type.`;
  return undefined;
}

type NameKind = 'instruction' | 'computation';

/**
 * The name under `offset` if it can be renamed: defined exactly once in its scope. A name defined
 * nowhere is refused, and so is one defined twice in its scope (a clash), since which uses belong to
 * which definition would be guesswork.
 */
async function renameableAt(
  doc: HloDocument,
  offset: number,
): Promise<{ index: number; target: NameTarget; kind: NameKind } | undefined> {
  const hit = nameAt(doc, offset);
  if (!hit) return undefined;
  const kind: NameKind = isComputationRole(hit.target) ? 'computation' : 'instruction';
  const name = hit.target.name.name;
  const own = await definitionsOf(doc, hit.index, kind, name);
  if (own.length === 0)
    throw refuse(
      `%${name} is not defined in this ${kind === 'computation' ? 'module' : 'computation'}: there is nothing to rename.`,
    );
  if (own.length > 1)
    throw refuse(
      `%${name} names more than one ${kind} here (lines ${linesOf(doc, own)}): renaming it would be guesswork.`,
    );
  return { ...hit, kind };
}

/** textDocument/prepareRename: the name under `offset` (without `%`), null for anything but a name, or why it cannot be renamed. */
export async function prepareRename(
  doc: HloDocument,
  offset: number,
): Promise<{ range: Range; placeholder: string } | null> {
  const r = await renameableAt(doc, offset);
  return r ? { range: toRange(doc.text, r.target.name.range), placeholder: r.target.name.name } : null;
}

/** textDocument/rename: the edits, or a refusal saying why (see {@link renameableAt}, bad or taken new name). */
export async function rename(
  doc: HloDocument,
  offset: number,
  requested: string,
  token: CancellationToken,
): Promise<WorkspaceEdit | null> {
  const r = await renameableAt(doc, offset);
  if (!r) return null;
  const newName = requested.startsWith('%') ? requested.slice(1) : requested;
  const invalid = invalidName(newName);
  if (invalid) throw refuse(invalid);
  const occ = await occurrencesAt(doc, offset, token);
  if (!occ?.definition) return null;
  if (newName === occ.name) return { changes: { [doc.uri]: [] } };
  const taken = await definitionsOf(doc, r.index, r.kind, newName);
  if (taken.length > 0) {
    const scope =
      r.kind === 'computation' ? 'a computation in this module' : 'an instruction in this computation';
    throw refuse(`%${newName} already names ${scope} (line ${linesOf(doc, taken.slice(0, 1))}).`);
  }
  const edits = [occ.definition, ...occ.references].map((range) => ({
    range: toRange(doc.text, range),
    newText: newName,
  }));
  return { changes: { [doc.uri]: edits } };
}

function linesOf(doc: HloDocument, offsets: readonly number[]): string {
  return offsets.map((o) => toPosition(doc.text, o).line + 1).join(', ');
}

/**
 * Where `name` is defined in the scope of statement `index`: computations of its module, or
 * instructions of its computation (the signature parameter of that name when no instruction has it).
 */
async function definitionsOf(
  doc: HloDocument,
  index: number,
  kind: NameKind,
  name: string,
): Promise<number[]> {
  if (kind === 'computation') {
    return computationsInModule(doc, index)
      .filter((c) => c.name === name)
      .map((c) => doc.range(c.header).start);
  }
  const c = doc.computationOf(index);
  if (!c) return [];
  const sites = await instructionNameSites(doc, c, name);
  return (sites.definitions.length > 0 ? sites.definitions : sites.parameters).map((r) => r.start);
}
