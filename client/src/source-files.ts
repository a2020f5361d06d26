/**
 * Go to source in VS Code: the server answers go to definition on a `source_file` or `source_line`
 * value with the path the dump recorded. When nothing exists there (the dump came from another
 * machine, or the workspace is virtual), the file of the same name in the workspace whose path
 * shares the longest tail with it is opened instead; when there is none, the recorded path stays
 * and VS Code reports it missing. Hovers link to the same place through {@link openSource}.
 */
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient';
import { parseOpenSourceArgs } from './command-args';
import { fileName } from './file-name';
import { closestBySuffix } from '../../core/src';

/** At most this many same-named workspace files are compared. */
const MAX_CANDIDATES = 200;

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** `uri` if it exists, else its closest same-named workspace file, else undefined. */
async function localSource(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (await exists(uri)) return uri;
  const name = fileName(uri);
  // A name with glob syntax in it cannot be searched for literally.
  if (name === '' || /[[\]{}*?!]/.test(name)) return undefined;
  const found = await vscode.workspace.findFiles(`**/${name}`, undefined, MAX_CANDIDATES);
  const best = closestBySuffix(
    uri.path,
    found.map((f) => f.path),
  );
  return found.find((f) => f.path === best);
}

/**
 * The hover link's command: opens line `line` of the source file `uri` (or of the workspace file
 * standing for it); says so when there is neither. Resolves with the document opened.
 */
export async function openSource(arg: unknown): Promise<vscode.Uri | undefined> {
  const args = parseOpenSourceArgs(arg);
  if (args === undefined) {
    void vscode.window.showErrorMessage('XLA Layout: Open Source Line was called with invalid arguments.');
    return undefined;
  }
  const recorded = vscode.Uri.parse(args.uri);
  const local = await localSource(recorded);
  if (local === undefined) {
    void vscode.window.showWarningMessage(
      `XLA Layout: ${recorded.scheme === 'file' ? recorded.fsPath : recorded.toString()} is not on this machine, and no file named ${fileName(recorded)} is in the workspace.`,
    );
    return undefined;
  }
  const at = new vscode.Position(args.line, 0);
  await vscode.window.showTextDocument(local, { selection: new vscode.Range(at, at) });
  return local;
}

/** Definitions outside the document are source files: each is mapped to its local copy. */
export const goToLocalSource: Middleware['provideDefinition'] = async (document, position, token, next) => {
  const result = await next(document, position, token);
  if (!result) return result;
  const here = document.uri.toString();
  const local = async (uri: vscode.Uri) =>
    uri.toString() === here ? uri : ((await localSource(uri)) ?? uri);
  if (!Array.isArray(result)) return new vscode.Location(await local(result.uri), result.range);
  return Promise.all(
    result.map(async (d: vscode.Location | vscode.LocationLink) =>
      'targetUri' in d
        ? { ...d, targetUri: await local(d.targetUri) }
        : new vscode.Location(await local(d.uri), d.range),
    ),
  ) as Promise<vscode.Location[] | vscode.LocationLink[]>;
};
