/**
 * Quick fixes, offered only where the intended text is certain, each attached to the diagnostic it
 * fixes and marked preferred:
 * - a literal `-1` tile entry that is not the tile's minor-most → `*` (XLA's docs once wrote the combine
 *   marker as -1; `-1` now crashes XLA);
 * - a minor_to_major that is not a permutation of the dimensions → the default order {rank-1,…,0};
 * - an empty tile `()` → removed (with its `T` when it is the only tile, and the `:` when nothing else follows).
 * - an operand named only in its computation's signature → its parameter instruction (parameter-fix.ts);
 * - an unknown element type in another case or another language's name (`F32`, `float32`) → the
 *   XLA name (`f32`).
 * And those that are a guess, so not preferred: an operand or call naming nothing known → the known
 * name spelt most like it (spelling.ts); an unknown element type one edit from one type → that type.
 */
import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit } from 'vscode-languageserver';
import type { ArrayShapeNode, LayoutNode } from '../../core/src';
import type { TextRange } from '../../core/src';
import { editDistance, elementTypeGuesses } from '../../core/src';
import type { HloDocument } from './document';
import { DIAGNOSTIC_SOURCE } from './lsp-diagnostics';
import { arrayLeaves } from './shape-facts';
import { toRange, toTextRange } from './positions';
import { parameterDefinition } from './parameter-fix';
import { respelling } from './spelling';

const ORDER_CODES = new Set(['minor-to-major-duplicate', 'minor-to-major-out-of-bounds', 'rank-mismatch']);

interface Fix {
  readonly title: string;
  readonly edit: { readonly range: TextRange; readonly newText: string };
  /** Whether the fix is certain (VS Code applies a preferred fix with one key). */
  readonly preferred: boolean;
}

function contains(outer: TextRange, inner: TextRange): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** The array leaf (with a layout) whose layout contains `range`. */
function leafWithLayout(
  doc: HloDocument,
  range: TextRange,
): (ArrayShapeNode & { layout: LayoutNode }) | undefined {
  const i = doc.statementIndexAt(range.start);
  if (i < 0) return undefined;
  for (const found of doc.parse(i).shapes) {
    if (!contains(found.shape.range, range)) continue;
    for (const leaf of arrayLeaves(found.shape)) {
      if (leaf.layout && contains(leaf.layout.range, range))
        return leaf as ArrayShapeNode & { layout: LayoutNode };
    }
  }
  return undefined;
}

function negativeTileFix(doc: HloDocument, range: TextRange): Fix | undefined {
  if (doc.text.getText().slice(range.start, range.end) !== '-1') return undefined;
  // `*` merges into the next more-minor entry: on the minor-most entry it would be wrong too.
  const tile = leafWithLayout(doc, range)?.layout.tiles?.tiles.find((t) => contains(t.range, range));
  const last = tile?.entries[tile.entries.length - 1];
  if (!last || last.range.start === range.start) return undefined;
  return { title: 'Replace -1 with * (combine dimension)', edit: { range, newText: '*' }, preferred: true };
}

function defaultOrderFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const leaf = leafWithLayout(doc, range);
  if (!leaf) return undefined;
  const rank = leaf.dims.length;
  const order = Array.from({ length: rank }, (_, i) => rank - 1 - i).join(',');
  const list = leaf.layout.minorToMajor;
  const first = list[0];
  const last = list[list.length - 1];
  // An empty list sits right after `{`.
  const at: TextRange =
    first && last
      ? { start: first.range.start, end: last.range.end }
      : { start: leaf.layout.range.start + 1, end: leaf.layout.range.start + 1 };
  return {
    title: `Use the default minor_to_major {${order}}`,
    edit: { range: at, newText: order },
    preferred: true,
  };
}

function emptyTileFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const leaf = leafWithLayout(doc, range);
  const tiles = leaf?.layout.tiles;
  if (!leaf || !tiles) return undefined;
  const tile = tiles.tiles.find((t) => t.range.start === range.start && t.range.end === range.end);
  if (!tile || tile.entries.length > 0) return undefined;
  if (tiles.tiles.length > 1)
    return { title: 'Remove the empty tile ()', edit: { range: tile.range, newText: '' }, preferred: true };
  const l = leaf.layout;
  const othersAfterColon =
    l.dimLevelTypes ||
    l.tailPaddingAlignment ||
    l.indexType ||
    l.pointerType ||
    l.elementSizeBits ||
    l.memorySpace ||
    l.splitConfigs ||
    l.physicalShape ||
    l.dynamicMetadataBytes;
  if (othersAfterColon)
    return {
      title: 'Remove the empty tiling T()',
      edit: { range: tiles.range, newText: '' },
      preferred: true,
    };
  // Nothing else after `:`: remove from the colon, leaving `{1,0}`.
  const text = doc.text.getText();
  const colon = text.lastIndexOf(':', tiles.range.start);
  const start = colon > l.range.start ? colon : tiles.range.start;
  return {
    title: 'Remove the empty tiling T()',
    edit: { range: { start, end: tiles.range.end }, newText: '' },
    preferred: true,
  };
}

/** `F32` → `f32`, `float32` → `f32` (certain); `bf61` → `bf16` (a guess); none when several types are as close. */
function elementTypeFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const word = doc.text.getText().slice(range.start, range.end);
  const guesses = elementTypeGuesses(word);
  if (guesses.length !== 1) return undefined;
  const type = guesses[0];
  const lower = word.toLowerCase();
  // The same name in another case, or another language's name for it: no typo to guess at.
  const certain = lower === type || editDistance(lower, type, 1) > 1;
  return { title: `Change to ${type}`, edit: { range, newText: type }, preferred: certain };
}

function fixFor(doc: HloDocument, code: string, range: TextRange): Fix | undefined {
  if (code === 'unknown-element-type') return elementTypeFix(doc, range);
  if (code === 'tile-negative') return negativeTileFix(doc, range);
  if (code === 'tile-empty') return emptyTileFix(doc, range);
  if (ORDER_CODES.has(code)) return defaultOrderFix(doc, range);
  const definition = code === 'instruction-undefined' ? parameterDefinition(doc, range) : undefined;
  if (definition) return { ...definition, preferred: true };
  const name = respelling(doc, code, range);
  return name === undefined
    ? undefined
    : { title: `Change to %${name}`, edit: { range, newText: name }, preferred: false };
}

/** textDocument/codeAction: quick fixes for this server's diagnostics in the request. */
export function codeActions(doc: HloDocument, params: CodeActionParams): CodeAction[] {
  const only = params.context.only;
  if (
    only &&
    !only.some(
      (k) =>
        k === CodeActionKind.QuickFix ||
        CodeActionKind.QuickFix.startsWith(`${k}.`) ||
        k === CodeActionKind.Empty,
    )
  )
    return [];
  const out: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (d.source !== DIAGNOSTIC_SOURCE || typeof d.code !== 'string') continue;
    const fix = fixFor(doc, d.code, toTextRange(doc.text, d.range));
    if (!fix) continue;
    const edit: TextEdit = { range: toRange(doc.text, fix.edit.range), newText: fix.edit.newText };
    out.push({
      title: fix.title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [d],
      isPreferred: fix.preferred,
      edit: { changes: { [doc.uri]: [edit] } },
    });
  }
  return out;
}
