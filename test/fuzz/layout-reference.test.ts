/**
 * Layout math against the naive reference (reference-tiling.ts) on random VALID shapes written as
 * text, so the parser, validator and model are on the path too: rank 0–6, dims 0–40 plus a few
 * huge ones, random minor_to_major, 0–3 tiles (with `*` where legal), E, L, S, SC, M.
 *
 * Checked with bigint equality: sizes (logical/physical elements and bytes, ArraySize, E), the
 * linear index of every element (small shapes) or of sampled ones (large), its range, elementAt as
 * its inverse, the bijection from elements onto the non-padding slots (every slot enumerated), the
 * tail/tile cause of padding, and createElementMapper / buildMemoryMap against the reference.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  buildMemoryMap,
  createElementMapper,
  elementAt,
  isLayoutError,
  linearIndex,
  parseShapeText,
  sizes,
  toArrayShape,
  validateShape,
  type ArrayShape,
  type LayoutSizes,
} from '../../core/src/index';
import { InputCounter } from './invariants';
import {
  BYTE_WIDTH,
  refAllIndices,
  refArraySize,
  refByteSizeOf,
  refElementSizeInBits,
  refExpandedElements,
  refLinearIndex,
  refLogicalElements,
  refPhysicalElements,
} from './reference-tiling';

const TYPES = Object.keys(BYTE_WIDTH);
const HUGE_DIMS = [1n << 31n, (1n << 40n) + 7n, (1n << 53n) + 1n, (1n << 61n) - 1n];

interface Generated {
  readonly text: string;
  readonly dims: readonly bigint[];
}

/** Text of a random valid shape; `huge` allows a few enormous dimensions. */
function shapeText(huge: boolean): fc.Arbitrary<Generated> {
  return fc
    .integer({ min: 0, max: 6 })
    .chain((rank) =>
      fc.record({
        type: fc.constantFrom(...TYPES),
        dims: fc.array(
          huge
            ? fc.oneof(
                { weight: 3, arbitrary: fc.integer({ min: 0, max: 40 }).map(BigInt) },
                { weight: 1, arbitrary: fc.constantFrom(...HUGE_DIMS) },
              )
            : fc.integer({ min: 0, max: rank > 3 ? 4 : rank > 1 ? 12 : 40 }).map(BigInt),
          { minLength: rank, maxLength: rank },
        ),
        bounded: fc.array(fc.boolean(), { minLength: rank, maxLength: rank }),
        order: fc.shuffledSubarray([...Array(rank).keys()], { minLength: rank, maxLength: rank }),
        tiles: fc.array(
          fc
            .integer({ min: 1, max: 4 })
            .chain((k) =>
              fc.tuple(
                fc.array(
                  fc.oneof(
                    { weight: 3, arbitrary: fc.integer({ min: 1, max: 9 }).map(String) },
                    { weight: 1, arbitrary: fc.constant('*') },
                  ),
                  { minLength: k - 1, maxLength: k - 1 },
                ),
                fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom(128, 256)).map(String),
              ),
            )
            .map(([head, last]) => `(${[...head, last].join(',')})`),
          { maxLength: 3 },
        ),
        e: fc.constantFrom(0, 0, 0, 1, 2, 4, 8, 16, 32, 3),
        l: fc.constantFrom(1, 1, 2, 3, 5, 64),
        s: fc.constantFrom(0, 1, 5),
        m: fc.constantFrom(0, 0, 1024),
        split: fc.option(fc.tuple(fc.nat(), fc.array(fc.integer({ min: 1, max: 39 }), { maxLength: 3 })), {
          freq: 4,
        }),
      }),
    )
    .map(({ type, dims, bounded, order, tiles, e, l, s, m, split }): Generated => {
      const rank = dims.length;
      let attrs = '';
      if (tiles.length > 0) attrs += `T${tiles.join('')}`;
      if (l !== 1) attrs += `L(${l})`;
      if (e !== 0) attrs += `E(${e})`;
      if (s !== 0) attrs += `S(${s})`;
      if (split !== null && rank > 0) {
        // Strictly increasing indices inside the split dim (physical p holds logical order[rank-1-p]).
        const physicalDim = split[0] % rank;
        const size = dims[order[rank - 1 - physicalDim]];
        const indices = [...new Set(split[1].map(BigInt).filter((i) => i < size))].sort((a, b) =>
          a < b ? -1 : 1,
        );
        if (indices.length > 0) attrs += `SC(${physicalDim}:${indices.join(',')})`;
      }
      if (m !== 0) attrs += `M(${m})`;
      const dimText = dims.map((d, i) => (bounded[i] ? `<=${d}` : `${d}`)).join(',');
      const layout =
        attrs === '' && order.length === 0 ? '' : `{${order.join(',')}${attrs === '' ? '' : `:${attrs}`}}`;
      return { text: `${type}[${dimText}]${layout}`, dims };
    });
}

/** Parses generated text, insists it is valid, and returns its model. */
function modelOf(text: string): ArrayShape | undefined {
  const parsed = parseShapeText(text);
  assert.ok(parsed.shape !== undefined, text);
  const errors = [...parsed.diagnostics, ...validateShape(parsed.shape)].filter(
    (d) => d.severity === 'error',
  );
  // Products past int64 are invalid in XLA: the generator does not know the byte width, so skip.
  if (errors.length > 0 && errors.every((d) => d.code === 'dimensions-overflow')) return undefined;
  assert.deepEqual(errors, [], text);
  const model = toArrayShape(parsed.shape);
  assert.ok(model !== undefined, text);
  return model;
}

/** The tile ends in `*` (legal XLA, but the core refuses to lay it out): skip those. */
function layable(shape: ArrayShape): boolean {
  return shape.tiles.every((t) => t[t.length - 1] !== 'combine');
}

function assertSizes(shape: ArrayShape, text: string): LayoutSizes {
  const s = sizes(shape);
  assert.ok(!isLayoutError(s), `${text}: ${isLayoutError(s) ? s.message : ''}`);
  assert.equal(s.logicalElements, refLogicalElements(shape), `${text} logicalElements`);
  assert.equal(s.logicalBytes, refByteSizeOf(shape), `${text} logicalBytes`);
  assert.equal(s.physicalElements, refPhysicalElements(shape), `${text} physicalElements`);
  assert.equal(s.physicalBytes, refPhysicalBytes(shape), `${text} physicalBytes`);
  assert.equal(s.arraySizeBytes, refArraySize(shape), `${text} arraySizeBytes`);
  assert.equal(BigInt(s.elementSizeBits), refElementSizeInBits(shape), `${text} elementSizeBits`);
  return s;
}

function refPhysicalBytes(shape: ArrayShape): bigint {
  const n = refPhysicalElements(shape);
  return shape.elementSizeBits !== 0
    ? (n * BigInt(shape.elementSizeBits) + 7n) / 8n
    : n * BYTE_WIDTH[shape.elementType];
}

/** Deterministic pseudo-random bigint in [0, bound) from a seed, for sampling indices. */
function sample(seed: number, i: number, bound: bigint): bigint {
  let x = BigInt((seed * 2654435761 + i * 40503) >>> 0) * 0x9e3779b97f4a7c15n + BigInt(i);
  x = (x ^ (x >> 29n)) * 0xbf58476d1ce4e5b9n;
  return (x < 0n ? -x : x) % bound;
}

function indicesToCheck(dims: readonly bigint[], seed: number): bigint[][] {
  const out: bigint[][] = [dims.map(() => 0n), dims.map((d) => d - 1n)];
  for (let i = 0; i < 12; i++) out.push(dims.map((d, j) => sample(seed + j, i, d)));
  return out;
}

/** Random shapes in the exhaustive suite. */
const EXHAUSTIVE_RUNS = 450;

/** Element slots enumerated exhaustively up to this many. */
const ENUMERATE = 2500n;

/** Exhaustive check: every element, every slot. */
function checkExhaustive(shape: ArrayShape, s: LayoutSizes, text: string): void {
  const owner = new Map<bigint, bigint[]>();
  for (const index of refAllIndices(shape.dims)) {
    const li = linearIndex(shape, index);
    const ref = refLinearIndex(shape, index);
    assert.equal(li, ref, `${text} linearIndex(${index.join(',')})`);
    assert.ok(ref >= 0n && ref < s.physicalElements, `${text} ${ref} out of [0, ${s.physicalElements})`);
    assert.ok(
      !owner.has(ref),
      `${text}: ${index.join(',')} and ${owner.get(ref)?.join(',')} share slot ${ref}`,
    );
    owner.set(ref, index);
  }
  assert.equal(BigInt(owner.size), s.logicalElements, text);
  const expanded = refExpandedElements(shape);
  for (let o = 0n; o < s.physicalElements; o++) {
    const r = elementAt(shape, o);
    assert.ok(!isLayoutError(r), text);
    const index = owner.get(o);
    if (index !== undefined) {
      assert.deepEqual(r, { kind: 'element', index }, `${text} elementAt(${o})`);
    } else {
      assert.equal(r.kind, 'padding', `${text} elementAt(${o})`);
      if (r.kind === 'padding')
        assert.equal(r.cause, o >= expanded ? 'tail' : 'tile', `${text} padding cause at ${o}`);
    }
  }
  assert.deepEqual(elementAt(shape, s.physicalElements), { kind: 'out-of-range' });
  assert.deepEqual(elementAt(shape, -1n), { kind: 'out-of-range' });
}

/** Sampled check for shapes too large to enumerate. */
function checkSampled(shape: ArrayShape, s: LayoutSizes, text: string, seed: number): void {
  if (s.logicalElements === 0n) return;
  for (const index of indicesToCheck(shape.dims, seed)) {
    const ref = refLinearIndex(shape, index);
    assert.equal(linearIndex(shape, index), ref, `${text} linearIndex(${index.join(',')})`);
    assert.ok(ref >= 0n && ref < s.physicalElements, `${text} ${ref} out of range`);
    assert.deepEqual(elementAt(shape, ref), { kind: 'element', index }, `${text} elementAt(${ref})`);
  }
}

/** The element mapper and memory map of a random 2-D slice agree with the reference. */
function checkMapper(shape: ArrayShape, text: string, seed: number): void {
  const rank = shape.dims.length;
  if (shape.dims.some((d) => d === 0n)) return;
  const colDim = rank > 0 ? seed % rank : undefined;
  const rowDim = rank > 1 ? (colDim! + 1 + ((seed >> 4) % (rank - 1))) % rank : undefined;
  const fixed = shape.dims.map((d, i) => sample(seed, i, d));
  const slice = { rowDim, colDim, fixed };
  const m = createElementMapper(shape, slice);
  if (isLayoutError(m)) {
    // Only refusal allowed: a slice dimension beyond 2^53.
    assert.equal(m.code, 'slice-too-large', text);
    return;
  }
  const cells: [number, number][] = [];
  const small = m.rows * m.cols <= 4096;
  if (small) for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) cells.push([r, c]);
  else
    for (let i = 0; i < 16; i++)
      cells.push([Number(sample(seed, i, BigInt(m.rows))), Number(sample(seed + 1, i, BigInt(m.cols)))]);
  const map = small ? buildMemoryMap(shape, slice) : undefined;
  for (const [r, c] of cells) {
    const index = [...fixed];
    if (rowDim !== undefined) index[rowDim] = BigInt(r);
    if (colDim !== undefined) index[colDim] = BigInt(c);
    const ref = refLinearIndex(shape, index);
    assert.equal(m.offsetExact(r, c), ref, `${text} mapper(${r},${c})`);
    assert.equal(m.offset(r, c), Number(ref), `${text} mapper.offset(${r},${c})`);
    assert.deepEqual(m.slot(ref), { kind: 'cell', row: r, col: c }, `${text} slot(${ref})`);
    if (map !== undefined && !isLayoutError(map)) {
      assert.equal(map.slotOf(r, c), Number(ref), `${text} map(${r},${c})`);
      assert.equal(map.slotToCell[Number(ref) - map.firstSlot], r * m.cols + c, `${text} slotToCell`);
    }
  }
  if (map !== undefined && isLayoutError(map))
    assert.ok(
      ['slice-span-too-large', 'slice-offsets-inexact', 'slice-too-many-cells', 'slice-too-sparse'].includes(
        map.code,
      ),
      `${text}: ${map.code}`,
    );
}

describe('fuzz: layout math against the naive reference', function () {
  this.timeout(60_000);

  it('small valid shapes: every element and every slot', () => {
    const counter = new InputCounter('layout/reference exhaustive');
    let enumerated = 0;
    fc.assert(
      fc.property(shapeText(false), fc.nat(), ({ text }, seed) => {
        const shape = modelOf(text);
        if (shape === undefined || !layable(shape)) return;
        counter.add();
        const s = assertSizes(shape, text);
        if (s.physicalElements <= ENUMERATE) {
          enumerated++;
          checkExhaustive(shape, s, text);
        } else {
          checkSampled(shape, s, text, seed);
        }
        checkMapper(shape, text, seed);
      }),
      { numRuns: EXHAUSTIVE_RUNS },
    );
    counter.print();
    console.log(`      [fuzz] layout/reference exhaustive: ${enumerated} shapes enumerated slot by slot`);
    assert.ok(enumerated > EXHAUSTIVE_RUNS / 3, `only ${enumerated} shapes were small enough to enumerate`);
  });

  it('shapes with huge dimensions: exact sizes and sampled indices', () => {
    const counter = new InputCounter('layout/reference huge');
    fc.assert(
      fc.property(shapeText(true), fc.nat(), ({ text }, seed) => {
        const shape = modelOf(text);
        if (shape === undefined || !layable(shape)) return;
        counter.add();
        const s = assertSizes(shape, text);
        checkSampled(shape, s, text, seed);
        checkMapper(shape, text, seed);
      }),
      { numRuns: 150 },
    );
    counter.print();
  });

  it('dimensions near 2^62: sizes are exact bigints, not doubles', () => {
    const cases: [string, bigint, bigint][] = [
      // [text, physical elements, physical bytes]
      ['s8[4611686018427387903]{0:T(1024)(128)(4,1)}', 1n << 62n, 1n << 62n],
      // 2^62 + 1 rounds to 2^62 + 8 under T(8), then to the next multiple of 5.
      ['s8[4611686018427387905]{0:T(8)L(5)}', 4611686018427387915n, 4611686018427387915n],
      // Physical [2, 2^62 - 1] tiled (8,128): [1, 2^55, 8, 128] = 2^65 slots of 4 bits.
      ['u4[4611686018427387903,2]{0,1:T(8,128)E(4)}', 1n << 65n, 1n << 64n],
      [
        'pred[2147483649,2147483647]{1,0:T(8,128)(4,1)}',
        2147483656n * 2147483648n,
        2147483656n * 2147483648n,
      ],
      // (2,*,3) vector-pads to [1, d, 3], merges d into 3: [1, 3d] tiled (2,3) = 2·3d slots.
      ['s4[1537228672809129301,3]{1,0:T(2,*,3)E(4)}', 9223372036854775806n, 4611686018427387903n],
    ];
    for (const [text, elements, bytes] of cases) {
      const shape = modelOf(text)!;
      const s = assertSizes(shape, text);
      assert.equal(s.physicalElements, elements, text);
      assert.equal(s.physicalBytes, bytes, text);
      const last = shape.dims.map((d) => d - 1n);
      const li = linearIndex(shape, last) as bigint;
      assert.equal(li, refLinearIndex(shape, last), text);
      assert.deepEqual(elementAt(shape, li), { kind: 'element', index: last });
      checkSampled(shape, s, text, 7);
      checkMapper(shape, text, 3);
    }
    // One past 2^53 differs from its double: the answer must still be exact.
    const odd = modelOf('s8[9007199254740993]{0:T(1)}')!;
    assert.equal((sizes(odd) as LayoutSizes).physicalElements, 9007199254740993n);
    assert.equal(linearIndex(odd, [9007199254740992n]), 9007199254740992n);
  });
});
