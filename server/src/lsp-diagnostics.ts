/**
 * Core diagnostics → LSP diagnostics: exact ranges, the rule code with a link to its section of
 * docs/rules.md, `source: 'xla-layout'`, and the user's severity overrides applied ('off' drops).
 * Statements keep their diagnostics with line-relative spans, so building the document's list after
 * an edit costs one line lookup per statement with diagnostics, not one per diagnostic end.
 */
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { RuleCode, Severity } from '../../core/src/diagnostics';
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

/** All of a document's diagnostics in LSP form. */
export function documentDiagnostics(doc: HloDocument, settings: Settings, rulesDoc: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  // One codeDescription object per rule: the serialised message is the same, the heap is not.
  const links = new Map<RuleCode, { href: string }>();
  doc.forEachDiagnostic((d, base) => {
    const override = settings.severity.get(d.code);
    if (override === 'off') return;
    let link = links.get(d.code);
    if (!link) {
      link = { href: ruleHref(rulesDoc, d.code) };
      links.set(d.code, link);
    }
    const s = d.span;
    out.push({
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
  });
  return out;
}
