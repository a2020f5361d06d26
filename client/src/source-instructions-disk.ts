/**
 * The disk half of "Show HLO Instructions for Source Line": when no open HLO document has an
 * instruction of the line, the workspace's HLO files that are not open are read from disk through
 * core's PaddingReporter, filtered to that source line, like the Padding Report of a file.
 */
import * as vscode from 'vscode';
import { LongestTailMatches, type SourceFilter } from '../../core/src';
import { PaddingReporter } from '../../core/src';
import type { SourceInstruction } from '../../protocol/src/lsp';
import type { Ctx } from './ctx';
import { hloLanguages } from './large-file-commands';
import {
  hloFilesGlob,
  isHloFileName,
  protocolRow,
  searchSkipReason,
  STREAMED_REPORT_ROWS,
} from './large-file-policy';
import { readInto } from './large-file-read';
import { fileName } from './file-name';

/** Most files one search reads (each streams in bounded memory, but a big workspace can hold hundreds of dumps). */
const MAX_DISK_FILES = 200;

/** What a search of the files on disk found. */
export interface DiskSourceInstructions {
  /** The instructions whose source path agrees best with the one asked for, worst padding first. */
  readonly items: readonly SourceInstruction[];
  /** Files read to the end. */
  readonly files: number;
  /** Files found but not read, each with why (not a regular file, too large, binary). */
  readonly skipped: readonly string[];
  /** Whether the search was cancelled (what was found until then is listed), or more rows matched than are listed. */
  readonly incomplete: boolean;
}

/**
 * Searches the workspace's HLO files, other than those open as HLO documents (the server searched
 * them), for the instructions of `from`, under one cancellable progress notification.
 */
export async function sourceInstructionsOnDisk(
  ctx: Ctx,
  from: SourceFilter,
  where: string,
): Promise<DiskSourceInstructions> {
  const languages = hloLanguages(ctx);
  const open = new Set(
    vscode.workspace.textDocuments.filter((d) => d.languageId === 'hlo').map((d) => d.uri.toString()),
  );
  const found = await vscode.workspace.findFiles(
    hloFilesGlob(languages),
    '**/node_modules/**',
    MAX_DISK_FILES,
  );
  const files = found.filter((u) => isHloFileName(u.path, languages) && !open.has(u.toString()));
  if (files.length === 0) return { items: [], files: 0, skipped: [], incomplete: false };
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `XLA Layout: instructions of ${where} in ${files.length} HLO file${files.length === 1 ? '' : 's'} on disk`,
      cancellable: true,
    },
    async (progress, token) => {
      const matches = new LongestTailMatches<SourceInstruction>();
      let read = 0;
      let incomplete = false;
      // Per file, the bytes read advance the bar by that file's share.
      const share = {
        report: ({ increment }: { increment?: number }) =>
          progress.report({ increment: (increment ?? 0) / files.length }),
      };
      const skipped: string[] = [];
      for (const file of files) {
        if (token.isCancellationRequested) break;
        const why = await vscode.workspace.fs.stat(file).then(searchSkipReason, () => 'cannot be read');
        if (why !== undefined) {
          skipped.push(`${fileName(file)}: ${why}`);
          continue;
        }
        const reporter = new PaddingReporter({ top: STREAMED_REPORT_ROWS, from });
        const outcome = await readInto(file, reporter, share, token);
        // A file refused (binary, over the browser's read cap) is left out; a cancelled read ends the search.
        if (outcome.kind === 'refused')
          skipped.push(`${fileName(file)}: ${outcome.reason.replace(/\.$/, '')}`);
        if (outcome.kind !== 'done') continue;
        read++;
        const report = reporter.end();
        incomplete ||= report.totals.buffers > report.rows.length;
        for (const row of report.rows) {
          matches.offer(row.sourceMatch ?? 1, () => ({
            ...protocolRow(row),
            uri: file.toString(),
            ...(from.line !== undefined ? { sourceLine: from.line } : {}),
          }));
        }
      }
      const items = matches.items;
      const wasted = (i: SourceInstruction) => BigInt(i.physicalBytes) - BigInt(i.logicalBytes);
      items.sort((a, b) => (wasted(b) > wasted(a) ? 1 : wasted(b) < wasted(a) ? -1 : 0));
      return {
        items: items.slice(0, STREAMED_REPORT_ROWS),
        files: read,
        skipped,
        incomplete: incomplete || token.isCancellationRequested || items.length > STREAMED_REPORT_ROWS,
      };
    },
  );
}
