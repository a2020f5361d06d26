/**
 * Browser entry (vscode.dev, github.dev, code-server's web worker host): the language server is
 * dist/browser/server.js running in a Web Worker.
 */
/// <reference lib="webworker" />
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { activateWith, deactivateCtx } from './activate';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverMain = await workerScriptUrl(
    vscode.Uri.joinPath(context.extensionUri, 'dist', 'browser', 'server.js'),
  );
  return activateWith(
    context,
    (id, name, options) => new LanguageClient(id, name, options, new Worker(serverMain)),
  );
}

export function deactivate(): Promise<void> {
  return deactivateCtx();
}

/**
 * A URL `new Worker` accepts for the server script. vscode.dev and github.dev serve extensions over
 * https, which a worker loads directly. An extension installed on a remote server (code-server,
 * VS Code Server opened in a browser) lives at a `vscode-remote:` URI, for which VS Code's web
 * worker extension host throws "Creating workers from remote extensions is currently not
 * supported"; its file system can still read the script, so the worker starts from a blob of it.
 */
async function workerScriptUrl(script: vscode.Uri): Promise<string> {
  if (script.scheme === 'https' || script.scheme === 'http') return script.toString(true);
  const source = await vscode.workspace.fs.readFile(script);
  // readFile's bytes never sit in a SharedArrayBuffer, which is all the cast rules out. The URL is
  // kept for the session: a server restart creates a new worker from the same blob.
  return URL.createObjectURL(new Blob([source as Uint8Array<ArrayBuffer>], { type: 'text/javascript' }));
}
