/**
 * Buffer assignments beside open HLO dumps: for each HLO document, the client looks for its
 * `-buffer-assignment.txt` by name through VS Code's file system (the language server has none in
 * the browser), sends the text to the server (BufferAssignmentNotification) so hovers can show
 * allocations, and shows XLA's total in the status bar; the item opens the Memory View.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { humanBytes, joinMemory, readBufferAssignment, formatPercent, groupDigits } from '../../../core/src';
import {
  BufferAssignmentNotification,
  MAX_BUFFER_ASSIGNMENT_CHARS,
  type BufferAssignmentParams,
} from '../../../protocol/src/memory';
import type { Ctx } from '../ctx';
import { fileName } from '../file-name';
import { findDumpFiles } from './load';

/** What the status item says of a dump with a buffer assignment. */
interface Summary {
  readonly text: string;
  readonly total: bigint;
  /** Undefined for an assignment too large to size while the dump opens. */
  readonly padding?: bigint;
  readonly allocations: number;
}

/** Largest buffer assignment whose padding the status item gives (about 40,000 values). */
const SIZED_IN_STATUS_CHARS = 4 * 1024 * 1024;

export class BufferAssignments implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /** Per HLO document URI: the buffer assignment's text and figures, or null when there is none. */
  private readonly found = new Map<string, Summary | null>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly ctx: Ctx) {
    this.item = vscode.window.createStatusBarItem('xlaLayout.memory', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'XLA Layout memory';
    this.disposables.push(
      this.item,
      vscode.workspace.onDidOpenTextDocument((d) => void this.opened(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.found.delete(d.uri.toString())),
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
    );
    for (const d of vscode.workspace.textDocuments) void this.opened(d);
    this.render();
  }

  /** Sends what is known to a client that just started (a restart forgets everything). */
  attach(client: BaseLanguageClient): vscode.Disposable[] {
    for (const d of vscode.workspace.textDocuments) {
      const s = this.found.get(d.uri.toString());
      if (s) this.send(client, d.uri, s.text);
    }
    return [];
  }

  private send(client: BaseLanguageClient, uri: vscode.Uri, text: string | null): void {
    const params: BufferAssignmentParams = { uri: client.code2ProtocolConverter.asUri(uri), text };
    void client.sendNotification(BufferAssignmentNotification, params);
  }

  private async opened(document: vscode.TextDocument): Promise<void> {
    if (document.languageId !== 'hlo') return;
    const key = document.uri.toString();
    const ba = (await findDumpFiles(document.uri)).companions['buffer-assignment'];
    let summary: Summary | null = null;
    if (ba !== undefined) {
      try {
        const bytes = await vscode.workspace.fs.readFile(ba);
        if (bytes.length <= MAX_BUFFER_ASSIGNMENT_CHARS) {
          const text = new TextDecoder('utf-8').decode(bytes);
          const file = readBufferAssignment(text);
          // Sizing every value of a large assignment would hold up the extension host for seconds
          // as the dump opens; its padding waits for the Memory View.
          const padding =
            text.length <= SIZED_IN_STATUS_CHARS
              ? joinMemory({ bufferAssignment: file }).paddingBytes
              : undefined;
          summary = { text, total: file.totalBytes, padding, allocations: file.allocations.length };
        } else {
          this.ctx.output.appendLine(
            `${fileName(ba)} is over ${humanBytes(BigInt(MAX_BUFFER_ASSIGNMENT_CHARS))}: hovers show no allocations.`,
          );
        }
      } catch (e) {
        this.ctx.output.appendLine(`Reading ${ba.toString()}: ${String(e)}`);
      }
    }
    // The document may have closed while its companion was read.
    if (!vscode.workspace.textDocuments.includes(document)) return;
    this.found.set(key, summary);
    const client = this.ctx.client;
    if (client && summary) this.send(client, document.uri, summary.text);
    this.render();
  }

  private render(): void {
    const document = vscode.window.activeTextEditor?.document;
    if (document?.languageId !== 'hlo') {
      this.item.hide();
      return;
    }
    const s = this.found.get(document.uri.toString());
    this.item.command = { title: 'Memory View', command: 'xlaLayout.memoryView', arguments: [document.uri] };
    if (s) {
      const padding = s.padding;
      // As the Memory View computes its share, so both read the same percentage.
      const share =
        padding !== undefined && s.total > 0n ? Number((padding * 1_000_000n) / s.total) / 1_000_000 : 0;
      const shown = padding !== undefined && padding > 0n ? `, ${formatPercent(share)} padding` : '';
      this.item.text = `$(pie-chart) ${humanBytes(s.total)}${shown}`;
      const of = padding !== undefined ? `, ${humanBytes(padding)} of it padding` : '';
      this.item.tooltip = `XLA's buffer assignment: ${humanBytes(s.total)} in ${groupDigits(s.allocations)} allocations${of}. Click for the Memory View.`;
    } else {
      this.item.text = '$(pie-chart) Memory';
      this.item.tooltip =
        'No buffer assignment beside this dump: click for an estimate from the HLO in the Memory View.';
    }
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
