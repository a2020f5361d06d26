/**
 * "Show HLO for Source Line": from a line of the program (the active editor, any language but HLO)
 * to the instructions XLA made of it in the open HLO dumps, found by their metadata, with their
 * logical and physical bytes; picking one reveals it in its dump. The way back from go to source.
 */
import * as vscode from 'vscode';
import { SourceInstructionsRequest, type SourceInstructionsParams, type SourceInstructionsResult } from '../../protocol/src/lsp';
import type { Ctx } from './ctx';
import { fileName } from './file-name';
import { rowItem } from './padding-format';

/** Runs the command at the active editor's cursor; resolves with the server's answer (for the extension-host suite). */
export async function hloForSourceLine(ctx: Ctx): Promise<SourceInstructionsResult | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId === 'hlo') {
    void vscode.window.showInformationMessage('XLA Layout: run this in a source file of the program (the file that the dump\'s source_file metadata names).');
    return undefined;
  }
  const client = ctx.client;
  if (client === undefined) {
    void vscode.window.showErrorMessage('XLA Layout: the language server is not running.');
    return undefined;
  }
  const line = editor.selection.active.line + 1;
  const where = `${fileName(editor.document.uri)}:${line}`;
  const params: SourceInstructionsParams = { path: editor.document.uri.path, line };
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `XLA Layout: instructions of ${where}` }, () =>
    client.sendRequest<SourceInstructionsResult>(SourceInstructionsRequest, params),
  );
  if (result.documents === 0) {
    void vscode.window.showInformationMessage(`XLA Layout: open an HLO dump (such as module_*.after_optimizations.txt) to find the instructions of ${where}.`);
    return result;
  }
  if (result.items.length === 0) {
    void vscode.window.showInformationMessage(`XLA Layout: no instruction of the ${result.documents} open HLO document${result.documents === 1 ? '' : 's'} comes from ${where}.`);
    return result;
  }
  const items = result.items.map((item) => {
    const row = rowItem(item, false);
    return { ...row, detail: `${row.detail}  ·  ${fileName(client.protocol2CodeConverter.asUri(item.uri))}`, item };
  });
  const count = `${items.length}${result.truncated ? '+' : ''} instruction${items.length === 1 ? '' : 's'}`;
  void vscode.window
    .showQuickPick(items, { title: `${where}: ${count} in the open HLO documents`, placeHolder: 'Pick an instruction to reveal it in its dump.', matchOnDescription: true, matchOnDetail: true })
    .then(async (picked) => {
      if (picked === undefined) return;
      const range = client.protocol2CodeConverter.asRange(picked.item.range);
      const shown = await vscode.window.showTextDocument(client.protocol2CodeConverter.asUri(picked.item.uri), { selection: range });
      shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    });
  return result;
}
