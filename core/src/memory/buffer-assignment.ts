/**
 * Reads `*-buffer-assignment.txt` as XLA writes it (`BufferAssignment::ToString`,
 * `BufferAllocation::ToString`): every allocation with its size, memory space and kinds, then each
 * value placed in it with XLA's own size and offset. Streams: feed chunks with
 * {@link BufferAssignmentReader.write}. Older XLA wrote `Total bytes used:` and `Used values:` into
 * the same file; both are read (the values by {@link BufferValuesReader}).
 */
import { LineSplitter } from './line-splitter';
import {
  ProblemLog,
  exactInteger,
  parseValueLine,
  parseValueRef,
  quoted,
  shapeIndex,
  valueFields,
} from './read-helpers';
import type {
  AllocationKind,
  AssignedValue,
  BufferAllocationRecord,
  BufferAssignmentFile,
  ValueRef,
} from './types';
import { ValueStore } from './value-store';
import { BufferValuesReader } from './values';

const ALLOCATION = /^allocation (\d{1,9}): size (\d+)(.*):$/;
const REUSED_VALUE = /^ {2}value: (<[^>]*>) \(color=(-?\d+)\)$/;
const TOTAL = /^Total bytes used: (\d+)/;

const FLAGS: Readonly<Record<string, AllocationKind>> = {
  constant: 'constant',
  'thread-local': 'thread-local',
  'maybe-live-out': 'maybe-live-out',
  'preallocated-temp': 'preallocated-temp',
};

interface Building {
  index: number;
  size: bigint;
  color: number;
  kinds: AllocationKind[];
  parameter?: BufferAllocationRecord['parameter'];
  outputShape?: string;
  other: string[];
  /** Its values are the store's [first, first + count). */
  first: number;
  count: number;
  reusedByOtherColors: ValueRef[];
  line: number;
}

/**
 * An allocation whose values become objects when first asked for (then kept): reading a file
 * makes none of them (see ./value-store.ts).
 */
function record(a: Building, store: ValueStore): BufferAllocationRecord {
  const { first, count, ...fields } = a;
  let values: readonly AssignedValue[] | undefined;
  return Object.defineProperty({ ...fields }, 'values', {
    enumerable: true,
    get: () => (values ??= store.values(first, first + count)),
  }) as unknown as BufferAllocationRecord;
}

/**
 * Shape texts repeat: one copy per distinct text, so that the values of a large file neither hold
 * thousands of copies nor keep the chunks they were cut from alive.
 */
class Interner {
  private readonly map = new Map<string, string>();

  get(text: string): string {
    const hit = this.map.get(text);
    if (hit !== undefined) return hit;
    const copy = (' ' + text).slice(1);
    this.map.set(copy, copy);
    return copy;
  }
}

/**
 * Reads what follows `size S` in an allocation's line: `, color 1, parameter 0, shape |f32[8]| at
 * ShapeIndex {}, output shape is |(f32[])|, maybe-live-out`. Shapes sit between `|`s and hold
 * commas of their own, so the words are taken one by one.
 */
function readAttributes(rest: string, into: Building, shapes: Interner): string | undefined {
  let at = 0;
  while (at < rest.length) {
    if (!rest.startsWith(', ', at)) return `expected ", " at column ${at + 1} of the attributes`;
    at += 2;
    const color = /^color (-?\d{1,9})/.exec(rest.slice(at, at + 20));
    if (color) {
      into.color = Number(color[1]);
      at += color[0].length;
      continue;
    }
    if (rest.startsWith('parameter ', at)) {
      const m = /^parameter (\d{1,9}), shape \|([^|]*)\| at ShapeIndex (\{[\d,\s]*\})/.exec(rest.slice(at));
      const index = m ? shapeIndex(m[3]) : undefined;
      if (!m || index === undefined) return 'a parameter without "shape |...| at ShapeIndex {...}"';
      into.kinds.push('parameter');
      into.parameter = { number: Number(m[1]), shape: shapes.get(m[2]), shapeIndex: index };
      at += m[0].length;
      continue;
    }
    if (rest.startsWith('output shape is |', at)) {
      const close = rest.indexOf('|', at + 17);
      if (close < 0) return 'an output shape without its closing "|"';
      into.kinds.push('output');
      into.outputShape = shapes.get(rest.slice(at + 17, close));
      at = close + 1;
      continue;
    }
    const next = rest.indexOf(', ', at);
    const word = rest.slice(at, next < 0 ? rest.length : next);
    const kind = FLAGS[word];
    if (kind !== undefined) into.kinds.push(kind);
    else into.other.push(word);
    at += word.length;
  }
  return undefined;
}

/** Incremental reader of one buffer-assignment file: {@link write} chunks in order, then {@link end}. */
export class BufferAssignmentReader {
  private readonly lines: LineSplitter;
  private readonly log = new ProblemLog();
  private readonly shapes = new Interner();
  private readonly store = new ValueStore();
  /** The value line being read, reused for every line. */
  private readonly fields = valueFields();
  private readonly allocations: BufferAllocationRecord[] = [];
  private current: Building | undefined;
  private reusedSection = false;
  private total = 0n;
  private reportedTotal: bigint | undefined;
  private values: BufferValuesReader | undefined;
  private result: BufferAssignmentFile | undefined;

  constructor() {
    this.lines = new LineSplitter((text, start, end, n) => {
      // Value lines, nearly all of a file, are read in place; the few others as strings.
      if (text.charCodeAt(start) === 32 && !this.values && !this.reusedSection)
        this.valueLine(text, start, end, n);
      else this.line(text.slice(start, end), n);
    });
  }

  /** Feeds the next piece of text, cut anywhere. */
  write(chunk: string): void {
    this.lines.write(chunk);
  }

  /** Ends the text and returns what it held; later calls return the same result. */
  end(): BufferAssignmentFile {
    if (this.result) return this.result;
    this.lines.end();
    this.close();
    const values = this.values?.end();
    this.result = {
      allocations: this.allocations,
      totalBytes: this.total,
      ...(this.reportedTotal !== undefined ? { reportedTotalBytes: this.reportedTotal } : {}),
      ...(values ? { values } : {}),
      lines: this.lines.lines,
      problems: this.log.problems,
      problemCount: this.log.count,
    };
    return this.result;
  }

  private close(): void {
    const a = this.current;
    if (a === undefined) return;
    this.current = undefined;
    this.allocations.push(record(a, this.store));
    this.total += a.size;
  }

  private line(line: string, n: number): void {
    if (this.values) {
      this.values.line(line, n);
      return;
    }
    if (line.charCodeAt(0) === 32 /* ' ' */) {
      this.valueLine(line, 0, line.length, n);
      return;
    }
    this.reusedSection = false;
    if (line.startsWith('allocation ')) {
      this.close();
      const m = ALLOCATION.exec(line);
      if (m === null) {
        this.log.add(n, quoted('not an allocation line', line));
        return;
      }
      const a: Building = {
        index: Number(m[1]),
        size: BigInt(m[2]),
        color: 0,
        kinds: [],
        other: [],
        first: this.store.length,
        count: 0,
        reusedByOtherColors: [],
        line: n,
      };
      const bad = readAttributes(m[3], a, this.shapes);
      if (bad !== undefined) this.log.add(n, quoted(bad, line));
      this.current = a;
      return;
    }
    if (line.trim() === '' || line === 'BufferAssignment:') return;
    const total = TOTAL.exec(line);
    if (total) {
      this.close();
      this.reportedTotal = exactInteger(total[1]);
      return;
    }
    if (line === 'Used values:') {
      this.close();
      this.values = new BufferValuesReader({ inBufferAssignment: true });
      return;
    }
    this.log.add(n, quoted('not part of a buffer assignment', line));
  }

  private valueLine(text: string, start: number, end: number, n: number): void {
    const a = this.current;
    const f = this.fields;
    if (parseValueLine(text, start, end, f)) {
      if (a === undefined) {
        this.log.add(n, quoted('a value outside any allocation', text.slice(start, end)));
        return;
      }
      const store = this.store;
      store.add(
        f.id,
        store.piece(text),
        f.nameStart,
        f.nameEnd,
        f.index,
        f.phi,
        f.color,
        f.size,
        f.offset,
        store.shape(text, f.shapeStart, end),
        n,
      );
      a.count++;
      return;
    }
    const line = text.slice(start, end);
    if (line === ' reused by buffers of a different color:') {
      this.reusedSection = true;
      if (a === undefined) this.log.add(n, quoted('outside any allocation', line));
      return;
    }
    if (this.reusedSection) {
      const m = REUSED_VALUE.exec(line);
      const ref = m ? parseValueRef(m[1]) : undefined;
      if (ref === undefined || m === null) this.log.add(n, quoted('not a reusing value', line));
      else a?.reusedByOtherColors.push(Object.assign(ref, { color: Number(m[2]) }));
      return;
    }
    if (line.trim() !== '') this.log.add(n, quoted('not a value line', line));
  }
}

/** Reads a whole buffer-assignment text at once (the same result as writing it in any chunks). */
export function readBufferAssignment(text: string): BufferAssignmentFile {
  const reader = new BufferAssignmentReader();
  reader.write(text);
  return reader.end();
}
