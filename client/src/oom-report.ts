/**
 * *Explain Out-of-Memory Message*: the layout math of every allocation an XLA TPU out-of-memory
 * message lists (core's oom-text.ts), shown rendered beside the log. The message is read from the
 * selection, else the whole active editor (a log file, or text pasted into an untitled one), else
 * the clipboard, where a message copied from a terminal sits.
 */
import * as vscode from 'vscode';
import { oomReportLines, parseOomMessage, type OomMessage } from '../../core/src/report';
import type { Ctx } from './ctx';
import { oomMarkdown } from './oom-markdown';

function found(m: OomMessage): boolean {
  return m.summaries.length > 0 || m.allocations.length > 0;
}

/** Runs the command: shows the account, or says where it looked when no message was found. */
export async function explainOomMessage(ctx: Ctx): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const candidates: { source: string; read: () => string | Thenable<string> }[] = [];
  if (editor) {
    const name = editor.document.uri.path.split('/').pop() || editor.document.uri.toString();
    if (!editor.selection.isEmpty) candidates.push({ source: `the selection in ${name}`, read: () => editor.document.getText(editor.selection) });
    candidates.push({ source: name, read: () => editor.document.getText() });
  }
  // Read only when the editor holds no message: a browser asks the user before it hands out the clipboard.
  candidates.push({ source: 'the clipboard', read: () => vscode.env.clipboard.readText().then(undefined, () => '') });
  for (const { source, read } of candidates) {
    const text = await read();
    const message = parseOomMessage(text);
    if (!found(message)) continue;
    await ctx.steps.show('Out-of-memory message', oomMarkdown(oomReportLines(message), source));
    return;
  }
  void vscode.window.showInformationMessage(
    'XLA Layout: no XLA out-of-memory message in the editor or on the clipboard. Open or select the log that says "Ran out of memory in memory space …" and lists "Largest program allocations in …", or copy it, then run the command again.',
  );
}
