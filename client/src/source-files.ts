/**
 * Go to source in VS Code: the server answers go to definition on a `source_file`, `source_line` or
 * `stack_frame_id` value (or an instruction's name) with the path the dump recorded. That path is
 * opened only when it lies inside the workspace or the dump's folder (source-policy.ts: metadata
 * is text anyone can write). Otherwise, or when nothing exists there (the dump came from another machine, or the workspace is virtual),
 * the file of the same name in the workspace whose path shares the longest tail with it is opened
 * instead; when there is none, a recorded path inside stays (VS Code reports it missing) and one
 * outside is not opened, with a message saying so. Hovers link to the same place through
 * {@link openSource}.
 */
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient';
import { parseOpenSourceArgs } from './command-args';
import { fileName } from './file-name';
import { closestBySuffix } from '../../core/src';
import { folderOf, sourceRefusal } from './source-policy';

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

/** Why `uri`, recorded in the dump `dump`, may not be opened (see source-policy.ts), if it may not. */
function refusal(uri: vscode.Uri, dump: vscode.Uri | undefined): 'scheme' | 'outside' | undefined {
  const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
  return sourceRefusal(uri, dump ? [...roots, folderOf(dump)] : roots, dump);
}

/**
 * `uri` if it may be opened and exists, else its closest same-named workspace file, else
 * undefined.
 */
async function localSource(uri: vscode.Uri, dump: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
  const refused = refusal(uri, dump);
  if (refused === undefined && (await exists(uri))) return uri;
  const name = fileName(uri);
  // A name with glob syntax in it cannot be searched for literally; another scheme is not a file.
  if (refused === 'scheme' || name === '' || /[[\]{}*?!]/.test(name)) return undefined;
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
  const dump = args.dump !== undefined ? vscode.Uri.parse(args.dump) : undefined;
  const local = await localSource(recorded, dump);
  if (local === undefined) {
    void vscode.window.showWarningMessage(`XLA Layout: ${notOpened(recorded, dump)}`);
    return undefined;
  }
  const at = new vscode.Position(args.line, 0);
  await vscode.window.showTextDocument(local, { selection: new vscode.Range(at, at) });
  return local;
}

/** Why the recorded source `recorded` was not opened, as a sentence. */
function notOpened(recorded: vscode.Uri, dump: vscode.Uri | undefined): string {
  const shown = recorded.scheme === 'file' ? recorded.fsPath : recorded.toString();
  const why = refusal(recorded, dump);
  if (why === 'scheme') return `the dump records the source ${shown}, which is not a file: it is not opened.`;
  if (why === 'outside')
    return `the dump records the source ${shown}, outside the workspace and the dump's folder, so it is not opened, and no file named ${fileName(recorded)} is in the workspace.`;
  return `${shown} is not on this machine, and no file named ${fileName(recorded)} is in the workspace.`;
}

/**
 * Definitions outside the document are source files: each is mapped to its local copy. One that
 * may not be opened and has no copy is left out, with a message saying why.
 */
export const goToLocalSource: Middleware['provideDefinition'] = async (document, position, token, next) => {
  const result = await next(document, position, token);
  if (!result) return result;
  const dump = document.uri;
  const here = dump.toString();
  const refused: vscode.Uri[] = [];
  /** The local copy of `uri`; the recorded one when it may be opened; undefined when it may not. */
  const local = async (uri: vscode.Uri) => {
    if (uri.toString() === here) return uri;
    const found = await localSource(uri, dump);
    if (found !== undefined) return found;
    if (refusal(uri, dump) === undefined) return uri;
    refused.push(uri);
    return undefined;
  };
  const items: (vscode.Location | vscode.LocationLink)[] = Array.isArray(result) ? result : [result];
  const mapped: (vscode.Location | vscode.LocationLink)[] = [];
  for (const d of items) {
    const target = await local('targetUri' in d ? d.targetUri : d.uri);
    if (target === undefined) continue;
    mapped.push('targetUri' in d ? { ...d, targetUri: target } : new vscode.Location(target, d.range));
  }
  if (refused.length > 0) void vscode.window.showWarningMessage(`XLA Layout: ${notOpened(refused[0], dump)}`);
  return mapped as vscode.Location[] | vscode.LocationLink[];
};
