/**
 * A status bar item shown while the server analyses a large document, driven by the server's
 * AnalysisProgressNotification (small documents never send it, so the item never flickers).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { AnalysisProgressNotification, type AnalysisProgressParams } from '../../protocol/src/lsp';
import { analysisStatusText, type RunningAnalysis } from './analysis-status-text';
import { fileName } from './file-name';

/** Tracks documents under analysis and shows one item for all of them. */
export class AnalysisStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /** Every document whose analysis started and has not finished, by URI, in the order they started. */
  private readonly running = new Map<string, RunningAnalysis>();

  constructor() {
    this.item = vscode.window.createStatusBarItem('xlaLayout.analysis', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'XLA Layout Lens analysis';
    this.item.command = 'xlaLayout.showOutput';
  }

  /** Applies one notification and refreshes the item. */
  update(p: AnalysisProgressParams): void {
    if (p.state === 'finished') this.running.delete(p.uri);
    else if (p.state === 'started' || this.running.has(p.uri)) {
      this.running.set(p.uri, {
        name: fileName(vscode.Uri.parse(p.uri)),
        size: p.size,
        ...(p.done !== undefined ? { done: p.done } : {}),
      });
    }
    this.render();
  }

  /** Forgets everything (the server that sent the notifications is gone). */
  clear(): void {
    this.running.clear();
    this.render();
  }

  private render(): void {
    const shown = analysisStatusText([...this.running.values()]);
    if (!shown) {
      this.item.hide();
      return;
    }
    this.item.text = shown.text;
    this.item.tooltip = shown.tooltip;
    this.item.show();
  }

  /** Subscribes to a client's progress notifications; the returned disposables unsubscribe. */
  attach(client: BaseLanguageClient): vscode.Disposable[] {
    return [
      client.onNotification(AnalysisProgressNotification, (p) => this.update(p)),
      { dispose: () => this.clear() },
    ];
  }

  dispose(): void {
    this.item.dispose();
  }
}
