/**
 * "Show HLO for Source Line": from a line of the program (the active editor, any language but HLO)
 * to the instructions XLA made of it in the open HLO dumps, found by their metadata (source_file,
 * or stack_frame_id resolved through the module's stack-frame tables), with their
 * logical and physical bytes; picking one reveals it in its dump. The way back from go to source.
 * When no open dump has one, the workspace's HLO files are searched on disk.
 */
import * as vscode from 'vscode';
import {
  SourceInstructionsRequest,
  type SourceInstructionsParams,
  type SourceInstructionsResult,
} from '../../protocol/src/lsp';
import type { Ctx } from './ctx';
import { fileName } from './file-name';
import { rowItem } from './padding-format';
import { sourceInstructionsOnDisk } from './source-instructions-disk';
import { requestAgainIfModified } from './request-again';

/** The answer of a server that searched nothing (it answers null only when a request fails). */
const NOTHING_OPEN: SourceInstructionsResult = { items: [], truncated: false, documents: 0 };

/** What the command found: the server's answer, or the disk search's when the open documents had nothing. */
export interface SourceLineResult extends SourceInstructionsResult {
  /** HLO files searched on disk (0 when the open documents answered, or none was found). */
  readonly filesOnDisk: number;
  /** HLO files on disk not searched, each with why (not a regular file, too large, binary). */
  readonly skippedOnDisk: readonly string[];
}

/** Runs the command at the active editor's cursor; resolves with what it found (for the extension-host suite). */
export async function hloForSourceLine(ctx: Ctx): Promise<SourceLineResult | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId === 'hlo') {
    void vscode.window.showInformationMessage(
      "XLA Layout: run this in a source file of the program (the file that the dump's metadata names, by source_file or through its stack frames).",
    );
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
  const opened = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `XLA Layout: instructions of ${where}` },
    async () => (await requestAgainIfModified(client, SourceInstructionsRequest, params)) ?? NOTHING_OPEN,
  );
  let result: SourceLineResult = { ...opened, filesOnDisk: 0, skippedOnDisk: [] };
  if (opened.items.length === 0) {
    const disk = await sourceInstructionsOnDisk(ctx, { path: params.path, line }, where);
    result = {
      items: disk.items,
      truncated: disk.incomplete,
      documents: opened.documents,
      filesOnDisk: disk.files,
      skippedOnDisk: disk.skipped,
    };
  }
  const searched = [
    ...(result.documents > 0
      ? [`the ${result.documents} open HLO document${result.documents === 1 ? '' : 's'}`]
      : []),
    ...(result.filesOnDisk > 0
      ? [`${result.filesOnDisk} HLO file${result.filesOnDisk === 1 ? '' : 's'} of the workspace`]
      : []),
  ].join(' or ');
  const skipped = result.skippedOnDisk;
  const notSearched =
    skipped.length === 0
      ? ''
      : ` Not searched: ${skipped.slice(0, 3).join('; ')}${skipped.length > 3 ? `; and ${skipped.length - 3} more` : ''}.`;
  if (searched === '') {
    void vscode.window.showInformationMessage(
      `XLA Layout: open an HLO dump (such as module_*.after_optimizations.txt), or add its folder to the workspace, to find the instructions of ${where}.${notSearched}`,
    );
    return result;
  }
  if (result.items.length === 0) {
    void vscode.window.showInformationMessage(
      `XLA Layout: no instruction of ${searched} comes from ${where}.${notSearched}`,
    );
    return result;
  }
  const items = result.items.map((item) => {
    const row = rowItem(item, false);
    return {
      ...row,
      detail: `${row.detail}  ·  ${fileName(client.protocol2CodeConverter.asUri(item.uri))}`,
      item,
    };
  });
  const count = `${items.length}${result.truncated ? '+' : ''} instruction${items.length === 1 ? '' : 's'}`;
  void vscode.window
    .showQuickPick(items, {
      title: `${where}: ${count} in ${result.filesOnDisk > 0 ? 'HLO files on disk' : 'the open HLO documents'}`,
      placeHolder: 'Pick an instruction to reveal it in its dump.',
      matchOnDescription: true,
      matchOnDetail: true,
    })
    .then(async (picked) => {
      if (picked === undefined) return;
      const range = client.protocol2CodeConverter.asRange(picked.item.range);
      const shown = await vscode.window.showTextDocument(
        client.protocol2CodeConverter.asUri(picked.item.uri),
        { selection: range },
      );
      shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    });
  return result;
}
