/**
 * Where a diagnostic's code links to: the section of docs/rules.md that explains it. Every heading
 * in docs/rules.md is exactly the rule code, so the anchor is the code itself.
 *
 * The page is found, in order: from the client (`initializationOptions.rulesDocUri`; VS Code's
 * client passes the copy inside the installed extension, which works on the desktop and on
 * vscode.dev alike), from the server's own location (dist/server.js sits beside docs/ in a
 * checkout and in the .vsix, for Neovim, Helix and Emacs), else the project's published page.
 */
import type { RuleCode } from '../../core/src';

/** The project's published rules page; the last resort when no local copy is known. */
export const PUBLISHED_RULES_DOC =
  'https://github.com/xla-layout-lens/xla-layout-lens/blob/main/docs/rules.md';

/** Accepts a rules page URI from a client only if it is an absolute URI of a scheme that opens a document. */
export function acceptRulesDocUri(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 4096) return undefined;
  return /^(file|https?|vscode-remote|vscode-vfs|vscode-file):\/\/[^\s#]*$/i.test(value) ? value : undefined;
}

/** The link to the section of `rulesDoc` that explains `code`. */
export function ruleHref(rulesDoc: string, code: RuleCode): string {
  return `${rulesDoc}#${code}`;
}
