/**
 * Hostile shape text: random token soup, random UTF-16 (lone surrogates), random bytes decoded as
 * UTF-8, integers at the int64/uint64 edges, degenerate attributes, 10,000-deep nesting, odd line
 * endings, 100,000-character lines and a million shapes on one line. Every input goes through the
 * parser, validator, model, printer, layout math, HLO shape finder and explain (checks.ts).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  explainShapeText,
  parseShapeText,
  printShape,
  scanShapes,
  toArrayShape,
  validateShape,
  type ArrayShapeNode,
  type LayoutDiagnostic,
} from '../../core/src/index';
import { checkExplain, checkScan, checkShapeText } from './checks';
import { InputCounter } from './invariants';
import { DELIMITERS } from '../support/hlo-tokens';

/** Parser + validator diagnostics of a whole-text shape. */
function allDiagnostics(text: string): LayoutDiagnostic[] {
  const p = parseShapeText(text);
  return p.shape === undefined ? p.diagnostics : [...p.diagnostics, ...validateShape(p.shape)];
}

function codes(text: string): string[] {
  return allDiagnostics(text).map((d) => d.code);
}

function checkAll(text: string, tpu = true): void {
  checkShapeText(text);
  checkScan(text);
  checkExplain(text, tpu);
}

/** Pieces of shape syntax, HLO syntax and junk, so random concatenations reach deep parser states. */
const TOKENS = [
  'f32',
  'bf16',
  's4',
  'pred',
  'token',
  'opaque',
  'u8',
  'c128',
  'f8e4m3b11fnuz',
  'b',
  'x',
  '%p',
  'ROOT',
  'constructor',
  '__proto__',
  ...DELIMITERS,
  ':',
  '<=',
  '<',
  '=',
  '?',
  '*',
  '#',
  '-',
  '+',
  '~',
  '->',
  '.',
  '"',
  '\\',
  '/*',
  '*/',
  '//',
  '\n',
  '\r',
  ' ',
  'T',
  'L',
  'E',
  'S',
  'SC',
  'P',
  'M',
  'D',
  'C',
  'H',
  't',
  'X',
  '0',
  '1',
  '2',
  '3',
  '8',
  '128',
  '-1',
  '1.5',
  '1e5',
  '2x3',
  '1_2',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551615',
  '18446744073709551616',
  '1234567890123456789012345678901234567890',
  'f32[2,3]{1,0:T(2,2)}',
  '(f32[], s32[1]{0})',
  'b(f32[4]{0})',
  '{0:P(',
  'T(8,128)(2,1)',
  'SC(0:1,2)',
  'E(4)',
  'L(0)',
  '/*index=5*/',
  'add(',
  'metadata={op_name="a"}',
  '\u0000',
  '\ufffd',
  '\ud800',
  '\udc00',
  '😀',
];

const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join(''));
const utf16 = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 60 })
  .map((u) => String.fromCharCode(...u));
const bytesAsUtf8 = fc.uint8Array({ maxLength: 80 }).map((b) => new TextDecoder().decode(b));
/** Valid-looking prefix plus random bytes: reaches the layout parser before the junk starts. */
const prefixedBytes = fc
  .tuple(fc.constantFrom('f32[2,3]{1,0:', 'bf16[8]{0:T(', '(s32[], ', 'b(u8[1]{0', 'f32[<='), bytesAsUtf8)
  .map(([a, b]) => a + b);

describe('fuzz: hostile shape text', function () {
  this.timeout(60_000);

  it('random token soup', () => {
    const counter = new InputCounter('shapes/token soup');
    fc.assert(
      fc.property(soup, (text) => {
        counter.add();
        checkAll(text);
      }),
      { numRuns: 1500 },
    );
    counter.print();
  });

  it('random UTF-16 code units, lone surrogates included', () => {
    const counter = new InputCounter('shapes/utf16');
    fc.assert(
      fc.property(utf16, (text) => {
        counter.add();
        checkAll(text);
      }),
      { numRuns: 400 },
    );
    counter.print();
  });

  it('random bytes decoded as UTF-8 (invalid sequences become U+FFFD), alone and after a valid prefix', () => {
    const counter = new InputCounter('shapes/bytes');
    fc.assert(
      fc.property(fc.oneof(bytesAsUtf8, prefixedBytes), (text) => {
        counter.add();
        checkAll(text);
      }),
      { numRuns: 600 },
    );
    counter.print();
  });

  it('layouts of thousands of random tile levels and shapes of thousands of dims', () => {
    // Each walk over the levels was quadratic: these must be answered (sized, or refused by name).
    const counter = new InputCounter('shapes/many levels');
    const tile = fc
      .array(fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant('*')), { minLength: 1, maxLength: 3 })
      .map((t) => `(${t.join(',')})`);
    const levels = fc
      .tuple(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 4 }),
        fc.array(tile, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 500, max: 3000 }),
      )
      .map(([dims, tiles, repeat]) => {
        const order = dims.map((_, i) => dims.length - 1 - i).join(',');
        const written = Array.from({ length: repeat }, (_, i) => tiles[i % tiles.length]).join('');
        return `f32[${dims.join(',')}]{${order}:T${written}}`;
      });
    const wide = fc
      .tuple(fc.integer({ min: 1_000, max: 70_000 }), fc.constantFrom('1', '2', '0', '-1'))
      .map(([rank, size]) => `s8[${Array(rank).fill(size).join(',')}]`);
    fc.assert(
      fc.property(fc.oneof(levels, wide), (text) => {
        counter.add();
        checkAll(text);
      }),
      { numRuns: 12 },
    );
    counter.print();
  });

  it('names inherited from Object.prototype are plain identifiers', () => {
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const d = parseShapeText(word).diagnostics;
      assert.deepEqual(
        d.map((x) => [x.code, x.message, x.plain, x.range]),
        [
          [
            'unknown-element-type',
            'expected primitive type, saw kIdent',
            `unknown element type \`${word}\`: element types are lower case, such as f32, bf16, s32 or pred`,
            { start: 0, end: word.length },
          ],
        ],
      );
    }
  });

  describe('integers at the int64 / uint64 edges', () => {
    const NUMBERS = [
      '9223372036854775807',
      '9223372036854775808',
      '18446744073709551615',
      '18446744073709551616',
      '-9223372036854775808',
      '-9223372036854775809',
      '1234567890123456789012345678901234567890',
    ];
    const TEMPLATES = [
      'f32[#]',
      'f32[<=#]',
      'f32[2,#]{1,0}',
      'f32[2]{#}',
      'f32[2]{0:T(#)}',
      'f32[2,2]{1,0:T(#,2)(2,#)}',
      'f32[2]{0:L(#)}',
      'f32[2]{0:E(#)}',
      'f32[2]{0:S(#)}',
      'f32[2]{0:M(#)}',
      'f32[9]{0:SC(#:1)}',
      'f32[9]{0:SC(0:#)}',
      'f32[2]{0:P(f32[#])}',
      '(f32[#], s32[])',
      'b(f32[#]{0})',
    ];

    it('never throw in any integer slot, and keep every range inside the text', () => {
      const counter = new InputCounter('shapes/int64 edges');
      for (const t of TEMPLATES) {
        for (const n of NUMBERS) {
          counter.add();
          checkAll(t.replaceAll('#', n));
        }
      }
      counter.print();
    });

    it('dimensions: overflow, bit-cast to negative, too large', () => {
      assert.deepEqual(codes('f32[9223372036854775807]'), ['dimensions-overflow']);
      assert.deepEqual(codes('s8[9223372036854775807]'), []);
      assert.deepEqual(codes('f32[9223372036854775808]'), ['invalid-dimension-size']);
      assert.deepEqual(codes('f32[18446744073709551615]'), ['invalid-dimension-size']);
      assert.match(
        allDiagnostics('f32[18446744073709551615]')[0].message,
        /Negative dimension at index 0: -1\./,
      );
      const big = allDiagnostics('f32[18446744073709551616]');
      assert.equal(big[0].code, 'integer-too-large');
      assert.deepEqual(big[0].range, { start: 4, end: 24 });
      assert.equal(codes('f32[1234567890123456789012345678901234567890]')[0], 'integer-too-large');
      assert.deepEqual(codes('f32[3037000500,3037000500]'), ['dimensions-overflow']);
      assert.deepEqual(codes('s8[3037000499,3037000499]'), []);
    });

    it("INT64_MIN is XLA's `*` in a tile and `?` after `<=`", () => {
      // Tile::kCombineDimension and Shape::kUnboundedSize are both INT64_MIN, and 2^63 lexes to it.
      for (const n of ['9223372036854775808', '-9223372036854775808']) {
        const tiled = parseShapeText(`f32[4,6]{1,0:T(${n},2)}`);
        assert.deepEqual(tiled.diagnostics, []);
        assert.equal(printShape(tiled.shape!), 'f32[4,6]{1,0:T(*,2)}');
        assert.deepEqual(toArrayShape(tiled.shape!)?.tiles, [['combine', 2n]]);
        const dim = parseShapeText(`f32[<=${n},2]`);
        assert.deepEqual([...dim.diagnostics, ...validateShape(dim.shape!)], []);
        assert.equal(printShape(dim.shape!), 'f32[?,2]{1,0}');
      }
      assert.deepEqual(codes('f32[2]{0:T(-9223372036854775807)}'), ['tile-negative']);
      assert.deepEqual(codes('f32[<=-1]'), ['invalid-dimension-size']);
      assert.deepEqual(codes('f32[-9223372036854775808]'), ['invalid-dimension-size']);
    });
  });

  it('degenerate attributes: E(0), L(0), L(-1), S(200), huge M', () => {
    assert.deepEqual(codes('f32[2]{0:E(0)}'), []);
    assert.equal(toArrayShape(parseShapeText('f32[2]{0:E(0)}').shape!)?.elementSizeBits, 0);
    assert.deepEqual(codes('f32[2]{0:L(0)}'), ['tail-alignment-invalid']);
    assert.deepEqual(
      allDiagnostics('f32[2]{0:L(-1)}').map((d) => [d.code, d.range]),
      [['tail-alignment-invalid', { start: 11, end: 13 }]],
    );
    assert.deepEqual(codes('f32[2]{0:S(200)}'), ['memory-space-range']);
    assert.equal(toArrayShape(parseShapeText('f32[2]{0:S(200)}').shape!)?.memorySpace, -56);
    assert.deepEqual(codes('f32[2]{0:M(9223372036854775807)}'), []);
    assert.equal(
      toArrayShape(parseShapeText('f32[2]{0:M(9223372036854775807)}').shape!)?.dynamicMetadataBytes,
      9223372036854775807n,
    );
    assert.deepEqual(codes('f32[2]{0:M(18446744073709551616)}'), ['integer-too-large']);
    assert.deepEqual(codes('f32[2]{0:E(-1)}'), ['element-size-negative']);
    // E past 2^53 is legal XLA but cannot be held exactly by the model's number: no silent sizes.
    const e = explainShapeText('u8[3]{0:E(9007199254740993)}');
    assert.equal(e.arrays[0].sizes, undefined);
    assert.equal(e.arrays[0].error?.code, 'element-size-too-large');
  });

  describe('10,000-deep nesting', () => {
    const DEPTH = 10_000;

    it("tuples stop at XLA's 8192 with recursion-depth", () => {
      const text = '('.repeat(DEPTH) + 'f32[]' + ')'.repeat(DEPTH);
      const start = performance.now();
      const d = parseShapeText(text).diagnostics;
      assert.deepEqual(
        d.map((x) => [x.code, x.range]),
        [['recursion-depth', { start: 8192, end: 8193 }]],
      );
      checkAll(text, false);
      const ok = '('.repeat(8192) + 'f32[]' + ')'.repeat(8192);
      assert.deepEqual(codes(ok), []);
      checkAll(ok, false);
      assert.ok(performance.now() - start < 15_000);
    });

    it('buffers and unclosed tuples too', () => {
      const buffers = 'b('.repeat(DEPTH) + 'f32[1]{0}' + ')'.repeat(DEPTH);
      assert.deepEqual(codes(buffers), ['recursion-depth']);
      checkAll(buffers, false);
      const open = '('.repeat(DEPTH);
      assert.deepEqual(codes(open), ['recursion-depth']);
      checkAll(open, false);
      // 8192 nested one-element tuples: explain's per-leaf paths make it slow, so parser and scanner only.
      const chain = '(f32[], '.repeat(DEPTH);
      checkShapeText(chain);
      checkScan(chain);
    });

    it("P( shapes stop at the parser's own nesting guard", () => {
      const text = 'f32[1]{0:P('.repeat(DEPTH) + 'f32[1]' + ')}'.repeat(DEPTH);
      const d = parseShapeText(text).diagnostics;
      assert.equal(d.length, 1);
      assert.equal(d[0].code, 'recursion-depth');
      // Reported where the 65th nested shape would start.
      assert.equal(d[0].range.start, 65 * 'f32[1]{0:P('.length);
      checkAll(text);
    });
  });

  it('CRLF, lone CR and mixed line endings are whitespace inside shapes', () => {
    const counter = new InputCounter('shapes/line endings');
    const base = [
      'f32[2,3]{1,0:T(2,2)L(4)}',
      '(f32[], /*index=5*/ s32[1]{0})',
      'bf16[8,256]{1,0:T(8,128)(2,1)S(1)}',
      'b(s4[64]{0:E(4)})',
    ];
    for (const shape of base) {
      const expected = printShape(parseShapeText(shape).shape!);
      for (const eol of ['\r\n', '\r', '\n', '\r\n\r', '\n\r']) {
        const spaced = shape.replace(/([,(:{[])/g, `$1${eol}`);
        counter.add();
        assert.deepEqual(codes(spaced), [], JSON.stringify(spaced));
        assert.equal(printShape(parseShapeText(spaced).shape!), expected);
        checkAll(spaced);
      }
    }
    counter.print();
  });

  it('100,000-character lines finish quickly', () => {
    const N = 100_000;
    const cases = [
      `f32[${'1,'.repeat(N / 2 - 4)}1]`,
      `f32[${'9'.repeat(N)}]`,
      `f32[2]{0:T(${'2,'.repeat(N / 2 - 8)}2)}`,
      `(${'f32[1]{0}, '.repeat(N / 11)}x`,
      `(${'f32[1]{0,1}, '.repeat(N / 13)}x`,
      `f32[2]{0:${'T(2)'.repeat(N / 4)}}`,
      `/*${'x'.repeat(N)}`,
      `"${'f32[1] '.repeat(N / 7)}`,
      '\u0000'.repeat(N),
      '\ud800'.repeat(N),
      '['.repeat(N),
      '{'.repeat(N),
      'f32'.repeat(N / 3),
    ];
    const counter = new InputCounter('shapes/100k lines');
    for (const text of cases) {
      counter.add();
      const start = performance.now();
      checkAll(text, false);
      assert.ok(
        performance.now() - start < 10_000,
        `${text.slice(0, 20)}… took ${performance.now() - start} ms`,
      );
    }
    // A 50,000-rank shape is valid and its model is exact.
    const rank = parseShapeText(cases[0]).shape as ArrayShapeNode;
    assert.equal(rank.dims.length, N / 2 - 3);
    assert.equal(toArrayShape(rank)?.minorToMajor[0], N / 2 - 4);
    counter.print();
  });

  it('1,000,000 shapes on one line, scanned in windows, in bounded time', () => {
    const count = 1_000_000;
    const unit = 'f32[1]{0} ';
    const line = unit.repeat(count);
    const start = performance.now();
    let found = 0;
    // Windows end on shape boundaries, as a streaming reader's would.
    const window = unit.length * 50_000;
    for (let at = 0; at < line.length; at += window) {
      const shapes = scanShapes(line, at, Math.min(line.length, at + window));
      found += shapes.length;
      assert.equal(shapes[shapes.length - 1].shape.range.end, Math.min(line.length, at + window) - 1);
    }
    const ms = performance.now() - start;
    console.log(`      [fuzz] shapes/1M on one line: ${count} shapes scanned in ${ms.toFixed(0)} ms`);
    assert.equal(found, count);
    assert.ok(ms < 30_000, `took ${ms} ms`);
  });
});
