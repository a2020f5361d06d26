/**
 * Browser entry (vscode.dev, github.dev, code-server's web worker host): the language server is
 * dist/browser/server.js running in a Web Worker.
 */
/// <reference lib="webworker" />
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { activateWith, deactivateCtx } from './activate';

export function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverMain = vscode.Uri.joinPath(context.extensionUri, 'dist', 'browser', 'server.js');
  return activateWith(context, (id, name, options) => new LanguageClient(id, name, options, new Worker(serverMain.toString(true))));
}

export function deactivate(): Promise<void> {
  return deactivateCtx();
}
