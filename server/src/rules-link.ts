/**
 * Where a diagnostic's code links to. An https URL of the project's docs/rules.md works in every
 * client this server supports — VS Code desktop, vscode.dev (where the extension has no file
 * system path), Neovim, Helix and Emacs — whereas a file URI into the extension folder would only
 * work on the desktop. GitHub derives each section's anchor from its heading, and every heading in
 * docs/rules.md is exactly the rule code, so the anchor is the code itself.
 */
import type { RuleCode } from '../../core/src/diagnostics';

/** The published rules page; one `## <code>` section per rule. */
export const RULES_DOC_URL = 'https://github.com/xla-layout-lens/xla-layout-lens/blob/main/docs/rules.md';

/** The link to the section of docs/rules.md that explains `code`. */
export function ruleHref(code: RuleCode): string {
  return `${RULES_DOC_URL}#${code}`;
}
