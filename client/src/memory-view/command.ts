/**
 * "XLA Layout: Memory View" (and "Padding Report", now an entry to it): the dump to show is the
 * command's argument (a URI, from the status bar, the large-file notice or the Explorer's menu on
 * a folder), else the active editor's HLO or companion file, else the active tab (a dump VS Code
 * did not hand to extensions), else one the user picks, file or folder. A folder shows its modules
 * ranked by XLA's total, each opening its own view.
 */
import * as vscode from 'vscode';
import { companionKind } from '../../../core/src';
import type { Ctx } from '../ctx';
import { fileName } from '../file-name';
import { activeHloTab, syncedDocument } from '../large-file-commands';
import { openMemoryView, type MemoryViewResult } from './panel';

/** A file the Memory View can start from: an HLO document, or one of XLA's companions of a dump. */
function isDumpFile(document: vscode.TextDocument): boolean {
  return document.languageId === 'hlo' || companionKind(fileName(document.uri)) !== undefined;
}

/** The active tab's file when it is a companion of a dump (a plain-text file VS Code may not sync). */
function activeCompanionTab(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputText && companionKind(fileName(input.uri)) !== undefined
    ? input.uri
    : undefined;
}

export async function memoryViewCommand(ctx: Ctx, arg?: unknown): Promise<MemoryViewResult | undefined> {
  if (arg instanceof vscode.Uri) return openMemoryView(ctx, arg, syncedDocument(arg));
  const document = vscode.window.activeTextEditor?.document;
  if (document !== undefined && isDumpFile(document))
    return openMemoryView(ctx, document.uri, document.languageId === 'hlo' ? document : undefined);
  const tab = activeHloTab(ctx) ?? activeCompanionTab();
  if (tab !== undefined) return openMemoryView(ctx, tab, syncedDocument(tab));
  // A dump folder (its modules ranked) or one module's dump.
  const picked = await vscode.window.showOpenDialog({
    title: 'XLA Layout: Memory View of a dump or a dump folder',
    canSelectMany: false,
    canSelectFiles: true,
    canSelectFolders: true,
    openLabel: 'Show memory',
    filters: { 'XLA dumps': ['txt', 'hlo', 'hlotxt'], 'All files': ['*'] },
  });
  return picked?.[0] !== undefined ? openMemoryView(ctx, picked[0], syncedDocument(picked[0])) : undefined;
}
