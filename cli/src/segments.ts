/**
 * Cuts a file into pieces that can be checked apart, for `check --jobs`: each cut is the start of
 * a line that plainly starts an HLO statement (core's statementBoundaryAfter), so the statements
 * of the pieces are exactly the statements of the whole file and their diagnostics are the same.
 * Only a small window around each wanted cut is read.
 */
import * as fs from 'fs';
import { statementBoundaryAfter } from '../../core/src';

/** Bytes read around a wanted cut; a cut is skipped when no statement starts inside it. */
const WINDOW_BYTES = 256 * 1024;
const NEWLINE = 10;

/**
 * Byte offsets `[0, c1, ..., size]` cutting the open file `fd` of `size` bytes into pieces of about
 * `pieceBytes` (fewer when no statement starts near a wanted cut). Cuts fall right after a `\n`,
 * which never occurs inside a UTF-8 sequence, so every piece decodes on its own.
 */
export function segmentBoundaries(fd: number, size: number, pieceBytes: number): number[] {
  const cuts = [0];
  const window = Buffer.allocUnsafe(WINDOW_BYTES);
  for (let want = pieceBytes; want < size; want += pieceBytes) {
    const n = fs.readSync(fd, window, 0, WINDOW_BYTES, want);
    const bytes = window.subarray(0, n);
    // Complete lines only: from after the first line break to the last one.
    const first = bytes.indexOf(NEWLINE);
    const last = bytes.lastIndexOf(NEWLINE);
    if (first < 0 || last <= first) continue;
    const text = bytes.toString('utf8', first + 1, last + 1);
    const at = statementBoundaryAfter(text, 0);
    if (at < 0) continue;
    const cut = want + first + 1 + Buffer.byteLength(text.slice(0, at), 'utf8');
    if (cut > cuts[cuts.length - 1] && cut < size) cuts.push(cut);
  }
  cuts.push(size);
  return cuts;
}
