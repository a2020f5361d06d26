/** Positions as an editor computes them, for tests that drive the server with edits. */

/**
 * LSP position of `offset` as an editor computes it: `\r\n`, `\r` and `\n` each end a line.
 * Offsets inside a `\r\n` pair have no position of their own (editors never produce them): see {@link snap}.
 */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    else if (c !== 10 && c !== 13) continue;
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

/** The offset of an LSP `position` in `text` (the inverse of {@link positionAt}). */
export function offsetAt(text: string, position: { line: number; character: number }): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const nl = text.slice(offset).search(/\r\n|\r|\n/);
    if (nl < 0) return text.length;
    offset += nl + (text.startsWith('\r\n', offset + nl) ? 2 : 1);
  }
  return offset + position.character;
}

/** `offset`, moved off the middle of a `\r\n` pair. */
export function snap(text: string, offset: number): number {
  return offset > 0 && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10
    ? offset - 1
    : offset;
}

/** `text` with LSP `edits` applied (all ranges refer to the original text, as in a WorkspaceEdit). */
export function applyEdits(
  text: string,
  edits: readonly {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  }[],
): string {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  let out = text;
  for (const e of sorted)
    out = out.slice(0, offsetAt(text, e.range.start)) + e.newText + out.slice(offsetAt(text, e.range.end));
  return out;
}
