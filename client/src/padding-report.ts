/**
 * "Padding Report": every buffer of an HLO file with its logical and physical bytes, worst first,
 * totals in the title; picking a row reveals its instruction. A document the language server has
 * is reported by the server (the server sorts); a file VS Code did not hand to extensions (over
 * 50 MB), a file given as an argument, or one picked from disk is streamed from disk instead.
 */
import * as vscode from 'vscode';
import { PaddingReportRequest, type PaddingReportParams } from '../../protocol/src/lsp';
import type { Ctx } from './ctx';
import { paddingReportFromDisk, syncedDocument, type DiskReportResult } from './large-file-commands';
import { rowItem, totalsTitle } from './padding-format';
import { requestAgainIfModified } from './request-again';

/**
 * Runs the command on `arg` (a Uri, e.g. from the large-file notice) or else the active editor's
 * HLO document, or else the active HLO tab or a picked file, read from disk. Resolves with the
 * disk report's figures when the file was streamed.
 */
export async function paddingReport(ctx: Ctx, arg?: unknown): Promise<DiskReportResult | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : undefined;
  const editor = vscode.window.activeTextEditor;
  const document = uri !== undefined ? syncedDocument(uri) : editor?.document;
  const client = ctx.client;
  if (document !== undefined && document.languageId === 'hlo' && client !== undefined) {
    await serverReport(ctx, document);
    return undefined;
  }
  return paddingReportFromDisk(ctx, uri);
}

/** The report of a document the server has. */
async function serverReport(ctx: Ctx, document: vscode.TextDocument): Promise<void> {
  const client = ctx.client;
  if (client === undefined) return;
  const params: PaddingReportParams = {
    textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
  };
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'XLA Layout: padding report' },
    () => requestAgainIfModified(client, PaddingReportRequest, params),
  );
  if (result === null) {
    void vscode.window.showErrorMessage('XLA Layout: the language server does not have this document open.');
    return;
  }
  if (result.rows.length === 0) {
    void vscode.window.showInformationMessage('XLA Layout: no array buffers in this document.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    result.rows.map((row) => rowItem(row)),
    {
      title: totalsTitle(result),
      placeHolder: 'Worst first. Pick a buffer to reveal its instruction.',
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  if (picked?.row === undefined) return;
  const range = client.protocol2CodeConverter.asRange(picked.row.range);
  const shown = await vscode.window.showTextDocument(document, { selection: range, preserveFocus: false });
  shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
