/**
 * *Explain Out-of-Memory Message*: the layout math of every allocation an XLA TPU out-of-memory
 * message lists (core's oom-text.ts), shown rendered beside the log. The message is read from the
 * selection, else the whole active editor (a log file, or text pasted into an untitled one), else
 * the clipboard, where a message copied from a terminal sits. Line numbers are the log's, also for
 * a selection that starts further down.
 */
import * as vscode from 'vscode';
import { oomReportLines, parseOomMessage, type OomMessage } from '../../core/src';
import type { Ctx } from './ctx';
import { oomMarkdown } from './oom-markdown';

function found(m: OomMessage): boolean {
  return m.summaries.length > 0 || m.allocations.length > 0;
}

/** Runs the command: shows the account, or says where it looked when no message was found. */
export async function explainOomMessage(ctx: Ctx): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  // `firstLine`: where the text starts in the log, so that the account names the log's own lines.
  const candidates: { source: string; firstLine: number; read: () => string | Thenable<string> }[] = [];
  if (editor) {
    const doc = editor.document;
    const name = doc.uri.path.split('/').pop() || doc.uri.toString();
    const selection = editor.selection;
    if (!selection.isEmpty)
      candidates.push({
        source: `the selection in ${name}`,
        firstLine: selection.start.line,
        read: () => doc.getText(selection),
      });
    candidates.push({ source: name, firstLine: 0, read: () => doc.getText() });
  }
  // Read only when the editor holds no message: a browser asks the user before it hands out the clipboard.
  candidates.push({
    source: 'the clipboard',
    firstLine: 0,
    read: () => vscode.env.clipboard.readText().then(undefined, () => ''),
  });
  for (const { source, firstLine, read } of candidates) {
    const text = await read();
    const message = parseOomMessage(text, firstLine);
    if (!found(message)) continue;
    await ctx.steps.show('Out-of-memory message', oomMarkdown(oomReportLines(message), source));
    return;
  }
  void vscode.window.showInformationMessage(
    'XLA Layout: no XLA out-of-memory message in the editor or on the clipboard. Open or select the log that says "Ran out of memory in memory space …" and lists "Largest program allocations in …", or copy it, then run the command again.',
  );
}
