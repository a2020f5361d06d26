/**
 * The one place that converts between UTF-16 offsets (what core and every server feature work in)
 * and LSP positions (line + UTF-16 character). Everything else in the server passes offsets; a
 * {@link TextRange} becomes an LSP `Range` only here, on its way out.
 */
import type { Position, Range } from 'vscode-languageserver';
import type { TextRange } from '../../core/src';
import type { DocumentText } from './text-store';

/** The LSP position of `offset` (clamped to the document). */
export function toPosition(doc: DocumentText, offset: number): Position {
  return doc.positionAt(offset);
}

/** The offset of an LSP position (clamped to its line and to the document). */
export function toOffset(doc: DocumentText, position: Position): number {
  return doc.offsetAt(position);
}

/** The LSP range of a half-open offset range. */
export function toRange(doc: DocumentText, range: TextRange): Range {
  return { start: doc.positionAt(range.start), end: doc.positionAt(range.end) };
}

/** The offset range of an LSP range; start <= end even if the client sent them reversed. */
export function toTextRange(doc: DocumentText, range: Range): TextRange {
  const a = doc.offsetAt(range.start);
  const b = doc.offsetAt(range.end);
  return a <= b ? { start: a, end: b } : { start: b, end: a };
}
