/**
 * Which recorded source files go to source may open. A dump's metadata is text anyone can write:
 * `source_file="../../../../home/user/.ssh/id_rsa"`, `/etc/passwd` or `javascript:…` must not turn
 * into a link that opens them. A file is opened only with the `file` scheme (or the dump's own,
 * for a dump in a virtual workspace) and inside a workspace folder or the dump's folder. Free of
 * `vscode` so it can be unit-tested in plain Node.
 */

/** The parts of a URI the policy looks at (a `vscode.Uri` has them). */
export interface UriParts {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
}

/** `path` with `.` and `..` segments resolved and repeated slashes merged (never above `/`). */
export function normalPath(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/** Whether `target` lies inside the folder `root` (the same scheme and authority, below its path). */
export function isInside(target: UriParts, root: UriParts): boolean {
  if (target.scheme !== root.scheme || target.authority.toLowerCase() !== root.authority.toLowerCase())
    return false;
  const folder = normalPath(root.path);
  const path = normalPath(target.path);
  // Windows drive letters arrive in either case (file:///C:/ and file:///c:/).
  const fold = (p: string) => (target.scheme === 'file' ? p.replace(/^\/[A-Z]:/, (d) => d.toLowerCase()) : p);
  return folder === '/' || fold(path).startsWith(`${fold(folder)}/`);
}

/**
 * Why the recorded source `target` may not be opened from the dump `dump`, or `undefined` when it
 * may: `scheme` for anything but `file` (or the dump's own scheme), `outside` for a file outside
 * every folder of `roots` (the workspace folders and the dump's folder).
 */
export function sourceRefusal(
  target: UriParts,
  roots: readonly UriParts[],
  dump?: UriParts,
): 'scheme' | 'outside' | undefined {
  if (target.scheme !== 'file' && target.scheme !== dump?.scheme) return 'scheme';
  return roots.some((r) => isInside(target, r)) ? undefined : 'outside';
}

/** The folder holding `file`, as URI parts. */
export function folderOf(file: UriParts): UriParts {
  const path = normalPath(file.path);
  return {
    scheme: file.scheme,
    authority: file.authority,
    path: path.slice(0, path.lastIndexOf('/')) || '/',
  };
}
