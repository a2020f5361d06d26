/**
 * Streams a text file to a core reporter in fixed-size chunks (the reporters split statements
 * across chunk boundaries themselves), so memory stays bounded by the chunk size plus the longest
 * statement whatever the file size. Refuses directories and binary files with a clear message.
 */
import { isAscii } from 'buffer';
import * as fs from 'fs';
import { lastStatementBoundary } from '../../core/src';
import { FileError } from './errors';

/**
 * Read size. A decoded read stays below V8's largest regular heap object (128 KiB), so it dies
 * young and a scavenge frees it; larger strings go to the large-object space, which only full
 * collections free (docs/performance.md).
 */
const CHUNK_BYTES = 64 * 1024;
const SNIFF_BYTES = 8192;
const NEWLINE = 10;

/** What the reporters of core/src/report accept. */
export interface TextSink {
  /** Text cut anywhere. */
  write(chunk: string): void;
  /** Text that ends where a statement starts: nothing of it waits for later text. */
  writeComplete(chunk: string): void;
}

/** Opens `file` for reading, refusing directories and binary files (which are not the `expected` kind of text) with a clear message. */
export function openText(file: string, expected = 'HLO text'): number {
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
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'is a directory'
            : String((e as Error).message);
    throw new FileError(`${file}: cannot read: ${why}`);
  }
  const head = Buffer.alloc(SNIFF_BYTES);
  const n = fs.readSync(fd, head, 0, SNIFF_BYTES, 0);
  const nul = head.subarray(0, n).indexOf(0);
  if (nul >= 0) {
    fs.closeSync(fd);
    throw new FileError(`${file}: binary file (NUL byte at offset ${nul}), not ${expected}`);
  }
  return fd;
}

/**
 * Reads bytes [start, end) of `fd` (to the end of the file by default) and hands them to `visit`
 * decoded, in pieces of about `chunkBytes`: each read is cut after the last line that plainly
 * starts a statement, so `complete` pieces hold only whole statements, and the bytes after the cut
 * move to the front of the buffer for the next read. No string is glued onto a carried remainder
 * (a chunk copied again on every read costs as much as its check). The final piece, after
 * the last cut, is handed on with `complete` false. `\n` never occurs inside a UTF-8 sequence, so
 * every piece decodes on its own. Returns how many line breaks the bytes hold.
 */
export function forEachTextPiece(
  fd: number,
  visit: (text: string, complete: boolean) => void,
  start = 0,
  end = Infinity,
  chunkBytes = CHUNK_BYTES,
): number {
  let buffer = Buffer.allocUnsafe(chunkBytes);
  let kept = 0;
  let newlines = 0;
  for (let at = start; at < end;) {
    // A statement longer than the buffer: grow it rather than cut the statement.
    if (kept === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
    const n = fs.readSync(fd, buffer, kept, Math.min(buffer.length - kept, end - at), at);
    if (n === 0) break;
    const filled = kept + n;
    for (let i = buffer.indexOf(NEWLINE, kept); i >= 0 && i < filled; i = buffer.indexOf(NEWLINE, i + 1))
      newlines++;
    at += n;
    const lastNewline = buffer.lastIndexOf(NEWLINE, filled - 1);
    const lines = buffer.subarray(0, lastNewline + 1);
    // Dumps are nearly always ASCII, where UTF-8 and Latin-1 agree and Latin-1 decoding is a plain
    // copy, while UTF-8 decoding checks every byte as it goes.
    const ascii = isAscii(lines);
    const text = ascii ? lines.toString('latin1') : lines.toString('utf8');
    const cut = lastStatementBoundary(text);
    if (cut <= 0) {
      kept = filled;
      continue;
    }
    visit(text.slice(0, cut), true);
    const cutByte = ascii ? cut : lastNewline + 1 - Buffer.byteLength(text.slice(cut), 'utf8');
    buffer.copy(buffer, 0, cutByte, filled);
    kept = filled - cutByte;
  }
  if (kept > 0) visit(buffer.toString('utf8', 0, kept), false);
  return newlines;
}

/** Rethrows an error of reading `file` as a {@link FileError}; anything else (a bug) as it is. */
function readFailed(file: string, e: unknown): never {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) throw e;
  throw new FileError(`${file}: cannot read: ${String((e as Error).message)}`);
}

/**
 * Writes the text of the open file `fd` (named `file` in messages) to `sink` in pieces (see
 * {@link forEachTextPiece}); the caller ends the sink and closes `fd`. Throws {@link FileError}
 * when the file cannot be read.
 */
export function streamText(fd: number, file: string, sink: TextSink): void {
  try {
    forEachTextPiece(fd, (text, complete) => (complete ? sink.writeComplete(text) : sink.write(text)));
  } catch (e) {
    readFailed(file, e);
  }
}

/** The whole text of the open file `fd` of `size` bytes (UTF-8), for files small enough to hold. */
export function readText(fd: number, file: string, size: number): string {
  try {
    const bytes = Buffer.allocUnsafe(size);
    let n = 0;
    for (let got = -1; n < size && got !== 0; n += got) got = fs.readSync(fd, bytes, n, size - n, n);
    return bytes.toString('utf8', 0, n);
  } catch (e) {
    return readFailed(file, e);
  }
}

/**
 * Writes the text of `file` (UTF-8) to `sink` in pieces; the caller ends the sink. Throws
 * {@link FileError} when the file cannot be read as text.
 */
export function streamFile(file: string, sink: TextSink): void {
  const fd = openText(file);
  try {
    streamText(fd, file, sink);
  } finally {
    fs.closeSync(fd);
  }
}
