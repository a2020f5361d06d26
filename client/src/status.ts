/**
 * A status bar item shown while the server analyses a large document, driven by the server's
 * AnalysisProgressNotification (small documents never send it, so the item never flickers).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { AnalysisProgressNotification, type AnalysisProgressParams } from '../../protocol/src/lsp';

/** Human size of a document given in characters (≈ bytes for HLO, which is ASCII). */
export function formatSize(chars: number): string {
  if (chars >= 1 << 20) return `${(chars / (1 << 20)).toFixed(1)} MB`;
  if (chars >= 1 << 10) return `${(chars / (1 << 10)).toFixed(1)} KB`;
  return `${chars} chars`;
}

/** Last path segment of a URI string, for a short label. */
function baseName(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** Tracks documents under analysis and shows one item for all of them. */
export class AnalysisStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /** uri → size of every document whose analysis started and has not finished. */
  private readonly running = new Map<string, number>();

  constructor() {
    this.item = vscode.window.createStatusBarItem('xlaLayout.analysis', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'XLA Layout Lens analysis';
    this.item.command = 'xlaLayout.showOutput';
  }

  /** Applies one notification and refreshes the item. */
  update(p: AnalysisProgressParams): void {
    if (p.state === 'started') this.running.set(p.uri, p.size);
    else this.running.delete(p.uri);
    this.render();
  }

  /** Forgets everything (the server that sent the notifications is gone). */
  clear(): void {
    this.running.clear();
    this.render();
  }

  private render(): void {
    if (this.running.size === 0) {
      this.item.hide();
      return;
    }
    const [[uri]] = this.running;
    const more = this.running.size > 1 ? ` (+${this.running.size - 1} more)` : '';
    this.item.text = `$(sync~spin) XLA: analysing ${baseName(uri)}${more}`;
    this.item.tooltip = `XLA Layout Lens is analysing ${[...this.running].map(([u, s]) => `${baseName(u)} (${formatSize(s)})`).join(', ')}`;
    this.item.show();
  }

  /** Subscribes to a client's progress notifications; the returned disposables unsubscribe. */
  attach(client: BaseLanguageClient): vscode.Disposable[] {
    return [
      client.onNotification(AnalysisProgressNotification, (p: AnalysisProgressParams) => this.update(p)),
      { dispose: () => this.clear() },
    ];
  }

  dispose(): void {
    this.item.dispose();
  }
}
