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
    const better =
      !best ||
      shared > best.shared ||
      (shared === best.shared &&
        (segments.length < best.depth || (segments.length === best.depth && path < best.path)));
    if (better) best = { path, shared, depth: segments.length };
  }
  return best?.path;
}

/** `file.py:N`: the file name of `path` and the 1-based `line`, when there is one. */
export function sourceLabel(path: string, line: number | undefined): string {
  const name = pathSegments(path).at(-1) ?? path;
  return line !== undefined ? `${name}:${line}` : name;
}

/**
 * What was found of a wanted file in places whose recorded paths differ: only the items from the
 * paths that share the longest tail with it are kept (a longer common tail means another file was
 * meant than the ones found so far), at most `limit` of them, while counting all that match.
 */
export class LongestTailMatches<T> {
  private tail = 1;
  private kept: T[] = [];
  private matched = 0;

  constructor(private readonly limit = Infinity) {}

  /** Offers an item whose path shares `tail` segments with the wanted one; `make` builds it only if kept. */
  offer(tail: number, make: () => T | undefined): void {
    if (tail < this.tail) return;
    if (tail > this.tail) {
      this.tail = tail;
      this.kept = [];
      this.matched = 0;
    }
    this.matched++;
    if (this.kept.length >= this.limit) return;
    const item = make();
    if (item !== undefined) this.kept.push(item);
  }

  /** The kept items, in the order offered. */
  get items(): T[] {
    return this.kept;
  }

  /** Whether more items matched the longest tail than were kept. */
  get truncated(): boolean {
    return this.matched > this.kept.length;
  }
}

/** One file, or one line of it, of the program a dump was compiled from. */
export interface SourceFilter {
  /** The file's path here; metadata paths (from the compiling machine) match by file name. */
  readonly path: string;
  /** 1-based line; the whole file when absent. */
  readonly line?: number;
}

/**
 * How many trailing path segments an instruction's source (its metadata's `source_file`, or its
 * stack frame's file: see `metadataSource`) shares with `from` (0: not it, or another line).
 */
export function sourceMatch(source: { file: string; line?: number } | undefined, from: SourceFilter): number {
  if (source === undefined || (from.line !== undefined && source.line !== from.line)) return 0;
  return sharedPathTail(source.file, from.path);
}

/**
 * Finds the statements of a text that may name a source file (and line) by native searches that
 * only move forward: a statement without the file name (and `source_line=N`) is not it, unless it
 * names one of the stack frames given by {@link useFrames} (a module's frames of that line).
 */
export class SourceTextSearch {
  private readonly name: string;
  private readonly lineText: string | undefined;
  private nameAt = -1;
  private lineAt = -1;
  private frameAt = -1;
  private frames: ReadonlySet<number> = new Set();

  constructor(from: SourceFilter) {
    this.name = pathSegments(from.path).at(-1) ?? from.path;
    this.lineText = from.line !== undefined ? `source_line=${from.line}` : undefined;
  }

  /** Starts over, for another text (or another batch of one). */
  reset(): void {
    this.nameAt = -1;
    this.lineAt = -1;
    this.frameAt = -1;
  }

  /** The stack frame ids that stand for the file (and line) in the module read from here on. */
  useFrames(ids: ReadonlySet<number>): void {
    this.frames = ids;
  }

  /** Whether `text[start, end)` (asked after the statements before it in the same text) may name the file and line. */
  mayName(text: string, start: number, end: number): boolean {
    return this.namesFile(text, start, end) || this.namesFrame(text, start, end);
  }

  private namesFile(text: string, start: number, end: number): boolean {
    if (this.nameAt < start) this.nameAt = nextAt(text, this.name, start);
    if (this.nameAt >= end) return false;
    if (this.lineText === undefined) return true;
    if (this.lineAt < start) this.lineAt = nextAt(text, this.lineText, start);
    return this.lineAt < end;
  }

  private namesFrame(text: string, start: number, end: number): boolean {
    if (this.frames.size === 0) return false;
    if (this.frameAt < start) this.frameAt = nextAt(text, STACK_FRAME_ID, start);
    for (; this.frameAt < end; this.frameAt = nextAt(text, STACK_FRAME_ID, this.frameAt + 1)) {
      const id = /^\d+/.exec(text.slice(this.frameAt + STACK_FRAME_ID.length, this.frameAt + 40));
      if (id && this.frames.has(Number(id[0]))) return true;
    }
    return false;
  }
}

const STACK_FRAME_ID = 'stack_frame_id=';

/** `text.indexOf(needle, from)`, or the text's length when there is none (nothing further can match). */
function nextAt(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  return at < 0 ? text.length : at;
}
