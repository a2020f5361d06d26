/**
 * Hover Markdown for shapes below their first line (hover-verdict.ts): for an array, what it is and
 * whose, the padding dimension by dimension and the fix, then (at the higher verbosity) physical
 * order, tiles and their pad → reshape → transpose steps, the sizes table and, where it says more
 * than "elements in order", a memory map; for a tuple, its padded arrays; and the layout parts —
 * one tile, one tile entry, `S(n)`, `E(n)`, `L(n)`. Every piece of document text goes through
 * markdown.ts.
 */
import type { ArrayShapeNode } from '../../core/src';
import { memorySpaceMeaning, type ArrayExplanation, type ShapeExplanation } from '../../core/src';
import { buildMemoryMap, isLayoutError, type TilingStep } from '../../core/src';
import { primitiveType, unboundedSizeNote } from '../../core/src';
import { dynamicDetails, metadataPrefixText } from './hover-dynamic';
import type { ShapePart } from './locate';
import {
  bytesWithUnit,
  elide,
  elideList,
  formatFactor,
  formatPercent,
  groupDigits,
  humanBytes,
} from '../../core/src';
import { HOVER_MAX_VERBOSITY } from '../../protocol/src/lsp';
import { cell, commandUri, table } from '../../protocol/src/markdown';

/** What the visualizer command receives (validated again by the client). */
export interface VisualizerArgs {
  readonly shape: string;
  readonly uri: string;
  readonly range: {
    readonly start: { line: number; character: number };
    readonly end: { line: number; character: number };
  };
}

const OPEN_VISUALIZER = 'xlaLayout.openVisualizer';

// Dimension lists stay ungrouped: "[1,024, 4]" would read as three dims. Lists of thousands of
// dims (a 500,000-dimension shape is legal) show their first ones and a count: answers stay small.
const MAX_LISTED = 64;
const dimsText = (dims: readonly bigint[]): string => `\\[${elideList(dims, String, ', ', MAX_LISTED)}\\]`;
/** Most tile levels and padded dims listed one per line. */
const MAX_LINES = 16;

/** "dim 0: 1024 → dim 1: 4", major→minor. */
function physicalOrderText(a: ArrayExplanation): string {
  if (a.physicalOrder.length === 0) return 'scalar';
  return elideList(a.physicalOrder, (d) => `dim ${d}: ${a.dims[d]?.size ?? 0n}`, ' → ', MAX_LISTED);
}

function stepLines(steps: readonly TilingStep[], tiles: readonly string[]): string[] {
  const more =
    steps.length > MAX_LINES ? [`… and ${groupDigits(steps.length - MAX_LINES)} more tile levels`] : [];
  return [
    ...steps.slice(0, MAX_LINES).map((s) => {
      const tile = tiles[s.level] ?? '';
      const vp =
        s.vectorPadding > 0 ? `prepend ${s.vectorPadding} size-1 dim(s) → ${dimsText(s.vectorPadded)}; ` : '';
      const merge =
        s.combined.length !== s.vectorPadded.length ? `merge * dims → ${dimsText(s.combined)}; ` : '';
      return `${s.level + 1}. ${cell(`T${tile}`)} on ${dimsText(s.input)}: ${vp}${merge}pad → ${dimsText(s.padded)}; reshape → ${dimsText(s.reshaped)}; transpose → ${dimsText(s.output)}`;
    }),
    ...more,
  ];
}

function sizesTable(a: ArrayExplanation): string[] {
  const sz = a.sizes;
  // The first line says why an array with a `?` dimension has no size; a table of zeros would not.
  if (!sz || unboundedSizeNote(a.dims)) return [];
  const rows: string[][] = [
    ['logical (ByteSizeOf)', groupDigits(sz.logicalElements), bytesWithUnit(sz.logicalBytes)],
    ['physical (all tiles)', groupDigits(sz.physicalElements), bytesWithUnit(sz.physicalBytes)],
  ];
  if (sz.arraySizeBytes !== null && sz.arraySizeBytes !== sz.physicalBytes)
    rows.push(['XLA ArraySize (first tile)', '', bytesWithUnit(sz.arraySizeBytes)]);
  const out = [table(['', 'elements', 'bytes'], rows, ['l', 'r', 'r'])];
  if (sz.expansion && sz.physicalBytes !== sz.logicalBytes)
    out.push(
      `Expansion **${formatFactor(sz.expansion.value)}** (${groupDigits(sz.physicalBytes)} / ${groupDigits(sz.logicalBytes)}).`,
    );
  if (sz.arraySizeBytes === null)
    out.push("XLA's ArraySize is meaningless here: its first tile contains `*`, which XLA does not handle.");
  return out;
}

/**
 * The padding, dimension by dimension (which tile entry pads it, from what to what), the share of
 * the memory it takes, and the fix in full: one list, so the hover draws it tight.
 */
function paddingLines(a: ArrayExplanation): string[] {
  const p = a.padding;
  // An empty array pads nothing, whatever its tiles would do to its other dims.
  if (!p || p.tilingFactor === undefined) return [];
  const items: string[] = [];
  let padded = 0;
  for (const d of p.dimensions) {
    if (d.causes.length === 0) continue;
    if (++padded > MAX_LINES) continue;
    const c = d.causes[0];
    const minor = d.isMinorMost ? ', minor-most' : '';
    items.push(
      `- dim ${d.dim} (size ${groupDigits(d.size)}${minor}): ${cell(`T${a.tiles[c.level] ?? ''}`)} pads ${groupDigits(c.from)} to ${groupDigits(c.to)} — ${formatFactor(d.factor.value)}`,
    );
  }
  if (padded > MAX_LINES) items.push(`- … and ${groupDigits(padded - MAX_LINES)} more padded dims`);
  const vector = p.causes.filter((x) => x.dims.length === 0);
  for (const c of vector.slice(0, MAX_LINES)) {
    const tile = cell(`T${a.tiles[c.level] ?? ''}`);
    items.push(
      a.dims.length === 0
        ? `- tile ${c.level + 1} ${tile}: the scalar takes a whole tile of ${groupDigits(c.to)} slots`
        : `- tile ${c.level + 1} ${tile} has more dimensions than the array: a leading size-1 dimension pads ${groupDigits(c.from)} to ${groupDigits(c.to)}`,
    );
  }
  if (vector.length > MAX_LINES)
    items.push(`- … and ${groupDigits(vector.length - MAX_LINES)} more tile levels pad leading size-1 dims`);
  if (p.tailPaddingSlots > 0n)
    items.push(`- L(n) rounds the slot count up by ${groupDigits(p.tailPaddingSlots)} slots`);
  if (a.fix)
    items.push(
      `- **Fix:** ${cell(a.fix.description)} → ${humanBytes(a.fix.physicalBytes)}, saves ${humanBytes(a.fix.savedBytes)}`,
    );
  if (items.length === 0) return [];
  const share = a.sizes?.overhead ? ` (${formatPercent(a.sizes.overhead.value)} of the memory)` : '';
  return [`**Padding**${share}\n${items.join('\n')}`];
}

/** A table of linear indices for small arrays (rows × cols of a 2-D slice; `·` never appears: cells are elements). */
function memoryMapTable(a: ArrayExplanation, maxCells: number): string[] {
  const shape = a.shape;
  const n = a.sizes?.logicalElements;
  if (!shape || n === undefined || n === 0n || n > BigInt(maxCells)) return [];
  const map = buildMemoryMap(shape, undefined, maxCells);
  if (isLayoutError(map)) return [];
  const rank = shape.dims.length;
  const header = [
    rank >= 2 ? `dim ${rank - 2} \\\\ dim ${rank - 1}` : '',
    ...Array.from({ length: map.cols }, (_, c) => String(c)),
  ];
  const rows: string[][] = [];
  for (let r = 0; r < map.rows; r++) {
    rows.push([String(r), ...Array.from({ length: map.cols }, (_, c) => String(map.slotOf(r, c)))]);
  }
  const sliced = rank - 2;
  const sliceDims =
    sliced <= MAX_LISTED
      ? Array.from({ length: sliced }, (_, d) => d).join(', ')
      : `0 to ${groupDigits(sliced - 1)}`;
  const sliceNote = rank > 2 ? ` (slice with dims ${sliceDims} at 0)` : '';
  return [
    `**Memory map** — element slot of each element${sliceNote}`,
    table(
      header,
      rows,
      header.map(() => 'r'),
    ),
  ];
}

/**
 * How much a shape hover says: 0 is the answer and its reasons (what VS Code shows first, above
 * the fold); 1 adds how the layout works out (order, tiles and their steps, the sizes table, the
 * memory map). VS Code's `+`/`-` in the hover moves between them; other editors get 1.
 */
export type HoverLevel = number;
export const MAX_HOVER_LEVEL: HoverLevel = HOVER_MAX_VERBOSITY;

/** `f32[1024, 4], 32-bit elements`: the dims as XLA writes them, numbered dim 0, dim 1, … elsewhere. */
function identityText(a: ArrayExplanation): string {
  const type = primitiveType(a.elementType);
  const dims = elideList(
    a.dims,
    (d) => `${d.dynamic === 'unbounded' ? '?' : `${d.dynamic === 'bounded' ? '\\<=' : ''}${d.size}`}`,
    ', ',
    MAX_LISTED,
  );
  // The bits an element takes in memory (a byte for pred and for s4 without E(n); E(n) sets it).
  const bits = a.sizes?.elementSizeBits ?? type?.bits;
  return `${cell(a.elementType)}\\[${dims}\\]${bits !== undefined ? `, ${bits}-bit elements` : ''}`;
}

/**
 * Whether a memory map tells more than "elements in order": it has at least two elements, and
 * tiles or a minor_to_major other than the default reorder them (a scalar's 1×1 map never does).
 */
function mapHelps(a: ArrayExplanation): boolean {
  const shape = a.shape;
  const n = a.sizes?.logicalElements ?? 0n;
  if (!shape || n < 2n) return false;
  const rank = shape.dims.length;
  const defaultOrder = shape.minorToMajor.every((d, i) => d === rank - 1 - i);
  return shape.tiles.length > 0 || !defaultOrder;
}

/**
 * The details of one array below its first line: at level 0 what it is and whose (`heading`), the
 * padding dimension by dimension and the fix in full; at level 1 also how the layout works out.
 */
export function arrayDetails(
  a: ArrayExplanation,
  heading: string,
  maxCells: number,
  level: HoverLevel,
): string[] {
  const out = [heading ? `${heading} · ${identityText(a)}` : identityText(a)];
  if (a.error) {
    out.push(cell(a.error.message));
    // A layout too large to plan step by step is still sized.
    return a.sizes ? [...out, ...sizesTable(a)] : out;
  }
  if (a.assumed)
    out.push(
      `**Assumed** tiling (${cell(a.assumed)}): the dump prints no tiles; everything here is what that convention would give.`,
    );
  out.push(...paddingLines(a));
  if (a.memorySpace.value !== 0)
    out.push(`**Memory space** S(${a.memorySpace.value}): ${a.memorySpace.meaning}`);
  const dynamic = dynamicDetails(a);
  if (dynamic !== undefined) out.push(dynamic);
  if (level < 1) return out;
  out.push(`**Physical order** (major → minor): ${physicalOrderText(a)}`);
  if (a.plan && a.plan.steps.length > 0) {
    out.push(
      `**Tiles** ${elideList(a.tiles, cell, ' ', MAX_LISTED)} → expanded shape ${dimsText(a.plan.expandedShape)}`,
    );
    out.push(stepLines(a.plan.steps, a.tiles).join('\n'));
  }
  out.push(...sizesTable(a));
  if (mapHelps(a)) out.push(...memoryMapTable(a, maxCells));
  return out;
}

/** Rows of a tuple's table: the array leaves that pad, worst first, at level 0; every leaf in order at 1. */
const TUPLE_ROWS_AT_LEVEL_0 = 5;

/** The details of a tuple (or buffer of tuple) below its first line: one row per array leaf. */
export function tupleDetails(e: ShapeExplanation, heading: string, level: HoverLevel): string[] {
  const waste = (a: ArrayExplanation): bigint =>
    a.sizes ? a.sizes.physicalBytes - a.sizes.logicalBytes : 0n;
  let leaves: readonly ArrayExplanation[] = e.arrays;
  let note = '';
  if (level < 1) {
    const padded = e.arrays.filter((a) => waste(a) > 0n).sort((x, y) => (waste(y) > waste(x) ? 1 : -1));
    leaves = padded.slice(0, TUPLE_ROWS_AT_LEVEL_0);
    const rest = e.arrays.length + (e.omittedArrays ?? 0) - leaves.length;
    if (rest > 0)
      note = `${groupDigits(rest)} more array${rest === 1 ? '' : 's'}${padded.length > leaves.length ? '' : ' without padding'}.`;
  } else if (e.omittedArrays) {
    note = `${groupDigits(e.omittedArrays)} more arrays not listed.`;
  }
  const rows = leaves.map((a) => [
    a.path.length > 0 ? `{${elideList(a.path, String, ',', MAX_LINES)}}` : '',
    cell(elide(a.text, 160)),
    a.sizes ? humanBytes(a.sizes.logicalBytes) : '',
    a.sizes ? humanBytes(a.sizes.physicalBytes) : '',
    a.sizes?.expansion ? formatFactor(a.sizes.expansion.value) : '',
  ]);
  const out = heading ? [heading] : [];
  if (rows.length > 0)
    out.push(table(['index', 'shape', 'logical', 'physical', 'expansion'], rows, ['l', 'l', 'r', 'r', 'r']));
  if (note) out.push(note);
  return out;
}

/** The markdown for a layout part under the cursor. */
export function partMarkdown(
  part: ShapePart,
  a: ArrayExplanation | undefined,
  leaf: ArrayShapeNode,
): string[] {
  switch (part.kind) {
    case 'memory-space': {
      const v = Number(part.attribute.value.value);
      const wraps = v < -128 || v > 127 ? ' XLA stores S in an int8, so this value wraps.' : '';
      return [
        `**S(${groupDigits(part.attribute.value.value)})** — memory space: ${memorySpaceMeaning(v)}.${wraps}`,
        'Values are backend-specific; 0 (default) is omitted when printing, 1 is the generic fast memory, 5 pinned host, 6 unpinned host.',
      ];
    }
    case 'element-size': {
      const bits = part.attribute.value.value;
      const type = primitiveType(leaf.elementType);
      const perByte =
        bits > 0n && bits < 8n && 8n % bits === 0n ? ` — ${8n / bits} elements packed per byte` : '';
      const normal =
        type && (bits === BigInt(type.bits) || bits === BigInt(8 * type.bytes))
          ? ` (the width of ${cell(type.name)})`
          : type
            ? ` (${cell(type.name)} is ${type.bits}-bit)`
            : '';
      return [
        `**E(${groupDigits(bits)})** — each element is stored in ${groupDigits(bits)} bits${normal}${perByte}. Bytes = ceil(elements × ${groupDigits(bits)} / 8).`,
      ];
    }
    case 'tail-alignment': {
      const n = part.attribute.value.value;
      const slots = a?.plan
        ? ` Here: ${groupDigits(a.plan.expandedElements)} slots → ${groupDigits(a.plan.totalSlots)}.`
        : '';
      return [
        `**L(${groupDigits(n)})** — tail padding: the element count after tiling is rounded up to a multiple of ${groupDigits(n)}.${slots}`,
      ];
    }
    case 'metadata-prefix':
      return [metadataPrefixText(part.attribute.value.value, a)];
    case 'tile':
      return tileMarkdown(part.level, a);
    case 'tile-entry':
      return tileEntryMarkdown(part.level, part.index, part.entry.value, part.tile.entries.length, a);
  }
}

function tileMarkdown(level: number, a: ArrayExplanation | undefined): string[] {
  const step = a?.plan?.steps[level];
  const tile = a?.tiles[level] ?? '';
  if (!a || !step) return [`**Tile ${level + 1}** ${cell(tile)}`];
  const covered =
    step.outputOrigins.length > 0
      ? `the ${step.effectiveTile.length} minor-most dims of ${dimsText(step.combined)}`
      : '';
  return [
    `**Tile ${level + 1}** ${cell(`T${tile}`)}${level === 0 ? " (first tile: the one XLA's ArraySize counts)" : ' (applied to the result of the previous tile)'}`,
    `Covers ${covered}: pad → ${dimsText(step.padded)}, reshape → ${dimsText(step.reshaped)}, transpose → ${dimsText(step.output)} (tile counts major, tile contents minor).`,
  ];
}

function tileEntryMarkdown(
  level: number,
  index: number,
  value: bigint | 'combine',
  tileRank: number,
  a: ArrayExplanation | undefined,
): string[] {
  const step = a?.plan?.steps[level];
  if (!a || !step)
    return [`Tile ${level + 1}, entry ${index + 1}: ${value === 'combine' ? '*' : groupDigits(value)}`];
  // The tile covers the tileRank minor-most dims of the vector-padded input.
  const position = step.vectorPadded.length - tileRank + index;
  const inputPosition = position - step.vectorPadding;
  const origins =
    inputPosition < 0
      ? []
      : level === 0
        ? [a.physicalOrder[inputPosition]]
        : [...(a.plan.steps[level - 1].outputOrigins[inputPosition] ?? [])];
  const size = step.vectorPadded[position] ?? 1n;
  const about =
    origins.length === 0
      ? 'a leading size-1 dim added because the tile has more dims than the shape'
      : elideList(origins, (d) => `dim ${d}`, ' × ', MAX_LINES);
  if (value === 'combine') {
    return [
      `**\\*** (combine) in tile ${level + 1}: removes ${about} (size ${groupDigits(size)}) from the tiling and multiplies it into the next more-minor dim.`,
    ];
  }
  const cause = a.padding?.causes.find((c) => c.level === level && c.tileEntry === index);
  const effect = cause
    ? `pads ${groupDigits(cause.from)} up to ${groupDigits(cause.to)} (${formatFactor(cause.factor.value)})`
    : `divides it evenly (${groupDigits(size)} = ${groupDigits(size / value)} × ${groupDigits(value)})`;
  return [
    `**${groupDigits(value)}** — entry ${index + 1} of tile ${level + 1}: tiles ${about} (size ${groupDigits(size)}) in blocks of ${groupDigits(value)}; ${effect}.`,
  ];
}

/** The "Open Visualizer" link for a valid array shape. */
export function visualizerLink(args: VisualizerArgs): string {
  return `[Open Visualizer](${commandUri(OPEN_VISUALIZER, args)} "Draw this layout")`;
}
