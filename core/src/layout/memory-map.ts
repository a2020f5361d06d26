/**
 * The memory map the visualizer draws: a 2-D slice of the logical array (a row dim, a column dim,
 * every other dim fixed) mapped to element slots, and slots mapped back to cells. No per-element
 * objects: offsets live in typed arrays, and when the tiling never mixes the row and column dims
 * (everything but a `*` merging them) the offset is rowTerm[r] + colTerm[c], so a 16.7M-cell map is
 * one add per cell.
 */
import type { ArrayShape } from '../model';
import { normalizeDimension } from './dimensions';
import { isLayoutError, layoutError, type LayoutError } from './errors';
import { elementAtInPlan, linearIndexInPlan } from './linear-index';
import { MAX_EXACT, NumericTiling } from './numeric-tiling';
import { planTiling, stepForward, toPhysicalIndex, type TilingPlan } from './tiling-plan';

export interface SliceSpec {
  /** Logical dim shown as rows; default rank-2 (none for rank < 2). Negative numbers count from the end. */
  rowDim?: number;
  /** Logical dim shown as columns; default rank-1 (none for rank 0). */
  colDim?: number;
  /** One index per logical dim; entries for rowDim/colDim are ignored. Default all 0. */
  fixed?: readonly bigint[];
}

export interface ElementMapper {
  readonly rows: number;
  readonly cols: number;
  readonly rowDim: number | undefined;
  readonly colDim: number | undefined;
  /** Physical element slots of the WHOLE array (all tile levels, L rounding). */
  readonly totalSlots: bigint;
  /** Number of tile levels (0 when untiled). */
  readonly levels: number;
  /** Slot offset of cell (row, col); exact when totalSlots <= 2^53 (else use offsetExact). -1 outside the slice. */
  offset(row: number, col: number): number;
  /** Exact slot offset of cell (row, col); -1n outside the slice. */
  offsetExact(row: number, col: number): bigint;
  /**
   * Identifier of the tile at `level` (0 = first tile) holding cell (row, col); equal ids = same
   * tile. -1 when untiled, for a level that does not exist, or outside the slice. Ids are exact
   * while the number of tiles at that level stays below 2^53.
   */
  tileId(level: number, row: number, col: number): number;
  /** What the slot at `offset` holds: the cell in this slice, an element of another slice, or padding. */
  slot(
    offset: bigint,
  ):
    | { kind: 'cell'; row: number; col: number }
    | { kind: 'element'; index: bigint[] }
    | { kind: 'padding'; tile: bigint[]; inTile: bigint[] }
    | { kind: 'out-of-range' };
}

interface ResolvedSlice {
  readonly rowDim: number | undefined;
  readonly colDim: number | undefined;
  readonly fixed: readonly bigint[];
  readonly rows: number;
  readonly cols: number;
}

function resolveSlice(shape: ArrayShape, slice: SliceSpec): ResolvedSlice | LayoutError {
  const rank = shape.dims.length;
  const pick = (
    given: number | undefined,
    fallback: number | undefined,
    name: string,
  ): number | undefined | LayoutError => {
    if (given === undefined) return fallback;
    const d = normalizeDimension(rank, given);
    return d === undefined
      ? layoutError('slice-dimension', `${name} ${given} is not a dimension of a rank-${rank} array`)
      : d;
  };
  const col = pick(slice.colDim, rank >= 1 ? rank - 1 : undefined, 'colDim');
  if (typeof col === 'object') return col;
  const defaultRow = rank >= 2 ? (col === rank - 2 ? rank - 1 : rank - 2) : undefined;
  const row = pick(slice.rowDim, defaultRow, 'rowDim');
  if (typeof row === 'object') return row;
  if (row !== undefined && row === col)
    return layoutError('slice-dimensions-equal', `rowDim and colDim are both dimension ${row}`);
  const fixed = slice.fixed ?? new Array<bigint>(rank).fill(0n);
  if (fixed.length !== rank)
    return layoutError(
      'slice-fixed-rank',
      `fixed has ${fixed.length} entries but the shape has rank ${rank}`,
    );
  for (let d = 0; d < rank; d++) {
    if (d === row || d === col) continue;
    const e = fixed[d];
    if (typeof e !== 'bigint' || e < 0n || e >= shape.dims[d]) {
      return layoutError(
        'slice-fixed-out-of-bounds',
        `fixed index ${String(e)} is outside dimension ${d} of size ${shape.dims[d]}`,
      );
    }
  }
  const extent = (d: number | undefined): bigint => (d === undefined ? 1n : shape.dims[d]);
  if (extent(row) > BigInt(MAX_EXACT) || extent(col) > BigInt(MAX_EXACT)) {
    return layoutError('slice-too-large', 'the slice has more than 2^53 rows or columns');
  }
  return { rowDim: row, colDim: col, fixed, rows: Number(extent(row)), cols: Number(extent(col)) };
}

class SliceMapper implements ElementMapper {
  readonly rows: number;
  readonly cols: number;
  readonly rowDim: number | undefined;
  readonly colDim: number | undefined;
  readonly totalSlots: bigint;
  readonly levels: number;
  /** Whether every expanded coordinate depends on at most one of rowDim/colDim. */
  readonly separable: boolean;
  /** Whether the slice holds every element of the array (no other dim has size > 1). */
  readonly wholeArray: boolean;
  readonly numeric: NumericTiling | undefined;
  private readonly fixed: readonly bigint[];
  private readonly index: Float64Array;

  constructor(
    readonly plan: TilingPlan,
    slice: ResolvedSlice,
    dims: readonly bigint[],
  ) {
    this.rows = slice.rows;
    this.cols = slice.cols;
    this.rowDim = slice.rowDim;
    this.colDim = slice.colDim;
    this.fixed = slice.fixed;
    this.totalSlots = plan.totalSlots;
    this.levels = plan.steps.length;
    this.separable = !plan.expandedOrigins.some(
      (o) =>
        slice.rowDim !== undefined &&
        slice.colDim !== undefined &&
        o.includes(slice.rowDim) &&
        o.includes(slice.colDim),
    );
    this.wholeArray = dims.every((d, i) => i === slice.rowDim || i === slice.colDim || d === 1n);
    this.numeric = NumericTiling.from(plan);
    this.index = Float64Array.from(slice.fixed.map(Number));
  }

  inSlice(row: number, col: number): boolean {
    return (
      Number.isInteger(row) &&
      Number.isInteger(col) &&
      row >= 0 &&
      row < this.rows &&
      col >= 0 &&
      col < this.cols
    );
  }

  private bigIndex(row: number, col: number): bigint[] {
    const index = [...this.fixed];
    if (this.rowDim !== undefined) index[this.rowDim] = BigInt(row);
    if (this.colDim !== undefined) index[this.colDim] = BigInt(col);
    return index;
  }

  private numberIndex(row: number, col: number): Float64Array {
    if (this.rowDim !== undefined) this.index[this.rowDim] = row;
    if (this.colDim !== undefined) this.index[this.colDim] = col;
    return this.index;
  }

  offsetExact(row: number, col: number): bigint {
    if (!this.inSlice(row, col)) return -1n;
    return linearIndexInPlan(this.plan, this.bigIndex(row, col));
  }

  offset(row: number, col: number): number {
    if (!this.inSlice(row, col)) return -1;
    if (this.numeric !== undefined) return this.numeric.linear(this.numberIndex(row, col));
    return Number(this.offsetExact(row, col));
  }

  tileId(level: number, row: number, col: number): number {
    if (!Number.isInteger(level) || level < 0 || level >= this.levels || !this.inSlice(row, col)) return -1;
    if (this.numeric !== undefined) return this.numeric.tileId(level, this.numberIndex(row, col));
    let current = toPhysicalIndex(this.plan, this.bigIndex(row, col));
    for (let l = 0; l <= level; l++) current = stepForward(this.plan.steps[l], current);
    const step = this.plan.steps[level];
    let id = 0n;
    for (let i = 0; i < step.prefixLength + step.effectiveTile.length; i++)
      id = id * step.output[i] + current[i];
    return Number(id);
  }

  slot(offset: bigint): ReturnType<ElementMapper['slot']> {
    const r = elementAtInPlan(this.plan, offset);
    if (r.kind === 'out-of-range') return r;
    if (r.kind === 'padding') {
      if (r.cause === 'tail')
        return { kind: 'padding', tile: [], inTile: [offset - this.plan.expandedElements] };
      const lowest = r.tiles[r.tiles.length - 1];
      return { kind: 'padding', tile: [...lowest.tile], inTile: [...lowest.inTile] };
    }
    const inThisSlice = r.index.every(
      (e, d) => d === this.rowDim || d === this.colDim || e === this.fixed[d],
    );
    if (!inThisSlice) return { kind: 'element', index: r.index };
    return {
      kind: 'cell',
      row: this.rowDim === undefined ? 0 : Number(r.index[this.rowDim]),
      col: this.colDim === undefined ? 0 : Number(r.index[this.colDim]),
    };
  }

  /** Whether the slot holds an element (of any slice) rather than padding. */
  holdsElement(offset: number): boolean {
    if (offset >= Number(this.plan.expandedElements)) return false;
    if (this.numeric !== undefined) return this.numeric.holdsElement(offset);
    return elementAtInPlan(this.plan, BigInt(offset)).kind === 'element';
  }
}

function createSliceMapper(shape: ArrayShape, slice: SliceSpec = {}): SliceMapper | LayoutError {
  const plan = planTiling(shape);
  if (isLayoutError(plan)) return plan;
  const resolved = resolveSlice(shape, slice);
  if (isLayoutError(resolved)) return resolved;
  return new SliceMapper(plan, resolved, shape.dims);
}

/** Maps cells of a 2-D slice of `shape` to slots and back; see {@link SliceSpec} for the defaults. */
export function createElementMapper(shape: ArrayShape, slice?: SliceSpec): ElementMapper | LayoutError {
  return createSliceMapper(shape, slice);
}

export interface MemoryMap {
  readonly rows: number;
  readonly cols: number;
  /**
   * Slot of cell (row, col), -1 outside the slice. A method rather than a table: for every tiling
   * that keeps the row and column dims apart the slot is a row term plus a column term, and a
   * table of all 16.7M of them would double what a map costs to build (its pages are most of it).
   */
  slotOf(row: number, col: number): number;
  /** Smallest offset in the slice (0 for an empty slice). */
  readonly firstSlot: number;
  /** Span of slots covered: maxOffset - firstSlot + 1 (0 for an empty slice). */
  readonly slotCount: number;
  /** Length slotCount: r*cols+c, or -1 padding, or -2 element of another slice. */
  readonly slotToCell: Int32Array;
}

const DEFAULT_MAX_CELLS = 2 ** 25;
const BLOCK_ROWS = 8;
const BLOCK_COLS = 256;
/** Int32Array lengths and cell numbers must stay below 2^31. */
const MAX_SLOTS = 2 ** 31 - 1;
/**
 * A slice may span at most this many slots per cell (or {@link MIN_SPAN_LIMIT} in all): every slot
 * of the span is classified, so a 2×2 slice whose rows lie 2^29 slots apart would otherwise take
 * minutes and gigabytes for four cells.
 */
const MAX_SLOTS_PER_CELL = 64;
const MIN_SPAN_LIMIT = 2 ** 22;

const INEXACT = layoutError('slice-offsets-inexact', 'slot offsets of this slice pass 2^53');

/** Offsets of each row (col = 0) and of each column relative to column 0, for separable tilings. */
function sliceTerms(m: SliceMapper): { rowTerm: Float64Array; colTerm: Float64Array } | LayoutError {
  const exact = m.numeric !== undefined;
  const at = exact ? (r: number, c: number) => m.offset(r, c) : (r: number, c: number) => m.offsetExact(r, c);
  const rowTerm = new Float64Array(m.rows);
  const colTerm = new Float64Array(m.cols);
  const origin = at(0, 0);
  for (let r = 0; r < m.rows; r++) {
    const v = at(r, 0);
    if (v > MAX_EXACT) return INEXACT;
    rowTerm[r] = Number(v);
  }
  for (let c = 0; c < m.cols; c++) {
    const v = at(0, c);
    if (v > MAX_EXACT) return INEXACT;
    colTerm[c] = exact ? (v as number) - (origin as number) : Number((v as bigint) - (origin as bigint));
  }
  return { rowTerm, colTerm };
}

/** Fills `offsets` cell by cell when the tiling mixes the row and column dims. */
function fillCellByCell(m: SliceMapper, offsets: Float64Array): LayoutError | undefined {
  let i = 0;
  for (let r = 0; r < m.rows; r++) {
    for (let c = 0; c < m.cols; c++, i++) {
      const o = m.numeric !== undefined ? m.offset(r, c) : m.offsetExact(r, c);
      if (o > MAX_EXACT) return INEXACT;
      offsets[i] = Number(o);
    }
  }
  return undefined;
}

/**
 * The whole slice as typed arrays. Refuses (returns a LayoutError) when the slice has more than
 * `maxCells` cells (default 2^25) or its slot span passes 2^31.
 */
export function buildMemoryMap(
  shape: ArrayShape,
  slice?: SliceSpec,
  maxCells: number = DEFAULT_MAX_CELLS,
): MemoryMap | LayoutError {
  const m = createSliceMapper(shape, slice);
  if (isLayoutError(m)) return m;
  const { rows, cols } = m;
  const cells = rows * cols;
  if (cells > maxCells)
    return layoutError(
      'slice-too-many-cells',
      `the slice has ${cells} cells, more than the limit of ${maxCells}`,
    );
  if (cells === 0)
    return { rows, cols, slotOf: () => -1, firstSlot: 0, slotCount: 0, slotToCell: new Int32Array(0) };
  let first: number;
  let last: number;
  let terms: { rowTerm: Float64Array; colTerm: Float64Array } | undefined;
  let offsets: Float64Array | undefined;
  if (m.separable) {
    const t = sliceTerms(m);
    if (isLayoutError(t)) return t;
    terms = t;
    // Offsets are rowTerm + colTerm, so the extremes are the sums of the extremes.
    first = minOf(t.rowTerm) + minOf(t.colTerm);
    last = maxOf(t.rowTerm) + maxOf(t.colTerm);
  } else {
    offsets = new Float64Array(cells);
    const bad = fillCellByCell(m, offsets);
    if (bad !== undefined) return bad;
    first = minOf(offsets);
    last = maxOf(offsets);
  }
  const slotCount = last - first + 1;
  if (slotCount > MAX_SLOTS)
    return layoutError('slice-span-too-large', `the slice spans ${slotCount} slots, more than 2^31`);
  const spanLimit = Math.max(MIN_SPAN_LIMIT, MAX_SLOTS_PER_CELL * cells);
  if (slotCount > spanLimit) {
    return layoutError(
      'slice-too-sparse',
      `the slice spans ${slotCount} slots for ${cells} cells (limit ${spanLimit}): its cells lie too far apart in memory to map`,
    );
  }
  const slotToCell = new Int32Array(slotCount);
  // When the cells fill the span exactly every slot is overwritten below, so skip the -1 pass.
  if (slotCount !== cells) slotToCell.fill(-1);
  let slotOf: MemoryMap['slotOf'];
  if (terms !== undefined) {
    // Work relative to the first slot: both terms then fit int32 (the span is < 2^31), and the
    // inner loop is one integer add and one store into the slot table.
    const minRow = minOf(terms.rowTerm);
    const minCol = minOf(terms.colTerm);
    const rowRel = Int32Array.from(terms.rowTerm, (v) => v - minRow);
    const colRel = Int32Array.from(terms.colTerm, (v) => v - minCol);
    // Visit cells in blocks of BLOCK_ROWS x BLOCK_COLS: TPU tiles keep such a block within a few
    // thousand slots, so the scattered slot-table stores stay in cache.
    for (let r0 = 0; r0 < rows; r0 += BLOCK_ROWS) {
      const r1 = Math.min(rows, r0 + BLOCK_ROWS);
      for (let c0 = 0; c0 < cols; c0 += BLOCK_COLS) {
        const c1 = Math.min(cols, c0 + BLOCK_COLS);
        for (let r = r0; r < r1; r++) {
          const base = rowRel[r];
          let i = r * cols + c0;
          for (let c = c0; c < c1; c++, i++) slotToCell[base + colRel[c]] = i;
        }
      }
    }
    slotOf = (r, c) => (m.inSlice(r, c) ? first + rowRel[r] + colRel[c] : -1);
  } else {
    const cellSlots = offsets!;
    for (let i = 0; i < cells; i++) slotToCell[cellSlots[i] - first] = i;
    slotOf = (r, c) => (m.inSlice(r, c) ? cellSlots[r * cols + c] : -1);
  }
  if (!m.wholeArray) {
    // Slots between this slice's cells hold padding or elements of other slices: tell them apart.
    for (let s = 0; s < slotCount; s++) {
      if (slotToCell[s] === -1 && m.holdsElement(first + s)) slotToCell[s] = -2;
    }
  }
  return { rows, cols, slotOf, firstSlot: first, slotCount, slotToCell };
}

function minOf(values: Float64Array): number {
  let v = Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] < v) v = values[i]!;
  return v;
}

function maxOf(values: Float64Array): number {
  let v = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] > v) v = values[i]!;
  return v;
}
