/**
 * The readers of XLA's memory files on hand-written cases of every form XLA prints (current and
 * older), cut into chunks anywhere (seeded), and on bad input: they never throw and say which line
 * they could not read.
 */
import { strict as assert } from 'node:assert';
import {
  BufferAssignmentReader,
  LineSplitter,
  byLine,
  MAX_READ_PROBLEMS,
  readBufferAssignment,
  readBufferValues,
  readLiveRange,
  readMemoryUsageReport,
  type BufferAssignmentFile,
} from '../../core/src';
import { mulberry32 } from '../support/prng';

/** The same text written in random pieces (seeded; the seed is in the failure message). */
function inChunks<T>(text: string, seed: number, reader: { write(t: string): void; end(): T }): T {
  const random = mulberry32(seed);
  for (let at = 0; at < text.length;) {
    const n = 1 + Math.floor(random() * 40);
    reader.write(text.slice(at, at + n));
    at += n;
  }
  return reader.end();
}

const CURRENT = `BufferAssignment:
allocation 0: size 1024, color 1, parameter 0, shape |(f32[8], f32[256])| at ShapeIndex {1}, maybe-live-out:
 value: <3 p.1{1} @1> (size=1024,offset=0): f32[256]{0:T(256)S(1)}
allocation 1: size 24, output shape is |(f32[], s32[], f32[8])|, maybe-live-out:
 value: <7 tuple.3{} @0> (size=24,offset=0): (f32[]{:T(256)}, s32[]{:T(128)}, /*index=2*/f32[8]{0:T(256)})
allocation 2: size 4, constant:
 value: <1 constant.2 @0> (size=4,offset=0): f32[]
allocation 3: size 4, thread-local:
 value: <0 add.1 @0> (size=4,offset=0): f32[]
allocation 4: size 2048, preallocated-temp, some-future-word:
 value: <5 while.1{1} (phi) @0> (size=1024,offset=1024): f32[256]{0}
 value: <6 fusion.2 @0> (size=2048,offset=0): f32[512]{0}
 reused by buffers of a different color:
  value: <9 copy.4 @1> (color=1)
`;

describe('memory readers', () => {
  it('reads every allocation of a buffer assignment: size, colour, kinds, parameter, output and values', () => {
    const f = readBufferAssignment(CURRENT);
    assert.deepEqual(f.problems, []);
    assert.equal(f.totalBytes, 1024n + 24n + 4n + 4n + 2048n);
    assert.deepEqual(
      f.allocations.map((a) => [a.index, a.size, a.color, a.kinds, a.other]),
      [
        [0, 1024n, 1, ['parameter', 'maybe-live-out'], []],
        [1, 24n, 0, ['output', 'maybe-live-out'], []],
        [2, 4n, 0, ['constant'], []],
        [3, 4n, 0, ['thread-local'], []],
        [4, 2048n, 0, ['preallocated-temp'], ['some-future-word']],
      ],
    );
    assert.deepEqual(f.allocations[0].parameter, { number: 0, shape: '(f32[8], f32[256])', shapeIndex: [1] });
    assert.equal(f.allocations[1].outputShape, '(f32[], s32[], f32[8])');
    const temp = f.allocations[4];
    assert.deepEqual(
      temp.values.map((v) => [
        v.id,
        v.instruction,
        v.shapeIndex,
        v.phi,
        v.color,
        v.size,
        v.offset,
        v.shape,
        v.line,
      ]),
      [
        [5, 'while.1', [1], true, 0, 1024n, 1024n, 'f32[256]{0}', 11],
        [6, 'fusion.2', undefined, false, 0, 2048n, 0n, 'f32[512]{0}', 12],
      ],
    );
    assert.deepEqual(temp.reusedByOtherColors, [{ id: 9, instruction: 'copy.4', phi: false, color: 1 }]);
    assert.equal(
      f.allocations[1].values[0].shape,
      '(f32[]{:T(256)}, s32[]{:T(128)}, /*index=2*/f32[8]{0:T(256)})',
    );
    assert.deepEqual(f.allocations[1].values[0].shapeIndex, []);
  });

  it('gives the same result however the text is cut, CRLF line ends included', () => {
    const whole = readBufferAssignment(CURRENT);
    const crlf = CURRENT.replace(/\n/g, '\r\n');
    for (let seed = 1; seed <= 40; seed++) {
      const cut = inChunks(crlf, seed, new BufferAssignmentReader());
      assert.deepEqual(cut, whole, `seed ${seed}`);
    }
  });

  it('splits lines at \\n, \\r\\n and \\r, also when \\r\\n is split between chunks', () => {
    const lines: [string, number][] = [];
    const s = new LineSplitter(byLine((l, n) => lines.push([l, n])));
    for (const piece of ['a\r', '\nb\rc', '\n', '', 'd']) s.write(piece);
    s.end();
    assert.deepEqual(lines, [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
  });

  it("reads an older single-file buffer assignment with 'Total bytes used' and 'Used values'", () => {
    const text = `BufferAssignment:
allocation 0: size 64, maybe-live-out:
 value: <1 tuple{} @0> (size=16,offset=0): (f32[], f32[])
allocation 1: size 8, preallocated-temp:
 value: <0 p @0> (size=4,offset=4): f32[]

Total bytes used: 72 (72B)

Used values:
<0 p @0>
 positions:
  p
  tuple{0}
 uses:
  tuple, operand 0
 from instruction: %p = f32[] parameter(0)
<1 tuple{} @0>
 positions:
  tuple{}
 uses:
  (none)
 from instruction: %tuple = (f32[], f32[]) tuple(%p, %p)
`;
    const f = readBufferAssignment(text);
    assert.deepEqual(f.problems, []);
    assert.equal(f.reportedTotalBytes, 72n);
    assert.equal(f.totalBytes, 72n);
    assert.deepEqual(
      f.values?.values.map((v) => [v.id, v.instruction, v.positions, v.uses, v.instructionText]),
      [
        [0, 'p', ['p', 'tuple{0}'], ['tuple, operand 0'], '%p = f32[] parameter(0)'],
        [1, 'tuple', ['tuple{}'], [], '%tuple = (f32[], f32[]) tuple(%p, %p)'],
      ],
    );
  });

  it('never throws on bad input; names the lines it cannot read, keeping the first 100', () => {
    const bad = [
      'allocation x: size 4:',
      ' value: <1 a @0> (size=4,offset=0): f32[]',
      'allocation 1: size 12, parameter 2, shape |f32[3]:',
      'allocation 2: size 8:',
      ' value: <oops> (size=4,offset=0): f32[]',
      ' value: <2 b @0> (size=-4,offset=0): f32[]',
      '\u0000\u0001\u0002 binary',
      'x'.repeat(100_000),
    ].join('\n');
    const f = readBufferAssignment(bad);
    assert.deepEqual(
      f.problems.map((p) => p.line),
      [1, 2, 3, 5, 6, 7, 8],
    );
    assert.match(f.problems[1].message, /^a value outside any allocation: " value: <1 a @0>/);
    assert.match(f.problems[2].message, /^a parameter without "shape \|\.\.\.\| at ShapeIndex/);
    assert.ok(f.problems[6].message.length < 200, 'a long line is quoted cut');
    // The allocation whose attributes could not be read is still there, with its size.
    assert.deepEqual(
      f.allocations.map((a) => [a.index, a.size]),
      [
        [1, 12n],
        [2, 8n],
      ],
    );
    const many = readBufferAssignment('junk\n'.repeat(500));
    assert.equal(many.problems.length, MAX_READ_PROBLEMS);
    assert.equal(many.problemCount, 500);
    const empty: BufferAssignmentFile = readBufferAssignment('');
    assert.deepEqual([empty.allocations.length, empty.totalBytes, empty.problemCount], [0, 0n, 0]);
  });

  it('reads sizes past 2^53 exactly', () => {
    const f = readBufferAssignment(
      'allocation 0: size 36893488147419103232, preallocated-temp:\n value: <0 a @0> (size=18446744073709551616,offset=18446744073709551616): f32[4611686018427387904]{0}\n',
    );
    assert.equal(f.totalBytes, 36893488147419103232n);
    assert.equal(f.allocations[0].values[0].offset, 18446744073709551616n);
  });

  it("reads a current memory-usage report: each memory space's total and each allocation's rows", () => {
    const text = `Memory Space: default (color=0)
Total bytes: 2319100 (2.21MiB)
  cumulative_size;       size;       offset; used_by_n_values; shapes_list
  ------------------------------------------------------------
   784.0KiB(100%);   784.0KiB;            0;                3; f32[64,256], 2×f32[784,256]

  cumulative_size;       size;       offset; used_by_n_values; shapes_list
  ------------------------------------------------------------
    64.0KiB( 25%);    64.0KiB;        65536;                1; f32[64,256]
   128.0KiB( 49%);    64.0KiB;       131072;                2; f32[64,128], f32[64,256]
  The rest 4 values are less than 1% of the total size and not shown.

Memory Space: vmem (color=1)
Total bytes: 65536 (64.0KiB)
  cumulative_size;       size;       offset; used_by_n_values; shapes_list
  ------------------------------------------------------------
    64.0KiB(100%);    64.0KiB;            0;                1; f32[128,6]
`;
    const r = readMemoryUsageReport(text);
    assert.deepEqual(r.problems, []);
    assert.equal(r.format, 'by-memory-space');
    assert.equal(r.totalBytes, 2319100n + 65536n);
    assert.deepEqual(
      r.spaces.map((s) => [s.name, s.color, s.totalBytes, s.allocations.length]),
      [
        ['default', 0, 2319100n, 2],
        ['vmem', 1, 65536n, 1],
      ],
    );
    const second = r.spaces[0].allocations[1];
    assert.deepEqual(
      second.rows.map((row) => [row.size, row.offset, row.values, row.shapes]),
      [
        ['64.0KiB', 65536n, 1, 'f32[64,256]'],
        ['64.0KiB', 131072n, 2, 'f32[64,128], f32[64,256]'],
      ],
    );
    assert.equal(second.valuesNotShown, 4);
  });

  it('reads the rows of empty allocations, whose share XLA prints as -nan% (tokens, `()`)', () => {
    const text = `Memory Space: default (color=0)
Total bytes: 0 (0B)
  cumulative_size;       size;       offset; used_by_n_values; shapes_list
  ------------------------------------------------------------
         0B(-nan%);         0B;            0;                1; token[]

  cumulative_size;       size;       offset; used_by_n_values; shapes_list
  ------------------------------------------------------------
         0B(nan%);         0B;            0;                1; ()
`;
    const r = readMemoryUsageReport(text);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.spaces[0].allocations.map((a) => a.rows.map((row) => [row.size, row.offset, row.shapes])),
      [[['0B', 0n, 'token[]']], [['0B', 0n, '()']]],
    );
  });

  it('reads an older memory-usage report (Total bytes used, allocations sorted by size)', () => {
    const text = `Total bytes used: 786452 (768.0KiB)

Allocations sorted by size:

cumulative_size; total_size - cumulative_size; allocation
------------------------------------------------------------------------------
  512.0KiB( 67%);   256.0KiB; allocation 6: size 512.0KiB, preallocated-temp:
  768.0KiB(100%);        20B; allocation 0: size 256.0KiB, parameter 0, shape |f32[256,256]| at ShapeIndex {}:


Allocations sorted by size with their values:
allocation 6: size 512.0KiB, preallocated-temp:

	cumulative_size;       size;       offset; used_by_n_values; shapes_list
	------------------------------------------------------------
	 256.0KiB( 50%);   256.0KiB;            0;                2; 2×f32[256,256]
	 512.0KiB(100%);   256.0KiB;       262144;                1; f32[256,256]

allocation 0: size 256.0KiB, parameter 0, shape |f32[256,256]| at ShapeIndex {}:
`;
    const r = readMemoryUsageReport(text);
    assert.deepEqual(r.problems, []);
    assert.equal(r.format, 'sorted-by-size');
    assert.equal(r.totalBytes, 786452n);
    const allocations = r.spaces[0].allocations;
    assert.deepEqual(
      allocations.map((a) => [a.index, a.size, a.rows.map((row) => [row.offset, row.values])]),
      [
        [
          6,
          '512.0KiB',
          [
            [0n, 2],
            [262144n, 1],
          ],
        ],
        [0, '256.0KiB', []],
      ],
    );
  });

  it('reads live ranges: the schedule, each value’s range and the values at the peak', () => {
    const text = `HloLiveRange (max 4):
  InstructionSequence:
    0:p
    1:fusion
    2:tuple.1
  BufferLiveRange:
    p{}:0-4
    fusion{}:1-4
    tuple.1{0}:2-4
  Live ranges at 2 (peak):
    fusion{}: 1024 bytes (cumulative: 1024 bytes)
    p{}: 16 bytes (cumulative: 1040 bytes)
  Stack trace breakdown for peak usage: 1 040 bytes
    main (100.0%, total: 1 040 bytes, current: 0 bytes, remaining: 1 040 bytes)
      └── x (0.0%, total: 16 bytes, current: 16 bytes, remaining: 0 bytes)
`;
    const l = readLiveRange(text);
    assert.deepEqual(l.problems, []);
    assert.equal(l.maxTime, 4);
    assert.deepEqual(l.schedule, ['p', 'fusion', 'tuple.1']);
    assert.deepEqual(l.ranges.get('tuple.1{0}'), { start: 2, end: 4 });
    assert.deepEqual(l.peak, {
      time: 2,
      bytes: 1040n,
      values: [
        { position: 'fusion{}', bytes: 1024n },
        { position: 'p{}', bytes: 16n },
      ],
    });
    assert.equal(readLiveRange('HloLiveRange (max 1):\n  nonsense\n').problemCount, 1);
  });

  it('reads the values file: total, positions, uses and the defining instruction (cut when long)', () => {
    const long = `%f = f32[8]{0} fusion(${'%a, '.repeat(200)}%b)`;
    const text = `\nTotal bytes used: 32 (32B)\n\nUsed values:\n<4 f @0>\n positions:\n  f\n  tuple{0}\n uses:\n  tuple, operand 0\n from instruction: ${long}\n`;
    const v = readBufferValues(text);
    assert.deepEqual(v.problems, []);
    assert.equal(v.totalBytes, 32n);
    assert.deepEqual(v.values[0].positions, ['f', 'tuple{0}']);
    assert.equal(v.values[0].instructionText?.length, 400);
    assert.ok(v.values[0].instructionText?.endsWith('…'));
  });
});
