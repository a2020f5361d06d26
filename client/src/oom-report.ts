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
import { oomMarkdown, type OomLinks } from './oom-markdown';
import { localSource } from './source-files';
import { folderOf } from './source-policy';

function found(m: OomMessage): boolean {
  return m.summaries.length > 0 || m.allocations.length > 0;
}

/**
 * The `file:` URI (with its `#L` line) of each allocation's program line that may be opened: the
 * recorded path (a relative one from the log's folder) or its closest same-named workspace file,
 * under the same source policy as go to source.
 */
async function sourceLinks(message: OomMessage, log: vscode.Uri | undefined): Promise<Map<number, string>> {
  const links = new Map<number, string>();
  for (const a of message.allocations) {
    if (!a.source) continue;
    const path = a.source.file.replace(/\\/g, '/');
    let recorded: vscode.Uri | undefined;
    if (/^[a-z]:\//i.test(path) || path.startsWith('/')) recorded = vscode.Uri.file(path);
    else if (log?.scheme === 'file' && !/^[a-z][a-z0-9+.-]*:/i.test(path))
      recorded = vscode.Uri.joinPath(log.with(folderOf(log)), path);
    if (!recorded) continue;
    const local = await localSource(recorded, log);
    if (local?.scheme === 'file')
      links.set(a.rank, `${local.toString()}${a.source.line ? `#L${a.source.line}` : ''}`);
  }
  return links;
}

/** Runs the command: shows the account, or says where it looked when no message was found. */
export async function explainOomMessage(ctx: Ctx): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  // `firstLine`: where the text starts in the log, so that the account names the log's own lines.
  const candidates: {
    source: string;
    firstLine: number;
    log?: vscode.Uri;
    read: () => string | Thenable<string>;
  }[] = [];
  if (editor) {
    const doc = editor.document;
    const name = doc.uri.path.split('/').pop() || doc.uri.toString();
    const selection = editor.selection;
    if (!selection.isEmpty)
      candidates.push({
        source: `the selection in ${name}`,
        firstLine: selection.start.line,
        log: doc.uri,
        read: () => doc.getText(selection),
      });
    candidates.push({ source: name, firstLine: 0, log: doc.uri, read: () => doc.getText() });
  }
  // Read only when the editor holds no message: a browser asks the user before it hands out the clipboard.
  candidates.push({
    source: 'the clipboard',
    firstLine: 0,
    read: () => vscode.env.clipboard.readText().then(undefined, () => ''),
  });
  for (const { source, firstLine, log, read } of candidates) {
    const text = await read();
    const message = parseOomMessage(text, firstLine);
    if (!found(message)) continue;
    const links: OomLinks = {
      ...(log?.scheme === 'file' ? { log: log.toString() } : {}),
      sources: await sourceLinks(message, log),
    };
    await ctx.steps.show('Out-of-memory message', oomMarkdown(oomReportLines(message), source, links));
    return;
  }
  void vscode.window.showInformationMessage(
    'XLA Layout: no XLA out-of-memory message in the editor or on the clipboard. Open or select the log that says "Ran out of memory in memory space …" and lists "Largest program allocations in …", or copy it, then run the command again.',
  );
}
