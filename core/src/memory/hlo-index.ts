/**
 * The HLO side of the memory model: every instruction of a module dump with where it is written
 * (line and column of its name), its computation, opcode, result shape and the source line its
 * metadata names, and which computations call which. Streams the text (statement by statement,
 * as `xla-layout report` does), so a dump of any size is read once without being held whole.
 *
 * Current jax writes no `source_file` into metadata but `stack_frame_id=N`, resolved through the
 * tables at the top of the module (`FileNames`, `FunctionNames`, `FileLocations`, `StackFrames`)
 * by hlo/stack-frames.ts, as the editor's go to source does: the innermost frame of the user's
 * program gives its source line.
 */
import type { TextRange } from '../diagnostics';
import { parseStatement } from '../hlo/parse-statement';
import { ScanState } from '../parse/scan-state';
import { sourceLabel } from '../hlo/source-path';
import { metadataSource, StackFrameTables } from '../hlo/stack-frames';
import type { LineColumn } from '../report/line-counter';
import { StatementStream } from '../report/statement-stream';

/** One instruction as the memory view shows it and jumps to it. */
export interface HloInstructionInfo {
  readonly name: string;
  readonly computation: string;
  readonly opcode: string;
  /** The result shape as written; '' when it does not parse. */
  readonly shape: string;
  /** The name's range in the whole text (UTF-16 offsets, without `%`). */
  readonly range: TextRange;
  /** 1-based line and column of the name. */
  readonly start: LineColumn;
  /** Its metadata's source file and line: `train.py:12`. */
  readonly source?: string;
  readonly sourceFile?: string;
  readonly sourceLine?: number;
  readonly opName?: string;
  /** `parameter(N)`'s N. */
  readonly parameter?: number;
  /** The computations it calls (`calls=`, `to_apply=`, ...), when it calls any. */
  readonly calls?: readonly string[];
}

/** A computation and the instructions it holds, with what each of them calls. */
export interface HloComputationInfo {
  readonly name: string;
  readonly entry: boolean;
  /** Instruction names in text order. */
  readonly instructions: readonly string[];
  /** The `ROOT` instruction (the last one when none is marked, as XLA takes it). */
  readonly root?: string;
  /** Computations called by this one's instructions: callee name → the calling opcode. */
  readonly calls: ReadonlyMap<string, string>;
}

/** Every instruction and computation of one module's text. */
export interface HloIndex {
  /** `HloModule name`, when the text has one. */
  readonly module?: string;
  readonly instructions: ReadonlyMap<string, HloInstructionInfo>;
  readonly computations: readonly HloComputationInfo[];
  /** Lines of the text. */
  readonly lines: number;
}

interface Computation {
  name: string;
  entry: boolean;
  instructions: string[];
  root?: string;
  calls: Map<string, string>;
}

/** Incremental index: {@link write} chunks in order, then {@link end}. */
export class HloIndexer {
  private readonly stream: StatementStream;
  private readonly instructions = new Map<string, HloInstructionInfo>();
  private readonly computations: Computation[] = [];
  private current: Computation | undefined;
  private module: string | undefined;
  /** The stack-frame tables at the top of the module. */
  private readonly tables = new StackFrameTables();
  /** Instructions whose metadata names a stack frame instead of a source file, by name. */
  private readonly framed = new Map<string, number>();
  private lines = 1;
  private result: HloIndex | undefined;

  constructor() {
    this.stream = new StatementStream((text, statements, base, lineCounter) => {
      // One scan state for the statements of a text: each fresh one would search the whole text.
      const scan = new ScanState();
      for (const range of statements) {
        const s = parseStatement(text, range, scan);
        if (s.kind === 'unknown') {
          this.tables.line(text.slice(range.start, range.end));
          continue;
        }
        if (s.kind !== 'blank' && s.kind !== 'comment') this.tables.endTable();
        if (s.kind === 'module') {
          this.module ??= s.name?.name;
          continue;
        }
        if (s.kind === 'computation') {
          this.current = {
            name: s.name?.name ?? '',
            entry: s.entry,
            instructions: [],
            calls: new Map(),
          };
          this.computations.push(this.current);
          continue;
        }
        if (s.kind !== 'instruction') continue;
        const c = this.current ?? this.orphans();
        const opcode = s.opcode?.name ?? '';
        for (const called of s.calledComputations)
          if (!c.calls.has(called.name)) c.calls.set(called.name, opcode);
        const name = s.name.name;
        c.instructions.push(name);
        if (s.root) c.root = name;
        const m = s.metadata;
        if (m && !m.sourceFile && m.stackFrameId !== undefined) this.framed.set(name, m.stackFrameId);
        this.instructions.set(name, {
          name,
          computation: c.name,
          opcode,
          shape: s.shape ? copy(text.slice(s.shape.range.start, s.shape.range.end)) : '',
          range: { start: base + s.name.range.start, end: base + s.name.range.end },
          start: lineCounter.at(s.name.range.start),
          ...(m?.sourceFile
            ? { source: sourceLabel(m.sourceFile, m.sourceLine), sourceFile: m.sourceFile }
            : {}),
          ...(m?.sourceLine !== undefined ? { sourceLine: m.sourceLine } : {}),
          ...(m?.opName ? { opName: m.opName } : {}),
          ...(s.parameter ? { parameter: s.parameter.value } : {}),
          ...(s.calledComputations.length > 0
            ? { calls: s.calledComputations.map((c) => copy(c.name)) }
            : {}),
        });
      }
    });
  }

  /** Gives instructions that name a stack frame the source file and line of that frame. */
  private resolveFrames(): void {
    for (const [name, stackFrameId] of this.framed) {
      const source = metadataSource({ stackFrameId }, this.tables);
      const info = this.instructions.get(name);
      if (!source || !info) continue;
      this.instructions.set(name, {
        ...info,
        source: sourceLabel(source.file, source.line),
        sourceFile: source.file,
        ...(source.line !== undefined ? { sourceLine: source.line } : {}),
      });
    }
  }

  /** Instructions before any computation header (a fragment of a dump) go to a nameless one. */
  private orphans(): Computation {
    this.current = { name: '', entry: false, instructions: [], calls: new Map() };
    this.computations.push(this.current);
    return this.current;
  }

  /** Feeds the next piece of text, cut anywhere. */
  write(chunk: string): void {
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) this.lines++;
    this.stream.write(chunk);
  }

  /** Ends the text and returns the index; later calls return the same result. */
  end(): HloIndex {
    if (this.result) return this.result;
    this.stream.end();
    for (const c of this.computations) c.root ??= c.instructions.at(-1);
    this.resolveFrames();
    this.result = {
      ...(this.module !== undefined ? { module: this.module } : {}),
      instructions: this.instructions,
      computations: this.computations,
      lines: this.lines,
    };
    return this.result;
  }
}

/** A copy of a slice, so a record does not keep the chunk it was cut from alive. */
function copy(text: string): string {
  return (' ' + text).slice(1);
}

/** Indexes a whole HLO text at once. */
export function indexHlo(text: string): HloIndex {
  const indexer = new HloIndexer();
  indexer.write(text);
  return indexer.end();
}
