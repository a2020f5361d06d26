/**
 * What `xla-layout check` reads of its arguments: a folder is walked (an `--xla_dump_to` folder,
 * with its per-module subfolders), and the files XLA writes beside its HLO (buffer assignments,
 * live ranges, debug options, LLVM IR, ...; core's `dumpCompanion` knows them by name and content)
 * are skipped with a note, named or found, rather than reported as HLO errors.
 */
import * as fs from 'fs';
import * as path from 'path';
import { dumpCompanion, DUMP_COMPANION_NAMES, skipTrivia, type DumpCompanionKind } from '../../core/src';

/** How much of a file is read to tell what it holds. */
const HEAD_BYTES = 4096;

/** A file not checked, and why. */
export interface SkippedFile {
  readonly file: string;
  /** A companion's kind, or `not-hlo` for a file found in a folder that holds no HLO text. */
  readonly kind: DumpCompanionKind | 'not-hlo';
}

export interface CheckTargets {
  /** Files to check, in argument order; a folder's files sorted by path. */
  readonly files: readonly string[];
  readonly skipped: readonly SkippedFile[];
  /** Folders named in the arguments in which the walk found no HLO file. */
  readonly empty: readonly string[];
}

/**
 * The first bytes of `file` as text, and whether they hold a NUL (a binary file); undefined if
 * unreadable. Only a regular file is looked into: a FIFO or a pipe would lose what was read (and a
 * FIFO's writer dies when its only reader closes), so it is judged by its name alone.
 */
function head(file: string): { text: string; binary: boolean } | undefined {
  let fd: number | undefined;
  try {
    if (!fs.statSync(file).isFile()) return { text: '', binary: false };
    fd = fs.openSync(file, 'r');
    const bytes = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, bytes, 0, HEAD_BYTES, 0);
    const data = bytes.subarray(0, n);
    return { text: data.toString('utf8'), binary: data.includes(0) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Names a walk takes for HLO without looking inside (XLA's dumps, the editor's `.hlo` files). */
const HLO_NAME = /\.(txt|hlo|hlotxt)$/;
/**
 * Whether `text` starts as HLO text does: `HloModule` after a byte-order mark, blanks and comments.
 * A loop, not a regular expression: one that repeats comment patterns backtracks exponentially on a
 * run of `/**\/` in a file that is not HLO.
 */
function startsAsHlo(text: string): boolean {
  const at = skipTrivia(text, text.charCodeAt(0) === 0xfeff ? 1 : 0, text.length);
  return text.startsWith('HloModule', at) && !/\w/.test(text.charAt(at + 9));
}

/** Adds `file`, found in a folder walk, to `files` or `skipped`. */
function found(file: string, files: string[], skipped: SkippedFile[]): void {
  const h = head(file);
  if (h === undefined) {
    files.push(file); // the check says why it cannot be read
    return;
  }
  const companion = dumpCompanion(file, h.text);
  if (companion) skipped.push({ file, kind: companion });
  else if (!h.binary && (HLO_NAME.test(file) || startsAsHlo(h.text))) files.push(file);
  else skipped.push({ file, kind: 'not-hlo' });
}

/**
 * Every file under `dir`, sorted by path. Links to folders are not followed (as find does not): one
 * may lead out of the folder, even to the whole file system (/proc/self/root), or back into it;
 * each real folder is walked once all the same (bind mounts may loop). An empty file is left out
 * unread: it holds no HLO, and the virtual files of /proc and /sys, which say they are empty, may
 * block a reader.
 */
function walk(dir: string, seen: Set<string>, out: string[]): void {
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return;
  }
  if (seen.has(real)) return;
  seen.add(real);
  let entries: string[];
  try {
    entries = fs.readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of entries) {
    const p = path.join(dir, name);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
      if (st.isSymbolicLink()) st = fs.statSync(p);
      else if (st.isDirectory()) {
        walk(p, seen, out);
        continue;
      }
    } catch {
      continue;
    }
    if (st.isFile() && st.size > 0) out.push(p);
  }
}

/**
 * The files `check` reads for its arguments: a folder's files (walked), and each named file,
 * except XLA's companion files, which are skipped. A named file that is not a companion is always
 * checked (a missing or binary one then fails as usual); a file found in a folder is checked when
 * its name (`.txt`, `.hlo`, `.hlotxt`) or its start (`HloModule`) says HLO.
 */
export function checkTargets(args: readonly string[]): CheckTargets {
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  const empty: string[] = [];
  for (const arg of args) {
    let directory = false;
    try {
      directory = fs.statSync(arg).isDirectory();
    } catch {
      // not there: the check reports it
    }
    if (directory) {
      const inside: string[] = [];
      walk(arg, new Set(), inside);
      const before = files.length;
      for (const f of inside) found(f, files, skipped);
      if (files.length === before) empty.push(arg);
      continue;
    }
    const h = head(arg);
    const companion = h === undefined ? undefined : dumpCompanion(arg, h.text);
    if (companion) skipped.push({ file: arg, kind: companion });
    else files.push(arg);
  }
  return { files, skipped, empty };
}

/** The one-line note on what was skipped, or undefined when nothing was. */
export function skippedNote(skipped: readonly SkippedFile[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const what = (kind: SkippedFile['kind']) => (kind === 'not-hlo' ? 'other' : DUMP_COMPANION_NAMES[kind]);
  if (skipped.length === 1) {
    const { file, kind } = skipped[0];
    return `xla-layout check: skipped ${file}: ${kind === 'not-hlo' ? 'not HLO text' : `${what(kind)}, not HLO`}`;
  }
  const counts = new Map<string, number>();
  for (const s of skipped) counts.set(what(s.kind), (counts.get(what(s.kind)) ?? 0) + 1);
  const list = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} (${n})`)
    .join(', ');
  return `xla-layout check: skipped ${skipped.length} files that are not HLO: ${list}`;
}
