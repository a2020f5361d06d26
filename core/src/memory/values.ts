/**
 * Reads `*-buffer-assignment-values.txt` (`BufferAssignment::ValuesToString`): `Total bytes used`
 * and, for every value placed in an allocation, its positions (every instruction and index that
 * holds it: tuples, get-tuple-elements, while loops sharing one value), its uses and the
 * instruction that defines it.
 */
import { LineSplitter, byLine } from './line-splitter';
import { ProblemLog, exactInteger, parseValueRef, quoted } from './read-helpers';
import { MAX_INSTRUCTION_TEXT, type BufferValuesFile, type UsedValue, type ValueRef } from './types';

type Section = 'positions' | 'uses' | undefined;

interface Building extends ValueRef {
  positions: string[];
  uses: string[];
  instructionText?: string;
  line: number;
}

const TOTAL = /^Total bytes used: (\d+)/;

/** Options of {@link BufferValuesReader}. */
export interface BufferValuesReaderOptions {
  /** Reading the `Used values:` part of an older buffer-assignment file (the header was seen there). */
  readonly inBufferAssignment?: boolean;
}

/** Incremental reader: {@link write} chunks (or {@link line} lines) in order, then {@link end}. */
export class BufferValuesReader {
  private readonly splitter = new LineSplitter(byLine((text, n) => this.line(text, n)));
  private readonly log = new ProblemLog();
  private readonly values: UsedValue[] = [];
  private current: Building | undefined;
  private section: Section;
  private total: bigint | undefined;
  private inValues: boolean;
  private lastLine = 0;
  private result: BufferValuesFile | undefined;

  constructor(options: BufferValuesReaderOptions = {}) {
    this.inValues = options.inBufferAssignment === true;
  }

  /** Feeds the next piece of text, cut anywhere. */
  write(chunk: string): void {
    this.splitter.write(chunk);
  }

  /** Ends the text and returns what it held; later calls return the same result. */
  end(): BufferValuesFile {
    if (this.result) return this.result;
    this.splitter.end();
    this.close();
    this.result = {
      ...(this.total !== undefined ? { totalBytes: this.total } : {}),
      values: this.values,
      lines: Math.max(this.splitter.lines, this.lastLine),
      problems: this.log.problems,
      problemCount: this.log.count,
    };
    return this.result;
  }

  private close(): void {
    if (this.current) this.values.push(this.current);
    this.current = undefined;
    this.section = undefined;
  }

  /** Reads one line (1-based number `n`); the buffer-assignment reader hands its tail on this way. */
  line(line: string, n: number): void {
    this.lastLine = n;
    if (line.startsWith('<')) {
      this.close();
      const ref = parseValueRef(line.trimEnd());
      if (ref === undefined) this.log.add(n, quoted('not a value', line));
      else this.current = { ...ref, positions: [], uses: [], line: n };
      return;
    }
    const v = this.current;
    if (line.startsWith('  ') && v !== undefined && this.section !== undefined) {
      const item = line.trim();
      if (this.section === 'positions') v.positions.push(item);
      else if (item !== '(none)') v.uses.push(item);
      return;
    }
    if (line.startsWith(' ') && v !== undefined) {
      const text = line.trim();
      if (text === 'positions:') this.section = 'positions';
      else if (text === 'uses:') this.section = 'uses';
      else if (text.startsWith('from instruction:')) {
        this.section = undefined;
        const from = text.slice(17).trim();
        v.instructionText =
          from.length > MAX_INSTRUCTION_TEXT ? `${from.slice(0, MAX_INSTRUCTION_TEXT - 1)}…` : from;
      } else if (text.startsWith('uses are not')) this.section = undefined;
      else this.log.add(n, quoted('not part of a value', line));
      return;
    }
    if (line.trim() === '') return;
    const total = TOTAL.exec(line);
    if (total) {
      this.close();
      this.total = exactInteger(total[1]);
      return;
    }
    if (line === 'Used values:') {
      this.close();
      this.inValues = true;
      return;
    }
    this.log.add(n, quoted(this.inValues ? 'not part of a value' : 'not part of the used values', line));
  }
}

/** Reads a whole values text at once. */
export function readBufferValues(text: string): BufferValuesFile {
  const reader = new BufferValuesReader();
  reader.write(text);
  return reader.end();
}
