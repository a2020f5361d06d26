/**
 * Reads a module dump and the companions XLA wrote beside it through VS Code's file system (so it
 * works in the browser and on virtual workspaces too) and builds its memory model with core: XLA's
 * figures when the buffer assignment is there, else an estimate from the HLO. The HLO comes from
 * its open document when VS Code has one, else it is streamed from disk (dumps over 50 MB).
 */
import * as vscode from 'vscode';
import {
  BufferAssignmentReader,
  BufferValuesReader,
  HloIndexer,
  LiveRangeReader,
  MemoryUsageReportReader,
  companionNames,
  estimateMemory,
  joinMemory,
  memoryModuleJson,
  moduleLabel,
  type CompanionKind,
  type MemoryModuleJson,
  type ValueSizeCache,
} from '../../../core/src';
import { fileName } from '../file-name';
import { readInto, type ReadOutcome } from '../large-file-read';

/** Values sent to the page at most (the most padded and largest first); a dump can have 400,000. */
const MAX_VIEW_VALUES = 20_000;

type Progress = vscode.Progress<{ message?: string; increment?: number }>;

/** The dump and the companions that exist beside it. */
export interface DumpFiles {
  /** The HLO dump, when it exists (the user may have opened a companion). */
  readonly hlo?: vscode.Uri;
  readonly companions: Partial<Record<CompanionKind, vscode.Uri>>;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}

/** The folder of `uri`, as a URI. */
function folderOf(uri: vscode.Uri): vscode.Uri {
  return uri.with({ path: uri.path.slice(0, uri.path.lastIndexOf('/')) || '/' });
}

/** Finds the dump of `uri` (an HLO dump or one of its companions) and its companions by name. */
export async function findDumpFiles(uri: vscode.Uri): Promise<DumpFiles> {
  const names = companionNames(fileName(uri));
  if (names === undefined) return { hlo: uri, companions: {} };
  const folder = folderOf(uri);
  const companions: Partial<Record<CompanionKind, vscode.Uri>> = {};
  await Promise.all(
    (Object.entries(names.companions) as [CompanionKind, string][]).map(async ([kind, name]) => {
      const candidate = vscode.Uri.joinPath(folder, name);
      if (await exists(candidate)) companions[kind] = candidate;
    }),
  );
  const hlo = vscode.Uri.joinPath(folder, names.hlo);
  return { ...((await exists(hlo)) || hlo.toString() === uri.toString() ? { hlo } : {}), companions };
}

/** What {@link loadMemory} produced. */
export interface LoadedMemory {
  readonly files: DumpFiles;
  /** The dump's name as shown. */
  readonly name: string;
  readonly model: MemoryModuleJson;
}

/** Why a load did not finish. */
export interface LoadFailure {
  readonly failed: string;
}

/** Streams `uri` into `reader`; the outcome says whether it was read whole. */
async function stream<T>(
  uri: vscode.Uri,
  reader: { write(text: string): void; end(): T },
  progress: Progress,
  token: vscode.CancellationToken,
): Promise<T | LoadFailure> {
  const outcome: ReadOutcome = await readInto(uri, reader, progress, token);
  if (outcome.kind === 'cancelled') return { failed: 'cancelled' };
  if (outcome.kind === 'refused') return { failed: outcome.reason };
  return reader.end();
}

function isFailure(x: unknown): x is LoadFailure {
  return typeof x === 'object' && x !== null && 'failed' in x;
}

/**
 * The memory model of the dump at `uri` (or of `document`, the open HLO whose text VS Code holds).
 * Undefined fields of the model's sources are simply missing files.
 */
export async function loadMemory(
  uri: vscode.Uri,
  document: vscode.TextDocument | undefined,
  sizes: ValueSizeCache,
  progress: Progress,
  token: vscode.CancellationToken,
): Promise<LoadedMemory | LoadFailure> {
  const files = await findDumpFiles(uri);
  const c = files.companions;
  const hloName = files.hlo ? fileName(files.hlo) : fileName(uri);
  let hlo;
  const indexer = new HloIndexer();
  const open = files.hlo
    ? (document ?? vscode.workspace.textDocuments.find((d) => d.uri.toString() === files.hlo!.toString()))
    : undefined;
  if (open) {
    indexer.write(open.getText());
    hlo = indexer.end();
  } else if (files.hlo) {
    const read = await stream(files.hlo, indexer, progress, token);
    if (isFailure(read)) return read;
    hlo = read;
  }
  const module = moduleLabel(hloName);
  const opt = async <T>(file: vscode.Uri | undefined, reader: { write(t: string): void; end(): T }) =>
    file === undefined ? undefined : stream(file, reader, progress, token);
  const bufferAssignment = await opt(c['buffer-assignment'], new BufferAssignmentReader());
  if (isFailure(bufferAssignment)) return bufferAssignment;
  if (bufferAssignment === undefined) {
    if (hlo === undefined)
      return { failed: `${hloName}: neither the HLO dump nor its buffer assignment is there` };
    return {
      files,
      name: hloName,
      model: memoryModuleJson(estimateMemory(hlo, module, sizes), { maxValues: MAX_VIEW_VALUES }),
    };
  }
  const values = await opt(c['buffer-assignment-values'], new BufferValuesReader());
  const usageReport = await opt(c['memory-usage-report'], new MemoryUsageReportReader());
  const liveRange = await opt(c['live-range'], new LiveRangeReader());
  for (const r of [values, usageReport, liveRange]) if (isFailure(r)) return r;
  const model = joinMemory({
    module,
    bufferAssignment,
    ...(values && !isFailure(values) ? { values } : {}),
    ...(usageReport && !isFailure(usageReport) ? { usageReport } : {}),
    ...(liveRange && !isFailure(liveRange) ? { liveRange } : {}),
    ...(hlo ? { hlo } : {}),
    sizes,
  });
  return { files, name: hloName, model: memoryModuleJson(model, { maxValues: MAX_VIEW_VALUES }) };
}

export { isFailure };
