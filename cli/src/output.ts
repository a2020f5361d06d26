/** Where subcommands write: buffered stdout (diagnostics may number in the millions) and stderr. */
import * as fs from 'fs';

export interface Output {
  /** One or more lines to stdout; a newline is appended. */
  write(text: string): void;
  /** One or more lines to stderr; a newline is appended. */
  error(text: string): void;
  /** Writes out everything buffered. */
  flush(): void;
}

/** Buffers stdout in 64 KiB blocks and writes synchronously, so output order is kept and nothing is lost on exit. */
export function processOutput(): Output {
  let buffer: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (buffer.length === 0) return;
    writeAll(1, buffer.join(''));
    buffer = [];
    size = 0;
  };
  return {
    write(text: string): void {
      buffer.push(text, '\n');
      size += text.length + 1;
      if (size >= 65536) flush();
    },
    error(text: string): void {
      flush();
      writeAll(2, `${text}\n`);
    },
    flush,
  };
}

function writeAll(fd: number, text: string): void {
  const data = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < data.length) {
    try {
      off += fs.writeSync(fd, data, off);
    } catch (e) {
      // A pipe that is full (EAGAIN) is retried; a closed one (EPIPE, e.g. `| head`) ends output.
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
      throw e;
    }
  }
}
