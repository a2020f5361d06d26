/**
 * Saving a picture from the visualizer: always through the save dialog, never written silently,
 * and by default not into the workspace (a picture there would show up in the user's changes).
 * The dialog opens on the folder of the last export, else the home folder (the browser extension
 * host has none: then the first workspace folder), with the page's file name, made from the shape.
 * The folder chosen is remembered for the next export.
 */
import * as vscode from 'vscode';
import type { ExportMessage } from '../../../protocol/src/webview';

/** globalState key: the folder of the last saved picture. */
const FOLDER_KEY = 'xlaLayout.visualizer.exportFolder';

/** The folder the dialog opens on, by the order in the module comment. */
function exportFolder(context: vscode.ExtensionContext): vscode.Uri | undefined {
  const last = context.globalState.get<string>(FOLDER_KEY);
  if (last !== undefined) return vscode.Uri.parse(last, true);
  const home = typeof process === 'object' ? process.env.HOME : undefined;
  if (home !== undefined && home !== '') return vscode.Uri.file(home);
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** Asks where to save `message`'s picture and writes it there; says how it ended. */
export async function saveExport(
  context: vscode.ExtensionContext,
  message: ExportMessage,
): Promise<{ ok: boolean; detail: string }> {
  const folder = exportFolder(context);
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder !== undefined ? vscode.Uri.joinPath(folder, message.fileName) : undefined,
    filters: message.format === 'png' ? { 'PNG image': ['png'] } : { 'SVG image': ['svg'] },
    title: 'Export layout picture',
    saveLabel: 'Export',
  });
  if (target === undefined) return { ok: false, detail: 'Export cancelled.' };
  try {
    const bytes =
      message.format === 'png' ? decodeBase64(message.data) : new TextEncoder().encode(message.data);
    await vscode.workspace.fs.writeFile(target, bytes);
    await context.globalState.update(FOLDER_KEY, vscode.Uri.joinPath(target, '..').toString());
    return { ok: true, detail: target.scheme === 'file' ? target.fsPath : target.toString() };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

/** atob exists in Node 16+ and in the browser extension host, so no Buffer is needed. */
function decodeBase64(data: string): Uint8Array {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
