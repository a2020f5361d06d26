/**
 * Core diagnostics → LSP diagnostics: exact ranges, the rule code with a link to its section of
 * docs/rules.md, `source: 'xla-layout'`, and the user's severity overrides applied ('off' drops).
 * Statements keep their diagnostics with line-relative spans, and the document indexes the
 * statements that show any, with how many, so building the list after an edit costs one line
 * lookup per statement listed. The LSP objects of a statement are kept with its summary and reused
 * while the statement stays at the same position (an edit elsewhere that adds no line, the usual
 * case).
 */
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver';
import { readableMessage, RULES, skipTrivia, type LayoutDiagnostic, type RuleCode } from '../../core/src';
import type { StatementSummary } from './analyzer';
import type { HloDocument } from './document';
import { toPosition, toRange } from './positions';
import { ruleHref } from './rules-link';
import { shownSeverity, type Settings, type ShownSeverity } from '../../protocol/src/settings';

export const DIAGNOSTIC_SOURCE = 'xla-layout';

const LSP_SEVERITY: Record<ShownSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The LSP diagnostics of one statement, as last converted: valid for the same position, settings and link target. */
interface Converted {
  readonly line: number;
  readonly character: number;
  readonly settings: Settings;
  readonly rulesDoc: string;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Conversions by summary. Summaries with diagnostics are never shared between statements and are
 * replaced when their statement changes, so an entry dies with its statement.
 */
const converted = new WeakMap<StatementSummary, Converted>();

/** Converts core diagnostics to LSP ones, with one link object per rule (the same serialised text, less heap). */
class Converter {
  private readonly links = new Map<RuleCode, { href: string }>();

  constructor(
    private readonly settings: Settings,
    private readonly rulesDoc: string,
  ) {}

  /** The LSP form of `d` at `range`, or undefined when its rule is turned off. */
  convert(d: LayoutDiagnostic, range: Range): Diagnostic | undefined {
    const severity = shownSeverity(d.code, d.severity, this.settings.severity);
    if (severity === undefined) return undefined;
    let link = this.links.get(d.code);
    if (!link) {
      link = { href: ruleHref(this.rulesDoc, d.code) };
      this.links.set(d.code, link);
    }
    return {
      range,
      severity: LSP_SEVERITY[severity],
      code: d.code,
      codeDescription: link,
      source: DIAGNOSTIC_SOURCE,
      message: readableMessage(d),
      // What the quick fix inserts (code-actions.ts); editors hand `data` back with the diagnostic.
      ...(d.expected === undefined ? {} : { data: { expected: d.expected } }),
    };
  }
}

/**
 * A document's diagnostics as published: at most `maxErrors` errors and `maxWarnings` others (the
 * first found of each), and for each kind one entry at the first left out saying how many are and
 * which setting lists more. A generated dump can hold tens of thousands of padding warnings, a
 * broken one as many errors, and every edit republishes them: megabytes of JSON per keystroke,
 * for a list nobody reads past its first screens.
 */
class CappedList {
  private readonly kept: Diagnostic[] = [];
  private listed = 0;
  private more = 0;
  private firstLeftOut: Range | undefined;
  private errors = 0;
  private moreErrors = 0;
  private firstErrorLeftOut: Range | undefined;

  constructor(
    private readonly max: number,
    private readonly maxErrors: number,
  ) {}

  /**
   * Whether every diagnostic that is not an error is only counted from here on: the list is full
   * and the place of its summary entry known.
   */
  get counting(): boolean {
    return this.firstLeftOut !== undefined;
  }

  add(d: Diagnostic): void {
    if (d.severity === DiagnosticSeverity.Error) {
      if (this.errors < this.maxErrors) {
        this.kept.push(d);
        this.errors++;
      } else {
        this.moreErrors++;
        this.firstErrorLeftOut ??= d.range;
      }
    } else if (this.listed < this.max) {
      this.kept.push(d);
      this.listed++;
    } else {
      this.more++;
      this.firstLeftOut ??= d.range;
    }
  }

  /** Counts `n` diagnostics that are not errors, once {@link counting}. */
  leaveOut(n: number): void {
    this.more += n;
  }

  result(): Diagnostic[] {
    const { more, max, moreErrors, maxErrors } = this;
    const n = (x: number) => x.toLocaleString('en-US');
    if (moreErrors > 0)
      this.kept.push({
        range: this.firstErrorLeftOut ?? ORIGIN,
        severity: DiagnosticSeverity.Error,
        source: DIAGNOSTIC_SOURCE,
        message: `${n(moreErrors)} more error${moreErrors === 1 ? '' : 's'} in this file are not listed, from here on: at most ${n(maxErrors)} are (setting xlaLayout.diagnostics.maxErrors). \`xla-layout check\` lists them all.`,
      });
    if (more > 0)
      this.kept.push({
        range: this.firstLeftOut ?? ORIGIN,
        severity: DiagnosticSeverity.Information,
        source: DIAGNOSTIC_SOURCE,
        message: `${n(more)} more warning${more === 1 ? '' : 's'} and notes in this file are not listed, from here on: at most ${n(max)} are (setting xlaLayout.diagnostics.maxWarnings).${moreErrors > 0 ? '' : ' Every error is listed.'}`,
      });
    return this.kept;
  }
}

const ORIGIN: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Statements that hold no token: XLA's lexer skips blanks and comments. */
const TRIVIA: ReadonlySet<string> = new Set(['blank', 'comment', 'separator']);

/** The offset of the first token after statement `i` of `doc` (the end of the text when none follows). */
function nextTokenAfter(doc: HloDocument, i: number): number {
  for (let j = i + 1; j < doc.statementCount; j++) {
    if (TRIVIA.has(doc.summary(j).kind)) continue;
    const { start, end } = doc.range(j);
    return start + skipTrivia(doc.text.slice(start, end), 0, end - start);
  }
  return doc.text.length;
}

/**
 * The LSP diagnostics of statement `i` of `doc`, converted once and kept while the statement stays
 * at the same line and column.
 */
function statementDiagnostics(
  doc: HloDocument,
  i: number,
  converter: Converter,
  settings: Settings,
  rulesDoc: string,
): readonly Diagnostic[] {
  const summary = doc.summary(i);
  const base = toPosition(doc.text, doc.range(i).start);
  const cached = converted.get(summary);
  if (
    cached &&
    cached.line === base.line &&
    cached.character === base.character &&
    cached.settings === settings &&
    cached.rulesDoc === rulesDoc
  )
    return cached.diagnostics;
  const mine: Diagnostic[] = [];
  let waits = false;
  for (const d of summary.diagnostics ?? []) {
    if (d.atNextToken) {
      // Where it stands depends on the statements after this one: converted each time (rare).
      waits = true;
      const at = nextTokenAfter(doc, i);
      const lsp = converter.convert(
        d,
        toRange(doc.text, { start: at, end: Math.min(at + 1, doc.text.length) }),
      );
      if (lsp) mine.push(lsp);
      continue;
    }
    const s = d.span;
    const lsp = converter.convert(d, {
      start: {
        line: base.line + s.startLine,
        character: s.startLine === 0 ? base.character + s.startCharacter : s.startCharacter,
      },
      end: {
        line: base.line + s.endLine,
        character: s.endLine === 0 ? base.character + s.endCharacter : s.endCharacter,
      },
    });
    if (lsp) mine.push(lsp);
  }
  if (waits) return mine;
  converted.set(summary, {
    line: base.line,
    character: base.character,
    settings,
    rulesDoc,
    diagnostics: mine,
  });
  return mine;
}

/**
 * Which statement diagnostics the name diagnostics `names` replace (LayoutDiagnostic.replaces: an
 * operand count XLA never reaches, stopping at an undefined operand first); undefined when none.
 */
function replacedCounts(
  doc: HloDocument,
  names: readonly LayoutDiagnostic[],
): ((d: Diagnostic) => boolean) | undefined {
  const starts = new Set<string>();
  for (const n of names)
    if (n.replaces) {
      const p = toPosition(doc.text, n.replaces.start);
      starts.add(`${p.line}:${p.character}`);
    }
  if (starts.size === 0) return undefined;
  return (d) =>
    typeof d.code === 'string' &&
    d.code.startsWith('operand-count') &&
    starts.has(`${d.range.start.line}:${d.range.start.character}`);
}

/**
 * All of a document's diagnostics in LSP form, capped at `settings.maxErrors` errors and
 * `settings.maxWarnings` warnings and notes (see {@link CappedList}): its statements' and, after them, `names` (absolute offsets; see
 * name-diagnostics.ts), whose related places are kept when the client shows them. Once the list is
 * full, statements without errors are only counted, from the counts the document keeps beside them:
 * an edit in a dump with 50,000 warnings costs about what the first thousand cost, and statements
 * whose every rule is turned off are not visited. A document under analysis (`partial`) shows the
 * padding warnings of ENTRY only: which other values hold memory of their own depends on calls
 * further down.
 */
export function documentDiagnostics(
  doc: HloDocument,
  settings: Settings,
  rulesDoc: string,
  names: readonly LayoutDiagnostic[] = [],
  relatedInformation = false,
  partial = false,
): Diagnostic[] {
  const list = new CappedList(settings.maxWarnings, settings.maxErrors);
  const converter = new Converter(settings, rulesDoc);
  const { indexes, counts } = doc.statementsWithDiagnostics(settings.severity);
  const paddingOn = shownSeverity('padding-overhead', RULES['padding-overhead'].severity, settings.severity);
  // Built only when padding warnings are on: it reads the module's calls.
  const paddingShown =
    paddingOn === undefined ? undefined : partial ? doc.paddingShownSoFar() : doc.paddingShown();
  const replaced = replacedCounts(doc, names);
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k];
    // Padding warnings of values that get no memory of their own are not shown (HloDocument.paddingShown).
    const padding = paddingShown === undefined ? 0 : doc.summary(i).allocation.padding;
    const hidden = padding > 0 && paddingShown?.(i) === false ? padding : 0;
    // Most statements of a fused computation warn of nothing else.
    if (hidden > 0 && hidden === counts[k]) continue;
    if (counts[k] > 0 && list.counting) list.leaveOut(counts[k] - hidden);
    else
      for (const d of statementDiagnostics(doc, i, converter, settings, rulesDoc))
        if ((hidden === 0 || d.code !== 'padding-overhead') && !replaced?.(d)) list.add(d);
  }
  for (const d of names) {
    const lsp = converter.convert(d, toRange(doc.text, d.range));
    if (!lsp) continue;
    if (relatedInformation && d.related)
      lsp.relatedInformation = d.related.map((p) => ({
        location: { uri: doc.uri, range: toRange(doc.text, p.range) },
        message: p.message,
      }));
    list.add(lsp);
  }
  return list.result();
}
