/**
 * What is under the cursor in one parsed statement: a name (definition or reference of an
 * instruction or computation) or a shape, and inside a shape the most specific layout part (a tile
 * entry, a tile, `S(n)`, `E(n)`, `L(n)`). Offsets are absolute; a range contains an offset when
 * start <= offset <= end, so a cursor right after a word still finds it.
 */
import type { ArrayShapeNode, IntAttributeNode, ShapeNode, TileEntryNode, TileNode } from '../../core/src';
import type { TextRange } from '../../core/src';
import type { HloName, HloStatement, StatementShape } from '../../core/src';

export type NameRole =
  | 'instruction-definition'
  | 'computation-definition'
  | 'parameter'
  | 'operand'
  | 'control-predecessor'
  | 'called-computation';

export interface NameTarget {
  readonly kind: 'name';
  readonly role: NameRole;
  readonly name: HloName;
  /** For called computations: the attribute that names it (`calls`, `to_apply`, …). */
  readonly attribute?: string;
}

export type ShapePart =
  | {
      readonly kind: 'tile-entry';
      readonly tile: TileNode;
      readonly level: number;
      readonly entry: TileEntryNode;
      readonly index: number;
    }
  | { readonly kind: 'tile'; readonly tile: TileNode; readonly level: number }
  | {
      readonly kind: 'memory-space' | 'element-size' | 'tail-alignment' | 'metadata-prefix';
      readonly attribute: IntAttributeNode;
    };

export interface ShapeTarget {
  readonly kind: 'shape';
  /** The whole shape as found (an array, tuple or buffer). */
  readonly found: StatementShape;
  /** The innermost array leaf containing the offset, if any. */
  readonly leaf?: ArrayShapeNode;
  readonly part?: ShapePart;
}

export type Target = NameTarget | ShapeTarget;

/** Names and whole shapes: end inclusive, so a cursor right after them counts. */
export function inside(r: TextRange, offset: number): boolean {
  return r.start <= offset && offset <= r.end;
}

/** Parts of a shape sit next to each other (`T(8,1)E(4)`): half-open, so each offset has one owner. */
function within(r: TextRange, offset: number): boolean {
  return r.start <= offset && offset < r.end;
}

/** The names of a statement with their roles, in text order. */
function namesOf(st: HloStatement): NameTarget[] {
  const out: NameTarget[] = [];
  if (st.kind === 'instruction') {
    out.push({ kind: 'name', role: 'instruction-definition', name: st.name });
    for (const o of st.operands) out.push({ kind: 'name', role: 'operand', name: o });
    for (const c of st.controlPredecessors) out.push({ kind: 'name', role: 'control-predecessor', name: c });
    for (const c of st.calledComputations)
      out.push({ kind: 'name', role: 'called-computation', name: c, attribute: c.attribute });
  } else if (st.kind === 'computation') {
    if (st.name) out.push({ kind: 'name', role: 'computation-definition', name: st.name });
    for (const p of st.parameters) out.push({ kind: 'name', role: 'parameter', name: p });
  }
  return out;
}

/**
 * The shapes of `shape` containing `offset`, outermost first: tuples and buffers down to the array
 * leaf when the offset is in one (iterative: tuples nest deeply).
 */
export function shapePath(shape: ShapeNode, offset: number): ShapeNode[] {
  const out: ShapeNode[] = [];
  let node: ShapeNode | undefined = shape;
  while (node && inside(node.range, offset)) {
    out.push(node);
    if (node.kind === 'array') break;
    if (node.kind === 'buffer') node = node.element;
    else
      node =
        node.elements.find((e) => within(e.range, offset)) ??
        node.elements.find((e) => inside(e.range, offset));
  }
  return out;
}

/** The innermost array leaf of `shape` containing `offset`. */
function leafAt(shape: ShapeNode, offset: number): ArrayShapeNode | undefined {
  const last = shapePath(shape, offset).at(-1);
  return last?.kind === 'array' ? last : undefined;
}

function partAt(leaf: ArrayShapeNode, offset: number): ShapePart | undefined {
  const layout = leaf.layout;
  if (!layout) return undefined;
  const tiles = layout.tiles?.tiles ?? [];
  for (let level = 0; level < tiles.length; level++) {
    const tile = tiles[level];
    if (!within(tile.range, offset)) continue;
    const index = tile.entries.findIndex((e) => within(e.range, offset));
    const entry = tile.entries[index];
    return entry ? { kind: 'tile-entry', tile, level, entry, index } : { kind: 'tile', tile, level };
  }
  // `T` itself (before the first tile) explains the first tile.
  if (layout.tiles && tiles[0] && offset >= layout.tiles.range.start && offset < tiles[0].range.start) {
    return { kind: 'tile', tile: tiles[0], level: 0 };
  }
  if (layout.memorySpace && within(layout.memorySpace.range, offset))
    return { kind: 'memory-space', attribute: layout.memorySpace };
  if (layout.elementSizeBits && within(layout.elementSizeBits.range, offset))
    return { kind: 'element-size', attribute: layout.elementSizeBits };
  if (layout.tailPaddingAlignment && within(layout.tailPaddingAlignment.range, offset))
    return { kind: 'tail-alignment', attribute: layout.tailPaddingAlignment };
  if (layout.dynamicMetadataBytes && within(layout.dynamicMetadataBytes.range, offset))
    return { kind: 'metadata-prefix', attribute: layout.dynamicMetadataBytes };
  return undefined;
}

/** The shape of the statement containing `offset`, if any. */
export function shapeAt(st: HloStatement, offset: number): ShapeTarget | undefined {
  const found = st.shapes.find((f) => inside(f.shape.range, offset));
  if (!found) return undefined;
  const leaf = leafAt(found.shape, offset);
  const part = leaf ? partAt(leaf, offset) : undefined;
  return { kind: 'shape', found, ...(leaf ? { leaf } : {}), ...(part ? { part } : {}) };
}

/** The name or shape under `offset` in `st`. */
export function targetAt(st: HloStatement, offset: number): Target | undefined {
  const name = namesOf(st).find((n) => inside(n.name.range, offset));
  return name ?? shapeAt(st, offset);
}
