/**
 * The Node LanguageClient, with the one message vscode-languageclient 9 gets wrong: it logs every
 * exit of the server process as an error, so each requested stop or restart (a clean exit, code 0)
 * wrote "[Error - …] Server process exited with code 0." to the output channel. Version 10 logs
 * code 0 as information (microsoft/vscode-languageserver-node#1403); this does the same until we
 * move to it, which needs VS Code 1.91.
 */
import { LanguageClient } from 'vscode-languageclient/node';

/** vscode-languageclient 9's text for a server process that exits with code 0. */
const CLEAN_EXIT = 'Server process exited with code 0.';

export class NodeLanguageClient extends LanguageClient {
  override error(message: string, data?: unknown, showNotification?: boolean | 'force'): void {
    if (message === CLEAN_EXIT) this.info('Server process exited successfully.', data, false);
    else super.error(message, data, showNotification);
  }
}
