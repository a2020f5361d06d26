/**
 * Streams a text file to a core reporter in fixed-size chunks (the reporters split statements
 * across chunk boundaries themselves), so memory stays bounded by the chunk size plus the longest
 * statement whatever the file size. Refuses directories and binary files with a clear message.
 */
import * as fs from 'fs';
import { StringDecoder } from 'string_decoder';
import { FileError } from './errors';

const CHUNK_BYTES = 1024 * 1024;
const SNIFF_BYTES = 8192;

/** What the reporters of core/src/report accept. */
export interface TextSink {
  write(chunk: string): void;
}

/** Opens `file` for reading, refusing directories and binary files with a clear message. */
export function openText(file: string): number {
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
 * Writes the text of `file` (UTF-8) to `sink` in chunks of `chunkBytes`; the caller ends the sink.
 * Throws {@link FileError} when the file cannot be read as text.
 */
export function streamFile(file: string, sink: TextSink, chunkBytes = CHUNK_BYTES): void {
  const fd = openText(file);
  const chunk = Buffer.allocUnsafe(chunkBytes);
  // A UTF-8 character cut by a chunk boundary is held back until its last byte arrives.
  const decoder = new StringDecoder('utf8');
  try {
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      sink.write(decoder.write(chunk.subarray(0, n)));
    }
    sink.write(decoder.end());
  } finally {
    fs.closeSync(fd);
  }
}
