/**
 * The visualizer's memory map: mapper offsets, tile ids, slot lookups and the typed-array map,
 * on the spec figures, N-D slices, `*` merging the row and column dims, and huge arrays.
 */
import { strict as assert } from 'node:assert';
import {
  buildMemoryMap,
  createElementMapper,
  isLayoutError,
  linearIndex,
  type ElementMapper,
  type MemoryMap,
} from '../../core/src/layout';
import type { ArrayShape } from '../../core/src/model';
import { shapeOf } from './layout-shape-literal';

function mapper(shape: ArrayShape, slice?: Parameters<typeof createElementMapper>[1]): ElementMapper {
  const m = createElementMapper(shape, slice);
  if (isLayoutError(m)) assert.fail(m.message);
  return m;
}

function map(shape: ArrayShape, slice?: Parameters<typeof buildMemoryMap>[1], maxCells?: number): MemoryMap {
  const m = buildMemoryMap(shape, slice, maxCells);
  if (isLayoutError(m)) assert.fail(m.message);
  return m;
}

/** The map's slot of every cell, row-major. */
function slots(mm: MemoryMap): number[] {
  return Array.from({ length: mm.rows * mm.cols }, (_, i) => mm.slotOf(Math.floor(i / mm.cols), i % mm.cols));
}

describe('memory map: Figure 1 f32[3,5]{1,0:T(2,2)}', () => {
  const shape = shapeOf('f32[3,5]{1,0:T(2,2)}');

  it('mapper: defaults, offsets, tile ids', () => {
    const m = mapper(shape);
    assert.deepEqual([m.rows, m.cols, m.rowDim, m.colDim, m.totalSlots, m.levels], [3, 5, 0, 1, 24n, 1]);
    assert.equal(m.offset(2, 3), 17);
    assert.equal(m.offsetExact(2, 3), 17n);
    assert.equal(m.offset(3, 0), -1);
    // Tiles are 2x2 blocks numbered row-major over the 2x3 tile grid.
    assert.deepEqual(
      [0, 1, 2].map((r) => [0, 1, 2, 3, 4].map((c) => m.tileId(0, r, c))),
      [
        [0, 0, 1, 1, 2],
        [0, 0, 1, 1, 2],
        [3, 3, 4, 4, 5],
      ],
    );
    assert.equal(m.tileId(1, 0, 0), -1);
  });

  it('slot lookups', () => {
    const m = mapper(shape);
    assert.deepEqual(m.slot(17n), { kind: 'cell', row: 2, col: 3 });
    assert.deepEqual(m.slot(9n), { kind: 'padding', tile: [0n, 2n], inTile: [0n, 1n] });
    assert.deepEqual(m.slot(24n), { kind: 'out-of-range' });
  });

  it('buildMemoryMap: offsets and slotToCell', () => {
    const mm = map(shape);
    assert.deepEqual(slots(mm), [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20]);
    assert.deepEqual([mm.firstSlot, mm.slotCount], [0, 21]);
    assert.deepEqual(
      [mm.slotOf(3, 0), mm.slotOf(0, 5), mm.slotOf(-1, 0), mm.slotOf(0.5, 0)],
      [-1, -1, -1, -1],
    );
    assert.deepEqual(
      [...mm.slotToCell],
      [0, 1, 5, 6, 2, 3, 7, 8, 4, -1, 9, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14],
    );
  });
});

describe('memory map: Figure 2 and later tile levels', () => {
  it('f32[4,8]{1,0:T(2,4)(2,1)}: the table and level-1 tiles are vertical pairs', () => {
    const shape = shapeOf('f32[4,8]{1,0:T(2,4)(2,1)}');
    assert.deepEqual(
      slots(map(shape)),
      [
        0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 16, 18, 20, 22, 24, 26, 28, 30, 17, 19, 21, 23,
        25, 27, 29, 31,
      ],
    );
    const m = mapper(shape);
    assert.equal(m.levels, 2);
    assert.equal(m.tileId(1, 0, 0), m.tileId(1, 1, 0));
    assert.notEqual(m.tileId(1, 0, 0), m.tileId(1, 0, 1));
    assert.notEqual(m.tileId(1, 1, 0), m.tileId(1, 2, 0));
    assert.equal(m.tileId(0, 0, 0), m.tileId(0, 1, 3));
    assert.notEqual(m.tileId(0, 0, 3), m.tileId(0, 0, 4));
  });
});

describe('memory map: slices of N-D arrays', () => {
  const shape = shapeOf('f32[2,3,5]{2,1,0:T(2,2)}');

  it('default slice is the two minor logical dims at index 0 of the rest', () => {
    const mm = map(shape, { fixed: [1n, 0n, 0n] });
    assert.deepEqual([mm.rows, mm.cols, mm.firstSlot, mm.slotCount], [3, 5, 24, 21]);
    assert.equal(mm.slotOf(2, 4), 44);
    assert.equal(mm.slotToCell[44 - 24], 14);
  });

  it('rows across dim 0 interleave other slices: -2 marks their elements', () => {
    const mm = map(shape, { rowDim: 0, colDim: 2, fixed: [0n, 1n, 0n] });
    assert.deepEqual([mm.rows, mm.cols], [2, 5]);
    // Row 0 of this slice is logical row 1 of slab 0: slots 2,3,6,7,10; slab 1 is 24 slots later.
    assert.deepEqual(slots(mm), [2, 3, 6, 7, 10, 26, 27, 30, 31, 34]);
    assert.equal(mm.slotToCell[0], 0);
    assert.equal(mm.slotToCell[12 - 2], -2); // slot 12 holds (0,2,0)
    assert.equal(mm.slotToCell[9 - 2], -1); // slot 9 is padding
  });

  it('negative dims, slot of another slice, errors', () => {
    const m = mapper(shape, { rowDim: -3, colDim: -1, fixed: [0n, 2n, 0n] });
    assert.deepEqual([m.rowDim, m.colDim], [0, 2]);
    assert.deepEqual(m.slot(0n), { kind: 'element', index: [0n, 0n, 0n] });
    assert.deepEqual(m.slot(12n), { kind: 'cell', row: 0, col: 0 });
    const refused = (r: unknown) => (isLayoutError(r) ? r.code : undefined);
    assert.equal(refused(createElementMapper(shape, { rowDim: 1, colDim: 1 })), 'slice-dimensions-equal');
    assert.equal(refused(createElementMapper(shape, { rowDim: 3 })), 'slice-dimension');
    assert.equal(refused(createElementMapper(shape, { fixed: [2n, 0n, 0n] })), 'slice-fixed-out-of-bounds');
    assert.equal(refused(createElementMapper(shape, { fixed: [0n] })), 'slice-fixed-rank');
    assert.equal(refused(buildMemoryMap(shape, undefined, 14)), 'slice-too-many-cells');
  });

  it('rank 1 and rank 0', () => {
    const v = map(shapeOf('f32[8]{0:T(2,2)}'));
    assert.deepEqual([v.rows, v.cols, slots(v)], [1, 8, [0, 1, 4, 5, 8, 9, 12, 13]]);
    const s = mapper(shapeOf('u32[]{:T(128)}'));
    assert.deepEqual(
      [s.rows, s.cols, s.rowDim, s.colDim, s.totalSlots, s.offset(0, 0)],
      [1, 1, undefined, undefined, 128n, 0],
    );
    assert.deepEqual(s.slot(5n), { kind: 'padding', tile: [0n], inTile: [5n] });
  });
});

describe('memory map: non-separable and huge arrays', () => {
  it('`*` merging the row and column dims still maps every cell (cell-by-cell path)', () => {
    const shape = shapeOf('f32[3,5]{1,0:T(*,4)}');
    const mm = map(shape);
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 5; c++) {
        assert.equal(BigInt(mm.slotOf(r, c)), linearIndex(shape, [BigInt(r), BigInt(c)]));
      }
    // [15] tiled by (4) is row-major with one padding slot at the end.
    assert.deepEqual(slots(mm), [...Array(15).keys()]);
  });

  it('f32[1000000,1000000]{1,0:T(8,128)}: mapper works at tile granularity, map refuses', () => {
    const shape = shapeOf('f32[1000000,1000000]{1,0:T(8,128)}');
    const m = mapper(shape);
    assert.equal(m.totalSlots, 1000000n * 1000064n);
    assert.equal(m.offsetExact(999999, 999999), linearIndex(shape, [999999n, 999999n]));
    assert.equal(m.offset(999999, 999999), Number(m.offsetExact(999999, 999999)));
    assert.equal(m.tileId(0, 999999, 999999), 124999 * 7813 + 7812);
    assert.ok(isLayoutError(buildMemoryMap(shape)));
  });

  it('offsets past 2^53: offsetExact is exact; a slice near the end is refused by the map', () => {
    const shape = shapeOf('f32[1099511627776,1048576]{1,0:T(8,128)}');
    const m = mapper(shape, { rowDim: 0, colDim: 1 });
    assert.equal(m.offsetExact(1099511627775, 1048575), 2n ** 60n - 1n);
    assert.equal(m.slot(2n ** 60n - 1n).kind, 'cell');
    const small = shapeOf('f32[17592186044416,4,4]{2,1,0:T(8,128)}');
    assert.equal(mapper(small).totalSlots, 2n ** 54n);
    assert.ok(isLayoutError(buildMemoryMap(small, { fixed: [2n ** 44n - 1n, 0n, 0n] })));
    const early = map(small, { fixed: [3n, 0n, 0n] });
    assert.equal(early.firstSlot, 3 * 1024);
  });
});
