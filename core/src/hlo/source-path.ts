/**
 * Source paths in dumps against paths on this machine. Dumps record the paths of the machine that
 * compiled the program (`/workspace/model/train.py`, a build directory, a container); the same
 * file here usually shares the tail of its path. Windows separators count as `/`.
 */

/** The non-empty segments of a path, `\` and `/` both separating. */
export function pathSegments(path: string): string[] {
  return path.split(/[\\/]/).filter((s) => s !== '');
}

/** Number of trailing segments the paths `a` and `b` share (0 when even the file names differ). */
export function sharedPathTail(a: string, b: string): number {
  return sharedTail(pathSegments(a), pathSegments(b));
}

function sharedTail(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * The candidate path sharing the longest tail with `wanted` (at least the file name), the shorter
 * one among equals, then the first in text order; undefined when none shares the file name.
 */
export function closestBySuffix(wanted: string, candidates: readonly string[]): string | undefined {
  const target = pathSegments(wanted);
  let best: { path: string; shared: number; depth: number } | undefined;
  for (const path of candidates) {
    const segments = pathSegments(path);
    const shared = sharedTail(target, segments);
    if (shared === 0) continue;
    const better = !best || shared > best.shared || (shared === best.shared && (segments.length < best.depth || (segments.length === best.depth && path < best.path)));
    if (better) best = { path, shared, depth: segments.length };
  }
  return best?.path;
}

/** `file.py:N`: the file name of `path` and the 1-based `line`, when there is one. */
export function sourceLabel(path: string, line: number | undefined): string {
  const name = pathSegments(path).at(-1) ?? path;
  return line !== undefined ? `${name}:${line}` : name;
}
