/**
 * Diagnostics and padding facts for one shape, computed once per distinct shape text: HLO dumps
 * repeat the same few thousand shapes hundreds of thousands of times, so the document pass looks
 * each one up here. Ranges in the facts are relative to the shape's first character, which makes
 * them valid wherever the same text occurs.
 */
import type { ArrayShapeNode, ShapeNode } from '../../core/src';
import {
  copyDiagnostic,
  diagnostic,
  movedDiagnostic,
  RULES,
  type LayoutDiagnostic,
  type Severity,
  type TextRange,
} from '../../core/src';
import { paddingCause, paddingFix, paddingWarningText, paddingWarns, type PaddingFix } from '../../core/src';
import {
  assumedTpuTileRule,
  isLayoutError,
  physicalSizes,
  planTiling,
  tileDivisibility,
  withTileRule,
} from '../../core/src';
import type { ArrayShape } from '../../core/src';
import { primitiveType } from '../../core/src';
import { toArrayShape } from '../../core/src';
import { parseShape } from '../../core/src';
import {
  capShapeDiagnostics,
  MAX_SHAPE_DIAGNOSTICS,
  tileNotDividingMessage,
  validateShape,
} from '../../core/src';
import { detach } from '../../core/src';
import type { Settings } from '../../protocol/src/settings';
import type { RelativeSpan } from './analyzer';

/** Padding of one array leaf, for the padding-overhead warning and inlay hints. */
export interface LeafPadding {
  /** The leaf's range, relative to the shape start. */
  readonly range: TextRange;
  readonly logicalBytes: bigint;
  readonly physicalBytes: bigint;
  /** physical / logical as a double (exact parts are the two byte counts). */
  readonly expansion: number;
  /** Whether the layout (as written or assumed) has tiles. */
  readonly tiled: boolean;
  /** Whether the array is a scalar (rank 0). */
  readonly scalar: boolean;
  /** Set when the layout had no tiles and the assumed TPU tiling was applied: the rule. */
  readonly assumed?: string | undefined;
  /** "dim 1 (x, size 4) is minor-most; tile (8,128) pads it to 128 (32x)". */
  readonly cause?: string | undefined;
}

export interface ShapeFacts {
  /** Validator diagnostics and tile advice, relative to the shape start (parser ones are not here). */
  readonly diagnostics: readonly LayoutDiagnostic[];
  /** One entry per array leaf whose sizes can be computed, in text order. */
  readonly leaves: readonly PlacedLeaf[];
}

/** The array leaves of a shape, in text order, without recursion (tuples nest deeply). */
export function arrayLeaves(node: ShapeNode): ArrayShapeNode[] {
  const out: ArrayShapeNode[] = [];
  const stack: ShapeNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.kind === 'array') out.push(n);
    else if (n.kind === 'buffer') stack.push(n.element);
    else for (let i = n.elements.length - 1; i >= 0; i--) stack.push(n.elements[i]);
  }
  return out;
}

/**
 * The array model a leaf is laid out with: as written, or under the assumed TPU tiling.
 * `validated`: the caller validated the leaf (or its tuple) and found no error.
 */
export function effectiveShape(
  node: ArrayShapeNode,
  settings: Settings,
  validated = false,
): { shape: ArrayShape; assumed?: string } | undefined {
  if (!primitiveType(node.elementType)?.isArray) return undefined;
  const written = toArrayShape(node, validated);
  if (!written) return undefined;
  if (settings.assumedTiling === 'tpu' && written.tiles.length === 0) {
    const rule = assumedTpuTileRule(written);
    if (rule) return { shape: withTileRule(written, rule), assumed: rule.rule };
  }
  return { shape: written };
}

function shiftRange(r: TextRange, by: number): TextRange {
  return { start: r.start - by, end: r.end - by };
}

/**
 * What one array leaf's padding is wherever its text occurs, shared by every place it is found (a
 * tuple holding it reuses it). The cause sentence costs a pass over the tiling plan and only the
 * warnings shown and inlay-hint tooltips read it: it is computed on first use, from the leaf's text
 * (a view of the cache key, kept anyway) rather than from a retained model, so that tens of
 * thousands of cached shapes stay small.
 */
class LeafFacts {
  private causeText: string | null | undefined;
  private warning: string | undefined;

  constructor(
    /** The leaf's own text, to recompute the cause. */
    readonly text: string,
    readonly settings: Settings,
    /** Where the layout (what pads) lies in `text`; the whole text when it has none. */
    readonly layoutStart: number,
    readonly layoutEnd: number,
    readonly logicalBytes: bigint,
    readonly physicalBytes: bigint,
    readonly expansion: number,
    readonly tiled: boolean,
    readonly scalar: boolean,
    readonly assumed: string | undefined,
  ) {}

  /** The array as laid out (assumed tiles included), read again from the leaf's text. */
  private shape(): ArrayShape | undefined {
    const node = parseShape(this.text, 0, { end: this.text.length }).shape;
    return node?.kind === 'array' ? effectiveShape(node, this.settings)?.shape : undefined;
  }

  get cause(): string | undefined {
    if (this.causeText === undefined) {
      this.causeText = null;
      if (this.physicalBytes > this.logicalBytes) {
        const shape = this.shape();
        const plan = shape ? planTiling(shape) : undefined;
        const cause = shape && plan && !isLayoutError(plan) ? paddingCause(shape, plan) : undefined;
        if (cause !== undefined) this.causeText = detach(cause);
      }
    }
    return this.causeText ?? undefined;
  }

  /** The fix the warning names; only the warning reads it, once. */
  get fix(): PaddingFix | undefined {
    const shape = this.shape();
    return shape ? paddingFix(shape) : undefined;
  }

  /** The padding-overhead sentence (memoised: many statements share this leaf). */
  get warningMessage(): string {
    // Flat: the sentence as built is a rope of a dozen pieces, three times its size.
    return (this.warning ??= detach(paddingWarningText(this)));
  }
}

/**
 * A leaf where it sits in a shape: its facts and its offset from the shape's start. Ranges are
 * made when asked; a cache of tens of thousands of shapes keeps two numbers per leaf instead.
 */
export class PlacedLeaf implements LeafPadding {
  constructor(
    readonly facts: LeafFacts,
    private readonly at: number,
  ) {}

  get range(): TextRange {
    return { start: this.at, end: this.at + this.facts.text.length };
  }
  /**
   * Where the padding-overhead warning goes, counted from where the shape starting at `offset`
   * is counted from: the layout, which is what pads (the leaf when it has none). Not the element type
   * and dimensions, so that a hover there opens on the hover's answer rather than on the warning.
   */
  warnStartAt(offset: number): number {
    return this.at + offset + this.facts.layoutStart;
  }
  /** Where that warning ends (see {@link warnStartAt}). */
  warnEndAt(offset: number): number {
    return this.at + offset + this.facts.layoutEnd;
  }
  get logicalBytes(): bigint {
    return this.facts.logicalBytes;
  }
  get physicalBytes(): bigint {
    return this.facts.physicalBytes;
  }
  get expansion(): number {
    return this.facts.expansion;
  }
  get tiled(): boolean {
    return this.facts.tiled;
  }
  get scalar(): boolean {
    return this.facts.scalar;
  }
  get assumed(): string | undefined {
    return this.facts.assumed;
  }
  get cause(): string | undefined {
    return this.facts.cause;
  }

  /** The same leaf found `by` characters further into a larger shape (a tuple holding it). */
  movedBy(by: number): PlacedLeaf {
    return new PlacedLeaf(this.facts, this.at + by);
  }
}

/**
 * A copy of `d` at `range` whose texts reference no other string ({@link detach}): what is kept of
 * a diagnostic must not keep the text it was found in alive.
 */
export function detachedDiagnostic(d: LayoutDiagnostic, range = d.range): LayoutDiagnostic {
  return copyDiagnostic(d, range, detach(d.message), d.plain === undefined ? undefined : detach(d.plain));
}

/** Computes the facts of the shape `key` parsed as `node`; ranges are relative to `node.range.start`. */
function computeFacts(key: string, node: ShapeNode, settings: Settings): ShapeFacts {
  const origin = node.range.start;
  const diagnostics: LayoutDiagnostic[] = [];
  const advice: LayoutDiagnostic[] = [];
  for (const d of validateShape(node)) diagnostics.push(detachedDiagnostic(d, shiftRange(d.range, origin)));
  // Without an error anywhere in the shape, no leaf needs validating again for its model.
  const clean = !diagnostics.some((d) => d.severity === 'error');
  const leaves: PlacedLeaf[] = [];
  arrayLeaves(node).forEach((leaf) => {
    const eff = effectiveShape(leaf, settings, clean);
    if (!eff) return;
    // The byte counts come without a tiling plan (building one is most of the cost of a shape).
    const sz = physicalSizes(eff.shape);
    if (isLayoutError(sz)) return;
    const expansion = sz.expansion ?? 0;
    // Only levels after the first can fail to divide (XLA's ArraySize accounts for the first).
    const advise = !eff.assumed && eff.shape.tiles.length > 1 && sz.paddingBeyondArraySize;
    const fit = advise ? tileDivisibility(eff.shape) : undefined;
    if (fit && !isLayoutError(fit)) {
      for (const level of fit.levels) {
        const tile = leaf.layout?.tiles?.tiles[level.level];
        if (level.divides || !tile) continue;
        const message = tileNotDividingMessage(level);
        advice.push(diagnostic('tile-not-dividing', detach(message), shiftRange(tile.range, origin)));
      }
    }
    // The leaf's own text (a view into the key): recomputing one cause parses one array, not the
    // tuple around it, which for a tuple of 3,000 arrays made their hints quadratic.
    const at = leaf.range.start - origin;
    const text = key.slice(at, leaf.range.end - origin);
    const layout = leaf.layout?.range ?? leaf.range;
    const facts = new LeafFacts(
      text,
      settings,
      layout.start - leaf.range.start,
      layout.end - leaf.range.start,
      sz.logicalBytes,
      sz.physicalBytes,
      expansion,
      eff.shape.tiles.length > 0,
      eff.shape.dims.length === 0,
      eff.assumed,
    );
    leaves.push(new PlacedLeaf(facts, at));
  });
  // Validation lists at most MAX_SHAPE_DIAGNOSTICS; the tile advice of thousands of levels is cut alike.
  for (const d of capShapeDiagnostics(advice)) diagnostics.push(d);
  return { diagnostics: fitted(diagnostics), leaves: fitted(leaves) };
}

/**
 * Whether a leaf's facts hold as many validation or advice diagnostics as one shape may list: a
 * tuple holding it counts what it does not list across all its arrays, so {@link tupleFacts} cannot
 * assemble it from its arrays.
 */
export function atDiagnosticLimit(facts: ShapeFacts): boolean {
  let advice = 0;
  for (const d of facts.diagnostics) if (d.code === 'tile-not-dividing') advice++;
  return advice >= MAX_SHAPE_DIAGNOSTICS || facts.diagnostics.length - advice >= MAX_SHAPE_DIAGNOSTICS;
}

/**
 * The facts of a tuple whose array leaves parse cleanly, from the facts of each leaf computed on
 * its own (`offset`: where the leaf starts, relative to the tuple): what {@link computeFacts} gives
 * for the tuple, without parsing it or sizing its arrays again. Validation finds nothing at tuple
 * level, and whether a leaf is clean does not depend on its neighbours; the order is computeFacts':
 * the validator's diagnostics of every leaf, then the tile advice of every leaf, each list cut to
 * MAX_SHAPE_DIAGNOSTICS (no leaf may be {@link atDiagnosticLimit}).
 */
export function tupleFacts(
  parts: readonly { readonly facts: ShapeFacts; readonly offset: number }[],
): ShapeFacts {
  const validation: LayoutDiagnostic[] = [];
  const advice: LayoutDiagnostic[] = [];
  const leaves: PlacedLeaf[] = [];
  for (const { facts, offset } of parts) {
    for (const d of facts.diagnostics) {
      const moved = movedDiagnostic(d, offset);
      if (d.code === 'tile-not-dividing') advice.push(moved);
      else validation.push(moved);
    }
    for (const leaf of facts.leaves) leaves.push(leaf.movedBy(offset));
  }
  return {
    diagnostics: fitted([...capShapeDiagnostics(validation), ...capShapeDiagnostics(advice)]),
    leaves: fitted(leaves),
  };
}

/** The one empty list every fact without diagnostics or leaves shares (an empty array is 32 bytes). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * `items` in an array of their exact length. An array grown by push keeps room for at least 17
 * elements: 128 bytes more for each of the tens of thousands of shapes a cache may hold.
 */
function fitted<T>(items: T[]): readonly T[] {
  return items.length === 0 ? NONE : items.slice();
}

/**
 * A padding-overhead warning whose sentence is written when first read: of the tens of thousands a
 * dump of many padded shapes may hold, a thousand are published (diagnostics.maxWarnings) and the
 * others only counted, so their sentences (about 15 MiB in the 50 MB stress dump) need not exist.
 */
export class PaddingWarning implements LayoutDiagnostic {
  /**
   * The range and the span are numbers of the warning's own rather than two small objects each: a
   * dump may hold tens of thousands of warnings. A `startLine` of -1 means the warning is not
   * placed on its statement's lines yet.
   */
  constructor(
    private readonly leaf: LeafFacts,
    private readonly start: number,
    private readonly end: number,
    private readonly startLine = -1,
    private readonly startCharacter = 0,
    private readonly endLine = 0,
    private readonly endCharacter = 0,
  ) {}

  get code(): 'padding-overhead' {
    return 'padding-overhead';
  }
  get severity(): Severity {
    return RULES['padding-overhead'].severity;
  }
  get message(): string {
    return this.leaf.warningMessage;
  }
  get range(): TextRange {
    return { start: this.start, end: this.end };
  }
  /** Where it lies on its statement's lines, once the analyzer has placed it there. */
  get span(): RelativeSpan | undefined {
    if (this.startLine < 0) return undefined;
    const { startLine, startCharacter, endLine, endCharacter } = this;
    return { startLine, startCharacter, endLine, endCharacter };
  }

  /** This warning placed on its statement's lines. */
  placed(span: RelativeSpan): PaddingWarning & { readonly span: RelativeSpan } {
    return new PaddingWarning(
      this.leaf,
      this.start,
      this.end,
      span.startLine,
      span.startCharacter,
      span.endLine,
      span.endCharacter,
    ) as PaddingWarning & { readonly span: RelativeSpan };
  }
}

/** The padding-overhead warning for a leaf, when it crosses the configured thresholds. */
export function paddingWarning(
  leaf: PlacedLeaf,
  offset: number,
  settings: Settings,
): PaddingWarning | undefined {
  const f = leaf.facts;
  return paddingWarns(f.logicalBytes, f.physicalBytes, f.expansion, settings)
    ? new PaddingWarning(f, leaf.warnStartAt(offset), leaf.warnEndAt(offset))
    : undefined;
}

/**
 * A cache of {@link ShapeFacts} by shape text for one settings value. Bounded: it is emptied when
 * full, which costs only recomputation. The bound is well above the distinct shapes of real dumps
 * (tens of thousands in a large one): a cache that empties itself during one pass over a
 * document recomputes everything.
 */
export class ShapeFactsCache {
  private readonly cache = new Map<string, ShapeFacts>();

  constructor(
    readonly settings: Settings,
    private readonly maxEntries = 250_000,
  ) {}

  /** Facts for `node`, a shape found at `node.range` in `text`; ranges relative to node.range.start. */
  get(text: string, node: ShapeNode): ShapeFacts {
    const key = text.slice(node.range.start, node.range.end);
    let facts = this.cache.get(key);
    if (!facts) {
      const stored = detach(key);
      facts = computeFacts(stored, node, this.settings);
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(stored, facts);
    }
    return facts;
  }
}
