/**
 * Property tests over random shapes (rank 0–5, small dims, random minor_to_major, 0–3 random tiles
 * with `*` where legal, random E and L): the linear index is a bijection onto the non-padding
 * slots, elementAt inverts it, sizes agree, and the memory map agrees with linearIndex.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  buildMemoryMap,
  createElementMapper,
  elementAt,
  isLayoutError,
  type LayoutError,
  linearIndex,
  sizes,
  tileDivisibility,
  type LayoutSizes,
  type TileDivisibility,
} from '../../core/src/layout';
import type { ArrayShape, TileDim } from '../../core/src/model';

const MAX_SLOTS = 3000n;

const tileArb: fc.Arbitrary<TileDim[]> = fc.integer({ min: 1, max: 3 }).chain((k) =>
  fc
    .tuple(
      fc.array(fc.oneof(fc.integer({ min: 1, max: 4 }).map(BigInt), fc.constant<TileDim>('combine')), {
        minLength: k - 1,
        maxLength: k - 1,
      }),
      fc.integer({ min: 1, max: 4 }).map(BigInt),
    )
    .map(([head, last]) => [...head, last]),
);

const shapeArb: fc.Arbitrary<ArrayShape> = fc.integer({ min: 0, max: 5 }).chain((rank) =>
  fc
    .record({
      elementType: fc.constantFrom('f32', 'bf16', 's8', 's4', 'pred', 'f64'),
      dims: fc.array(fc.integer({ min: rank > 3 ? 1 : 0, max: rank > 3 ? 3 : 6 }).map(BigInt), {
        minLength: rank,
        maxLength: rank,
      }),
      order: fc.array(fc.double({ noNaN: true }), { minLength: rank, maxLength: rank }),
      tiles: fc.array(tileArb, { maxLength: 3 }),
      elementSizeBits: fc.constantFrom(0, 0, 4, 8, 32),
      tailPaddingAlignment: fc.integer({ min: 1, max: 5 }).map(BigInt),
    })
    .map(({ order, dims, ...rest }): ArrayShape => ({
      ...rest,
      dims,
      dynamic: dims.map(() => 'static' as const),
      minorToMajor: order
        .map((k, i) => [k, i] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, i]) => i),
      memorySpace: 0,
      splitConfigs: [],
      dynamicMetadataBytes: 0n,
    })),
);

/** Shapes whose slot count is small enough to enumerate. */
const smallShapeArb = shapeArb.filter((s) => {
  const r = sizes(s);
  return !isLayoutError(r) && r.physicalElements <= MAX_SLOTS;
});

function* allIndices(dims: readonly bigint[]): Generator<bigint[]> {
  if (dims.some((d) => d === 0n)) return;
  const index = dims.map(() => 0n);
  for (;;) {
    yield [...index];
    let i = dims.length - 1;
    while (i >= 0 && ++index[i] === dims[i]) index[i--] = 0n;
    if (i < 0) return;
  }
}

const show = (s: ArrayShape) =>
  JSON.stringify(s, (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? Number(v) : v));

describe('properties: random shapes', () => {
  it('linearIndex is injective into [0, physicalElements), elementAt inverts it, and the rest is padding', () => {
    fc.assert(
      fc.property(smallShapeArb, (shape) => {
        const s = sizes(shape) as LayoutSizes;
        const seen = new Set<bigint>();
        for (const index of allIndices(shape.dims)) {
          const li = linearIndex(shape, index);
          assert.equal(typeof li, 'bigint', show(shape));
          const o = li as bigint;
          assert.ok(o >= 0n && o < s.physicalElements, `${show(shape)} ${o}`);
          assert.ok(!seen.has(o), `${show(shape)} collision at ${o}`);
          seen.add(o);
          assert.deepEqual(elementAt(shape, o), { kind: 'element', index });
        }
        assert.equal(BigInt(seen.size), s.logicalElements);
        let elements = 0n;
        for (let o = 0n; o < s.physicalElements; o++) {
          const r = elementAt(shape, o);
          assert.ok(!isLayoutError(r));
          if (r.kind === 'element') elements++;
          else assert.equal(r.kind, 'padding');
        }
        assert.equal(elements, s.logicalElements);
        assert.deepEqual(elementAt(shape, s.physicalElements), { kind: 'out-of-range' });
      }),
      { numRuns: 150 },
    );
  });

  it('physical bytes equal ArraySize when tiled and later tiles divide (never less otherwise)', () => {
    fc.assert(
      fc.property(shapeArb, (shape) => {
        const s = sizes(shape);
        if (isLayoutError(s)) return;
        assert.ok(s.physicalBytes >= s.logicalBytes);
        if (s.arraySizeBytes === null) return;
        const d = tileDivisibility(shape) as TileDivisibility;
        // Untiled, ArraySize is ByteSizeOfElements: it ignores L, the physical size does not.
        if (shape.tiles.length === 0) assert.ok(s.physicalBytes >= s.arraySizeBytes, show(shape));
        // A later tile that pads can still be absorbed by L rounding, hence >= rather than >.
        else if (d.paddingBeyondArraySize) assert.ok(s.physicalBytes >= s.arraySizeBytes, show(shape));
        else assert.equal(s.physicalBytes, s.arraySizeBytes, show(shape));
      }),
      { numRuns: 500 },
    );
  });

  it('mapper offsets equal linearIndex and slotToCell inverts offsets', () => {
    fc.assert(
      fc.property(smallShapeArb, fc.nat(), (shape, seed) => {
        const rank = shape.dims.length;
        if (shape.dims.some((d) => d === 0n)) return;
        // A random slice: random row/col dims, random fixed indices.
        const colDim = rank > 0 ? seed % rank : undefined;
        const rowDim = rank > 1 ? (colDim! + 1 + ((seed >> 3) % (rank - 1))) % rank : undefined;
        const fixed = shape.dims.map((d, i) => BigInt((seed >> (i + 5)) % Number(d)));
        const slice = { rowDim, colDim, fixed };
        const m = createElementMapper(shape, slice);
        const mm = buildMemoryMap(shape, slice);
        if (isLayoutError(m) || isLayoutError(mm))
          return assert.fail(`${show(shape)}: ${isLayoutError(m) ? m.message : (mm as LayoutError).message}`);
        for (let r = 0; r < m.rows; r++) {
          for (let c = 0; c < m.cols; c++) {
            const index = [...fixed];
            if (rowDim !== undefined) index[rowDim] = BigInt(r);
            if (colDim !== undefined) index[colDim] = BigInt(c);
            const li = linearIndex(shape, index) as bigint;
            assert.equal(m.offsetExact(r, c), li);
            assert.equal(m.offset(r, c), Number(li));
            assert.equal(mm.slotOf(r, c), Number(li));
            assert.equal(mm.slotToCell[Number(li) - mm.firstSlot], r * m.cols + c);
            assert.deepEqual(m.slot(li), { kind: 'cell', row: r, col: c });
          }
        }
        for (let s = 0; s < mm.slotCount; s++) {
          const v: number = mm.slotToCell[s];
          if (v >= 0) continue;
          const r = elementAt(shape, BigInt(mm.firstSlot + s));
          assert.ok(!isLayoutError(r));
          assert.equal(r.kind, v === -1 ? 'padding' : 'element', `${show(shape)} slot ${mm.firstSlot + s}`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
