/**
 * Explains in the editor why an HLO tab has no hovers or diagnostics: VS Code opens files over
 * 50 MB in the editor but never hands them to extensions (no TextDocument, no didOpen). Watches
 * the active tab; for such a file it shows a status bar item and, once per file and session, an
 * information message offering the commands that read the file from disk instead. A file under
 * the limit whose document is late (seen: 6.3 MiB taking over 3 s in code-server on a loaded
 * machine) only gets a "loading" item, never the claim that VS Code withheld it: it will arrive.
 */
import * as vscode from 'vscode';
import type { Ctx } from './ctx';
import { activeHloTab, syncedDocument } from './large-file-commands';
import { largeFileNotice, largeFileReason, type LargeFileReason } from './large-file-policy';

const REPORT = 'Padding Report';
/** How long a tab may wait for its document before the item shows (a new tab comes before its document). */
const DOCUMENT_GRACE_MS = 2000;
const CHECK = 'Check File';

/** Tooltip with links to both commands; they take the active tab's file when given no argument. */
function tooltip(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(
    `${text}\n\n[Padding Report](command:xlaLayout.paddingReport) · [Check File](command:xlaLayout.checkFile)`,
  );
  md.isTrusted = { enabledCommands: ['xlaLayout.paddingReport', 'xlaLayout.checkFile'] };
  return md;
}

/** The status item and one-time message for the active HLO tab that reached no extension. */
export class LargeFileNotice implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly told = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Bumped on every evaluation so a slow stat of an older tab cannot overwrite a newer answer. */
  private generation = 0;
  /** The file the item currently describes, and why. */
  private shown: { uri: vscode.Uri; reason: LargeFileReason } | undefined;

  constructor(private readonly ctx: Ctx) {
    this.item = vscode.window.createStatusBarItem('xlaLayout.largeFile', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'XLA Layout Lens: large file';
    // A click runs the report on the active tab, which is the file the item is about.
    this.item.command = 'xlaLayout.paddingReport';
    const refresh = (): void => void this.refresh();
    this.disposables.push(
      this.item,
      vscode.window.tabGroups.onDidChangeTabs(refresh),
      vscode.window.tabGroups.onDidChangeTabGroups(refresh),
      vscode.window.onDidChangeActiveTextEditor(refresh),
      vscode.workspace.onDidOpenTextDocument(refresh),
      vscode.workspace.onDidCloseTextDocument(refresh),
    );
    refresh();
  }

  /** The file the notice is about, if any (for the extension-host suite). */
  get current(): { readonly uri: vscode.Uri; readonly reason: LargeFileReason } | undefined {
    return this.shown;
  }

  /** Re-evaluates the active tab; resolves once the item reflects it. */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const uri = activeHloTab(this.ctx);
    if (uri === undefined || syncedDocument(uri) !== undefined) {
      this.show(undefined);
      return;
    }
    let size: number;
    try {
      size = (await vscode.workspace.fs.stat(uri)).size;
    } catch {
      // Not a readable file (deleted, virtual tab): nothing to explain.
      if (generation === this.generation) this.show(undefined);
      return;
    }
    if (generation !== this.generation) return;
    // The document of a small file may arrive while we were stat-ing it: look again.
    let reason = largeFileReason(size, syncedDocument(uri) !== undefined);
    if (reason === 'not-loaded') {
      // VS Code shows a new tab before it hands the document over (seen in the e2e run: a bogus
      // message for a 248-byte fixture). Give it time before showing anything; the document's
      // arrival starts a newer evaluation, which then has the say.
      await new Promise((resolve) => setTimeout(resolve, DOCUMENT_GRACE_MS));
      if (generation !== this.generation) return;
      reason = largeFileReason(size, syncedDocument(uri) !== undefined);
    }
    if (reason === undefined) {
      this.show(undefined);
      return;
    }
    // Under the limit the document is only late: a "loading" item, no message (it will arrive).
    const notice = largeFileNotice(reason, size);
    this.item.text = notice.status;
    this.item.tooltip = tooltip(notice.tooltip);
    this.show({ uri, reason });
    const key = uri.toString();
    if (!this.told.has(`${reason} ${key}`)) {
      this.told.add(`${reason} ${key}`);
      this.ctx.output.appendLine(`${key}: ${notice.log}`);
      if (notice.message !== undefined) void this.explain(uri, notice.message);
    }
  }

  private show(state: { uri: vscode.Uri; reason: LargeFileReason } | undefined): void {
    this.shown = state;
    if (state === undefined) this.item.hide();
    else this.item.show();
  }

  /** The information message with buttons for the two commands that work on the file. */
  private async explain(uri: vscode.Uri, message: string): Promise<void> {
    const choice = await vscode.window.showInformationMessage(message, REPORT, CHECK);
    if (choice === REPORT) await vscode.commands.executeCommand('xlaLayout.paddingReport', uri);
    else if (choice === CHECK) await vscode.commands.executeCommand('xlaLayout.checkFile', uri);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
