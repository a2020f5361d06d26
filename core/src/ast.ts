/**
 * The syntax tree of a shape as written. Every node carries the range of the characters it came
 * from so that diagnostics, hovers and quick fixes can point at the exact tile, entry or attribute.
 * Integers are `bigint` because XLA's are int64 and sizes pass 2^53.
 */
import type { TextRange } from './diagnostics';

/** An integer literal as written (it may be negative or out of range; the validator decides). */
export interface IntNode {
  readonly range: TextRange;
  readonly value: bigint;
}

/** `7` (static), `<=7` (bounded dynamic, value = bound) or `?` (unbounded dynamic, value = 0). */
export interface DimNode {
  readonly range: TextRange;
  readonly kind: 'static' | 'bounded' | 'unbounded';
  readonly value: bigint;
}

/** One tile entry: a size, or `*` (XLA's kCombineDimension). */
export interface TileEntryNode {
  readonly range: TextRange;
  readonly value: bigint | 'combine';
}

export interface TileNode {
  /** From `(` to `)` inclusive. */
  readonly range: TextRange;
  readonly entries: readonly TileEntryNode[];
}

/** `L(n)`, `E(n)`, `S(n)`, `M(n)`: `range` covers the letter through `)`. */
export interface IntAttributeNode {
  readonly range: TextRange;
  readonly value: IntNode;
}

/** `#(u32)` or `*(u16)`. */
export interface TypeAttributeNode {
  readonly range: TextRange;
  readonly typeName: string;
  readonly typeRange: TextRange;
}

/** One `(dim:i,j,...)` group of `SC`. */
export interface SplitConfigNode {
  readonly range: TextRange;
  readonly dimension: IntNode;
  readonly indices: readonly IntNode[];
}

/** One legacy `D(...)` entry such as `C+~`. */
export interface DimLevelNode {
  readonly range: TextRange;
  readonly level: 'D' | 'C' | 'S' | 'H';
  readonly unique: boolean;
  readonly ordered: boolean;
}

export interface LayoutNode {
  /** From `{` to `}` inclusive. */
  readonly range: TextRange;
  readonly minorToMajor: readonly IntNode[];
  readonly dimLevelTypes?: { readonly range: TextRange; readonly levels: readonly DimLevelNode[] };
  /** `range` covers `T` through the last tile's `)`. */
  readonly tiles?: { readonly range: TextRange; readonly tiles: readonly TileNode[] };
  readonly tailPaddingAlignment?: IntAttributeNode;
  readonly indexType?: TypeAttributeNode;
  readonly pointerType?: TypeAttributeNode;
  readonly elementSizeBits?: IntAttributeNode;
  readonly memorySpace?: IntAttributeNode;
  readonly splitConfigs?: { readonly range: TextRange; readonly configs: readonly SplitConfigNode[] };
  readonly physicalShape?: { readonly range: TextRange; readonly shape: ShapeNode };
  readonly dynamicMetadataBytes?: IntAttributeNode;
}

/** An array shape, including `token[]` and `opaque[]`, which XLA writes the same way. */
export interface ArrayShapeNode {
  readonly kind: 'array';
  readonly range: TextRange;
  readonly elementType: string;
  readonly elementTypeRange: TextRange;
  /** From `[` to `]` inclusive. */
  readonly dimsRange: TextRange;
  readonly dims: readonly DimNode[];
  readonly layout?: LayoutNode;
}

export interface TupleShapeNode {
  readonly kind: 'tuple';
  readonly range: TextRange;
  readonly elements: readonly ShapeNode[];
}

/** `b(<array shape>)`. */
export interface BufferShapeNode {
  readonly kind: 'buffer';
  readonly range: TextRange;
  readonly element: ShapeNode;
}

export type ShapeNode = ArrayShapeNode | TupleShapeNode | BufferShapeNode;
