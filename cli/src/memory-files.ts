/**
 * Finds the files of each module `xla-layout memory` is asked about and reads them through core's
 * streaming readers: a dump folder holds one module per buffer assignment; a file is a module's
 * HLO dump or one of its companions, the others found beside it by name.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isAscii } from 'buffer';
import { StringDecoder } from 'string_decoder';
import {
  BufferAssignmentReader,
  BufferValuesReader,
  HloIndexer,
  LiveRangeReader,
  MemoryUsageReportReader,
  companionKind,
  companionNames,
  estimateMemory,
  joinMemory,
  moduleLabel,
  type CompanionKind,
  type MemoryModule,
  type ValueSizeCache,
} from '../../core/src';
import { FileError } from './errors';
import { closeText, openText } from './read-statements';

/** The files of one module: its HLO dump and the companions that exist. */
export interface ModuleFiles {
  readonly module: string;
  readonly hlo?: string;
  readonly companions: Partial<Record<CompanionKind, string>>;
  /**
   * Without a buffer assignment of its own: the one XLA wrote beside it for the same module at
   * another stage (a `before_optimizations` dump's module, assigned after its optimizations).
   */
  readonly assignedAt?: string;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Feeds `file` to `write` in decoded pieces of about 64 KiB (a UTF-8 sequence split between reads
 * stays whole). A stream (`-`, a pipe) is read in order, after the bytes openText sniffed.
 */
function streamChunks(file: string, write: (chunk: string) => void, what: string): void {
  const input = openText(file, what);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new StringDecoder('utf8');
    /** The decoder may hold the start of a UTF-8 sequence cut by the previous read. */
    let pending = false;
    const piece = (bytes: Buffer): void => {
      // Dumps are nearly always ASCII, where Latin-1 decoding is a copy and UTF-8 decoding checks
      // every byte; a piece after one that may end in a cut UTF-8 sequence goes to the decoder.
      const ascii = isAscii(bytes);
      write(ascii && !pending ? bytes.toString('latin1') : decoder.write(bytes));
      pending = !ascii;
    };
    if (input.head.length > 0) piece(input.head);
    for (let at = 0; ;) {
      const n = fs.readSync(input.fd, buffer, 0, CHUNK_BYTES, input.stream ? null : at);
      if (n === 0) break;
      at += n;
      piece(buffer.subarray(0, n));
    }
    write(decoder.end());
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw new FileError(`${file}: cannot read: ${(e as Error).message}`);
  } finally {
    closeText(input);
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The module whose HLO dump (or companion) is `file`, with the companions that exist beside it. */
function filesOf(file: string): ModuleFiles {
  const dir = path.dirname(file);
  const names = companionNames(path.basename(file));
  if (names === undefined) return { module: moduleLabel(path.basename(file)), hlo: file, companions: {} };
  const companions: Partial<Record<CompanionKind, string>> = {};
  for (const [kind, name] of Object.entries(names.companions) as [CompanionKind, string][]) {
    const p = path.join(dir, name);
    if (isFile(p)) companions[kind] = p;
  }
  const hlo = path.join(dir, names.hlo);
  const assignedAt = companions['buffer-assignment'] ? undefined : assignmentOfModule(dir, names.hlo);
  return {
    module: moduleLabel(names.hlo),
    ...(isFile(hlo) ? { hlo } : {}),
    companions,
    ...(assignedAt ? { assignedAt } : {}),
  };
}

/**
 * The buffer assignment XLA wrote in `dir` for the module `module_NNNN.` of the dump `hloName`, at
 * whatever stage; undefined when the name has no module number or there is none.
 */
function assignmentOfModule(dir: string, hloName: string): string | undefined {
  const prefix = /^module_\d+\./.exec(hloName)?.[0];
  if (prefix === undefined) return undefined;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  const found = names.find((n) => n.startsWith(prefix) && companionKind(n) === 'buffer-assignment');
  return found === undefined ? undefined : path.join(dir, found);
}

/**
 * The modules `target` stands for: a folder's buffer assignments (or, when it has none, its
 * optimized modules, estimated); a file's module.
 */
export function modulesAt(target: string): ModuleFiles[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new FileError(
      `${target}: cannot read: ${code === 'ENOENT' ? 'no such file or folder' : (e as Error).message}`,
    );
  }
  if (!stat.isDirectory()) return [filesOf(target)];
  const entries = fs.readdirSync(target).sort();
  const assigned = entries.filter((e) => companionKind(e) === 'buffer-assignment');
  const chosen =
    assigned.length > 0 ? assigned : entries.filter((e) => /after_optimizations\.(txt|hlo)$/.test(e));
  if (chosen.length === 0)
    throw new FileError(
      `${target}: no buffer assignment (*-buffer-assignment.txt) and no optimized module to estimate`,
    );
  return chosen.map((e) => filesOf(path.join(target, e)));
}

/** Reads one module's files and builds its memory model (XLA's, or an estimate without a buffer assignment). */
export function readModule(files: ModuleFiles, sizes: ValueSizeCache): MemoryModule {
  const c = files.companions;
  let hlo;
  if (files.hlo !== undefined) {
    const indexer = new HloIndexer();
    streamChunks(files.hlo, (t) => indexer.write(t), 'HLO text');
    hlo = indexer.end();
  }
  if (c['buffer-assignment'] === undefined) {
    if (hlo === undefined) throw new FileError(`${files.module}: neither a buffer assignment nor HLO text`);
    return estimateMemory(hlo, files.module, sizes);
  }
  const read = <T>(file: string | undefined, reader: { write(t: string): void; end(): T }): T | undefined => {
    if (file === undefined) return undefined;
    streamChunks(file, (t) => reader.write(t), 'a text file of XLA');
    return reader.end();
  };
  const bufferAssignment = read(c['buffer-assignment'], new BufferAssignmentReader())!;
  const values = read(c['buffer-assignment-values'], new BufferValuesReader());
  const usageReport = read(c['memory-usage-report'], new MemoryUsageReportReader());
  const liveRange = read(c['live-range'], new LiveRangeReader());
  return joinMemory({
    module: files.module,
    bufferAssignment,
    ...(values ? { values } : {}),
    ...(usageReport ? { usageReport } : {}),
    ...(liveRange ? { liveRange } : {}),
    ...(hlo ? { hlo } : {}),
    sizes,
  });
}
