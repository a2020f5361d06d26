/**
 * Turns shape text into what the visualizer draws, through the core's explanation (the same
 * `explainShapeNode` the hover uses, so the page and the hover list the same padding and fix).
 * Every outcome is data: a drawable array, a tuple whose elements can be picked, diagnostics to
 * show inline, or a sentence saying why this kind of shape has no picture.
 */
import {
  explainShapeNode,
  formatFactor,
  humanBytes,
  parseShapeText,
  primitiveType,
  type ArrayExplanation,
  type ArrayShape,
  type ArrayShapeNode,
  type LayoutDiagnostic,
  type LayoutFix,
  type LayoutSizes,
  type PaddingAccount,
  type ShapeExplanation,
  type TilingPlan,
} from '../../core/src';

export interface Drawable {
  readonly kind: 'array';
  readonly text: string;
  readonly shape: ArrayShape;
  readonly plan: TilingPlan;
  readonly sizes: LayoutSizes;
  readonly padding: PaddingAccount;
  /** The hover's "Fix" line: a layout change that saves memory, when there is one. */
  readonly fix: LayoutFix | undefined;
  /** Warnings and information about the shape (errors make it not drawable). */
  readonly diagnostics: readonly LayoutDiagnostic[];
}

/** One array leaf of a tuple, as the picker lists it. */
export interface TupleElement {
  /** Tuple indices from the root, e.g. [1, 0]. */
  readonly path: readonly number[];
  readonly text: string;
  /** Offsets of the element in the tuple's text. */
  readonly start: number;
  readonly end: number;
  /** "1 GiB → 4 GiB (4x)", or why it has no layout. */
  readonly summary: string;
}

export interface TupleAnalysis {
  readonly kind: 'tuple';
  readonly text: string;
  readonly message: string;
  readonly elements: readonly TupleElement[];
  readonly diagnostics: readonly LayoutDiagnostic[];
}

export interface NotDrawable {
  readonly kind: 'invalid' | 'unsupported';
  readonly text: string;
  /** Why there is no picture, in one sentence. */
  readonly message: string;
  readonly diagnostics: readonly LayoutDiagnostic[];
}

export type Analysis = Drawable | TupleAnalysis | NotDrawable;

function hasErrors(diagnostics: readonly LayoutDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Logical → physical bytes of one explained leaf, for the tuple picker. */
function leafSummary(a: ArrayExplanation): string {
  if (a.sizes === undefined) return a.error?.message ?? 'no layout';
  const { logicalBytes, physicalBytes, expansion } = a.sizes;
  const factor =
    expansion !== undefined && physicalBytes !== logicalBytes ? ` (${formatFactor(expansion.value)})` : '';
  return `${humanBytes(logicalBytes)} → ${humanBytes(physicalBytes)}${factor}`;
}

function tupleAnalysis(text: string, explained: ShapeExplanation): TupleAnalysis {
  const elements = explained.arrays.map((a): TupleElement => ({
    path: a.path,
    text: a.text,
    start: a.range.start,
    end: a.range.end,
    summary: leafSummary(a),
  }));
  const more = explained.omittedArrays !== undefined ? ` (the first ${elements.length} are listed)` : '';
  const count = elements.length + (explained.omittedArrays ?? 0);
  return {
    kind: 'tuple',
    text,
    message: `A tuple has no layout of its own: pick one of its ${count} array elements${more}.`,
    elements,
    diagnostics: explained.diagnostics,
  };
}

/** Analyses one shape string. Never throws. */
export function analyzeShape(text: string): Analysis {
  const parsed = parseShapeText(text);
  const node = parsed.shape;
  if (node === undefined || hasErrors(parsed.diagnostics)) {
    return { kind: 'invalid', text, message: 'The shape does not parse.', diagnostics: parsed.diagnostics };
  }
  const explained = explainShapeNode(node, text, parsed.diagnostics);
  const diagnostics = explained.diagnostics;
  if (explained.hasErrors)
    return { kind: 'invalid', text, message: 'XLA would reject this layout.', diagnostics };
  if (node.kind === 'tuple') return tupleAnalysis(text, explained);
  let array: ArrayShapeNode;
  if (node.kind === 'buffer') {
    if (node.element.kind !== 'array')
      return { kind: 'unsupported', text, message: 'b(...) must hold an array shape.', diagnostics };
    array = node.element;
  } else {
    array = node;
  }
  if (primitiveType(array.elementType)?.isArray !== true) {
    return {
      kind: 'unsupported',
      text,
      message: `${array.elementType}[] holds no array elements, so there is no layout to draw.`,
      diagnostics,
    };
  }
  if (array.dims.some((d) => d.kind === 'unbounded')) {
    return {
      kind: 'unsupported',
      text,
      message: 'An unbounded dimension (?) has no size to lay out.',
      diagnostics,
    };
  }
  const a = explained.arrays[0];
  if (a?.shape === undefined)
    return { kind: 'invalid', text, message: 'The shape is not valid enough to lay out.', diagnostics };
  if (a.error !== undefined || a.plan === undefined || a.sizes === undefined || a.padding === undefined)
    return {
      kind: 'unsupported',
      text,
      message: a.error?.message ?? 'The layout cannot be computed.',
      diagnostics,
    };
  return {
    kind: 'array',
    text,
    shape: a.shape,
    plan: a.plan,
    sizes: a.sizes,
    padding: a.padding,
    fix: a.fix,
    diagnostics,
  };
}

/**
 * How far tiling pads logical dim `dim`: its size rounded up by the first tile level, or the size
 * itself. Later levels pad inside tiles, and `*` merges dims, so neither extends a single dim.
 */
export function paddedExtent(drawable: Drawable, dim: number | undefined, size: number): number {
  if (dim === undefined) return size;
  const entry = drawable.padding.dimensions.find((d) => d.dim === dim);
  const cause = entry?.causes.find((c) => c.level === 0 && c.dims.length === 1);
  return cause === undefined ? size : Number(cause.to);
}

/** The first-level tile's extents, major to minor (undefined when untiled or when an entry is `*`). */
export function firstTile(shape: ArrayShape): number[] | undefined {
  const tile = shape.tiles[0];
  if (tile === undefined) return undefined;
  const extents: number[] = [];
  for (const t of tile) {
    if (t === 'combine') return undefined;
    extents.push(Number(t));
  }
  return extents;
}

/**
 * How many consecutive indices of logical dim `dim` one first-level tile spans: its tile entry when
 * the tile covers the dim alone, 1 when the dim lies outside the tile; undefined when untiled, or
 * when a `*` merges the dim with others (tiles then do not line up along it).
 */
export function tileSpan(plan: TilingPlan, dim: number | undefined): number | undefined {
  const step = plan.steps[0];
  if (dim === undefined) return 1;
  if (step === undefined) return undefined;
  const position = step.combinedOrigins.findIndex((o) => o.includes(dim));
  if (position < 0) return undefined;
  if (position < step.prefixLength) return 1;
  if (step.combinedOrigins[position].length > 1) return undefined;
  return Number(step.effectiveTile[position - step.prefixLength]);
}
