/**
 * A diagnostic's rule code opens that rule's section of docs/rules.md rendered, in one tab beside
 * the editor. VS Code opens a diagnostic's `codeDescription.href` itself, and a file link opens the
 * page as text at line 1, in a new tab each time; so the client points the codes at the
 * {@link OPEN_RULE} command instead (`command:` links from the Problems panel and the hover are
 * run by VS Code), which shows the markdown preview of the page at the rule's heading. The preview
 * of a second rule replaces the first: the markdown extension reuses a preview only in the column
 * of the active text editor, so the rules preview beside is closed and opened again there.
 */
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient';
import { RULES } from '../../core/src';

export const OPEN_RULE = 'xlaLayout.openRule';

/** The rule code a command argument names, or undefined (arguments may come from any link). */
function ruleCode(arg: unknown): string | undefined {
  return typeof arg === 'string' && Object.hasOwn(RULES, arg) ? arg : undefined;
}

/** A diagnostic's code that opens the rule's section when clicked; the plain code for an unknown one. */
export function ruleCodeLink(code: string): vscode.Diagnostic['code'] {
  if (ruleCode(code) === undefined) return code;
  return {
    value: code,
    target: vscode.Uri.parse(`command:${OPEN_RULE}?${encodeURIComponent(JSON.stringify([code]))}`),
  };
}

/** Middleware pointing each of our diagnostics' code links at {@link OPEN_RULE}. */
export function ruleLinkMiddleware(): Pick<Middleware, 'handleDiagnostics'> {
  return {
    handleDiagnostics(uri, diagnostics, next) {
      for (const d of diagnostics) {
        if (typeof d.code === 'object') d.code = ruleCodeLink(String(d.code.value));
      }
      next(uri, diagnostics);
    },
  };
}

/** The tabs showing the markdown preview of `page`, in any group. */
function previewTabs(page: vscode.Uri): vscode.Tab[] {
  const label = `Preview ${page.path.slice(page.path.lastIndexOf('/') + 1)}`;
  return vscode.window.tabGroups.all.flatMap((g) =>
    g.tabs.filter(
      (t) =>
        t.input instanceof vscode.TabInputWebview &&
        /markdown\.preview/.test(t.input.viewType) &&
        t.label === label,
    ),
  );
}

/**
 * Shows the section of docs/rules.md (inside the extension) for the rule `arg`, rendered, beside
 * the editor, in the tab that shows the page already if there is one.
 */
export async function openRule(extension: vscode.ExtensionContext, arg: unknown): Promise<void> {
  const code = ruleCode(arg);
  if (code === undefined) {
    void vscode.window.showErrorMessage('XLA Layout: no such rule.');
    return;
  }
  const page = vscode.Uri.joinPath(extension.extensionUri, 'docs', 'rules.md');
  const open = previewTabs(page);
  if (open.length > 0) await vscode.window.tabGroups.close(open, true);
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', page.with({ fragment: code }));
  } catch {
    // Without the built-in markdown extension: the page as text, at the rule's heading.
    const doc = await vscode.workspace.openTextDocument(page);
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l === `## ${code}`);
    const at = new vscode.Position(Math.max(0, line), 0);
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      selection: new vscode.Range(at, at),
    });
  }
}
