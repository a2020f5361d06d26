/**
 * Streams an HLO file as batches of complete statements: the file is read in fixed-size chunks,
 * each chunk is split into statements, and the last (possibly unfinished) statement is carried
 * into the next chunk. Memory stays bounded by the chunk size plus the longest statement (itself
 * capped by the splitter), whatever the file size.
 */
import * as fs from 'fs';
import { StringDecoder } from 'string_decoder';
import type { TextRange } from '../../core/src/diagnostics';
import { splitStatements } from '../../core/src/hlo';
import { FileError } from './errors';

const CHUNK_BYTES = 1024 * 1024;
const SNIFF_BYTES = 8192;

/** 1-based line and column (UTF-16 units) of offsets, for offsets visited in increasing order. */
export class LineCounter {
  private offset = 0;
  private line = 1;
  private lineStart = 0;
  private text = '';

  /** Points the counter at a new batch text whose offset 0 is where the previous one was cut. */
  reset(text: string): void {
    this.text = text;
  }

  /** Line/column of `offset` in the current text; offsets must not go backwards within a batch. */
  at(offset: number): { line: number; column: number } {
    this.advance(offset);
    return { line: this.line, column: offset - this.lineStart + 1 };
  }

  /** Moves to `offset`, counting line breaks on the way. */
  advance(offset: number): void {
    let nl = this.text.indexOf('\n', this.offset);
    while (nl >= 0 && nl < offset) {
      this.line++;
      this.lineStart = nl + 1;
      nl = this.text.indexOf('\n', nl + 1);
    }
    this.offset = Math.max(this.offset, offset);
  }

  /** Drops the text before `cut`: later offsets count from there. */
  cut(cut: number): void {
    this.advance(cut);
    this.offset -= cut;
    this.lineStart -= cut;
  }
}

/** Opens `file` for reading, refusing directories and binary files with a clear message. */
function openText(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
    if (fs.fstatSync(fd).isDirectory()) {
      fs.closeSync(fd);
      throw new FileError(`${file}: is a directory, not an HLO file`);
    }
  } catch (e) {
    if (e instanceof FileError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String((e as Error).message);
    throw new FileError(`${file}: cannot read: ${why}`);
  }
  const head = Buffer.alloc(SNIFF_BYTES);
  const n = fs.readSync(fd, head, 0, SNIFF_BYTES, 0);
  const nul = head.subarray(0, n).indexOf(0);
  if (nul >= 0) {
    fs.closeSync(fd);
    throw new FileError(`${file}: binary file (NUL byte at offset ${nul}), not HLO text`);
  }
  return fd;
}

/**
 * Calls `onBatch(text, statements, lines)` for consecutive batches of complete statements of
 * `file`. Statement ranges index `text`; `lines` turns offsets into 1-based line/column while
 * offsets are visited in increasing order within the batch.
 */
export function forEachStatementBatch(
  file: string,
  onBatch: (text: string, statements: readonly TextRange[], lines: LineCounter) => void,
  options: { chunkBytes?: number; maxStatementLength?: number } = {},
): void {
  const fd = openText(file);
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
  const decoder = new StringDecoder('utf8');
  const lines = new LineCounter();
  const split = { maxStatementLength: options.maxStatementLength };
  let carry = '';
  try {
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      const eof = n === 0;
      const text = carry + (eof ? decoder.end() : decoder.write(chunk.subarray(0, n)));
      // Only text up to the last line break is final: the line after it may continue.
      let end = eof ? text.length : text.lastIndexOf('\n') + 1;
      const cap = options.maxStatementLength ?? 64 * 1024 * 1024;
      if (!eof && end === 0 && text.length >= cap) end = text.length;
      const statements = splitStatements(text, 0, end, split);
      // The last statement may go on in the next chunk; keep it unless this is the end.
      const last = statements[statements.length - 1];
      const keepFrom = eof || !last || (last.end - last.start >= cap) ? end : last.start;
      const done = eof ? statements : statements.filter((s) => s.start < keepFrom);
      lines.reset(text);
      if (done.length > 0) onBatch(text, done, lines);
      if (eof) break;
      lines.cut(keepFrom);
      carry = text.slice(keepFrom);
    }
  } finally {
    fs.closeSync(fd);
  }
}
