/**
 * Node entry of the language server (bundled to dist/server.js). The transport comes from the
 * command line as vscode-languageserver understands it: `--stdio` (Neovim, Helix, Emacs),
 * `--node-ipc` (VS Code desktop) or `--socket=N`.
 */
import { existsSync } from 'fs';
import { join } from 'path';
import { pathToFileURL } from 'url';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createServer } from './server';

// dist/server.js sits beside docs/ in a checkout and in the .vsix.
const rulesDoc = join(__dirname, '..', 'docs', 'rules.md');
const connection = createConnection(ProposedFeatures.all);
createServer(connection, existsSync(rulesDoc) ? { rulesDocUri: pathToFileURL(rulesDoc).href } : {});
connection.listen();
