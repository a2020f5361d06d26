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
import {
  createConnection,
  ProposedFeatures,
  RAL,
  type Connection,
  type Message,
} from 'vscode-languageserver/node';
import { decodeMessage } from './lenient-json';
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

/**
 * Makes every byte-stream reader (stdio, socket, pipe) decode messages with {@link decodeMessage}:
 * the stock decoder drops a message that is not strict UTF-8 JSON without a word, and a dropped
 * didChange leaves the server's text different from the editor's. Readers take the decoder of the
 * runtime layer when they are built, so this runs before the connection exists; what had to be
 * forgiven, or could not be read, goes to `report` once the connection can carry it. (Node's IPC
 * channel parses messages itself, before this code sees them.)
 */
function readMessagesLeniently(report: () => Connection): void {
  const runtime = RAL();
  const decoder: RAL['applicationJson']['decoder'] = {
    name: 'application/json',
    decode: (buffer) => {
      try {
        const { message, repairs } = decodeMessage(buffer);
        if (repairs.length > 0)
          report().console.warn(`A message from the editor had ${repairs.join(' and ')}.`);
        // As the stock decoder does: the connection checks what kind of message it is.
        return Promise.resolve(message as Message);
      } catch (e) {
        const why = `a message from the editor is not JSON (${e instanceof Error ? e.message : String(e)}), so it was not applied`;
        report().console.error(`XLA Layout Lens: ${why}.`);
        void report().window.showWarningMessage(
          `XLA Layout Lens: ${why}. If it was an edit, reopen the file to resynchronise its diagnostics.`,
        );
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    },
  };
  RAL.install({ ...runtime, applicationJson: { encoder: runtime.applicationJson.encoder, decoder } });
}

// dist/server.js sits beside docs/ in a checkout and in the .vsix.
const rulesDoc = join(__dirname, '..', 'docs', 'rules.md');
// Messages are decoded only once the connection listens, when `connection` is set.
readMessagesLeniently(() => connection);
const connection = createConnection(ProposedFeatures.all);
const collectGarbage = fullGarbageCollection();
createServer(connection, {
  ...(existsSync(rulesDoc) ? { rulesDocUri: pathToFileURL(rulesDoc).href } : {}),
  ...(collectGarbage ? { collectGarbage } : {}),
});
connection.listen();
