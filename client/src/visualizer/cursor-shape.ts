/**
 * Plain helpers of the visualizer panel, free of `vscode` so they run in unit tests: which part of
 * an analysed shape the cursor is on, and where an element picked in the page lies in the document.
 */
import type { AnalyzeShapeResult, Position, Range } from '../../../protocol/src/lsp';

function atOrBefore(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/**
 * The array element of a tuple that holds `position`, else the whole shape the server found; `cut`
 * when the server quoted its text by its ends only, so the caller reads it from the document.
 */
export function shapeForCursor(
  result: AnalyzeShapeResult,
  position: Position,
): { shape: string; range: Range; cut?: true } {
  const leaf = result.analysis.arrays.find(
    (a) => a.path.length > 0 && atOrBefore(a.range.start, position) && atOrBefore(position, a.range.end),
  );
  const found = leaf ?? result;
  return {
    shape: found.text,
    range: found.range,
    ...(found.textCut !== undefined ? { cut: true as const } : {}),
  };
}

/**
 * Offsets [start, end) of an element inside the shape text the host sent, mapped into the document
 * range that text came from (`startOffset` is the range's start as a document offset); clamped to
 * that range, so a page can never point the editor outside what the host sent it.
 */
export function elementOffsets(
  startOffset: number,
  endOffset: number,
  element: { readonly start: number; readonly end: number },
): { start: number; end: number } {
  const start = Math.min(endOffset, startOffset + element.start);
  return { start, end: Math.min(endOffset, Math.max(start, startOffset + element.end)) };
}
