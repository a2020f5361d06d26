/**
 * The answer to "how much memory, why, what do I change?" for one shape, in one line: an array's
 * bytes before and after padding, which dimension pads and to what, and the layout that pads less
 * (`16 KiB → 512 KiB (32x) · dim 1 (size 4) pads to 128 · fix: {0,1} → 32 KiB`); a tuple's total
 * and the leaf that pads most. The editor's hover writes it as Markdown, the CLI as plain text:
 * `Markup` says how to write emphasis, code and quoted text.
 */
import { unboundedSizeNote, type ArrayExplanation, type ShapeExplanation } from './explain';
import { articleFor, elideList, formatFactor, groupDigits, humanBytes } from './format';
import type { PaddingAccount, PaddingCause } from './layout/padding';
import type { LayoutFix } from './layout/suggest-fix';
import { primitiveType } from './primitive-types';

/** How a verdict writes emphasis, inline code and text quoted from a document. */
export interface Markup {
  strong(text: string): string;
  code(text: string): string;
  text(text: string): string;
}

/** Plain text, for terminals. */
const PLAIN: Markup = { strong: (s) => s, code: (s) => s, text: (s) => s };

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
function causeText(a: ArrayExplanation, m: Markup): string | undefined {
  const p = a.padding;
  if (!p) return undefined;
  const tail =
    p.tailPaddingSlots > 0n && a.plan
      ? `L(${a.shape?.tailPaddingAlignment ?? 1n}) rounds ${groupDigits(a.plan.expandedElements)} slots up to ${groupDigits(a.plan.totalSlots)}`
      : undefined;
  const tiled = tileCauseText(a, p, m);
  return tiled && tail ? `${tiled}, then ${tail}` : (tiled ?? tail);
}

/** The part of {@link causeText} about tiles. */
function tileCauseText(a: ArrayExplanation, p: PaddingAccount, m: Markup): string | undefined {
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
  const tile = m.text(a.tiles[vector.level] ?? '');
  return a.dims.length === 0
    ? `the scalar fills ${articleFor(vector.to)} ${groupDigits(vector.to)}-slot tile ${tile}`
    : `tile ${tile} has more dimensions than the array: a size-1 dimension pads to ${groupDigits(vector.to)}`;
}

/** The layout change of a fix, as short as it can be said: `{0,1}` or "merge dims 0 and 1". */
function fixShort(a: ArrayExplanation, fix: LayoutFix, m: Markup): string {
  if (fix.kind === 'reorder')
    return m.code(`{${elideList(fix.shape.minorToMajor, String, ',', MAX_LISTED)}}`);
  const m2m = a.shape?.minorToMajor ?? [];
  return `merge dims ${m2m[1] ?? '?'} and ${m2m[0] ?? '?'}`;
}

/** `logical → physical (factor)` of an array or a tuple's total, or the bytes and "no padding". */
function sizesText(
  m: Markup,
  logical: bigint,
  physical: bigint,
  elements?: { count: bigint; type: string; bits: number },
): string {
  if (physical === logical) {
    const packed = elements && elements.bits < 8 ? `, ${Math.floor(8 / elements.bits)} per byte` : '';
    const what = elements ? ` (${groupDigits(elements.count)} × ${m.text(elements.type)}${packed})` : '';
    return `${m.strong(humanBytes(logical))}${what}, no padding`;
  }
  const factor = logical > 0n ? ` (${formatFactor(Number((physical * 1000n) / logical) / 1000)})` : '';
  return m.strong(`${humanBytes(logical)} → ${humanBytes(physical)}${factor}`);
}

/**
 * The first line for one array (an array shape, or the array leaf under the cursor): its bytes
 * before and after padding, which dimension pads and to what, and the layout that pads less.
 */
export function arrayVerdict(a: ArrayExplanation, m: Markup = PLAIN): string {
  const assumed = a.assumed ? `Assumed ${m.text(a.assumed)}: ` : '';
  const sz = a.sizes;
  if (!sz) {
    const type = primitiveType(a.elementType);
    if (type && !type.isArray) return `${m.code(a.elementType)} has no layout in memory`;
    return `The layout cannot be computed: ${m.text(a.error?.message ?? 'unknown reason')}`;
  }
  const unbounded = unboundedSizeNote(a.dims);
  if (unbounded) return `${assumed}${m.strong('Size unknown')}: ${unbounded}`;
  const parts = [
    assumed +
      sizesText(m, sz.logicalBytes, sz.physicalBytes, {
        count: sz.logicalElements,
        type: a.elementType,
        bits: sz.elementSizeBits,
      }),
  ];
  if (sz.physicalBytes > sz.logicalBytes) {
    const cause = causeText(a, m);
    if (cause) parts.push(cause);
    if (a.fix) parts.push(`fix: ${fixShort(a, a.fix, m)} → ${humanBytes(a.fix.physicalBytes)}`);
  } else if (sz.physicalBytes < sz.logicalBytes) {
    parts[0] = `${assumed}${m.strong(`${humanBytes(sz.logicalBytes)} → ${humanBytes(sz.physicalBytes)}`)}, packed ${sz.elementSizeBits} bits per element`;
  }
  parts.push(...dynamicVerdict(a, m));
  return parts.join(' · ');
}

/** The first line for a tuple: its total, and the array that pads most. */
export function tupleVerdict(e: ShapeExplanation, m: Markup = PLAIN): string {
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
  const head = `Tuple of ${leaves.join(' and ')}: ${sizesText(m, logical, physical)}`;
  if (!worst?.sizes) return head;
  const cause = causeText(worst, m);
  const where = `{${elideList(worst.path, String, ',', MAX_LISTED)}}`;
  return `${head} · most padding in ${where}${cause ? `: ${cause}` : ''}`;
}

/** For the first line: that the size is the bound's, and what M(n) adds (empty for a static array). */
function dynamicVerdict(a: ArrayExplanation, m: Markup): string[] {
  const bounded = a.dims.filter((d) => d.dynamic === 'bounded');
  const prefix = a.shape?.dynamicMetadataBytes ?? 0n;
  const parts: string[] = [];
  if (bounded.length > 0)
    parts.push(
      `sized at the bound ${bounded.map((d) => `${m.text('<')}=${groupDigits(d.size)}`).join(', ')}`,
    );
  if (prefix > 0n) parts.push(`M(${prefix}): +${humanBytes(prefix)} of dynamic-shape metadata`);
  return parts;
}
