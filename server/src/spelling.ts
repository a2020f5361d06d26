/**
 * "Change to %add.1": for an operand or a call naming nothing XLA's parser knows there, the known
 * name spelt most like it (name-checks.ts reports them; code-actions.ts offers the change).
 */
import { closestName, declaredName } from '../../core/src';
import type { HloDocument } from './document';

/** The instruction names statement `index` may use: those defined above it in its computation, nearest first. */
function* namesAbove(doc: HloDocument, index: number): Generator<string> {
  const c = doc.computationOf(index);
  if (!c) return;
  const text = doc.text.getText();
  // Computations written in place in this one are skipped: their names are their own.
  for (const i of doc.statementsBefore(c, index)) {
    if (doc.summary(i).kind !== 'instruction') continue;
    const name = declaredName(text, doc.range(i), 'ROOT');
    if (name) yield name.name;
  }
}

/** The computation names a call in statement `index` may use: those complete before it in its module, nearest first. */
function* computationsAbove(doc: HloDocument, index: number): Generator<string> {
  const list = doc.computations();
  const module = doc.computationOf(index)?.module;
  for (let k = list.length - 1; k >= 0; k--) {
    const c = list[k];
    if (c.parent === undefined && c.name !== undefined && c.module === module && c.last < index) yield c.name;
  }
}

/** Whether an instruction anywhere in the named computation around statement `index` (bodies written in place included) is called `name`. */
function declaredAround(doc: HloDocument, index: number, name: string): boolean {
  const c = doc.computationOf(index);
  if (!c) return false;
  const outer = doc.outermost(c);
  const text = doc.text.getText();
  for (let i = outer.header + 1; i <= outer.last; i++) {
    if (doc.summary(i).kind === 'instruction' && declaredName(text, doc.range(i), 'ROOT')?.name === name)
      return true;
  }
  return false;
}

/**
 * The name to write instead of the unknown one at `range` (reported with rule `code`), if one is
 * spelt much like it. None when the name does exist, only too far down or out of scope: then the
 * definition is what has to move.
 */
export function respelling(
  doc: HloDocument,
  code: string,
  range: { start: number; end: number },
): string | undefined {
  const name = doc.text.getText().slice(range.start, range.end);
  const index = doc.statementIndexAt(range.start);
  if (code === 'instruction-undefined')
    return declaredAround(doc, index, name) ? undefined : closestName(name, namesAbove(doc, index));
  if (code === 'computation-undefined') {
    const module = doc.computationOf(index)?.module;
    if (doc.computations().some((c) => c.name === name && c.module === module)) return undefined;
    return closestName(name, computationsAbove(doc, index));
  }
  return undefined;
}
