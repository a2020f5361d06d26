/**
 * Node entry of the language server (bundled to dist/server.js). The transport comes from the
 * command line as vscode-languageserver understands it: `--stdio` (Neovim, Helix, Emacs),
 * `--node-ipc` (VS Code desktop) or `--socket=N`.
 */
import { existsSync } from 'fs';
import { join } from 'path';
import { pathToFileURL } from 'url';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createServer } from './server';

/**
 * V8's full garbage collection, exposed at run time (clients start the server without
 * `--expose-gc`); undefined if this Node does not allow it.
 */
function fullGarbageCollection(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose_gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? () => void (gc as () => unknown)() : undefined;
  } catch {
    return undefined;
  }
}

// dist/server.js sits beside docs/ in a checkout and in the .vsix.
const rulesDoc = join(__dirname, '..', 'docs', 'rules.md');
const connection = createConnection(ProposedFeatures.all);
const collectGarbage = fullGarbageCollection();
createServer(connection, {
  ...(existsSync(rulesDoc) ? { rulesDocUri: pathToFileURL(rulesDoc).href } : {}),
  ...(collectGarbage ? { collectGarbage } : {}),
});
connection.listen();
