/**
 * `LayoutUtil::ValidateLayoutForShape` (spec §2.3) on a parsed layout, plus what XLA crashes on
 * instead of reporting, plus advice for legal but suspicious layouts. XLA stops at the first
 * problem; we report every independent one, each on the characters it is about.
 */
import type { ArrayShapeNode, IntNode, LayoutNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { elideList } from '../format';
import type { PrimitiveTypeInfo } from '../primitive-types';

/** What the layout rules need to know about the array besides its layout. */
export interface LayoutContext {
  readonly node: ArrayShapeNode;
  readonly type: PrimitiveTypeInfo;
  /** `ShapeUtil::HumanString` of the array (no layout), computed only when a message needs it. */
  readonly human: () => string;
  readonly advice: boolean;
}

const INT64_MIN = -(1n << 63n);

function span(first: { range: TextRange }, last: { range: TextRange }): TextRange {
  return { start: first.range.start, end: last.range.end };
}

function joined(values: readonly IntNode[]): string {
  return elideList(values, (v) => v.value.toString());
}

/** minor_to_major must be a permutation of 0..rank-1 (the count was checked by the parser). */
function checkMinorToMajor(layout: LayoutNode, ctx: LayoutContext, out: LayoutDiagnostic[]): boolean {
  const m2m = layout.minorToMajor;
  const rank = ctx.node.dims.length;
  if (m2m.length !== rank) return false;
  // Entries in bounds are small, so a plain array of flags replaces a Set of bigints (this runs
  // once per distinct shape of a dump).
  const bigRank = BigInt(rank);
  const seen: boolean[] = [];
  for (const entry of m2m) {
    if (entry.value < 0n || entry.value >= bigRank) {
      out.push(
        diagnostic(
          'minor-to-major-out-of-bounds',
          `layout minor_to_major field has out-of-bounds value: {${joined(m2m)}}; shape: ${ctx.human()}`,
          entry.range,
          `minor_to_major names dimension ${entry.value}, but the shape has ${rank === 0 ? 'no dimensions' : rank === 1 ? 'only dimension 0' : `dimensions 0 to ${rank - 1}`}`,
        ),
      );
      return false;
    }
    const dim = Number(entry.value);
    if (seen[dim] === true) {
      out.push(
        diagnostic(
          'minor-to-major-duplicate',
          `layout minor_to_major field has duplicate values: {${joined(m2m)}}; shape: ${ctx.human()}`,
          entry.range,
          `minor_to_major names dimension ${dim} twice: list each dimension once`,
        ),
      );
      return false;
    }
    seen[dim] = true;
  }
  return true;
}

function checkTiles(layout: LayoutNode, ctx: LayoutContext, out: LayoutDiagnostic[]): void {
  if (layout.tiles === undefined) return;
  // The rank the next tile applies to: each tile of rank k turns the minor-most max(k, rank)
  // dims into 2k dims (spec §4.1), padding with leading 1s when k is larger.
  let currentRank = ctx.node.dims.length;
  for (const tile of layout.tiles.tiles) {
    const k = tile.entries.length;
    if (k === 0) {
      out.push(
        diagnostic(
          'tile-empty',
          `layout has invalid tiles: ${ctx.human()}`,
          tile.range,
          'empty tile `()`: a tile needs at least one size; remove it',
        ),
      );
      continue;
    }
    for (const entry of tile.entries) {
      if (entry.value === 'combine') continue;
      if (entry.value < 0n) {
        out.push(
          diagnostic(
            'tile-negative',
            `Tile dimension size needs to be minimum int64_t value if it's negative. Value is ${entry.value}`,
            entry.range,
            `negative tile size ${entry.value} makes XLA abort: write \`*\` to combine dimensions, or a positive size`,
          ),
        );
      } else if (entry.value === 0n) {
        out.push(
          diagnostic(
            'tile-dimension-invalid',
            `layout has invalid tiles: tile dimension 0 must be positive or kCombineDimension: ${ctx.human()}`,
            entry.range,
            'tile size 0 is not allowed: use a positive size, or `*` to combine dimensions',
          ),
        );
      }
    }
    if (ctx.advice) {
      const last = tile.entries[k - 1];
      if (last.value === 'combine') {
        out.push(
          diagnostic(
            'combine-without-minor',
            '* merges this dimension into the next more-minor one, but it is the minor-most entry of the tile: there is nothing to merge into.',
            last.range,
          ),
        );
      }
      // Scalars are exempt: padding a scalar with a 1-D tile (`s32[]{:T(128)}`) is the usual TPU
      // convention, not a surprise.
      if (k > currentRank && currentRank > 0) {
        out.push(
          diagnostic(
            'tile-rank-exceeds-shape',
            `The tile has ${k} dimensions but it applies to ${currentRank}; XLA pads the shape with ${k - currentRank} leading dimension(s) of size 1 before tiling.`,
            tile.range,
          ),
        );
      }
    }
    currentRank = Math.max(currentRank, k) + k;
  }
}

function checkSplitConfigs(
  layout: LayoutNode,
  ctx: LayoutContext,
  permutationOk: boolean,
  out: LayoutDiagnostic[],
): void {
  if (layout.splitConfigs === undefined) return;
  const dims = ctx.node.dims;
  const rank = dims.length;
  const seen = new Set<bigint>();
  for (const config of layout.splitConfigs.configs) {
    const d = config.dimension.value;
    if (d < 0n || d >= BigInt(rank)) {
      out.push(
        diagnostic(
          'split-config-dimension',
          `split config has out-of-bounds physical dimension: ${d}; shape: ${ctx.human()}`,
          config.dimension.range,
          `the split config names physical dimension ${d}, but the shape has ${rank === 0 ? 'none' : `0 to ${rank - 1}`}`,
        ),
      );
      continue;
    }
    if (seen.has(d)) {
      out.push(
        diagnostic(
          'split-config-dimension',
          `split config has duplicate physical dimension: ${d}; shape: ${ctx.human()}`,
          config.dimension.range,
          `physical dimension ${d} is split twice: give each dimension one split config`,
        ),
      );
      continue;
    }
    seen.add(d);
    const indices = config.indices;
    let increasing = true;
    for (let i = 0; i < indices.length; i++) {
      if (indices[i].value <= 0n || (i > 0 && indices[i].value <= indices[i - 1].value)) increasing = false;
    }
    if (!increasing) {
      out.push(
        diagnostic(
          'split-config-indices',
          `split config split indices must be strictly increasing and positive: {${joined(indices)}}; shape: ${ctx.human()}`,
          span(indices[0], indices[indices.length - 1]),
          'split indices must be positive and in increasing order',
        ),
      );
      continue;
    }
    if (!permutationOk) continue;
    // Physical dim 0 is the major-most: logical dim minor_to_major[rank-1-d].
    const logical = Number(layout.minorToMajor[rank - 1 - Number(d)].value);
    const dim = dims[logical];
    const size = dim.kind === 'unbounded' ? INT64_MIN : dim.value;
    const bad = indices.find((i) => i.value >= size);
    if (bad !== undefined) {
      out.push(
        diagnostic(
          'split-config-indices',
          `split config split index is out of bounds: ${bad.value} (dim size ${size}); shape: ${ctx.human()}`,
          bad.range,
          `split index ${bad.value} is past the end of the dimension it splits (size ${size})`,
        ),
      );
    }
  }
}

/** Advice on E(n) and S(n), and the legacy D(...) note. */
function checkAttributesAdvice(layout: LayoutNode, ctx: LayoutContext, out: LayoutDiagnostic[]): void {
  const e = layout.elementSizeBits;
  if (e !== undefined && e.value.value > 0n) {
    const bits = BigInt(ctx.type.bits);
    const storage = BigInt(ctx.type.bytes * 8);
    // pred stored as 32-bit words, `pred[...]{...:E(32)}`, appears in XLA's own tests.
    const predWord = ctx.type.name === 'pred' && e.value.value === 32n;
    if (e.value.value !== bits && e.value.value !== storage && !predWord) {
      out.push(
        diagnostic(
          'element-size-unusual',
          `E(${e.value.value}) stores each ${ctx.type.name} element in ${e.value.value} bits, but ${ctx.type.name} is ${ctx.type.bits} bits wide (${storage} bits unpacked); XLA accepts it, but it is rarely intended.`,
          e.value.range,
        ),
      );
    }
  }
  const s = layout.memorySpace;
  if (s !== undefined && (s.value.value < -128n || s.value.value > 127n)) {
    const wrapped = BigInt.asIntN(8, s.value.value);
    out.push(
      diagnostic(
        'memory-space-range',
        `S(${s.value.value}) does not fit the int8 XLA stores the memory space in; it wraps to S(${wrapped}).`,
        s.value.range,
      ),
    );
  }
  if (layout.dimLevelTypes !== undefined) {
    out.push(
      diagnostic(
        'legacy-dim-level-types',
        'D(...) (sparse dimension level types) is parsed and discarded by XLA since 2025-05; the layout is dense.',
        layout.dimLevelTypes.range,
      ),
    );
  }
}

/** All layout diagnostics for one array shape (token/opaque layouts are ignored, like XLA). */
export function checkLayout(layout: LayoutNode, ctx: LayoutContext, out: LayoutDiagnostic[]): void {
  const permutationOk = checkMinorToMajor(layout, ctx, out);
  const l = layout.tailPaddingAlignment;
  if (l !== undefined && l.value.value < 1n) {
    out.push(
      diagnostic(
        'tail-alignment-invalid',
        `layout tail_padding_alignment_in_elements field is <= 0: {${l.value.value}}`,
        l.value.range,
        `L(${l.value.value}) makes XLA abort (set_tail_padding_alignment_in_elements needs a value of at least 1): remove it, or write L(1) or more`,
      ),
    );
  }
  if (layout.indexType !== undefined) {
    out.push(
      diagnostic(
        'index-type-dense',
        `layout has a index_primitive_type, but is not a sparse array: ${ctx.human()}`,
        layout.indexType.range,
        '#(…) is only for sparse arrays, which XLA no longer has: remove it',
      ),
    );
  }
  if (layout.pointerType !== undefined) {
    out.push(
      diagnostic(
        'pointer-type-dense',
        `layout has a pointer_primitive_type, but is not a sparse array: ${ctx.human()}`,
        layout.pointerType.range,
        '*(…) is only for sparse arrays, which XLA no longer has: remove it',
      ),
    );
  }
  checkTiles(layout, ctx, out);
  const e = layout.elementSizeBits;
  if (e !== undefined && e.value.value < 0n) {
    out.push(
      diagnostic(
        'element-size-negative',
        `layout element_size_in_bits field is negative: ${e.value.value}`,
        e.value.range,
        `E(${e.value.value}) is negative: E gives the bits per element, ${ctx.type.bits} for ${ctx.type.name}`,
      ),
    );
  }
  checkSplitConfigs(layout, ctx, permutationOk, out);
  if (ctx.advice) checkAttributesAdvice(layout, ctx, out);
}
