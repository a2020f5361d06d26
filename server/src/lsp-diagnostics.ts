/**
 * Core diagnostics → LSP diagnostics: exact ranges, the rule code with a link to its section of
 * docs/rules.md, `source: 'xla-layout'`, and the user's severity overrides applied ('off' drops).
 */
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { LayoutDiagnostic, Severity } from '../../core/src/diagnostics';
import type { HloDocument } from './document';
import { toRange } from './positions';
import { ruleHref } from './rules-link';
import type { SeverityOverride, Settings } from './settings';

export const DIAGNOSTIC_SOURCE = 'xla-layout';

const LSP_SEVERITY: Record<Exclude<SeverityOverride, 'off'> | Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The LSP form of `d`, or undefined when its rule is turned off. */
export function toLspDiagnostic(doc: HloDocument, d: LayoutDiagnostic, settings: Settings): Diagnostic | undefined {
  const override = settings.severity.get(d.code);
  if (override === 'off') return undefined;
  return {
    range: toRange(doc.text, d.range),
    severity: LSP_SEVERITY[override ?? d.severity],
    code: d.code,
    codeDescription: { href: ruleHref(d.code) },
    source: DIAGNOSTIC_SOURCE,
    message: d.message,
  };
}

/** All of a document's diagnostics in LSP form. */
export function documentDiagnostics(doc: HloDocument, settings: Settings): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of doc.diagnostics()) {
    const lsp = toLspDiagnostic(doc, d, settings);
    if (lsp) out.push(lsp);
  }
  return out;
}
