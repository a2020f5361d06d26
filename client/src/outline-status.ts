/**
 * Says when the outline of the active HLO file was cut at `xlaLayout.outline.maxItems`: a language
 * status item (the `{}` next to "HLO" in the status bar) with the counts and a link to the setting,
 * as VS Code's own JSON support does for its item limit. Driven by the server's
 * OutlineLimitNotification; the item exists only while the active editor shows a cut outline.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { OutlineLimitNotification, type OutlineLimitParams } from '../../protocol/src/lsp';

/** The setting that sets the limit, as the Settings editor searches for it. */
const SETTING = 'xlaLayout.outline.maxItems';

export class OutlineStatus implements vscode.Disposable {
  /** Documents whose last outline was cut, by URI. */
  private readonly cut = new Map<string, OutlineLimitParams>();
  private item: vscode.LanguageStatusItem | undefined;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.window.onDidChangeActiveTextEditor(() => this.render());
  }

  /** Applies one notification: a cut outline is remembered, a whole one forgets the document. */
  update(p: OutlineLimitParams): void {
    if (p.shown < p.total) this.cut.set(p.uri, p);
    else this.cut.delete(p.uri);
    this.render();
  }

  private render(): void {
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    const cut = uri === undefined ? undefined : this.cut.get(uri);
    if (!cut) {
      this.item?.dispose();
      this.item = undefined;
      return;
    }
    this.item ??= vscode.languages.createLanguageStatusItem('xlaLayout.outline', { language: 'hlo' });
    this.item.name = 'XLA Layout Lens outline';
    this.item.severity = vscode.LanguageStatusSeverity.Warning;
    this.item.text = `Outline: ${cut.shown.toLocaleString('en-US')} of ${cut.total.toLocaleString('en-US')} items`;
    this.item.detail = `cut at ${SETTING}`;
    this.item.command = {
      title: 'Configure',
      command: 'workbench.action.openSettings',
      arguments: [SETTING],
    };
  }

  /** Subscribes to a client's notifications; the returned disposables unsubscribe and forget. */
  attach(client: BaseLanguageClient): vscode.Disposable[] {
    return [
      client.onNotification(OutlineLimitNotification, (p) => this.update(p)),
      {
        dispose: () => {
          this.cut.clear();
          this.render();
        },
      },
    ];
  }

  dispose(): void {
    this.subscription.dispose();
    this.item?.dispose();
  }
}
