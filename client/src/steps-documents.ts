/**
 * Read-only virtual markdown documents for "Show steps", shown rendered in VS Code's markdown
 * preview: unlike untitled documents they never ask to be saved on close, and they work in virtual
 * and untrusted workspaces.
 */
import * as vscode from 'vscode';

const STEPS_SCHEME = 'xla-layout-steps';

/** How many step documents are kept; older ones read as a short notice. */
const KEEP = 50;

export class StepsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(STEPS_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ??
      '# Expired\n\nThese steps are no longer kept; run the command again.\n'
    );
  }

  /**
   * Stores `markdown` under a fresh URI titled `title` and shows it rendered beside the active
   * editor; as text when the markdown preview is not available (the built-in extension disabled).
   */
  async show(title: string, markdown: string): Promise<void> {
    this.counter++;
    // The path's `.md` gives the document the markdown language; the query keeps URIs unique.
    const safeTitle = title.replace(/[\\/:*?"<>|#]/g, ' ').slice(0, 80);
    const uri = vscode.Uri.from({
      scheme: STEPS_SCHEME,
      path: `/${safeTitle}.md`,
      query: String(this.counter),
    });
    this.contents.set(uri.toString(), markdown);
    if (this.contents.size > KEEP) this.contents.delete(this.contents.keys().next().value!);
    try {
      await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    } catch {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }
}
