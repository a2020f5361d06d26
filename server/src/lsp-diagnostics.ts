/**
 * Core diagnostics → LSP diagnostics: exact ranges, the rule code with a link to its section of
 * docs/rules.md, `source: 'xla-layout'`, and the user's severity overrides applied ('off' drops).
 * Statements keep their diagnostics with line-relative spans, and the document indexes the
 * statements that have any, so building the list after an edit costs one line lookup per such
 * statement. The LSP objects of a statement are kept with its summary and reused while the
 * statement stays at the same position (an edit elsewhere that adds no line, the usual case).
 */
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { RuleCode, Severity } from '../../core/src/diagnostics';
import type { StatementSummary } from './analyzer';
import type { HloDocument } from './document';
import { ruleHref } from './rules-link';
import type { SeverityOverride, Settings } from './settings';

export const DIAGNOSTIC_SOURCE = 'xla-layout';

const LSP_SEVERITY: Record<Exclude<SeverityOverride, 'off'> | Severity, DiagnosticSeverity> = {
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

/** All of a document's diagnostics in LSP form. */
export function documentDiagnostics(doc: HloDocument, settings: Settings, rulesDoc: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  // One codeDescription object per rule: the serialised message is the same, the heap is not.
  const links = new Map<RuleCode, { href: string }>();
  doc.forEachStatementWithDiagnostics((summary, diagnostics, base) => {
    const cached = converted.get(summary);
    if (cached && cached.line === base.line && cached.character === base.character && cached.settings === settings && cached.rulesDoc === rulesDoc) {
      for (const d of cached.diagnostics) out.push(d);
      return;
    }
    const mine: Diagnostic[] = [];
    for (const d of diagnostics) {
      const override = settings.severity.get(d.code);
      if (override === 'off') continue;
      let link = links.get(d.code);
      if (!link) {
        link = { href: ruleHref(rulesDoc, d.code) };
        links.set(d.code, link);
      }
      const s = d.span;
      mine.push({
        range: {
          start: { line: base.line + s.startLine, character: s.startLine === 0 ? base.character + s.startCharacter : s.startCharacter },
          end: { line: base.line + s.endLine, character: s.endLine === 0 ? base.character + s.endCharacter : s.endCharacter },
        },
        severity: LSP_SEVERITY[override ?? d.severity],
        code: d.code,
        codeDescription: link,
        source: DIAGNOSTIC_SOURCE,
        message: d.message,
      });
    }
    converted.set(summary, { line: base.line, character: base.character, settings, rulesDoc, diagnostics: mine });
    for (const d of mine) out.push(d);
  });
  return out;
}
