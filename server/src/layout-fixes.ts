/**
 * Quick fixes for layouts, each offered only where the intended text is certain (docs/rules.md
 * names each one):
 * - a literal `-1` tile entry → `*` (XLA's docs once wrote the combine marker as -1; -1 now crashes
 *   XLA), in every position;
 * - a minor_to_major that is not a permutation of the dimensions → the default order {rank-1,…,0};
 * - an empty tile `()` → removed (with its `T` when it is the only tile);
 * - attributes written out of XLA's order, each once → the same attributes in order;
 * - what XLA rejects on dense arrays or ignores (`P(...)`, `#(...)`, `*(...)`, `D(...)`) and an
 *   `L(n)` with n < 1 → removed (L(1) is what no L means);
 * - `token[2]` → `token[]`, `token[]{0}` → `token[]`; `E(-4)` on a 4-bit type → `E(4)`; `S(201)` →
 *   `S(-55)`, what XLA stores;
 * - a missing `)`, `]` or `}` → inserted where the parser expected it (preferred when a closing
 *   bracket or the end stands there instead).
 * Removing the last attribute of a layout removes its `:` too, leaving `{1,0}`.
 */
import type { ArrayShapeNode, LayoutNode, TextRange } from '../../core/src';
import { primitiveType } from '../../core/src';
import type { HloDocument } from './document';
import { arrayLeaves } from './shape-facts';

export interface Fix {
  readonly title: string;
  readonly edit: { readonly range: TextRange; readonly newText: string };
  /** Whether the fix is certain (VS Code applies a preferred fix with one key). */
  readonly preferred: boolean;
}

type LeafWithLayout = ArrayShapeNode & { layout: LayoutNode };

function contains(outer: TextRange, inner: TextRange): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** The array leaf whose shape contains `range` (and, with `inLayout`, whose layout does). */
function leafAt(doc: HloDocument, range: TextRange, inLayout = true): ArrayShapeNode | undefined {
  const i = doc.statementIndexAt(range.start);
  if (i < 0) return undefined;
  for (const found of doc.parse(i).shapes) {
    if (!contains(found.shape.range, range)) continue;
    for (const leaf of arrayLeaves(found.shape)) {
      const around = inLayout ? leaf.layout?.range : leaf.range;
      if (around && contains(around, range)) return leaf;
    }
  }
  return undefined;
}

function leafWithLayout(doc: HloDocument, range: TextRange): LeafWithLayout | undefined {
  const leaf = leafAt(doc, range);
  return leaf?.layout ? (leaf as LeafWithLayout) : undefined;
}

/** Each layout attribute as parsed, with the letter(s) that name it, in XLA's order. */
function attributesOf(l: LayoutNode): { readonly name: string; readonly range: TextRange }[] {
  const out: { name: string; range: TextRange }[] = [];
  const add = (name: string, node: { readonly range: TextRange } | undefined): void => {
    if (node) out.push({ name, range: node.range });
  };
  add('D', l.dimLevelTypes);
  add('T', l.tiles);
  add('L', l.tailPaddingAlignment);
  add('#', l.indexType);
  add('*', l.pointerType);
  add('E', l.elementSizeBits);
  add('S', l.memorySpace);
  add('SC', l.splitConfigs);
  add('P', l.physicalShape);
  add('M', l.dynamicMetadataBytes);
  return out;
}

/** The edit removing the attribute at `range`, with the `:` before it when it is the only one. */
function removal(doc: HloDocument, layout: LayoutNode, range: TextRange): Fix['edit'] {
  if (attributesOf(layout).length > 1) return { range, newText: '' };
  const colon = doc.text.getText().lastIndexOf(':', range.start);
  return { range: { start: colon > layout.range.start ? colon : range.start, end: range.end }, newText: '' };
}

function negativeTileFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const text = doc.text.getText();
  if (text.slice(range.start, range.end) !== '-1') return undefined;
  // On a tile's last entry `*` combines with no more-minor entry: a warning, and a layout whose
  // size cannot be computed, better than XLA's abort but not the fix to apply without a look.
  const minorMost = /^\s*\)/.test(text.slice(range.end, range.end + 64));
  return {
    title: 'Replace -1 with * (combine dimension)',
    edit: { range, newText: '*' },
    preferred: !minorMost,
  };
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
  return {
    title: 'Remove the empty tiling T()',
    edit: removal(doc, leaf.layout, tiles.range),
    preferred: true,
  };
}

/** The attributes of the layout in XLA's order, when each is written once and nothing else is there. */
function attributeOrderFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const leaf = leafWithLayout(doc, range);
  if (!leaf) return undefined;
  const text = doc.text.getText();
  const inOrder = attributesOf(leaf.layout);
  const written = [...inOrder].sort((a, b) => a.range.start - b.range.start);
  const first = written[0];
  const last = written[written.length - 1];
  if (!first || !last) return undefined;
  // The attribute flagged must be one the parser kept, and everything between the first and the
  // last must be these attributes: a second `S(...)` (the parser keeps the first, and flags the
  // second) or anything unknown makes the intent unclear.
  if (!written.some((a) => contains(a.range, range))) return undefined;
  let covered = 0;
  for (const a of written) covered += a.range.end - a.range.start;
  // Up to the layout's `}` when it has one: a repeat after the last attribute kept counts too.
  const close = leaf.layout.range.end - 1;
  const stop = close > last.range.end && text.charCodeAt(close) === 125 ? close : last.range.end;
  const between = text.slice(first.range.start, stop).replace(/\s+/g, '');
  if (covered !== between.length) return undefined;
  const ordered = inOrder.map((a) => text.slice(a.range.start, a.range.end)).join('');
  return {
    title: `Write the attributes in XLA's order: ${inOrder.map((a) => a.name).join(' ')}`,
    edit: { range: { start: first.range.start, end: last.range.end }, newText: ordered },
    preferred: true,
  };
}

/** Removes the attribute the diagnostic is on (`P(...)`, `#(...)`, `*(...)`, `D(...)`, `L(n)`). */
function removeAttributeFix(doc: HloDocument, code: string, range: TextRange): Fix | undefined {
  const leaf = leafWithLayout(doc, range);
  if (!leaf) return undefined;
  const l = leaf.layout;
  const node =
    code === 'physical-shape-dense'
      ? l.physicalShape
      : code === 'index-type-dense'
        ? l.indexType
        : code === 'pointer-type-dense'
          ? l.pointerType
          : code === 'legacy-dim-level-types'
            ? l.dimLevelTypes
            : l.tailPaddingAlignment;
  if (!node || !contains(node.range, range)) return undefined;
  const written = doc.text.getText().slice(node.range.start, node.range.end);
  return {
    title: `Remove ${written.length <= 12 ? written : `${written.slice(0, written.indexOf('(') + 1)}…)`}`,
    edit: removal(doc, l, node.range),
    preferred: true,
  };
}

/**
 * Removes a `D(...)` whose letters XLA's parser rejects; the parse stopped inside it, so it is
 * found in the text: from the `D(` before the bad letter to the `)` after it.
 */
function badDimLevelFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const text = doc.text.getText();
  const open = text.lastIndexOf('D(', range.start);
  const close = text.indexOf(')', range.end);
  if (open < 0 || close < 0 || /[(){}\n]/.test(text.slice(open + 2, close))) return undefined;
  const start = text[open - 1] === ':' && text[close + 1] === '}' ? open - 1 : open;
  return { title: 'Remove D(…)', edit: { range: { start, end: close + 1 }, newText: '' }, preferred: true };
}

/** `token[2]` → `token[]`. */
function tokenDimsFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const leaf = leafAt(doc, range, false);
  if (!leaf || leaf.dimsRange.start !== range.start) return undefined;
  return {
    title: `Write ${leaf.elementType}[]`,
    edit: { range: leaf.dimsRange, newText: '[]' },
    preferred: true,
  };
}

/** `token[]{0}` → `token[]`: a token or opaque shape takes no layout. */
function tokenLayoutFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const layout = leafAt(doc, range, false)?.layout;
  if (!layout || layout.range.start !== range.start || layout.range.end !== range.end) return undefined;
  const written = doc.text.getText().slice(range.start, range.end);
  return { title: `Remove the layout ${written}`, edit: { range, newText: '' }, preferred: true };
}

/** `E(-4)` on a type 4 bits wide (or stored in 4 bits) → `E(4)`: only the sign is wrong. */
function elementSizeFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const leaf = leafWithLayout(doc, range);
  const e = leaf?.layout.elementSizeBits;
  const type = leaf ? primitiveType(leaf.elementType) : undefined;
  if (!e || !type || e.value.range.start !== range.start) return undefined;
  const bits = -e.value.value;
  if (bits !== BigInt(type.bits) && bits !== BigInt(type.bytes * 8)) return undefined;
  return {
    title: `Use E(${bits}), the width of ${type.name}`,
    edit: { range: e.value.range, newText: String(bits) },
    preferred: true,
  };
}

/** `S(201)` → `S(-55)`: XLA stores the memory space in an int8, so that is what it reads. */
function memorySpaceFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const s = leafWithLayout(doc, range)?.layout.memorySpace;
  if (!s || s.value.range.start !== range.start) return undefined;
  const wrapped = BigInt.asIntN(8, s.value.value);
  return {
    title: `Write S(${wrapped}), the memory space XLA stores`,
    edit: { range: s.value.range, newText: String(wrapped) },
    preferred: true,
  };
}

/** Inserts the closing bracket the parser expected, right after the text before it. */
function insertFix(doc: HloDocument, range: TextRange, expected: unknown): Fix | undefined {
  if (expected !== ')' && expected !== ']' && expected !== '}') return undefined;
  const text = doc.text.getText();
  let at = range.start;
  while (at > 0 && /\s/.test(text[at - 1] ?? '')) at--;
  const found = text.slice(range.start, range.end);
  return {
    title: `Insert ${expected}`,
    edit: { range: { start: at, end: at }, newText: expected },
    // Certain when a closing bracket or the end stands where it was expected.
    preferred: found === '' || found === ')' || found === ']' || found === '}',
  };
}

/** The layout quick fix for a diagnostic of `code` at `range`, if one is certain enough to offer. */
export function layoutFix(doc: HloDocument, code: string, range: TextRange, data: unknown): Fix | undefined {
  switch (code) {
    case 'tile-negative':
      return negativeTileFix(doc, range);
    case 'tile-empty':
      return emptyTileFix(doc, range);
    case 'minor-to-major-duplicate':
    case 'minor-to-major-out-of-bounds':
    case 'rank-mismatch':
      return defaultOrderFix(doc, range);
    case 'layout-attribute-order':
      return attributeOrderFix(doc, range);
    case 'physical-shape-dense':
    case 'index-type-dense':
    case 'pointer-type-dense':
    case 'legacy-dim-level-types':
    case 'tail-alignment-invalid':
      return removeAttributeFix(doc, code, range);
    case 'dim-level-type':
      return badDimLevelFix(doc, range);
    case 'token-dimensions':
      return tokenDimsFix(doc, range);
    case 'token-layout':
      return tokenLayoutFix(doc, range);
    case 'element-size-negative':
      return elementSizeFix(doc, range);
    case 'memory-space-range':
      return memorySpaceFix(doc, range);
    case 'expected-token':
      return insertFix(doc, range, (data as { expected?: unknown } | undefined)?.expected);
    default:
      return undefined;
  }
}
