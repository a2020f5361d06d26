/**
 * Where an instruction comes from in current dumps. jax no longer writes `source_file=` and
 * `source_line=` into metadata but `stack_frame_id=N`, resolved through four tables XLA prints
 * after the `HloModule` line, before the first computation:
 *
 *     FileNames
 *     1 "/work/xp/cnn.py"
 *     FunctionNames
 *     1 "<module>"
 *     FileLocations
 *     1 {file_name_id=1 function_name_id=1 line=13 end_line=13 column=6 end_column=64}
 *     StackFrames
 *     1 {file_location_id=1 parent_frame_id=1}
 *     2 {file_location_id=2 parent_frame_id=2}
 *
 * A frame's `parent_frame_id` is its caller's id plus one, 1 for an outermost frame: XLA prints
 * the stored 0-based index + 1. (Read as an id, every outermost frame would call itself; read so,
 * each caller is a frame printed before it, in every dump checked.) The frame an instruction
 * names is the innermost one jax kept (jax leaves out its own frames); {@link resolveStackFrame}
 * takes the innermost frame of the user's program from it, and its callers as the chain. The
 * memory model, the padding report, the language server's go to source, hovers and "instructions
 * of a source line" all resolve frames through it.
 */
import { pathSegments, sourceMatch, type SourceFilter } from './source-path';

/** The four tables, in the order XLA prints them and its parser reads them. */
export const SOURCE_TABLES = ['FileNames', 'FunctionNames', 'FileLocations', 'StackFrames'] as const;
const TABLES = new Set<string>(SOURCE_TABLES);
const TABLE_ENTRY = /^(\d+) (.*)$/;
const QUOTED = /^"((?:[^"\\]|\\.)*)"$/;

/** Deepest call chain followed (a chain is as deep as the program's calls; a cycle is text's error). */
const MAX_CHAIN = 256;

/** One frame of a call stack: a line of a function in a file. */
export interface SourceFrame {
  /** The path as the dump recorded it (the compiling machine's). */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based column, when recorded. */
  readonly column?: number;
  readonly function?: string;
}

/** A stack frame resolved: the frame of the user's program it stands for, and its call chain. */
export interface ResolvedFrame extends SourceFrame {
  /** The frame id the metadata named. */
  readonly id: number;
  /** The frames from the one named (innermost) out to the outermost caller. */
  readonly chain: readonly SourceFrame[];
  /** Which frame of {@link chain} this one is (the innermost of the user's program). */
  readonly depth: number;
}

interface Location {
  readonly file: number;
  readonly fn: number;
  readonly line: number;
  readonly column?: number;
}

/**
 * The stack-frame tables of one module, filled line by line ({@link line}) from the text between
 * its `HloModule` line and its first computation.
 */
export class StackFrameTables {
  private readonly fileNames = new Map<number, string>();
  private readonly functionNames = new Map<number, string>();
  private readonly locations = new Map<number, Location>();
  /** Frame id → its location id and its parent's frame id (0: none). */
  private readonly frames = new Map<number, { location: number; parent: number }>();
  /** The table whose entries the next lines are. */
  private table: string | undefined;

  /** Frames read. */
  get size(): number {
    return this.frames.size;
  }

  /**
   * Reads one line (or a statement holding several): a table's name starts that table, an entry
   * `N …` goes to the current one. Returns whether anything was read; any other text ends the
   * current table.
   */
  line(text: string): boolean {
    let read = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      if (TABLES.has(line)) {
        this.table = line;
        read = true;
        continue;
      }
      const entry = TABLE_ENTRY.exec(line);
      if (!entry || this.table === undefined) {
        this.table = undefined;
        continue;
      }
      this.entry(this.table, Number(entry[1]), entry[2]);
      read = true;
    }
    return read;
  }

  /** Something other than a table line came: the current table is over. */
  endTable(): void {
    this.table = undefined;
  }

  private entry(table: string, id: number, body: string): void {
    if (table === 'FileNames' || table === 'FunctionNames') {
      const quoted = QUOTED.exec(body);
      if (!quoted) return;
      const name = copy(quoted[1].replace(/\\(.)/g, '$1'));
      (table === 'FileNames' ? this.fileNames : this.functionNames).set(id, name);
    } else if (table === 'FileLocations') {
      const file = field(body, 'file_name_id');
      const line = field(body, 'line');
      const column = field(body, 'column');
      if (file === undefined || line === undefined) return;
      this.locations.set(id, {
        file,
        fn: field(body, 'function_name_id') ?? 0,
        line,
        ...(column !== undefined && column > 0 ? { column } : {}),
      });
    } else {
      const location = field(body, 'file_location_id');
      if (location === undefined) return;
      // Printed as the caller's id + 1; 1 (or nothing) for an outermost frame.
      const parent = field(body, 'parent_frame_id') ?? 1;
      this.frames.set(id, { location, parent: Math.max(0, parent - 1) });
    }
  }

  /** The file, line and function of frame `id` alone, if the tables name them. */
  frame(id: number): SourceFrame | undefined {
    const location = this.locations.get(this.frames.get(id)?.location ?? -1);
    const file = location ? this.fileNames.get(location.file) : undefined;
    if (!location || file === undefined) return undefined;
    const fn = this.functionNames.get(location.fn);
    return {
      file,
      line: location.line,
      ...(location.column !== undefined ? { column: location.column } : {}),
      ...(fn !== undefined ? { function: fn } : {}),
    };
  }

  /** The id of the frame that called frame `id` (undefined for an outermost one). */
  parent(id: number): number | undefined {
    const parent = this.frames.get(id)?.parent;
    return parent === undefined || parent === 0 ? undefined : parent;
  }

  /** The ids of every frame read, in no particular order. */
  ids(): IterableIterator<number> {
    return this.frames.keys();
  }
}

/** `key=N` in a table entry. */
function field(body: string, key: string): number | undefined {
  const m = new RegExp(`(?:^|[\\s{,])${key}=(\\d+)`).exec(body);
  return m ? Number(m[1]) : undefined;
}

/**
 * Whether `path` is a library's rather than the user's program: installed packages
 * (`site-packages`, `dist-packages`) and jax's own sources. jax leaves its frames out of what it
 * records; a library built on it (flax, optax, …) may not.
 */
export function isLibraryPath(path: string): boolean {
  const segments = pathSegments(path);
  return segments.some(
    (s, i) =>
      s === 'site-packages' ||
      s === 'dist-packages' ||
      ((s === 'jax' || s === 'jaxlib') && segments[i + 1] === '_src'),
  );
}

/**
 * Frame `id` of `tables` resolved: the innermost frame of the chain from it outward whose file is
 * the user's program (not {@link isLibraryPath}), or the named frame itself when every frame is a
 * library's; with the chain. Undefined when the tables do not name the frame's file and line.
 */
export function resolveStackFrame(tables: StackFrameTables, id: number): ResolvedFrame | undefined {
  const chain: SourceFrame[] = [];
  const seen = new Set<number>();
  for (let k: number | undefined = id; k !== undefined && !seen.has(k) && chain.length < MAX_CHAIN;) {
    seen.add(k);
    const frame = tables.frame(k);
    if (!frame) break;
    chain.push(frame);
    k = tables.parent(k);
  }
  if (chain.length === 0) return undefined;
  const user = chain.findIndex((f) => !isLibraryPath(f.file));
  const depth = user < 0 ? 0 : user;
  return { ...chain[depth], id, chain, depth };
}

/** Where an instruction comes from, by its metadata: `source_file`/`source_line`, or its stack frame. */
export interface MetadataSource {
  /** The source file as recorded. */
  readonly file: string;
  /** 1-based, when recorded. */
  readonly line?: number;
  /** The frame, when the metadata named one instead of a file. */
  readonly frame?: ResolvedFrame;
}

/**
 * Where metadata says its instruction comes from: its `source_file` (and `source_line`) when it
 * has one, else its `stack_frame_id` resolved through `tables` (the module's).
 */
export function metadataSource(
  metadata: { sourceFile?: string; sourceLine?: number; stackFrameId?: number } | undefined,
  tables: StackFrameTables | undefined,
): MetadataSource | undefined {
  if (metadata === undefined) return undefined;
  if (metadata.sourceFile)
    return {
      file: metadata.sourceFile,
      ...(metadata.sourceLine !== undefined ? { line: metadata.sourceLine } : {}),
    };
  if (metadata.stackFrameId === undefined || tables === undefined) return undefined;
  const frame = resolveStackFrame(tables, metadata.stackFrameId);
  return frame ? { file: frame.file, line: frame.line, frame } : undefined;
}

/**
 * The frames of `tables` that resolve to the file (and line) `from`, each with how many trailing
 * path segments its file shares with `from`'s ({@link sourceMatch}).
 */
export function framesFrom(tables: StackFrameTables, from: SourceFilter): Map<number, number> {
  const out = new Map<number, number>();
  for (const id of tables.ids()) {
    const frame = resolveStackFrame(tables, id);
    const match = sourceMatch(frame, from);
    if (match > 0) out.set(id, match);
  }
  return out;
}

/** A copy of a slice, so a record does not keep the text it was cut from alive. */
function copy(text: string): string {
  return (' ' + text).slice(1);
}
