/**
 * Turns shape text into what the visualizer draws: parse, validate, convert to the semantic model,
 * and plan the tiling. Every outcome is data: a drawable array, diagnostics to show inline, or a
 * sentence saying why this kind of shape has no picture.
 */
import type { ArrayShapeNode } from '../../core/src';
import type { LayoutDiagnostic } from '../../core/src';
import {
  isLayoutError,
  paddingByDimension,
  planTiling,
  sizes,
  type LayoutSizes,
  type PaddingAccount,
  type TilingPlan,
} from '../../core/src';
import type { ArrayShape } from '../../core/src';
import { parseShapeText } from '../../core/src';
import { primitiveType } from '../../core/src';
import { toArrayShape } from '../../core/src';
import { validateShape } from '../../core/src';

export interface Drawable {
  readonly kind: 'array';
  readonly text: string;
  readonly shape: ArrayShape;
  readonly plan: TilingPlan;
  readonly sizes: LayoutSizes;
  readonly padding: PaddingAccount;
  /** Warnings and information about the shape (errors make it not drawable). */
  readonly diagnostics: readonly LayoutDiagnostic[];
}

export interface NotDrawable {
  readonly kind: 'invalid' | 'unsupported';
  readonly text: string;
  /** Why there is no picture, in one sentence. */
  readonly message: string;
  readonly diagnostics: readonly LayoutDiagnostic[];
}

export type Analysis = Drawable | NotDrawable;

function hasErrors(diagnostics: readonly LayoutDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Analyses one shape string. Never throws. */
export function analyzeShape(text: string): Analysis {
  const parsed = parseShapeText(text);
  const node = parsed.shape;
  if (node === undefined || hasErrors(parsed.diagnostics)) {
    return { kind: 'invalid', text, message: 'The shape does not parse.', diagnostics: parsed.diagnostics };
  }
  const diagnostics = [...parsed.diagnostics, ...validateShape(node)];
  if (hasErrors(diagnostics))
    return { kind: 'invalid', text, message: 'XLA would reject this layout.', diagnostics };
  let array: ArrayShapeNode;
  if (node.kind === 'tuple') {
    return {
      kind: 'unsupported',
      text,
      message: 'A tuple has no layout of its own: open one of its elements.',
      diagnostics,
    };
  } else if (node.kind === 'buffer') {
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
  const shape = toArrayShape(array);
  if (shape === undefined)
    return { kind: 'invalid', text, message: 'The shape is not valid enough to lay out.', diagnostics };
  const plan = planTiling(shape);
  const sized = sizes(shape);
  const padding = paddingByDimension(shape);
  if (isLayoutError(plan)) return { kind: 'unsupported', text, message: plan.message, diagnostics };
  if (isLayoutError(sized)) return { kind: 'unsupported', text, message: sized.message, diagnostics };
  if (isLayoutError(padding)) return { kind: 'unsupported', text, message: padding.message, diagnostics };
  return { kind: 'array', text, shape, plan, sizes: sized, padding, diagnostics };
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
