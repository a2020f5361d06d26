/**
 * The size our layout model gives a value XLA placed in memory, to set beside XLA's own: an array
 * takes its physical bytes (every tile level and L(n) included); a tuple value is the tuple's
 * table of element pointers, 8 bytes per element, as `ShapeUtil::ByteSizeOf(shape, pointer_size
 * = 8)` counts it (its elements are values of their own); a token takes nothing. For padded arrays,
 * the dimension that pads most and a layout that pads less. Memoised by shape text: a dump's values
 * repeat a few hundred shapes.
 */
import { formatFactor, groupDigits } from '../format';
import { isLayoutError, paddingByDimension, physicalSizes, suggestFix } from '../layout';
import { parseShapeText } from '../parse';
import { printTile } from '../print';
import { toArrayShape } from '../to-model';
import { validateShape } from '../validate';

/** Bytes of one element of a tuple's pointer table. */
export const POINTER_BYTES = 8n;

/** The tile entry that pads a value most, on which dimension. */
export interface PaddingCauseSummary {
  readonly dim: number;
  readonly size: bigint;
  readonly minorMost: boolean;
  /** The tile as written, `(8,128)`. */
  readonly tile: string;
  /** The padded dimension's size before and after rounding up to the tile. */
  readonly from: bigint;
  readonly to: bigint;
  /** to / from. */
  readonly factor: number;
  /** One line: `dim 1 (x), size 4, minor-most: T(8,128) pads 4 to 128 (32x)`. */
  readonly text: string;
}

/** What our layout model says of one value's shape. */
export interface ValueSize {
  readonly kind: 'array' | 'tuple' | 'token' | 'opaque' | 'unsized';
  /** The bytes XLA's buffer assignment should give the value, by our model. */
  readonly bytes?: bigint;
  /** XLA ByteSizeOf of an array (a tuple's and a token's equal `bytes`). */
  readonly logical?: bigint;
  /** Bytes under every tile level (a tuple's and a token's equal `bytes`). */
  readonly physical?: bigint;
  readonly cause?: PaddingCauseSummary;
  /** A layout change that pads less, with the bytes it would save. */
  readonly fix?: { readonly description: string; readonly savedBytes: bigint };
  /** The memory space the layout names (`S(n)`), 0 by default. */
  readonly memorySpace: number;
  /** Why the shape could not be sized. */
  readonly error?: string;
}

function causeText(c: Omit<PaddingCauseSummary, 'text'>): string {
  const minor = c.minorMost ? ', minor-most' : '';
  return `dim ${c.dim}, size ${groupDigits(c.size)}${minor}: T${c.tile} pads ${groupDigits(c.from)} to ${groupDigits(c.to)} (${formatFactor(c.factor)})`;
}

/** The size of a tuple of `elements` elements: its table of pointers. */
export function tupleSize(elements: number): ValueSize {
  const bytes = BigInt(elements) * POINTER_BYTES;
  return { kind: 'tuple', bytes, logical: bytes, physical: bytes, memorySpace: 0 };
}

function sizeOf(text: string): ValueSize {
  const parsed = parseShapeText(text);
  const node = parsed.shape;
  const error = parsed.diagnostics.find((d) => d.severity === 'error');
  if (node === undefined || error !== undefined)
    return { kind: 'unsized', memorySpace: 0, error: error?.message ?? 'the shape does not parse' };
  if (node.kind === 'tuple') return tupleSize(node.elements.length);
  const array = node.kind === 'buffer' ? node.element : node;
  if (array.kind !== 'array') return { kind: 'unsized', memorySpace: 0, error: 'not an array shape' };
  if (array.elementType === 'token')
    return { kind: 'token', bytes: 0n, logical: 0n, physical: 0n, memorySpace: 0 };
  if (array.elementType === 'opaque')
    return {
      kind: 'opaque',
      bytes: POINTER_BYTES,
      logical: POINTER_BYTES,
      physical: POINTER_BYTES,
      memorySpace: 0,
    };
  const shape = toArrayShape(array);
  if (shape === undefined) {
    // Parsed, but the validator refuses it: say what XLA would.
    const invalid = validateShape(node).find((d) => d.severity === 'error');
    return { kind: 'unsized', memorySpace: 0, error: invalid?.message ?? 'the layout is not valid' };
  }
  const z = physicalSizes(shape);
  if (isLayoutError(z)) return { kind: 'unsized', memorySpace: shape.memorySpace, error: z.message };
  const base: ValueSize = {
    kind: 'array',
    bytes: z.physicalBytes,
    logical: z.logicalBytes,
    physical: z.physicalBytes,
    memorySpace: shape.memorySpace,
  };
  if (z.physicalBytes <= z.logicalBytes) return base;
  const account = paddingByDimension(shape);
  const dominant = isLayoutError(account) ? undefined : account.dominant;
  const dim = dominant && !isLayoutError(account) ? dominant.dims[0] : undefined;
  const info =
    dim !== undefined && !isLayoutError(account) ? account.dimensions.find((d) => d.dim === dim) : undefined;
  let cause: PaddingCauseSummary | undefined;
  if (dominant && info) {
    const c = {
      dim: info.dim,
      size: info.size,
      minorMost: info.isMinorMost,
      tile: printTile(shape.tiles[dominant.level]),
      from: dominant.from,
      to: dominant.to,
      factor: dominant.factor.value,
    };
    cause = { ...c, text: causeText(c) };
  }
  const fix = suggestFix(shape);
  return {
    ...base,
    ...(cause ? { cause } : {}),
    ...(fix && !isLayoutError(fix)
      ? { fix: { description: fix.description, savedBytes: fix.savedBytes } }
      : {}),
  };
}

/** Sizes of value shapes by their text, bounded. */
export class ValueSizeCache {
  private readonly map = new Map<string, ValueSize>();

  constructor(private readonly maxEntries = 20_000) {}

  of(shape: string): ValueSize {
    let hit = this.map.get(shape);
    if (hit === undefined) {
      hit = sizeOf(shape);
      if (this.map.size >= this.maxEntries) this.map.clear();
      this.map.set(shape, hit);
    }
    return hit;
  }
}
