/**
 * Streams a text file to a core reporter in fixed-size chunks (the reporters split statements
 * across chunk boundaries themselves), so memory stays bounded by the chunk size plus the longest
 * statement whatever the file size. Reads regular files by position and anything else (standard
 * input as `-`, pipes, FIFOs, `<(zcat dump.gz)`) once, in order. Refuses directories and binary
 * files with a clear message.
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

/**
 * An open input. A regular file is read by position (again, or by several threads); anything
 * else (standard input as `-`, a pipe, a FIFO, `<(cmd)`, a terminal) is a stream, read once in
 * order: the bytes read from it so far (to sniff it, or to see whether it is small) are its `head`,
 * which every later read hands on first.
 */
export interface TextInput {
  readonly fd: number;
  readonly stream: boolean;
  /** Bytes already read from a stream, to come before the rest; empty for a regular file. */
  head: Buffer;
  /** Size of a regular file in bytes; 0 for a stream (unknown). */
  readonly size: number;
}

const EMPTY = Buffer.alloc(0);
const STANDARD_INPUT = '-';
/** A short wait for a stream that is not ready (a non-blocking pipe answers EAGAIN). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Reads what `fd` gives next into `buffer` at `offset` (at most `length` bytes), waiting out a
 * non-blocking stream that has nothing yet; 0 at its end.
 */
function readNext(
  fd: number,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number | null,
): number {
  for (;;) {
    try {
      return fs.readSync(fd, buffer, offset, length, position);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 5);
    }
  }
}

/** Reads from the stream `input` until its head holds `bytes` bytes or the stream ends. */
function readHead(input: TextInput, bytes: number): void {
  if (input.head.length >= bytes) return;
  const head = Buffer.allocUnsafe(bytes);
  input.head.copy(head);
  let filled = input.head.length;
  for (let n = -1; filled < bytes && n !== 0; filled += n)
    n = readNext(input.fd, head, filled, bytes - filled, null);
  input.head = head.subarray(0, filled);
}

/** Closes `input` (standard input stays open). */
export function closeText(input: TextInput): void {
  if (input.fd !== 0) fs.closeSync(input.fd);
}

/**
 * Opens `file` (`-`: standard input) for reading, refusing directories and binary files (which are
 * not the `expected` kind of text) with a clear message.
 */
export function openText(file: string, expected = 'HLO text'): TextInput {
  let fd: number;
  let stat: fs.Stats;
  try {
    fd = file === STANDARD_INPUT ? 0 : fs.openSync(file, 'r');
    stat = fs.fstatSync(fd);
    if (stat.isDirectory()) {
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
    throw new FileError(`${file === STANDARD_INPUT ? 'standard input' : file}: cannot read: ${why}`);
  }
  const input: TextInput = { fd, stream: !stat.isFile(), head: EMPTY, size: stat.isFile() ? stat.size : 0 };
  let sniffed: Buffer;
  try {
    if (input.stream) {
      readHead(input, SNIFF_BYTES);
      sniffed = input.head;
    } else {
      sniffed = Buffer.alloc(SNIFF_BYTES);
      sniffed = sniffed.subarray(0, fs.readSync(fd, sniffed, 0, SNIFF_BYTES, 0));
    }
  } catch (e) {
    closeText(input);
    return readFailed(file, e);
  }
  const nul = sniffed.indexOf(0);
  if (nul >= 0) {
    closeText(input);
    const name = file === STANDARD_INPUT ? 'standard input' : file;
    throw new FileError(`${name}: binary file (NUL byte at offset ${nul}), not ${expected}`);
  }
  return input;
}

/**
 * Reads bytes [start, end) of `fd` (to the end of the file by default) and hands them to `visit`
 * decoded, in pieces of about `chunkBytes`: each read is cut after the last line that plainly
 * starts a statement, so `complete` pieces hold only whole statements, and the bytes after the cut
 * move to the front of the buffer for the next read. No string is glued onto a carried remainder
 * (a chunk copied again on every read costs as much as its check). The final piece, after
 * the last cut, is handed on with `complete` false. `\n` never occurs inside a UTF-8 sequence, so
 * every piece decodes on its own. With `head` (a stream's bytes read so far) the reads go on in
 * order from where the stream is, after those bytes. Returns how many line breaks the bytes hold.
 */
export function forEachTextPiece(
  fd: number,
  visit: (text: string, complete: boolean) => void,
  start = 0,
  end = Infinity,
  chunkBytes = CHUNK_BYTES,
  head?: Buffer,
): number {
  let buffer = Buffer.allocUnsafe(Math.max(chunkBytes, head?.length ?? 0));
  let kept = 0;
  let newlines = 0;
  /** Counts the line breaks of the bytes [kept, filled) just added; hands on the whole statements. */
  const advance = (filled: number): void => {
    for (let i = buffer.indexOf(NEWLINE, kept); i >= 0 && i < filled; i = buffer.indexOf(NEWLINE, i + 1))
      newlines++;
    const lastNewline = buffer.lastIndexOf(NEWLINE, filled - 1);
    const lines = buffer.subarray(0, lastNewline + 1);
    // Dumps are nearly always ASCII, where UTF-8 and Latin-1 agree and Latin-1 decoding is a plain
    // copy, while UTF-8 decoding checks every byte as it goes.
    const ascii = isAscii(lines);
    const text = ascii ? lines.toString('latin1') : lines.toString('utf8');
    const cut = lastStatementBoundary(text);
    if (cut <= 0) {
      kept = filled;
      return;
    }
    visit(text.slice(0, cut), true);
    const cutByte = ascii ? cut : lastNewline + 1 - Buffer.byteLength(text.slice(cut), 'utf8');
    buffer.copy(buffer, 0, cutByte, filled);
    kept = filled - cutByte;
  };
  if (head !== undefined && head.length > 0) advance(head.copy(buffer));
  for (let at = start; at < end;) {
    // A statement longer than the buffer: grow it rather than cut the statement.
    if (kept === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
    const n = readNext(fd, buffer, kept, Math.min(buffer.length - kept, end - at), head ? null : at);
    if (n === 0) break;
    at += n;
    advance(kept + n);
  }
  if (kept > 0) visit(buffer.toString('utf8', 0, kept), false);
  return newlines;
}

/** Rethrows an error of reading `file` as a {@link FileError}; anything else (a bug) as it is. */
function readFailed(file: string, e: unknown): never {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) throw e;
  const name = file === STANDARD_INPUT ? 'standard input' : file;
  throw new FileError(`${name}: cannot read: ${String((e as Error).message)}`);
}

/**
 * Writes the text of `input` (named `file` in messages) to `sink` in pieces (see
 * {@link forEachTextPiece}); the caller ends the sink and closes the input. Throws
 * {@link FileError} when the file cannot be read.
 */
export function streamText(input: TextInput, file: string, sink: TextSink): void {
  try {
    forEachTextPiece(
      input.fd,
      (text, complete) => (complete ? sink.writeComplete(text) : sink.write(text)),
      0,
      Infinity,
      CHUNK_BYTES,
      input.stream ? input.head : undefined,
    );
  } catch (e) {
    readFailed(file, e);
  }
}

/**
 * The whole text of `input` (UTF-8) when it holds at most `maxBytes` bytes, else `undefined`
 * (a stream then keeps what was read as its head, for {@link streamText}).
 */
export function readWhole(input: TextInput, file: string, maxBytes: number): string | undefined {
  try {
    if (input.stream) {
      readHead(input, maxBytes + 1);
      return input.head.length <= maxBytes ? input.head.toString('utf8') : undefined;
    }
    if (input.size > maxBytes) return undefined;
    return readPrefix(input, file, input.size);
  } catch (e) {
    return readFailed(file, e);
  }
}

/** The first `maxBytes` bytes of `input` as text (UTF-8), however long it is; a stream is read no further. */
export function readPrefix(input: TextInput, file: string, maxBytes: number): string {
  try {
    if (input.stream) {
      readHead(input, maxBytes);
      return input.head.toString('utf8', 0, Math.min(maxBytes, input.head.length));
    }
    const size = Math.min(input.size, maxBytes);
    const bytes = Buffer.allocUnsafe(size);
    let n = 0;
    for (let got = -1; n < size && got !== 0; n += got) got = fs.readSync(input.fd, bytes, n, size - n, n);
    return bytes.toString('utf8', 0, n);
  } catch (e) {
    return readFailed(file, e);
  }
}

/**
 * Writes the text of `file` (UTF-8; `-` for standard input) to `sink` in pieces; the caller ends
 * the sink. Throws {@link FileError} when the file cannot be read as text.
 */
export function streamFile(file: string, sink: TextSink): void {
  const input = openText(file);
  try {
    streamText(input, file, sink);
  } finally {
    closeText(input);
  }
}
