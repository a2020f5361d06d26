/**
 * The first line of a shape hover: the answer a person came for, in plain words. For an array that
 * pads: its bytes before and after padding, which dimension pads and to what, and the layout that
 * pads less (`16 KiB → 512 KiB (32x) · dim 1 (size 4) pads to 128 · fix: {0,1} → 32 KiB`); for one
 * that does not, its bytes and "no padding"; for an invalid one, that it is invalid and why. Details
 * follow in hover-shape.ts. Every piece of document text goes through markdown.ts.
 */
import {
  articleFor,
  elideList,
  formatFactor,
  groupDigits,
  humanBytes,
  primitiveType,
  readableMessage,
  unboundedSizeNote,
  type ArrayExplanation,
  type LayoutDiagnostic,
  type LayoutFix,
  type PaddingAccount,
  type PaddingCause,
  type ShapeExplanation,
} from '../../core/src';
import { cell, code } from '../../protocol/src/markdown';
import { dynamicVerdict } from './hover-dynamic';

/** At most this many padded dimensions are named in the first line; the details list them all. */
const MAX_NAMED_DIMS = 2;

/** Longest list (dims merged by `*`, a fix's minor_to_major, a tuple index) written out in full. */
const MAX_LISTED = 16;

/** "dim 1 (size 4)", or "dims 1 × 2 (size 6)" for dimensions `*` merged. */
function dimsText(a: ArrayExplanation, c: PaddingCause): string {
  if (c.dims.length === 1) return `dim ${c.dims[0]} (size ${groupDigits(a.dims[c.dims[0]]?.size ?? 0n)})`;
  return `dims ${elideList(c.dims, String, ' × ', MAX_LISTED)} (size ${groupDigits(c.from)})`;
}

/** Why the array pads: the dimensions (largest factor first) or vector padding, then L(n). */
function causeText(a: ArrayExplanation): string | undefined {
  const p = a.padding;
  if (!p) return undefined;
  const tail =
    p.tailPaddingSlots > 0n && a.plan
      ? `L(${a.shape?.tailPaddingAlignment ?? 1n}) rounds ${groupDigits(a.plan.expandedElements)} slots up to ${groupDigits(a.plan.totalSlots)}`
      : undefined;
  const tiled = tileCauseText(a, p);
  return tiled && tail ? `${tiled}, then ${tail}` : (tiled ?? tail);
}

/** The part of {@link causeText} about tiles. */
function tileCauseText(a: ArrayExplanation, p: PaddingAccount): string | undefined {
  // Each padded dimension once, largest factor first, with the extent all its tile levels give it
  // (f32[6]{0:T(4)(3)}: 6 → 8 at the first level, 4 → 6 inside each tile at the second: 12).
  // Dimensions merged by `*` share one cause and are named together.
  const named: string[] = [];
  const seen = new Set<string>();
  const padded = p.dimensions.filter((d) => d.causes.length > 0);
  for (const d of [...padded].sort((x, y) => y.factor.value - x.factor.value)) {
    const first = d.causes[0];
    const key = first.dims.join();
    if (seen.has(key)) continue;
    seen.add(key);
    if (named.length === MAX_NAMED_DIMS) {
      named.push('…');
      break;
    }
    const extent =
      (d.size * d.factor.numerator) % d.factor.denominator === 0n && first.dims.length === 1
        ? (d.size * d.factor.numerator) / d.factor.denominator
        : first.to;
    const verb = named.length > 0 ? '' : first.dims.length > 1 ? ' pad' : ' pads';
    named.push(`${dimsText(a, first)}${verb} to ${groupDigits(extent)}`);
  }
  if (named.length > 0) return named.join(', ');
  const vector = p.causes.find((c) => c.dims.length === 0);
  if (!vector) return undefined;
  const tile = cell(a.tiles[vector.level] ?? '');
  return a.dims.length === 0
    ? `the scalar fills ${articleFor(vector.to)} ${groupDigits(vector.to)}-slot tile ${tile}`
    : `tile ${tile} has more dimensions than the array: a size-1 dimension pads to ${groupDigits(vector.to)}`;
}

/** The layout change of a fix, as short as it can be said: `{0,1}` or "merge dims 0 and 1". */
function fixShort(a: ArrayExplanation, fix: LayoutFix): string {
  if (fix.kind === 'reorder') return code(`{${elideList(fix.shape.minorToMajor, String, ',', MAX_LISTED)}}`);
  const m2m = a.shape?.minorToMajor ?? [];
  return `merge dims ${m2m[1] ?? '?'} and ${m2m[0] ?? '?'}`;
}

/** `logical → physical (factor)` of an array or a tuple's total, or the bytes and "no padding". */
function sizesText(
  logical: bigint,
  physical: bigint,
  elements?: { count: bigint; type: string; bits: number },
): string {
  if (physical === logical) {
    const packed = elements && elements.bits < 8 ? `, ${Math.floor(8 / elements.bits)} per byte` : '';
    const what = elements ? ` (${groupDigits(elements.count)} × ${cell(elements.type)}${packed})` : '';
    return `**${humanBytes(logical)}**${what}, no padding`;
  }
  const factor = logical > 0n ? ` (${formatFactor(Number((physical * 1000n) / logical) / 1000)})` : '';
  return `**${humanBytes(logical)} → ${humanBytes(physical)}${factor}**`;
}

/** The first line for one array (an array shape, or the array leaf under the cursor). */
export function arrayVerdict(a: ArrayExplanation): string {
  const assumed = a.assumed ? `Assumed ${cell(a.assumed)}: ` : '';
  const sz = a.sizes;
  if (!sz) {
    const type = primitiveType(a.elementType);
    if (type && !type.isArray) return `${code(a.elementType)} has no layout in memory`;
    return `The layout cannot be computed: ${cell(a.error?.message ?? 'unknown reason')}`;
  }
  const unbounded = unboundedSizeNote(a.dims);
  if (unbounded) return `${assumed}**Size unknown**: ${unbounded}`;
  const parts = [
    assumed +
      sizesText(sz.logicalBytes, sz.physicalBytes, {
        count: sz.logicalElements,
        type: a.elementType,
        bits: sz.elementSizeBits,
      }),
  ];
  if (sz.physicalBytes > sz.logicalBytes) {
    const cause = causeText(a);
    if (cause) parts.push(cause);
    if (a.fix) parts.push(`fix: ${fixShort(a, a.fix)} → ${humanBytes(a.fix.physicalBytes)}`);
  } else if (sz.physicalBytes < sz.logicalBytes) {
    parts[0] = `${assumed}**${humanBytes(sz.logicalBytes)} → ${humanBytes(sz.physicalBytes)}**, packed ${sz.elementSizeBits} bits per element`;
  }
  parts.push(...dynamicVerdict(a));
  return parts.join(' · ');
}

/** The first line for a tuple: its total, and the array that pads most. */
export function tupleVerdict(e: ShapeExplanation): string {
  let logical = 0n;
  let physical = 0n;
  let worst: ArrayExplanation | undefined;
  for (const a of e.arrays) {
    const sz = a.sizes;
    if (!sz) continue;
    logical += sz.logicalBytes;
    physical += sz.physicalBytes;
    const waste = sz.physicalBytes - sz.logicalBytes;
    const worstWaste = worst?.sizes ? worst.sizes.physicalBytes - worst.sizes.logicalBytes : 0n;
    if (waste > worstWaste) worst = a;
  }
  // A token is a leaf but no array: it holds no memory.
  const tokens = e.arrays.filter((a) => a.elementType === 'token').length;
  const count = e.arrays.length - tokens + (e.omittedArrays ?? 0);
  const leaves = [
    ...(count > 0 || tokens === 0 ? [`${groupDigits(count)} array${count === 1 ? '' : 's'}`] : []),
    ...(tokens > 0 ? [`${groupDigits(tokens)} token${tokens === 1 ? '' : 's'}`] : []),
  ];
  const head = `Tuple of ${leaves.join(' and ')}: ${sizesText(logical, physical)}`;
  if (!worst?.sizes) return head;
  const cause = causeText(worst);
  const where = `{${elideList(worst.path, String, ',', MAX_LISTED)}}`;
  return `${head} · most padding in ${where}${cause ? `: ${cause}` : ''}`;
}

/**
 * A diagnostic as hover Markdown: its readable message with each `quoted` piece as a code span.
 * Every piece is escaped or a code span, whatever document text the message quotes.
 */
export function messageMarkdown(d: LayoutDiagnostic): string {
  return readableMessage(d)
    .split(/(`[^`\n]+`)/)
    .map((piece, i) => (i % 2 === 1 ? code(piece.slice(1, -1)) : cell(piece)))
    .join('');
}

/**
 * The first line for an invalid shape: that it is invalid, and the first reason in plain words. When
 * every problem is a warning (a layout XLA does not check where it is written), it says XLA accepts
 * it there, as the warning does.
 */
export function invalidVerdict(problems: readonly LayoutDiagnostic[]): string {
  const errors = problems.filter((d) => d.severity === 'error');
  const first = errors[0] ?? problems[0];
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  const head =
    errors.length > 0 || !first ? '**Invalid layout:**' : '**Invalid layout, which XLA accepts here:**';
  return `${head} ${first ? messageMarkdown(first) : 'XLA rejects this shape'}${more}`;
}
