/**
 * Decisions about HLO files VS Code does not hand to extensions, free of `vscode` so they can be
 * unit-tested in plain Node: which file names are HLO, when a file is over the sync limit, the
 * text we show about it, progress steps, and the conversion of core's streamed report rows to the
 * rows the source-line QuickPick shows.
 */
import { humanBytes } from '../../core/src';
import type { PaddingRow } from '../../core/src';
import type { PaddingReportRow } from '../../protocol/src/lsp';

/**
 * VS Code's limit on what it syncs to extensions (`_MODEL_SYNC_LIMIT`, 50 MB): a bigger file
 * opens in the editor, but no extension gets a didOpen, so there are no hovers or diagnostics.
 */
export const SYNC_LIMIT_BYTES = 50 * 1024 * 1024;

/**
 * The browser build has no streaming file API (workspace.fs.readFile reads whole files), so it
 * reads files only up to this size.
 */
export const BROWSER_READ_CAP_BYTES = 256 * 1024 * 1024;

/** Rows a streamed report keeps (worst first); its totals still count every buffer. */
export const STREAMED_REPORT_ROWS = 500;

/**
 * Largest file a search of the workspace's dumps ("Show HLO Instructions for Source Line") reads:
 * it reads up to 200 files nobody picked, and a stray multi-gigabyte log must not hold it up.
 */
export const MAX_SEARCH_FILE_BYTES = 512 * 1024 * 1024;

/** A file as `workspace.fs.stat` describes it: `type` holds vscode.FileType bits. */
export interface FoundFile {
  readonly type: number;
  readonly size: number;
}

/** vscode.FileType.File (a link to a file has this bit and SymbolicLink's). */
const FILE_TYPE_FILE = 1;

/**
 * Why a file a search found by name is not read, or undefined when it is: anything but a regular
 * file (a `.hlo` link to /dev/zero would stream forever), or a file over `maxBytes`.
 */
export function searchSkipReason(file: FoundFile, maxBytes = MAX_SEARCH_FILE_BYTES): string | undefined {
  if ((file.type & FILE_TYPE_FILE) === 0) return 'not a regular file';
  if (file.size > maxBytes) return `over ${fileSize(maxBytes)}`;
  return undefined;
}

/** Diagnostics Check File puts into Problems per file; the counts in its summary stay exact. */
export const MAX_DISK_DIAGNOSTICS = 10_000;

/** What the editor says about a large HLO file (status item tooltip and the one-time message). */
export const LARGE_FILE_MESSAGE =
  'This file is larger than VS Code gives to extensions (50 MB): hovers and diagnostics are unavailable. Run "XLA Layout: Padding Report" or "XLA Layout: Check File" to analyse it from disk.';

/**
 * The tooltip for a file under the limit whose document has not reached the extension yet: VS Code
 * syncs every text model under the limit, so it will arrive (a big one takes seconds on a loaded
 * machine; over `workbench.editorLargeFileConfirmation`, 10 MB in a remote window, only once the
 * user opens it anyway). Nothing here says it is unavailable.
 */
const NOT_LOADED_MESSAGE =
  'VS Code has not handed this file to extensions yet: hovers and diagnostics come once it has (a large file can take several seconds; if VS Code asks whether to open a large file, open it). "XLA Layout: Padding Report" and "XLA Layout: Check File" read it from disk meanwhile.';

/** What package.json's `contributes.languages` says about a language (the fields we read). */
export interface LanguageContribution {
  readonly id?: string;
  readonly extensions?: readonly string[];
  readonly filenamePatterns?: readonly string[];
}

/** A file-name glob as VS Code's `filenamePatterns` write them (`*`, `?`), as an anchored RegExp. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const c of glob) {
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * A `workspace.findFiles` glob for the files the `hlo` language claims by name (its extensions and
 * file name patterns, in any folder); {@link isHloFileName} then applies the patterns exactly.
 */
export function hloFilesGlob(languages: readonly LanguageContribution[]): string {
  const names = languages
    .filter((l) => l.id === 'hlo')
    .flatMap((l) => [...(l.extensions ?? []).map((e) => `*${e}`), ...(l.filenamePatterns ?? [])]);
  return `**/{${names.join(',')}}`;
}

/**
 * Whether a path names an HLO file by the `hlo` language's contributed extensions and file name
 * patterns (XLA dump names such as `module_0001.jit_f.after_optimizations.txt`). Case-insensitive
 * extensions, case-sensitive patterns, as VS Code matches them on Linux.
 */
export function isHloFileName(path: string, languages: readonly LanguageContribution[]): boolean {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const lower = name.toLowerCase();
  for (const lang of languages) {
    if (lang.id !== 'hlo') continue;
    if ((lang.extensions ?? []).some((e) => lower.endsWith(e.toLowerCase()))) return true;
    if ((lang.filenamePatterns ?? []).some((p) => globToRegExp(p).test(name))) return true;
  }
  return false;
}

/**
 * Why an HLO tab has no language features, or undefined when it has them: `too-large`, over the
 * limit, never synced; `not-loaded`, under it, not synced yet.
 */
export type LargeFileReason = 'too-large' | 'not-loaded';

/**
 * Decides for an HLO file open in a tab. Over the limit it is never synced (VS Code compares the
 * text's length in UTF-16 units, the byte count for the ASCII text of dumps); under it VS Code
 * syncs it once its editor has loaded it, however long that takes, so its document is only late.
 */
export function largeFileReason(sizeBytes: number, synced: boolean): LargeFileReason | undefined {
  if (synced) return undefined;
  return sizeBytes > SYNC_LIMIT_BYTES ? 'too-large' : 'not-loaded';
}

/** What the editor shows about a tab without a document: the status item, and a message only when it never will have one. */
export interface LargeFileNoticeText {
  readonly status: string;
  readonly tooltip: string;
  /** The one-time information message offering the from-disk commands; only for files over the limit. */
  readonly message?: string;
  /** For the output channel. */
  readonly log: string;
}

/** The notice for a tab of `sizeBytes` without a document, for `reason`. */
export function largeFileNotice(reason: LargeFileReason, sizeBytes: number): LargeFileNoticeText {
  const size = fileSize(sizeBytes);
  if (reason === 'too-large')
    return {
      status: `$(warning) XLA: ${size}, no hovers`,
      tooltip: LARGE_FILE_MESSAGE,
      message: LARGE_FILE_MESSAGE,
      log: `${size}, over the 50 MB sync limit; offering the from-disk commands.`,
    };
  return {
    status: `$(loading~spin) XLA: ${size}, loading`,
    tooltip: NOT_LOADED_MESSAGE,
    log: `${size}, not handed to extensions yet (under the 50 MB sync limit: it will be).`,
  };
}

/** Turns bytes read into whole-percent progress increments (VS Code's `increment` adds up to 100). */
export class ProgressSteps {
  private reported = 0;

  constructor(private readonly total: number) {}

  /** The increment to report after `done` bytes in all, or 0 when the shown percentage is unchanged. */
  advance(done: number): number {
    if (!(this.total > 0)) return 0;
    const percent = Math.min(100, Math.floor((done / this.total) * 100));
    const step = percent - this.reported;
    if (step <= 0) return 0;
    this.reported = percent;
    return step;
  }
}

/** Human size of a byte count for messages ("61 MiB", "4 KiB"; see core/src/format.ts). */
export function fileSize(bytes: number): string {
  return humanBytes(BigInt(Math.max(0, Math.floor(bytes))));
}

/** A streamed row in the shape the source-line QuickPick shows (0-based LSP positions). */
export function protocolRow(row: PaddingRow): PaddingReportRow {
  return {
    name: row.name,
    computation: row.computation,
    shape: row.shape,
    range: {
      start: { line: row.start.line - 1, character: row.start.column - 1 },
      end: { line: row.end.line - 1, character: row.end.column - 1 },
    },
    logicalBytes: row.logicalBytes.toString(),
    physicalBytes: row.physicalBytes.toString(),
    expansion: row.expansion,
    ...(row.source !== undefined ? { source: row.source } : {}),
  };
}

/** Summary after Check File, with exact counts even when Problems shows fewer entries. */
export function checkSummary(
  fileName: string,
  counts: { shapes: number; errors: number; warnings: number },
  shown: number,
  total: number,
): string {
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  const capped = shown < total ? ` (the first ${shown} are in Problems)` : '';
  return `XLA Layout: ${fileName}: ${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')} in ${plural(counts.shapes, 'shape')}${capped}.`;
}
