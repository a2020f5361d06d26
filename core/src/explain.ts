/**
 * A structured, exact explanation of a shape: everything the CLI's `explain` prints and the
 * language server's hover shows, gathered once. Sizes stay `bigint`; {@link explanationToJson}
 * turns them into decimal strings for JSON (CLI `--json`, LSP requests).
 */
import type { ArrayShapeNode, ShapeNode, TileNode } from './ast';
import {
  diagnostic,
  readableMessage,
  type LayoutDiagnostic,
  type RuleCode,
  type TextRange,
} from './diagnostics';
import {
  assumedTpuTileRule,
  assumedTpuTiling,
  isLayoutError,
  layoutError,
  paddingByDimension,
  planTiling,
  sizes,
  suggestFix,
  tileDivisibility,
  type LayoutError,
  type LayoutErrorCode,
  type LayoutFix,
  type LayoutSizes,
  type PaddingAccount,
  type TileDivisibility,
  type TileLevelFit,
  type TilingPlan,
} from './layout';
import { elideList, groupDigits } from './format';
import type { ArrayShape } from './model';
import { parseShapeText } from './parse';
import { primitiveType } from './primitive-types';
import { toArrayShape } from './to-model';
import { capShapeDiagnostics, validateShape } from './validate';
import { printTile } from './print';

/** One logical dimension. */
export interface DimensionInfo {
  readonly dim: number;
  readonly size: bigint;
  readonly dynamic: 'static' | 'bounded' | 'unbounded';
  /** 0 = major-most in memory. */
  readonly physicalPosition: number;
}

/**
 * Why an array with a `?` dimension has no size (XLA's ByteSizeOf has none for an unbounded
 * dimension; the sizes computed treat it as 0), or undefined when every dimension has a size.
 */
export function unboundedSizeNote(dims: readonly DimensionInfo[]): string | undefined {
  const open = dims.filter((d) => d.dynamic === 'unbounded').map((d) => d.dim);
  if (open.length === 0) return undefined;
  const which = open.length === 1 ? `dim ${open[0]} is` : `dims ${open.join(', ')} are`;
  return `${which} unbounded (\`?\`): XLA gives a buffer a size only once it is bounded`;
}

/** What `S(n)` means, per spec §5. */
export interface MemorySpaceInfo {
  readonly value: number;
  readonly meaning: string;
}

/** The explanation of one array (a whole array shape, or one array leaf of a tuple). */
export interface ArrayExplanation {
  /** Tuple indices from the root to this leaf; [] for a top-level array. */
  readonly path: readonly number[];
  /** The leaf's text as written, and its range in the explained text. */
  readonly text: string;
  readonly range: TextRange;
  readonly elementType: string;
  /** The semantic model; undefined when errors prevent layout math (then see `error`). */
  readonly shape?: ArrayShape;
  /** Why no layout math was done (invalid shape, token/opaque element type, …). */
  readonly error?: LayoutError;
  readonly dims: readonly DimensionInfo[];
  /** Logical dims in memory order, major→minor (reverse of minor_to_major). */
  readonly physicalOrder: readonly number[];
  /** Their sizes, major→minor. */
  readonly physicalDims: readonly bigint[];
  /** Tiles as written, e.g. ["(8,128)", "(2,1)"]. */
  readonly tiles: readonly string[];
  /**
   * Set when the shape had no tiles and `assumedTiling: 'tpu'` supplied the conventional ones: the
   * rule applied. Everything below then describes the ASSUMED layout and must be labelled so.
   */
  readonly assumed?: string;
  readonly plan?: TilingPlan;
  readonly sizes?: LayoutSizes;
  readonly padding?: PaddingAccount;
  readonly divisibility?: TileDivisibility;
  /** A computed layout change that saves memory, when there is one. */
  readonly fix?: LayoutFix;
  readonly memorySpace: MemorySpaceInfo;
}

export interface ShapeExplanation {
  /** The text that was explained (for `explainShapeText`, the whole argument). */
  readonly text: string;
  /** Parser and validator diagnostics, then layout advice ('tile-not-dividing'); ranges index `text`. */
  readonly diagnostics: readonly LayoutDiagnostic[];
  /** True when any diagnostic is an error. */
  readonly hasErrors: boolean;
  /** One entry per array leaf (one for an array shape), at most MAX_EXPLAINED_ARRAYS; empty when nothing parsed. */
  readonly arrays: readonly ArrayExplanation[];
  /** Array leaves past MAX_EXPLAINED_ARRAYS, not explained. */
  readonly omittedArrays?: number;
}

export interface ExplainOptions {
  /** 'tpu': for untiled arrays, explain the layout under XLA TPU's conventional tiles (labelled assumed). */
  readonly assumedTiling?: 'none' | 'tpu';
}

/** What `S(n)` means (spec §5); values other than 0, 1, 5 and 6 are backend-specific. */
export function memorySpaceMeaning(value: number): string {
  switch (value) {
    case 0:
      return 'default device memory';
    case 1:
      return 'generic fast (alternate) memory, e.g. TPU on-chip memory chosen by memory-space assignment';
    case 5:
      return 'host memory (pinned_host), used by host offloading';
    case 6:
      return 'unpinned host memory (unpinned_host)';
    default:
      return 'backend-specific memory space';
  }
}

/**
 * The 'tile-not-dividing' message for a tile level that does not divide what it covers (the
 * language server words its warnings the same); a tile of thousands of entries is listed by its first.
 */
export function tileNotDividingMessage(level: TileLevelFit): string {
  const bad = elideList(
    level.entries.filter((e) => !e.divides),
    (e) => `${e.size} is not a multiple of ${e.tile}`,
    '; ',
    16,
  );
  return `Tile ${level.level + 1} does not divide the dimensions it covers (${bad}): the array needs more memory than XLA's ArraySize reports.`;
}

/** 'tile-not-dividing' warnings on the tile that adds padding XLA's ArraySize does not count. */
function tileAdvice(node: ArrayShapeNode, divisibility: TileDivisibility): LayoutDiagnostic[] {
  const tiles: readonly TileNode[] = node.layout?.tiles?.tiles ?? [];
  const out: LayoutDiagnostic[] = [];
  for (const level of divisibility.levels) {
    if (level.divides) continue;
    const tile = tiles[level.level];
    if (!tile) continue;
    out.push(diagnostic('tile-not-dividing', tileNotDividingMessage(level), tile.range));
  }
  return out;
}

function explainArray(
  node: ArrayShapeNode,
  source: string,
  path: readonly number[],
  options: ExplainOptions,
  advice: LayoutDiagnostic[],
): ArrayExplanation {
  const base = {
    path,
    text: source.slice(node.range.start, node.range.end),
    range: node.range,
    elementType: node.elementType,
  };
  const written = toArrayShape(node);
  const type = primitiveType(node.elementType);
  const noMath = (error: LayoutError): ArrayExplanation => ({
    ...base,
    error,
    dims: node.dims.map((d, dim) => ({
      dim,
      size: d.value,
      dynamic: d.kind,
      physicalPosition: dim,
    })),
    physicalOrder: node.dims.map((_, i) => i),
    physicalDims: node.dims.map((d) => d.value),
    tiles: [],
    memorySpace: { value: 0, meaning: memorySpaceMeaning(0) },
  });
  if (!type?.isArray)
    return noMath(
      layoutError(
        'not-array-type',
        `${node.elementType}[] is not an array type: it has no layout in memory.`,
      ),
    );
  if (!written)
    return noMath(layoutError('invalid-shape', 'The shape has errors, so its layout cannot be computed.'));
  let shape = written;
  let assumed: string | undefined;
  if (options.assumedTiling === 'tpu' && written.tiles.length === 0) {
    const rule = assumedTpuTileRule(written);
    if (rule) {
      shape = assumedTpuTiling(written);
      assumed = rule.rule;
    }
  }
  const rank = shape.dims.length;
  const physicalOrder = [...shape.minorToMajor].reverse();
  const position = new Array<number>(rank);
  physicalOrder.forEach((d, p) => (position[d] = p));
  const plan = planTiling(shape);
  const sz = sizes(shape);
  const padding = paddingByDimension(shape);
  const divisibility = tileDivisibility(shape);
  const fix = suggestFix(shape);
  if (!isLayoutError(divisibility) && !assumed) advice.push(...tileAdvice(node, divisibility));
  const mathError = [plan, sz, padding].find(isLayoutError);
  return {
    ...base,
    shape,
    ...(mathError ? { error: mathError } : {}),
    dims: shape.dims.map((size, dim) => ({
      dim,
      size,
      dynamic: shape.dynamic[dim] ?? 'static',
      physicalPosition: position[dim] ?? dim,
    })),
    physicalOrder,
    physicalDims: physicalOrder.map((d) => shape.dims[d] ?? 0n),
    tiles: shape.tiles.map(printTile),
    ...(assumed ? { assumed } : {}),
    ...(isLayoutError(plan) ? {} : { plan }),
    ...(isLayoutError(sz) ? {} : { sizes: sz }),
    ...(isLayoutError(padding) ? {} : { padding }),
    ...(isLayoutError(divisibility) ? {} : { divisibility }),
    ...(fix && !isLayoutError(fix) ? { fix } : {}),
    memorySpace: { value: shape.memorySpace, meaning: memorySpaceMeaning(shape.memorySpace) },
  };
}

/** Most array leaves one explanation describes; a tuple with more lists the rest as omitted. */
export const MAX_EXPLAINED_ARRAYS = 256;

/** A tuple path as a parent-linked list, so that deep tuples cost O(1) per level until a leaf needs its path. */
interface PathLink {
  readonly parent: PathLink | undefined;
  readonly index: number;
}

function materialise(link: PathLink | undefined): number[] {
  const path: number[] = [];
  for (let l = link; l !== undefined; l = l.parent) path.push(l.index);
  return path.reverse();
}

/** The first `limit` array leaves in order, with their tuple paths, and how many more there are. */
function collectArrays(
  node: ShapeNode,
  limit: number,
): { leaves: { node: ArrayShapeNode; path: number[] }[]; omitted: number } {
  // An explicit stack: tuples may nest thousands deep.
  const leaves: { node: ArrayShapeNode; path: number[] }[] = [];
  let omitted = 0;
  const stack: { node: ShapeNode; path: PathLink | undefined }[] = [{ node, path: undefined }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const n = item.node;
    if (n.kind === 'array') {
      if (leaves.length < limit) leaves.push({ node: n, path: materialise(item.path) });
      else omitted++;
    } else if (n.kind === 'buffer') {
      stack.push({ node: n.element, path: item.path });
    } else {
      for (let i = n.elements.length - 1; i >= 0; i--)
        stack.push({ node: n.elements[i], path: { parent: item.path, index: i } });
    }
  }
  return { leaves, omitted };
}

/**
 * Explains a shape already parsed from `source` (e.g. a shape the language server found in a
 * document). `parseDiagnostics` are the parser's diagnostics for it; validation runs here.
 * Ranges in the result index `source`.
 */
export function explainShapeNode(
  node: ShapeNode,
  source: string,
  parseDiagnostics: readonly LayoutDiagnostic[] = [],
  options: ExplainOptions = {},
): ShapeExplanation {
  const diagnostics: LayoutDiagnostic[] = [...parseDiagnostics, ...validateShape(node)];
  const { leaves, omitted } = collectArrays(node, MAX_EXPLAINED_ARRAYS);
  const advice: LayoutDiagnostic[] = [];
  const arrays = leaves.map((l) => explainArray(l.node, source, l.path, options, advice));
  // The validator lists at most MAX_SHAPE_DIAGNOSTICS; the tile advice of thousands of levels is cut alike.
  diagnostics.push(...capShapeDiagnostics(advice));
  return {
    text: source,
    diagnostics,
    hasErrors: diagnostics.some((d) => d.severity === 'error'),
    arrays,
    ...(omitted > 0 ? { omittedArrays: omitted } : {}),
  };
}

/** Parses `text` as one shape (trailing text is an error) and explains it. */
export function explainShapeText(text: string, options: ExplainOptions = {}): ShapeExplanation {
  const parsed = parseShapeText(text);
  // Without a tree the parser has stopped on an error, whatever its diagnostics say.
  if (!parsed.shape) return { text, diagnostics: parsed.diagnostics, hasErrors: true, arrays: [] };
  return explainShapeNode(parsed.shape, text, parsed.diagnostics, options);
}

/** Why {@link arrayShapeFromText} found no array to compute with, and where. */
export interface ShapeTextError extends LayoutError {
  readonly range: TextRange;
  /** With 'invalid-shape': the rule of the first error diagnostic. */
  readonly rule?: RuleCode;
}

/**
 * The array model of a shape written as text, for computing with it (index, element, map): the
 * first error diagnostic when there is one, or an error when the shape is not a single array.
 */
export function arrayShapeFromText(text: string): { shape: ArrayShape } | ShapeTextError {
  const parsed = parseShapeText(text);
  const diagnostics = parsed.shape
    ? [...parsed.diagnostics, ...validateShape(parsed.shape)]
    : parsed.diagnostics;
  const firstError = diagnostics.find((d) => d.severity === 'error');
  const refuse = (code: LayoutErrorCode, message: string, range: TextRange, rule?: RuleCode) => ({
    ...layoutError(code, message),
    range,
    ...(rule !== undefined ? { rule } : {}),
  });
  if (firstError)
    return refuse('invalid-shape', readableMessage(firstError), firstError.range, firstError.code);
  const node = parsed.shape;
  const whole = { start: 0, end: text.length };
  if (!node) return refuse('invalid-shape', 'expected a shape', whole);
  const array = node.kind === 'buffer' ? node.element : node;
  if (array.kind !== 'array')
    return refuse('not-an-array', 'expected an array shape, not a tuple', node.range);
  if (!primitiveType(array.elementType)?.isArray)
    return refuse('not-array-type', `${array.elementType}[] is not an array type`, array.elementTypeRange);
  const shape = toArrayShape(array);
  return shape ? { shape } : refuse('invalid-shape', 'the shape cannot be laid out', node.range);
}

/** JSON form of a value: bigints become decimal strings, everything else is kept. */
export type Jsonified<T> = T extends bigint
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/** Deep copy with every bigint as a decimal string (JSON cannot hold exact int64 values). */
export function toJsonSafe<T>(value: T): Jsonified<T> {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as Jsonified<T>;
}

/**
 * Longest list one JSON answer holds whole: the dims of a 500,000-dimension shape (legal XLA)
 * would be 40 MB of JSON, a tuple path 8,000 levels deep as many numbers per leaf.
 */
export const MAX_JSON_LIST = 1024;

/**
 * {@link toJsonSafe} as JSON text, with every list longer than `max` cut to its first `max`
 * entries, and a sentence naming the lists cut with their whole lengths (absent when none was).
 */
export function toJsonText(
  value: unknown,
  max = MAX_JSON_LIST,
  space?: number,
): { text: string; cut?: string } {
  const cut = new Map<string, number>();
  const text = JSON.stringify(
    value,
    (key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (!Array.isArray(v) || v.length <= max) return v;
      cut.set(key, Math.max(cut.get(key) ?? 0, v.length));
      return (v as unknown[]).slice(0, max);
    },
    space,
  );
  if (cut.size === 0) return { text };
  const lists = elideList([...cut], ([key, n]) => `${key || 'list'} (${groupDigits(n)})`, ', ', 16);
  return {
    text,
    cut: `lists longer than ${groupDigits(max)} entries hold their first ${groupDigits(max)}: ${lists}`,
  };
}

/**
 * A JSON value (no bigints) with its lists cut as {@link toJsonText} cuts them, for answers sent as
 * objects (the language server's requests), and the length of its JSON text.
 */
export function capLists<T>(value: T, max = MAX_JSON_LIST): { value: T; chars: number; cut?: string } {
  const { text, cut } = toJsonText(value, max);
  return { value: JSON.parse(text) as T, chars: text.length, ...(cut !== undefined ? { cut } : {}) };
}

/** {@link toJsonSafe} of an explanation. */
export function explanationToJson(e: ShapeExplanation): Jsonified<ShapeExplanation> {
  return toJsonSafe(e);
}
