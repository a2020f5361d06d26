/**
 * Diagnostics on names (core's name-checks.ts: operands naming no instruction above them, calls of
 * computations not defined before, names defined twice, a second ROOT or ENTRY, parameter numbers,
 * async computations shared) for documents of up
 * to core's NAME_CHECK_MAX_CHARS.
 *
 * Each computation with a header is parsed on its own, with the computations written in place in
 * it, and its result is kept by its text: after an edit only the edited computation is parsed
 * again. The module-wide checks (calls, duplicate computations, ENTRY) then run over the kept
 * results, which is cheap.
 */
import { movedDiagnostic, RULES, type LayoutDiagnostic } from '../../core/src';
import {
  NAME_CHECK_MAX_CHARS,
  buildComputations,
  checkComputationNames,
  cleanEntryLayout,
  checkInstructionNames,
  computationCalls,
  declared,
  emptyComputations,
  moduleWithoutComputation,
  outsideComputation,
  parseStatements,
  secondModules,
  sourceTableErrors,
  unclosedComputation,
  type ComputationCall,
  type DeclaredComputation,
  type EntryComputationLayout,
  type HloStatement,
  type StatementOutline,
} from '../../core/src';
import type { HloDocument } from './document';

/** What the checks need of one computation with a header; offsets relative to its first character. */
interface ComputationNames {
  readonly diagnostics: readonly LayoutDiagnostic[];
  readonly calls: readonly ComputationCall[];
  readonly declared: DeclaredComputation;
}

function moved<T extends { readonly range: { start: number; end: number } }>(x: T, delta: number): T {
  return { ...x, range: { start: x.range.start + delta, end: x.range.end + delta } };
}

/** The ranges of statements [first, last] of `doc` cut to [base, end), relative to `base`. */
function statementRanges(
  doc: HloDocument,
  first: number,
  last: number,
  base: number,
  end: number,
): { start: number; end: number }[] {
  const ranges = [];
  for (let i = first; i <= last; i++) {
    const r = doc.range(i);
    ranges.push({ start: Math.max(r.start, base) - base, end: Math.min(r.end, end) - base });
  }
  return ranges;
}

/** The checks of one computation with a header, whose statements are `ranges` of `text`, with those written in place in it. */
function computationNames(
  text: string,
  ranges: readonly { start: number; end: number }[],
): ComputationNames | undefined {
  const statements: HloStatement[] = parseStatements(text, ranges);
  const model = buildComputations(statements);
  const own = model.computations[0];
  if (!own || own.inline) return undefined;
  return {
    diagnostics: checkInstructionNames(model, text),
    calls: computationCalls(model.computations),
    declared: declared(own),
  };
}

/** The `entry_computation_layout` of the module header at statement `i` (-1: none), when it parses cleanly. */
function entryLayout(doc: HloDocument, i: number): EntryComputationLayout | undefined {
  if (i < 0 || doc.summary(i).kind !== 'module') return undefined;
  return cleanEntryLayout(doc.parse(i));
}

/**
 * Adds the errors on computations never closed, statements outside any, a last module without
 * computations (core's structure-checks.ts) and source tables XLA does not read (source-tables.ts);
 * returns how many.
 */
function structure(doc: HloDocument, text: string, out: LayoutDiagnostic[]): number {
  const before = out.length;
  const computations = doc.computations();
  // One outline per statement XLA reads: the parts of a statement (`ENTRY %e { ROOT ... }`) apart.
  const statements: StatementOutline[] = [];
  for (let i = 0; i < doc.statementCount; i++) {
    const s = doc.summary(i);
    const range = doc.range(i);
    const parts = s.parts;
    if (parts === undefined) {
      statements.push({ kind: s.kind, range, opens: s.opensComputation });
      continue;
    }
    const at = (k: number) => (k < parts.length ? range.start + parts[k].start : range.end);
    statements.push({ kind: s.kind, range: { start: range.start, end: at(0) } });
    parts.forEach((p, k) =>
      statements.push({ kind: p.kind, range: { start: at(k), end: at(k + 1) }, opens: p.opensComputation }),
    );
  }
  const joined = secondModules(text, statements);
  // The last module header, unless a computation or a statement XLA refuses (it stops there) follows it.
  for (let i = doc.statementCount - 1; i >= 0 && joined.length === 0; i--) {
    const { kind, diagnostics, parts } = doc.summary(i);
    if (kind === 'computation' || diagnostics?.some((d) => d.severity === 'error')) break;
    if (parts?.some((p) => p.kind === 'computation')) break;
    if (kind !== 'module') continue;
    const header = doc.parse(i);
    if (header.kind === 'module') out.push(moduleWithoutComputation(text, header));
    break;
  }
  for (const c of computations) {
    if (c.closed || c.parent !== undefined) continue;
    // The header is the statement's last computation part (`} ENTRY %e {` holds one after a `}`).
    const header = doc
      .parseParts(c.header)
      .filter((s) => s.kind === 'computation')
      .pop();
    if (header?.kind !== 'computation') continue;
    let next = c.last + 1;
    while (next < doc.statementCount && TRIVIA.has(doc.summary(next).kind)) next++;
    out.push(unclosedComputation(text, header, next < doc.statementCount ? doc.parse(next) : undefined));
  }
  for (const { statement, part } of doc.strays()) {
    const d = outsideComputation(text, doc.parseParts(statement)[part + 1]);
    if (d) out.push(d);
  }
  for (const d of sourceTableErrors(text, statements)) out.push(d);
  for (const d of [...joined, ...emptyComputations(text, statements)])
    if (!out.some((o) => o.range.start === d.range.start)) out.push(d);
  return out.length - before;
}

const TRIVIA = new Set(['blank', 'comment']);

/** Whether a statement of `doc` holds an error of XLA's text parser (which stops it there). */
function parserErrorIn(doc: HloDocument): boolean {
  for (let i = 0; i < doc.statementCount; i++)
    if (doc.summary(i).diagnostics?.some((d) => d.severity === 'error' && RULES[d.code].stage === 'parser'))
      return true;
  return false;
}

/** The name checks of one document, with what they found per computation kept by its text. */
export class NameChecks {
  private byText = new Map<string, ComputationNames | undefined>();
  private last: { version: number; diagnostics: readonly LayoutDiagnostic[] } | undefined;

  /** Every name diagnostic of `doc` (absolute offsets); none when it is larger than {@link NAME_CHECK_MAX_CHARS}. */
  diagnostics(doc: HloDocument): readonly LayoutDiagnostic[] {
    if (this.last?.version === doc.version) return this.last.diagnostics;
    const out: LayoutDiagnostic[] = [];
    // The length first: assembling the text of a large document after an edit costs tens of ms.
    if (doc.text.length <= NAME_CHECK_MAX_CHARS) {
      const text = doc.text.getText();
      const kept = new Map<string, ComputationNames | undefined>();
      const modules = new Map<number, { declared: DeclaredComputation[]; calls: ComputationCall[] }>();
      for (const c of doc.computations()) {
        if (c.parent !== undefined) continue;
        // From its header to its `}`: a statement may hold the end of the one before or the start of the next.
        const base = doc.partStart(c.header, c.headerPart);
        const keyEnd = doc.partEnd(c.last, c.lastPart);
        const key = text.slice(base, keyEnd);
        let names: ComputationNames | undefined;
        if (kept.has(key)) names = kept.get(key);
        else {
          names = this.byText.has(key)
            ? this.byText.get(key)
            : computationNames(key, statementRanges(doc, c.header, c.last, base, keyEnd));
          kept.set(key, names);
        }
        if (!names) continue;
        for (const d of names.diagnostics) out.push(movedDiagnostic(d, base));
        let m = modules.get(c.module);
        if (!m) modules.set(c.module, (m = { declared: [], calls: [] }));
        const at = names.declared;
        m.declared.push({
          ...(at.name ? { name: moved(at.name, base) } : {}),
          ...(at.entryKeyword
            ? { entryKeyword: { start: at.entryKeyword.start + base, end: at.entryKeyword.end + base } }
            : {}),
          end: at.end + base,
          ...(at.arity ? { arity: at.arity } : {}),
        });
        for (const call of names.calls) m.calls.push(moved(call, base));
      }
      // XLA's parser stops on a structure error before the import that compares the entry layout.
      const parsed = structure(doc, text, out) === 0 && !parserErrorIn(doc);
      for (const [module, m] of modules) {
        const layout = parsed ? entryLayout(doc, module) : undefined;
        for (const d of checkComputationNames(m.declared, m.calls, layout)) out.push(d);
      }
      this.byText = kept;
    } else this.byText.clear();
    this.last = { version: doc.version, diagnostics: out };
    return out;
  }
}
