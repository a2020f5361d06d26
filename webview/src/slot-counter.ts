/**
 * How many slots of a slot range hold elements rather than padding, for arrays far too large to
 * walk (10^12 slots): the zoomed-out views and the memory strip colour each pixel by its padding
 * share, which must be an average over every slot it covers (a sample per pixel of a periodic
 * pattern is a moiré), not a guess.
 *
 * Memory is a row-major walk over the first tile's [prefix dims, tile counts] followed by one
 * whole tile. A tile holds prod_j min(t_j, D_j - o_j t_j) elements (o_j its count along covered
 * dim j of size D_j), a product of per-digit terms, so the elements of all tiles before tile T are
 * a sum over T's digits of closed forms. Within one tile, the elements before a slot come from a
 * table per kind of tile (full, or short along some dims) when later tile levels reorder the tile,
 * else from the same digit formula. Layouts outside that frame (a later tile that reaches the tile
 * counts) fall back to a uniform density and say so with `exact = false`.
 *
 * Counts are doubles: exact below 2^53 slots, and within one part in 10^15 above.
 */
import { stepForward, type TilingPlan } from '../../core/src';

/** Largest tile (in logical elements) whose within-tile order is tabulated. */
const MAX_TABLE_ELEMENTS = 1 << 16;

interface Outer {
  /** Radix of each digit of the tile index: prefix dims, then tile counts. */
  readonly radix: Float64Array;
  /** For tile-count digits: tile entry t and combined size D (0 for prefix digits). */
  readonly tile: Float64Array;
  readonly size: Float64Array;
  /** Product of the per-digit totals after digit i (elements in a full suffix). */
  readonly suffix: Float64Array;
  readonly prefix: number;
}

export class SlotCounter {
  /** False when counts are a uniform estimate (see the module comment). */
  readonly exact: boolean;
  /** Slots holding elements or padding under the tiles (before L rounding). */
  readonly expanded: number;
  /** All slots, L rounding included. */
  readonly total: number;
  /** Logical elements. */
  readonly elements: number;
  private readonly outer: Outer | undefined;
  /** Slots per first-level tile. */
  private readonly tileSlots: number;
  private readonly tables = new Map<string, Float64Array>();
  private readonly digits: Float64Array;
  private readonly valid: Float64Array;

  constructor(private readonly plan: TilingPlan) {
    this.expanded = Number(plan.expandedElements);
    this.total = Number(plan.totalSlots);
    this.elements = Number(plan.physicalDims.reduce((n, d) => n * d, 1n));
    const step = plan.steps[0];
    const contiguous =
      step !== undefined &&
      plan.steps
        .slice(1)
        .every(
          (s) => s.vectorPadding === 0 && s.prefixLength >= step.prefixLength + step.effectiveTile.length,
        );
    if (step === undefined || !contiguous) {
      this.exact = step === undefined;
      this.outer = undefined;
      this.tileSlots = 1;
      this.digits = new Float64Array(0);
      this.valid = new Float64Array(0);
      return;
    }
    const p = step.prefixLength;
    const k = step.effectiveTile.length;
    const n = p + k;
    const radix = Float64Array.from(step.output.slice(0, n), Number);
    const tile = new Float64Array(n);
    const size = new Float64Array(n);
    for (let j = 0; j < k; j++) {
      tile[p + j] = Number(step.effectiveTile[j]);
      size[p + j] = Number(step.combined[p + j]);
    }
    const suffix = new Float64Array(n);
    let product = 1;
    for (let i = n - 1; i >= 0; i--) {
      suffix[i] = product;
      product *= i < p ? radix[i] : size[i];
    }
    this.outer = { radix, tile, size, suffix, prefix: p };
    this.tileSlots = Number(plan.expandedShape.slice(n).reduce((a, b) => a * b, 1n));
    this.digits = new Float64Array(n);
    this.valid = new Float64Array(k);
    this.exact =
      plan.steps.length === 1 || step.effectiveTile.reduce((a, b) => a * b, 1n) <= BigInt(MAX_TABLE_ELEMENTS);
  }

  /** Element slots among slots [a, b). */
  elementsIn(a: number, b: number): number {
    return b <= a ? 0 : this.elementsBelow(b) - this.elementsBelow(a);
  }

  /** Element slots among slots [0, x). */
  elementsBelow(x: number): number {
    const end = Math.min(Math.max(0, Math.floor(x)), this.expanded);
    if (end <= 0) return 0;
    const outer = this.outer;
    if (outer === undefined) {
      // Untiled: every slot before the L tail is an element. Otherwise the uniform estimate.
      return this.plan.steps.length === 0 ? end : (end * this.elements) / this.expanded;
    }
    const t = Math.floor(end / this.tileSlots);
    const r = end - t * this.tileSlots;
    return this.beforeTile(outer, t) + (r > 0 ? this.inTile(outer, r) : 0);
  }

  /**
   * Elements in tiles 0..t-1: for each digit i of t, the tiles that share t's digits before i and
   * have a smaller digit i, all of whose later digits run free.
   */
  private beforeTile(outer: Outer, t: number): number {
    const { radix, tile, size, suffix, prefix } = outer;
    const n = radix.length;
    const digits = this.digits;
    let rest = t;
    for (let i = n - 1; i >= 0; i--) {
      const q = Math.floor(rest / radix[i]);
      digits[i] = rest - q * radix[i];
      rest = q;
    }
    // t past the last tile (x = expanded): every element.
    if (rest > 0) return this.elements;
    let sum = 0;
    let fixed = 1;
    for (let i = 0; i < n && fixed > 0; i++) {
      const d = digits[i];
      if (i < prefix) {
        sum += fixed * d * suffix[i];
      } else {
        sum += fixed * Math.min(size[i], d * tile[i]) * suffix[i];
        fixed *= Math.min(tile[i], Math.max(0, size[i] - d * tile[i]));
        this.valid[i - prefix] = Math.min(tile[i], Math.max(0, size[i] - d * tile[i]));
      }
    }
    if (fixed === 0) this.valid.fill(0);
    return sum;
  }

  /** Elements among the first r slots of the tile whose digits beforeTile just read. */
  private inTile(outer: Outer, r: number): number {
    const valid = this.valid;
    if (valid.some((v) => v === 0)) return 0;
    if (this.plan.steps.length === 1) {
      // The tile is row-major over its entries and an entry is an element below `valid`.
      const { tile, prefix } = outer;
      const k = valid.length;
      let rest = r;
      let sum = 0;
      let fixed = 1;
      let stride = this.tileSlots;
      for (let j = 0; j < k && fixed > 0; j++) {
        stride /= tile[prefix + j];
        const d = Math.floor(rest / stride);
        rest -= d * stride;
        let after = 1;
        for (let l = j + 1; l < k; l++) after *= valid[l];
        sum += fixed * Math.min(d, valid[j]) * after;
        if (d >= valid[j]) fixed = 0;
      }
      return sum;
    }
    if (!this.exact) {
      const inTile = valid.reduce((a, b) => a * b, 1);
      return (r * inTile) / this.tileSlots;
    }
    return this.table(outer)[r];
  }

  /** Prefix counts of element slots for the kind of tile `valid` describes, built once per kind. */
  private table(outer: Outer): Float64Array {
    const key = this.valid.join(',');
    const known = this.tables.get(key);
    if (known !== undefined) return known;
    const k = this.valid.length;
    const n = outer.radix.length;
    const strides = this.plan.expandedStrides.map(Number);
    const marks = new Uint8Array(this.tileSlots);
    const inner = new Array<number>(k).fill(0);
    const count = this.valid.reduce((a, b) => a * b, 1);
    for (let e = 0; e < count; e++) {
      // Within-tile coordinates of the e-th element, row-major below `valid`.
      let rest = e;
      for (let j = k - 1; j >= 0; j--) {
        const q = Math.floor(rest / this.valid[j]);
        inner[j] = rest - q * this.valid[j];
        rest = q;
      }
      let index: bigint[] = [...new Array<bigint>(n).fill(0n), ...inner.map(BigInt)];
      for (const later of this.plan.steps.slice(1)) index = stepForward(later, index);
      let slot = 0;
      for (let i = n; i < index.length; i++) slot += Number(index[i]) * strides[i];
      marks[slot] = 1;
    }
    const table = new Float64Array(this.tileSlots + 1);
    for (let s = 0; s < this.tileSlots; s++) table[s + 1] = table[s] + marks[s];
    this.tables.set(key, table);
    return table;
  }
}
