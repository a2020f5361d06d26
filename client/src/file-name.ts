/** What messages and pickers call a file: the last segment of its URI's path. */
import type * as vscode from 'vscode';

export function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
