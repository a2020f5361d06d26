/**
 * Node entry (VS Code desktop, remote and code-server): the language server is dist/server.js in a
 * child Node process, spoken to over IPC.
 */
import * as vscode from 'vscode';
import { TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { SERVER_ENVIRONMENT, SERVER_NODE_ARGS } from '../../protocol/src/server-environment';
import { activateWith, deactivateCtx } from './activate';
import { NodeLanguageClient } from './node-language-client';

export function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.js').fsPath;
  const env = { ...process.env, ...SERVER_ENVIRONMENT };
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { env, execArgv: [...SERVER_NODE_ARGS] } },
    // --inspect lets a developer attach a debugger to the server started from a dev host.
    debug: {
      module,
      transport: TransportKind.ipc,
      options: { env, execArgv: [...SERVER_NODE_ARGS, '--nolazy', '--inspect=6011'] },
    },
  };
  return activateWith(
    context,
    (id, name, options) => new NodeLanguageClient(id, name, serverOptions, options),
  );
}

export function deactivate(): Promise<void> {
  return deactivateCtx();
}
