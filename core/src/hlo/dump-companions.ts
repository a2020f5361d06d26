/**
 * The files XLA writes beside the HLO of a `--xla_dump_to` folder, told apart from HLO text by name
 * and by content: buffer assignments, live ranges and memory-usage reports (text, but not HLO),
 * debug options and other text protos, binary protos, LLVM IR, MLIR, object files. A checker skips
 * them rather than report their lines as HLO errors; the memory view reads the buffer assignments.
 */
import { companionKind, type CompanionKind } from '../memory/companions';

/**
 * What a companion file holds: one of the memory view's companions (their names come from
 * memory/companions.ts, the one table of them), or another file XLA writes beside its HLO.
 */
export type DumpCompanionKind =
  CompanionKind | 'text-proto' | 'binary-proto' | 'llvm-ir' | 'mlir' | 'object-file' | 'graph' | 'other';

/** A plain name for each kind, for notes such as "skipped F: buffer assignment, not HLO". */
export const DUMP_COMPANION_NAMES: Readonly<Record<DumpCompanionKind, string>> = {
  'buffer-assignment': 'buffer assignment',
  'buffer-assignment-values': 'buffer-assignment values',
  'live-range': 'live ranges',
  'memory-usage-report': 'memory-usage report',
  'text-proto': 'text proto',
  'binary-proto': 'binary proto',
  'llvm-ir': 'LLVM IR',
  mlir: 'MLIR',
  'object-file': 'object file',
  graph: 'graph rendering',
  other: 'companion file',
};

/** Name endings XLA gives its other companions (the memory view's are in memory/companions.ts). */
const BY_SUFFIX: readonly (readonly [string, DumpCompanionKind])[] = [
  ['.debug_options', 'text-proto'],
  ['.textproto', 'text-proto'],
  ['.pbtxt', 'text-proto'],
  ['.pb', 'binary-proto'],
  ['.ll', 'llvm-ir'],
  ['.mlir', 'mlir'],
  ['.o', 'object-file'],
  ['.ptx', 'other'],
  ['.cubin', 'object-file'],
  ['.dot', 'graph'],
  ['.html', 'graph'],
  ['.svg', 'graph'],
  ['thunk_sequence.txt', 'other'],
];

/** First lines of the text companions, as XLA writes them. */
const BY_FIRST_LINE: readonly (readonly [RegExp, DumpCompanionKind])[] = [
  [/^BufferAssignment:/, 'buffer-assignment'],
  [/^Total bytes used: \d+/, 'buffer-assignment-values'],
  [/^HloLiveRange \(max \d+\):/, 'live-range'],
  [/^Memory Space: .*\(color=\d+\)/, 'memory-usage-report'],
  [/^; ModuleID = /, 'llvm-ir'],
  [/^(#loc\d* = loc\(|module( @[\w.$-]+)? (attributes )?\{|func\.func )/, 'mlir'],
];

/** `key: value` or `key {`: the line of a text proto (HLO lines have `=`, `(` or `->` instead). */
const PROTO_FIELD = /^[A-Za-z_][A-Za-z0-9_]*(: \S| ?\{$)/;
const PROTO_VALUE = /^[A-Za-z_][A-Za-z0-9_]*: \S/;

/** The first lines of `head` that are not blank or `#`/`//` comments, trimmed. */
function meaningfulLines(head: string, count: number): string[] {
  const out: string[] = [];
  for (const raw of head.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//') || line.startsWith('# ')) continue;
    out.push(line);
    if (out.length === count) break;
  }
  return out;
}

/**
 * What the dump companion `fileName` (a path or a base name) holds, judged by its name and by
 * `head`, the start of its text (a few KB are plenty); undefined for HLO text and for anything this
 * does not recognise as a companion. A name ending decides; otherwise the content must: a text
 * proto's first field (`key: value`, or `key {` followed by another field), or the first line
 * XLA writes in each text companion.
 */
export function dumpCompanion(fileName: string, head: string): DumpCompanionKind | undefined {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const memory = companionKind(base);
  if (memory) return memory;
  for (const [suffix, kind] of BY_SUFFIX) if (base.endsWith(suffix)) return kind;
  const [first, second] = meaningfulLines(head, 2);
  if (first === undefined) return undefined;
  for (const [pattern, kind] of BY_FIRST_LINE) if (pattern.test(first)) return kind;
  if (PROTO_VALUE.test(first)) return 'text-proto';
  // `name {` may also be an HLO computation without a signature; its next line is an instruction.
  if (PROTO_FIELD.test(first) && second !== undefined && PROTO_FIELD.test(second)) return 'text-proto';
  return undefined;
}
