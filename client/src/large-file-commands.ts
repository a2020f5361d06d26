/**
 * "Check File" on a file read from disk, for HLO files VS Code does not hand to extensions (over
 * 50 MB) and for files picked without opening them: core's streaming check inside a cancellable
 * progress notification. The Memory View reads such files from disk too (memory-view/load.ts).
 */
import * as vscode from 'vscode';
import { CheckStream, readableMessage, type LocatedDiagnostic } from '../../core/src';
import type { Ctx } from './ctx';
import {
  checkSummary,
  isHloFileName,
  MAX_DISK_DIAGNOSTICS,
  type LanguageContribution,
} from './large-file-policy';
import { readInto, type ReadOutcome, type TextSink } from './large-file-read';
import { ruleCodeLink } from './rule-links';
import { fileName } from './file-name';

/** The `hlo` language's contribution, read from our own package.json (one source of truth). */
export function hloLanguages(ctx: Ctx): readonly LanguageContribution[] {
  const pkg = ctx.extension.extension.packageJSON as { contributes?: { languages?: LanguageContribution[] } };
  return pkg.contributes?.languages ?? [];
}

/** The file of the active tab when it is an HLO text file (a TabInputText), whether synced or not. */
export function activeHloTab(ctx: Ctx): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (!(input instanceof vscode.TabInputText)) return undefined;
  return isHloFileName(input.uri.path, hloLanguages(ctx)) ? input.uri : undefined;
}

/** The TextDocument of `uri` if one reached the extension (VS Code withholds those over 50 MB). */
export function syncedDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/** The HLO files open in tabs, the active one first. */
function openHloFiles(ctx: Ctx): vscode.Uri[] {
  const active = activeHloTab(ctx);
  const seen = new Set(active ? [active.toString()] : []);
  const out = active ? [active] : [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (!(input instanceof vscode.TabInputText) || seen.has(input.uri.toString())) continue;
      if (!isHloFileName(input.uri.path, hloLanguages(ctx))) continue;
      seen.add(input.uri.toString());
      out.push(input.uri);
    }
  }
  return out;
}

/** A file picked in the open dialog. */
async function browse(title: string): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectMany: false,
    openLabel: 'Check',
    filters: { 'HLO text': ['hlo', 'hlotxt', 'txt'], 'All files': ['*'] },
  });
  return picked?.[0];
}

/**
 * The file Check File reads: asked, since the open file is checked as you type already and a
 * large dump is usually checked without opening it. The open HLO files are offered first (the
 * active one at the top), then a file browser; without open HLO files, the browser at once.
 */
async function checkTarget(ctx: Ctx): Promise<vscode.Uri | undefined> {
  const title = 'XLA Layout: Check File';
  const open = openHloFiles(ctx);
  if (open.length === 0) return browse(title);
  const BROWSE = 'Browse…';
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = [
    ...open.map((uri, i) => ({
      label: fileName(uri),
      description: i === 0 && uri.toString() === activeHloTab(ctx)?.toString() ? 'active editor' : 'open',
      detail: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
      uri,
    })),
    { label: BROWSE, description: 'an HLO file or dump on disk' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: 'Which file? Open files are checked as you type; a dump on disk is read in pieces.',
  });
  if (picked === undefined) return undefined;
  return picked.uri ?? browse(title);
}

/** Streams `uri` into `sink` under a cancellable notification; undefined when it did not finish. */
async function streamWithProgress(title: string, uri: vscode.Uri, sink: TextSink): Promise<ReadOutcome> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => readInto(uri, sink, progress, token),
  );
}

/** Tells the user why a read did not finish; true when it did. */
function finished(outcome: ReadOutcome, what: string): outcome is Extract<ReadOutcome, { kind: 'done' }> {
  if (outcome.kind === 'cancelled')
    void vscode.window.showInformationMessage(`XLA Layout: ${what} cancelled.`);
  else if (outcome.kind === 'refused')
    void vscode.window.showWarningMessage(`XLA Layout: ${what}: ${outcome.reason}`);
  return outcome.kind === 'done';
}

const SEVERITY: Record<string, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

function toDiagnostic({ diagnostic: d, start, end }: LocatedDiagnostic): vscode.Diagnostic {
  const range = new vscode.Range(start.line - 1, start.column - 1, end.line - 1, end.column - 1);
  const out = new vscode.Diagnostic(
    range,
    readableMessage(d),
    SEVERITY[d.severity] ?? vscode.DiagnosticSeverity.Error,
  );
  out.source = 'xla-layout';
  out.code = ruleCodeLink(d.code);
  return out;
}

const collections = new WeakMap<Ctx, vscode.DiagnosticCollection>();

/**
 * The collection for diagnostics of files checked from disk (one per extension context, disposed
 * with it); VS Code lists them in Problems even for files it never synced.
 */
export function diskDiagnostics(ctx: Ctx): vscode.DiagnosticCollection {
  let collection = collections.get(ctx);
  if (collection === undefined) {
    collection = vscode.languages.createDiagnosticCollection('xla-layout-disk');
    collections.set(ctx, collection);
    ctx.push(collection);
  }
  return collection;
}

/** What Check File found (for the extension-host suite). */
export interface DiskCheckResult {
  readonly uri: vscode.Uri;
  readonly shapes: number;
  readonly errors: number;
  readonly warnings: number;
  readonly reported: number;
}

/**
 * Check File: `uri` (default: the file the user picks, {@link checkTarget}) streamed through core's
 * CheckStream; diagnostics go to {@link diskDiagnostics} for that URI. A file the server already
 * analyses live is not checked twice: Problems already lists its diagnostics.
 */
export async function checkFileFromDisk(ctx: Ctx, uri?: vscode.Uri): Promise<DiskCheckResult | undefined> {
  const file = uri ?? (await checkTarget(ctx));
  if (file === undefined) return undefined;
  const name = fileName(file);
  if (syncedDocument(file)?.languageId === 'hlo' && ctx.client !== undefined) {
    diskDiagnostics(ctx).delete(file);
    void vscode.window.showInformationMessage(
      `XLA Layout: ${name} is open and checked as you type; its diagnostics are in Problems.`,
    );
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    return undefined;
  }
  const diagnostics: vscode.Diagnostic[] = [];
  let total = 0;
  // Padding warnings would double the time of a check from disk; the Memory View answers padding.
  const stream = new CheckStream(
    (d) => {
      total++;
      if (diagnostics.length < MAX_DISK_DIAGNOSTICS) diagnostics.push(toDiagnostic(d));
    },
    { padding: false },
  );
  const outcome = await streamWithProgress(`XLA Layout: checking ${name}`, file, stream);
  if (!finished(outcome, 'check')) return undefined;
  const counts = stream.end();
  diskDiagnostics(ctx).set(file, diagnostics);
  const summary = checkSummary(name, counts, diagnostics.length, total);
  ctx.output.appendLine(`Check of ${file.toString()} from disk: ${summary}`);
  if (total > 0) {
    void vscode.window.showWarningMessage(summary, 'Show Problems').then((choice) => {
      if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  } else {
    void vscode.window.showInformationMessage(summary);
  }
  return {
    uri: file,
    shapes: counts.shapes,
    errors: counts.errors,
    warnings: counts.warnings,
    reported: diagnostics.length,
  };
}
