/**
 * Errors the CLI reports as one clean message and exit code 2 (never a stack trace): bad usage,
 * a bad shape or argument (with a caret under the offending column), an unreadable file.
 */

/** Wrong command line: unknown option, missing argument. */
export class UsageError extends Error {}

/** A bad shape or argument: `input` is printed with a caret line under [start, end). */
export class InputError extends Error {
  constructor(
    message: string,
    readonly input: string,
    readonly start: number,
    readonly end: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A file that cannot be read or is not text. */
export class FileError extends Error {}

/** `input` and a caret line under [start, end) (at least one caret), for terminal output. */
export function caretLines(input: string, start: number, end: number): string {
  const s = Math.max(0, Math.min(start, input.length));
  const e = Math.max(s + 1, Math.min(end, input.length));
  // Tabs keep their width so the caret lines up.
  const pad = input.slice(0, s).replace(/[^\t]/g, ' ');
  return `  ${input}\n  ${pad}${'^'.repeat(e - s)}`;
}
