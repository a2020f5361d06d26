/**
 * XLA TPU's out-of-memory message: reading it out of a log, XLA's byte notation, and each listed
 * allocation's layout math against the sizes the message prints.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkOomAllocation } from '../../core/src/report/oom-check';
import {
  parseOomMessage,
  printedBytes,
  xlaBytes,
  type OomAllocation,
} from '../../core/src/report/oom-message';
import { oomReportLines } from '../../core/src/report/oom-text';

const EXAMPLE = readFileSync(join(__dirname, '..', '..', 'examples', 'oom-hbm.log'), 'utf8');

/** One listed allocation in the message's layout. */
function entry(rank: number, size: string, shape: string, unpadded: string, padding?: string): string {
  return [
    `  ${rank}. Size: ${size}`,
    `     Shape: ${shape}`,
    `     Unpadded size: ${unpadded}`,
    ...(padding ? [`     Extra memory due to padding: ${padding}`] : []),
    '     Allocation type: HLO temp',
    '     ==========================',
    '',
  ].join('\n');
}

function only(text: string): OomAllocation {
  const { allocations } = parseOomMessage(`  Largest program allocations in hbm:\n\n${text}`);
  assert.equal(allocations.length, 1);
  return allocations[0];
}

describe('core: out-of-memory messages', () => {
  it('prints byte counts as XLA does: whole bytes, one decimal in K, two from M, ties to even', () => {
    const cases: [bigint, string][] = [
      [0n, '0B'],
      [1023n, '1023B'],
      [1024n, '1.0K'],
      [1536n, '1.5K'],
      [1280n, '1.2K'], // 1.25: a tie, to even
      [1408n, '1.4K'], // 1.375
      [65_536n, '64.0K'],
      [1_048_575n, '1024.0K'], // below 1024 * 1024: still K, as XLA's loop leaves it
      [1_048_576n, '1.00M'],
      [1_179_648n, '1.12M'], // 1.125: a tie, to even
      [1_182_720n, '1.13M'], // 1.12793
      [402_653_184n, '384.00M'],
      [17_179_869_184n, '16.00G'],
      // Whole divisions first: 1 GiB - 1 byte is 1023.99... M, printed 1024.00M (no carry into G).
      [1_073_741_823n, '1024.00M'],
      [(1n << 63n) - 1n, '8.00E'],
    ];
    assert.deepEqual(
      cases.map(([b]) => xlaBytes(b)),
      cases.map(([, s]) => s),
    );
  });

  it('property: a printed size reads back within half a unit of its last digit, plus what the whole divisions dropped', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }), (bytes) => {
        const s = xlaBytes(bytes);
        const m = /^(\d+)(?:\.(\d+))?([KMGTPE]?)B?$/.exec(s);
        assert.ok(m, s);
        const power = BigInt('KMGTPE'.indexOf(m[3]) + 1) * (m[3] ? 1n : 0n);
        const unit = 1024n ** power;
        const decimals = m[2]?.length ?? 0;
        // value = digits / 10^decimals units; |value * unit - bytes| <= unit / (2 * 10^decimals) + unit / 1024 (dropped).
        const digits = BigInt(`${m[1]}${m[2] ?? ''}`);
        const scale = 10n ** BigInt(decimals);
        const diff = digits * unit - bytes * scale;
        const bound = unit / 2n + (unit * scale) / 1024n + scale;
        assert.ok((diff < 0n ? -diff : diff) <= bound, `${bytes} -> ${s}`);
      }),
    );
  });

  it('reads the summary and every listed allocation of the example, with the exact ranges of sizes and shapes', () => {
    const m = parseOomMessage(EXAMPLE);
    const at = (r: { start: number; end: number }) => EXAMPLE.slice(r.start, r.end);
    assert.deepEqual(
      m.summaries.map((s) => [
        s.memorySpace,
        at(s.used.range),
        at(s.capacity.range),
        at(s.exceededBy.range),
        s.line,
      ]),
      [['hbm', '22.39G', '15.48G', '6.91G', 3]],
    );
    assert.deepEqual(
      m.allocations.map((a) => [
        a.rank,
        a.memorySpace,
        a.line,
        at(a.size.range),
        a.shape && at(a.shape.range),
        a.unpaddedSize?.text,
        a.paddingSize?.text,
        a.expansion,
        a.allocationType,
      ]),
      [
        [
          1,
          'hbm',
          18,
          '16.00G',
          's32[2097152,16,2]{2,1,0:T(8,128)}',
          '256.00M',
          '15.75G',
          '64.0',
          'HLO temp',
        ],
        [
          2,
          'hbm',
          27,
          '4.00G',
          'bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}',
          '1.00G',
          '3.00G',
          '4.0',
          'HLO temp',
        ],
        [3, 'hbm', 36, '2.00G', 'f32[64,512,128,3]{3,2,1,0}', '48.00M', '1.95G', '42.7', 'HLO temp'],
        [
          4,
          'hbm',
          45,
          '384.00M',
          'bf16[128,4096,384]{2,1,0:T(8,128)(2,1)}',
          '384.00M',
          undefined,
          undefined,
          'HLO temp',
        ],
        [5, 'hbm', 52, '24.0K', undefined, undefined, undefined, undefined, 'scoped'],
      ],
    );
    assert.match(m.allocations[0].operator ?? '', /^op_type="rem" op_name=/);
    assert.equal(m.allocations[4].label, 'register allocator spill slots call depth 2');
  });

  it('reads the same message out of a log that prefixes every line, with CRLF line ends', () => {
    const prefixed = EXAMPLE.split('\n')
      .map((l, i) => `E1123 10:41:${String(i % 60).padStart(2, '0')}.123456  1578 xla_util.cc:76] ${l}`)
      .join('\r\n');
    const plain = parseOomMessage(EXAMPLE);
    const logged = parseOomMessage(prefixed);
    const strip = (m: typeof plain) =>
      m.allocations.map(({ size, shape, unpaddedSize, paddingSize, ...rest }) => ({
        ...rest,
        size: size.text,
        shape: shape?.text,
        unpadded: unpaddedSize?.text,
        padding: paddingSize?.text,
      }));
    assert.deepEqual(strip(logged), strip(plain));
    for (const a of logged.allocations)
      if (a.shape) assert.equal(prefixed.slice(a.shape.range.start, a.shape.range.end), a.shape.text);
  });

  it("counts lines from where a selection starts, so that they are the log's own", () => {
    const plain = parseOomMessage(EXAMPLE);
    const selected = parseOomMessage(EXAMPLE, 200);
    assert.deepEqual(
      selected.summaries.map((s) => s.line),
      plain.summaries.map((s) => s.line + 200),
    );
    assert.deepEqual(
      selected.allocations.map((a) => a.line),
      plain.allocations.map((a) => a.line + 200),
    );
    // Ranges stay offsets into the text given.
    assert.deepEqual(
      selected.allocations.map((a) => a.size.range),
      plain.allocations.map((a) => a.size.range),
    );
  });

  it('checks each allocation against its message: as written, under the assumed TPU tiles, or neither', () => {
    const checks = parseOomMessage(EXAMPLE).allocations.map(checkOomAllocation);
    assert.deepEqual(
      checks.map((c) => [
        c.physicalBytes !== undefined ? xlaBytes(c.physicalBytes) : undefined,
        c.logicalBytes !== undefined ? xlaBytes(c.logicalBytes) : undefined,
        c.sizeAgrees,
        c.unpaddedAgrees,
        c.assumed,
      ]),
      [
        ['16.00G', '256.00M', true, true, undefined],
        ['4.00G', '1.00G', true, true, undefined],
        ['2.00G', '48.00M', true, true, 'TPU 32-bit: (8,128)'],
        ['384.00M', '384.00M', true, true, undefined],
        [undefined, undefined, undefined, undefined, undefined],
      ],
    );
    assert.equal(checks[4].problem, 'the message gives no shape for it');
    // The message's size against a shape that cannot have it.
    const wrong = checkOomAllocation(
      only(entry(1, '8.00G', 'bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}', '1.00G')),
    );
    assert.deepEqual([wrong.sizeAgrees, wrong.physicalBytes], [false, 4n << 30n]);
    // An untiled shape the message gives unpadded stays as written.
    const flat = checkOomAllocation(only(entry(1, '64.00M', 'f32[4096,4096]{1,0}', '64.00M')));
    assert.deepEqual([flat.sizeAgrees, flat.assumed], [true, undefined]);
  });

  it('agrees with the sizes XLA printed for shapes in public TPU out-of-memory reports', () => {
    // Shape, XLA's "Size", XLA's "Unpadded size" as TPU compilers printed them.
    const reported: [string, string, string][] = [
      ['s32[8388608,8,4]{2,1,0:T(8,128)}', '32.00G', '1.00G'],
      ['bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}', '4.00G', '1.00G'],
      ['bf16[128,4096,352]{2,1,0:T(16,128)(2,1)}', '384.00M', '352.00M'],
      ['f32[256,512,128,2]{3,2,1,0}', '8.00G', '128.00M'],
      ['f32[128,3]{1,0}', '64.0K', '1.5K'],
    ];
    for (const [shape, size, unpadded] of reported) {
      const c = checkOomAllocation(only(entry(1, size, shape, unpadded)));
      assert.deepEqual([c.sizeAgrees, c.unpaddedAgrees], [true, true], shape);
    }
  });

  it('words the account with the numbers of each allocation and the totals', () => {
    const lines = oomReportLines(parseOomMessage(EXAMPLE));
    // The answer first: how much is padding, what the fixes save, whether it would then fit.
    assert.equal(
      lines[0],
      '92.5% of the 22.38G in the listed allocations is padding (20.70G); the 3 layout changes below save 20.70G and bring hbm use from 22.39G to about 1.69G, under the 15.48G capacity, so it would fit.',
    );
    assert.equal(lines[1], 'Out of memory in hbm: 22.39G used of 15.48G, 6.91G over (line 4).');
    assert.ok(lines.includes('   source: model/grid.py line 41'));
    assert.ok(lines.includes('1. 16.00G in hbm, line 19: s32[2097152,16,2]{2,1,0:T(8,128)}'));
    assert.ok(lines.includes("   logical 256.00M -> physical 16.00G (64x); the message's 16.00G agrees"));
    assert.ok(lines.includes('   pads: dim 2, size 2, minor-most: T(8,128) pads 2 to 128 (64x)'));
    assert.ok(
      lines.includes(
        "   logical 48.00M -> physical 2.00G (42.7x); the message's 2.00G agrees, under the ASSUMED tiling TPU 32-bit: (8,128) (the message prints no tiles)",
      ),
    );
    assert.ok(
      lines.includes('   fix: use minor_to_major {0,3,1,2} instead of {0,1,3,2} -> 1.00G, saves 3.00G'),
    );
    assert.ok(lines.includes('   no layout math: the message gives no shape for it'));
    assert.equal(lines[lines.length - 1], '   XLA label: register allocator spill slots call depth 2');
    assert.deepEqual(oomReportLines(parseOomMessage('nothing here\n')), [
      'No XLA out-of-memory message ("Ran out of memory in memory space ...", "Largest program allocations in ...") found.',
    ]);
  });

  it('says in the first line when the layout changes would not be enough, or when there are none', () => {
    const summary = (used: string) =>
      `Ran out of memory in memory space hbm. Used ${used} of 15.48G hbm. Exceeded hbm capacity by 1.00G.\n  Largest program allocations in hbm:\n\n`;
    const padded = entry(1, '16.00G', 's32[2097152,16,2]{2,1,0:T(8,128)}', '256.00M');
    assert.equal(
      oomReportLines(parseOomMessage(summary('40.00G') + padded))[0],
      '98.4% of the 16.00G in the listed allocations is padding (15.75G); the layout change below saves 15.75G and brings hbm use from 40.00G to about 24.25G, still 8.77G over the 15.48G capacity.',
    );
    const unpadded = entry(1, '384.00M', 'bf16[128,4096,384]{2,1,0:T(8,128)(2,1)}', '384.00M');
    assert.equal(
      oomReportLines(parseOomMessage(summary('16.48G') + unpadded))[0],
      'The listed allocations (384.00M) have no padding; no layout change below saves memory.',
    );
    assert.equal(
      oomReportLines(parseOomMessage(`  Largest program allocations in hbm:\n\n${padded}`))[0],
      '98.4% of the 16.00G in the listed allocations is padding (15.75G); the layout change below saves 15.75G.',
    );
  });

  it('reads printed sizes back as bytes, to their printed precision', () => {
    assert.deepEqual(['512B', '24.0K', '1.50M', '8.00GiB', '22.39G', 'big'].map(printedBytes), [
      512n,
      24_576n,
      1_572_864n,
      8n * 1024n ** 3n,
      24_041_079_439n,
      undefined,
    ]);
  });

  it('stays linear on hostile text: a 100,000-character line, 10,000 entries, binary noise', () => {
    const long = `  Largest program allocations in hbm:\n  1. Size: 1.00G\n     Shape: f32[${'1,'.repeat(50_000)}1]\n`;
    const many = `  Largest program allocations in hbm:\n${Array.from({ length: 10_000 }, (_, i) => entry(i + 1, '16.00G', 's32[2097152,16,2]{2,1,0:T(8,128)}', '256.00M')).join('')}`;
    const noise = Array.from({ length: 100_000 }, (_, i) => String.fromCharCode((i * 7919) % 256)).join('');
    assert.equal(checkOomAllocation(parseOomMessage(long).allocations[0]).sizeAgrees, false);
    assert.equal(parseOomMessage(many).allocations.length, 10_000);
    assert.deepEqual(parseOomMessage(noise), { summaries: [], allocations: [] });
  });
});
