/**
 * "Padding Report": every buffer of the active HLO document with its logical and physical bytes,
 * worst first (the server sorts), totals in the title; picking a row reveals its instruction.
 */
import * as vscode from 'vscode';
import { PaddingReportRequest, type PaddingReportParams, type PaddingReportResult } from '../../protocol/src/lsp';
import type { Ctx } from './ctx';
import { rowItem, totalsTitle } from './padding-format';

/** Runs the command on the active editor's document. */
export async function paddingReport(ctx: Ctx): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const client = ctx.client;
  if (editor === undefined || editor.document.languageId !== 'hlo') {
    void vscode.window.showInformationMessage('XLA Layout: open an HLO file to see its padding report.');
    return;
  }
  if (client === undefined) {
    void vscode.window.showWarningMessage('XLA Layout: the language server is not running.');
    return;
  }
  const document = editor.document;
  const params: PaddingReportParams = { textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) } };
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'XLA Layout: padding report' },
    () => client.sendRequest<PaddingReportResult>(PaddingReportRequest, params),
  );
  if (result.rows.length === 0) {
    void vscode.window.showInformationMessage('XLA Layout: no array buffers in this document.');
    return;
  }
  const picked = await vscode.window.showQuickPick(result.rows.map(rowItem), {
    title: totalsTitle(result),
    placeHolder: 'Worst first. Pick a buffer to reveal its instruction.',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked?.row === undefined) return;
  const range = client.protocol2CodeConverter.asRange(picked.row.range);
  const shown = await vscode.window.showTextDocument(document, { selection: range, preserveFocus: false });
  shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
