/**
 * Node entry of the language server (bundled to dist/server.js). The transport comes from the
 * command line as vscode-languageserver understands it: `--stdio` (Neovim, Helix, Emacs),
 * `--node-ipc` (VS Code desktop) or `--socket=N`.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createServer } from './server';

const connection = createConnection(ProposedFeatures.all);
createServer(connection);
connection.listen();
