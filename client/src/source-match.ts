/**
 * Which workspace file a source path from a dump means. Dumps record the paths of the machine that
 * compiled the program (`/workspace/model/train.py`, a build directory, a container); the same
 * file on this machine usually shares the tail of its path. Pure, so it is unit-tested without VS Code.
 */

/** Number of trailing `/`-separated segments `a` and `b` share. */
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
  const target = wanted.split('/').filter((s) => s !== '');
  let best: { path: string; shared: number; depth: number } | undefined;
  for (const path of candidates) {
    const segments = path.split('/').filter((s) => s !== '');
    const shared = sharedTail(target, segments);
    if (shared === 0) continue;
    const better = !best || shared > best.shared || (shared === best.shared && (segments.length < best.depth || (segments.length === best.depth && path < best.path)));
    if (better) best = { path, shared, depth: segments.length };
  }
  return best?.path;
}
