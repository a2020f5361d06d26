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

/** Most characters of `input` one caret display shows: a 1 MB shape is shown around its caret. */
const CARET_WINDOW = 160;

/**
 * `input` and a caret line under [start, end) (at least one caret), for terminal output. A long
 * input shows the part around the start of the range, `…` marking what is left out.
 */
export function caretLines(input: string, start: number, end: number): string {
  const s = Math.max(0, Math.min(start, input.length));
  const e = Math.max(s + 1, Math.min(end, input.length));
  let from = 0;
  let to = input.length;
  if (to > CARET_WINDOW) {
    from = Math.max(0, Math.min(s - CARET_WINDOW / 4, input.length - CARET_WINDOW));
    to = from + CARET_WINDOW;
  }
  const before = from > 0 ? '…' : '';
  const shown = `${before}${input.slice(from, to)}${to < input.length ? '…' : ''}`;
  // Tabs keep their width so the caret lines up.
  const pad = (before + input.slice(from, s)).replace(/[^\t]/g, ' ');
  return `  ${shown}\n  ${pad}${'^'.repeat(Math.max(1, Math.min(e, to) - s))}`;
}
