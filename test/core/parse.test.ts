import { strict as assert } from 'node:assert';
import type { ArrayShapeNode, BufferShapeNode, TupleShapeNode } from '../../core/src/ast';
import type { LayoutDiagnostic } from '../../core/src/diagnostics';
import { parseShape, parseShapeText } from '../../core/src/parse';
import { printShape } from '../../core/src/print';

/** The substring a diagnostic covers; `''` at the end of the text for an end-of-input error. */
function covered(text: string, d: LayoutDiagnostic): string {
  return text.slice(d.range.start, d.range.end);
}

/**
 * Asserts exactly one diagnostic, with `code`, covering the last occurrence of `what` in `text`
 * (or the empty range at the end for '').
 */
function expectOnly(
  text: string,
  diagnostics: readonly LayoutDiagnostic[],
  code: string,
  what: string,
): LayoutDiagnostic {
  assert.equal(diagnostics.length, 1, `${text}: ${JSON.stringify(diagnostics)}`);
  const d = diagnostics[0];
  assert.equal(d.code, code, text);
  const at = what === '' ? text.length : text.lastIndexOf(what);
  assert.ok(at >= 0, `${what} not in ${text}`);
  assert.deepEqual(
    d.range,
    { start: at, end: at + what.length },
    `${text}: covers ${JSON.stringify(covered(text, d))}`,
  );
  return d;
}

describe('parseShape: valid shapes', () => {
  it('reads a tiled array with every part ranged', () => {
    const text = 'bf16[8,256]{1,0:T(8,128)(2,1)S(1)}';
    const r = parseShapeText(text);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.end, text.length);
    const s = r.shape as ArrayShapeNode;
    assert.equal(s.kind, 'array');
    assert.equal(s.elementType, 'bf16');
    assert.deepEqual(s.elementTypeRange, { start: 0, end: 4 });
    assert.deepEqual(s.dimsRange, { start: 4, end: 11 });
    assert.deepEqual(
      s.dims.map((d) => [d.kind, d.value]),
      [
        ['static', 8n],
        ['static', 256n],
      ],
    );
    const layout = s.layout!;
    assert.deepEqual(layout.range, { start: 11, end: text.length });
    assert.deepEqual(
      layout.minorToMajor.map((i) => i.value),
      [1n, 0n],
    );
    assert.equal(text.slice(layout.tiles!.range.start, layout.tiles!.range.end), 'T(8,128)(2,1)');
    assert.deepEqual(
      layout.tiles!.tiles.map((t) => text.slice(t.range.start, t.range.end)),
      ['(8,128)', '(2,1)'],
    );
    assert.deepEqual(
      layout.tiles!.tiles[1].entries.map((e) => e.value),
      [2n, 1n],
    );
    assert.equal(text.slice(layout.memorySpace!.range.start, layout.memorySpace!.range.end), 'S(1)');
    assert.equal(layout.memorySpace!.value.value, 1n);
  });

  it('reads every attribute in XLA order', () => {
    const text = 'f32[4,8]{0,1:D(D,C+~)T(2,*)L(4)#(u32)*(u16)E(32)S(5)SC(0:1,2)(1:3)P(f32[4,8]{1,0})M(16)}';
    const r = parseShapeText(text);
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['physical-shape-dense'],
    );
    const l = (r.shape as ArrayShapeNode).layout!;
    assert.deepEqual(
      l.dimLevelTypes!.levels.map((d) => [d.level, d.unique, d.ordered]),
      [
        ['D', true, true],
        ['C', false, false],
      ],
    );
    assert.deepEqual(
      l.tiles!.tiles[0].entries.map((e) => e.value),
      [2n, 'combine'],
    );
    assert.equal(l.tailPaddingAlignment!.value.value, 4n);
    assert.equal(l.indexType!.typeName, 'u32');
    assert.equal(l.pointerType!.typeName, 'u16');
    assert.equal(l.elementSizeBits!.value.value, 32n);
    assert.equal(l.memorySpace!.value.value, 5n);
    assert.deepEqual(
      l.splitConfigs!.configs.map((c) => [c.dimension.value, c.indices.map((i) => i.value)]),
      [
        [0n, [1n, 2n]],
        [1n, [3n]],
      ],
    );
    assert.equal(l.physicalShape!.shape.kind, 'array');
    assert.equal(l.dynamicMetadataBytes!.value.value, 16n);
  });

  it('reads dynamic dimensions and scalars', () => {
    const s = parseShapeText('f32[3, <=4, ?]').shape as ArrayShapeNode;
    assert.deepEqual(
      s.dims.map((d) => [d.kind, d.value]),
      [
        ['static', 3n],
        ['bounded', 4n],
        ['unbounded', 0n],
      ],
    );
    assert.deepEqual(
      s.dims.map((d) => d.range),
      [
        { start: 4, end: 5 },
        { start: 7, end: 10 },
        { start: 12, end: 13 },
      ],
    );
    const scalar = parseShapeText('s32[]{:T(128)S(2)}');
    assert.deepEqual(scalar.diagnostics, []);
    assert.equal((scalar.shape as ArrayShapeNode).layout!.minorToMajor.length, 0);
  });

  it('allows whitespace and comments wherever the lexer does', () => {
    const text = 'f32[ 1, 2,3 ]{ 2, 1 , 0 /* c */ : T( 2, * , 128 ) ( 2 , 1 ) }';
    const r = parseShapeText(text);
    assert.deepEqual(r.diagnostics, []);
    const l = (r.shape as ArrayShapeNode).layout!;
    assert.deepEqual(
      l.tiles!.tiles.map((t) => t.entries.map((e) => e.value)),
      [
        [2n, 'combine', 128n],
        [2n, 1n],
      ],
    );
  });

  it('reads nested tuples with index comments, the empty tuple and buffers', () => {
    const text = '(f32[], (s32[2]{0}, ()), f32[], f32[], f32[], /*index=5*/b(f32[4]{0}), token[])';
    const r = parseShapeText(text);
    assert.deepEqual(r.diagnostics, []);
    const t = r.shape as TupleShapeNode;
    assert.equal(t.elements.length, 7);
    const inner = t.elements[1] as TupleShapeNode;
    assert.equal(text.slice(inner.range.start, inner.range.end), '(s32[2]{0}, ())');
    assert.equal((inner.elements[1] as TupleShapeNode).elements.length, 0);
    const buffer = t.elements[5] as BufferShapeNode;
    assert.equal(buffer.kind, 'buffer');
    assert.equal(text.slice(buffer.range.start, buffer.range.end), 'b(f32[4]{0})');
  });

  it('bit-casts integers in 2^63..2^64-1 like XLA and rejects larger ones', () => {
    const wrapped = parseShapeText('f32[18446744073709551615]').shape as ArrayShapeNode;
    assert.equal(wrapped.dims[0].value, -1n);
    const text = 'f32[18446744073709551616]';
    expectOnly(text, parseShapeText(text).diagnostics, 'integer-too-large', '18446744073709551616');
  });

  it('takes { as a layout only when an integer or : follows', () => {
    const text = '%c (p: f32[2]) -> f32[2] {\n  ROOT %p = f32[2]{0} parameter(0)\n}';
    const at = text.indexOf('f32[2] {');
    const r = parseShape(text, at);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.end, at + 'f32[2]'.length);
    assert.equal((r.shape as ArrayShapeNode).layout, undefined);
    const layout = parseShape('f32[2] {0}');
    assert.equal(layout.end, 10);
  });

  it("reads a layout's attributes as XLA does, going on past a `)` or type left out", () => {
    // XLA's ParseLayout ignores what each attribute's own parser returns and only insists on the
    // final `}` (jaxlib 0.10.2 accepts every one of these; test/xla checks such shapes against it).
    const cases: [text: string, printed: string][] = [
      ['f32[4]{0:T(2}', 'f32[4]{0:T(2)}'],
      ['f32[4]{0:T(2,3}', 'f32[4]{0:T(2,3)}'],
      ['f32[4]{0:T(128E(4)}', 'f32[4]{0:T(128)E(4)}'],
      ['f32[4]{0:T(2,E(32)}', 'f32[4]{0:T(2)E(32)}'],
      ['f32[4]{0:T(2)(3L(1)}', 'f32[4]{0:T(2)(3)}'],
      ['f32[4]{0:S(1}', 'f32[4]{0:S(1)}'],
      ['f32[4]{0:E(1 S(2)}', 'f32[4]{0:E(1)S(2)}'],
      ['f32[4]{0:E(}', 'f32[4]{0}'],
      ['f32[4]{0:SC(0:1}', 'f32[4]{0:SC(0:1)}'],
      ['f32[4]{0:D(D}', 'f32[4]{0}'],
      ['f32[4]{0:#()}', 'f32[4]{0}'],
    ];
    for (const [text, printed] of cases) {
      const r = parseShapeText(text);
      assert.deepEqual(r.diagnostics, [], text);
      assert.equal(printShape(r.shape!), printed, text);
    }
    // `T` with no `(` is an empty tile to XLA, which its validator refuses.
    const empty = parseShapeText('f32[4]{0:T}');
    assert.deepEqual(empty.diagnostics, []);
    assert.deepEqual(
      (empty.shape as ArrayShapeNode).layout?.tiles?.tiles.map((t) => t.entries.length),
      [0],
    );
  });

  it('honours start and end bounds', () => {
    const text = 'xx f32[2,3]{1,0} yy';
    const r = parseShape(text, 2, { end: 11 });
    assert.equal(r.end, 11);
    assert.equal((r.shape as ArrayShapeNode).layout, undefined);
    assert.deepEqual(r.shape!.range, { start: 3, end: 11 });
  });
});

describe('parseShape: errors carry XLA text and exact ranges', () => {
  const cases: readonly [text: string, code: string, covered: string, message?: string][] = [
    ['g32[]', 'unknown-element-type', 'g32', 'expected primitive type, saw kIdent'],
    ['32[]', 'expected-primitive-type', '32', 'expected primitive type, saw kInt'],
    ['b()', 'expected-primitive-type', ')', 'expected primitive type, saw kRparen'],
    ['(s32[], )', 'expected-primitive-type', ')', 'expected primitive type, saw kRparen'],
    ['(p: f32[])', 'expected-primitive-type', 'p', 'expected primitive type, saw kName'],
    ['f32', 'expected-token', '', 'expects a list starting with kLsquare'],
    ['f32[2,3', 'expected-token', '', 'expects a list to end with kRsquare'],
    ['f32[2;3]', 'expected-token', ';', 'expects a list to end with kRsquare'],
    ['f32[2x3]', 'expected-integer', '2x3', 'expects integer'],
    ['f32[1e5]', 'expected-integer', '1e5', 'expects integer'],
    ['f32[1_2]', 'expected-integer', '1_2', 'expects integer'],
    ['f32[<=?]', 'expected-integer', '?', 'expects integer'],
    ['f32[<3]', 'expected-integer', '<', 'expects integer'],
    ['f32[2,3]{1,0', 'expected-token', '', 'expects layout to end with kRbrace'],
    ['f32[2,3]{1,0,}', 'expected-integer', '}', 'expects integer'],
    ['f32[2,3]{1,0:S(1)T(2,2)}', 'layout-attribute-order', 'S(1)', 'expects layout to end with kRbrace'],
    [
      'f32[2,3]{1,0:E(4)S(1)T(2,2)}',
      'layout-attribute-order',
      'E(4)S(1)',
      'expects layout to end with kRbrace',
    ],
    ['f32[2,3]{1,0:T(2,2)T(2,2)}', 'layout-attribute-order', 'T(2,2)', 'expects layout to end with kRbrace'],
    ['f32[2,3]{1,0:X(1)}', 'layout-attribute-order', 'X(1)', 'expects layout to end with kRbrace'],
    ['f32[2,3]{1,0:T(2,x)}', 'expected-integer', 'x', 'expects integer'],
    ['f32[2,3]{1,0:E4}', 'layout-attribute-order', 'E4', 'expects layout to end with kRbrace'],
    [
      'f32[2,3]{1,0:L 4}',
      'expected-token',
      '4',
      'expects multiple padded to in elements to start with kLparen',
    ],
    ['f32[2,3]{1,0:S(1 E(2)}', 'expected-token', 'E', 'expects memory space to end with kRparen'],
    ['f32[2,3]{1,0:T(2L(1)(3)}', 'expected-token', 'L', 'expects a list to end with kRparen'],
    ['f32[2,3]{1,0:#(x)}', 'expected-primitive-type', 'x', 'expected primitive type, saw kIdent'],
    ['f32[2,3]{1,0:SC(1)}', 'expected-token', ')', 'expects a list starting with kColon'],
    ['f32[2,3]{1,0:SC 1}', 'expected-token', '1', 'expects split configs to start with kLparen'],
    ['f32[2,3]{1,0:P f32[2]}', 'expected-token', 'f32', 'expects physical shape to start with kLparen'],
    ['f32[2,3]{1,0:D(X,C)}', 'dim-level-type', 'X', 'expected a DimLevelType abbreviation (D, C, or S)'],
    ['f32[2,3]{1,0,2}', 'rank-mismatch', '1,0,2', 'Dimensions size is 2, but minor to major size is 3.'],
    [
      'f32[2,3]{:T(2,2)}',
      'rank-mismatch',
      '{:T(2,2)}',
      'Dimensions size is 2, but minor to major size is 0.',
    ],
    [
      'f32[2,3]{1,0:P(f32[2,3])}',
      'physical-shape-dense',
      'P(f32[2,3])',
      'Layout has physical shape, but is not for a sparse array: {1,0:P(f32[2,3]{1,0})}',
    ],
    ['b(s32[], f32[])', 'expected-token', ',', "expects ')' at the end of buffer shape."],
    [
      'b((f32[2]))',
      'buffer-element',
      '(f32[2])',
      'element_shape must be an array shape to create a buffer shape.',
    ],
    ['(f32[2] %x)', 'expected-token', '%x', "expects ')' at the end of tuple."],
    ['f32[2,3]{}', 'extra-content', '{}', 'Extra content after shape'],
    ['(f32[2]){0}', 'extra-content', '{0}', 'Extra content after shape'],
    ['f32[2]/* open', 'extra-content', '/* open', 'Extra content after shape'],
  ];
  for (const [text, code, what, message] of cases) {
    it(`${text} -> ${code} on ${JSON.stringify(what)}`, () => {
      const d = expectOnly(text, parseShapeText(text).diagnostics, code, what);
      if (message !== undefined) assert.equal(d.message, message);
    });
  }

  it('an unknown element type says in plain words which types it most likely means', () => {
    const words = (text: string) => parseShapeText(text).diagnostics.map((d) => [d.code, d.plain]);
    assert.deepEqual(words('g32[]'), [
      ['unknown-element-type', 'unknown element type `g32`; did you mean `s32`, `u32` or `f32`?'],
    ]);
    assert.deepEqual(words('F32[2]'), [
      ['unknown-element-type', 'unknown element type `F32`; did you mean `f32`?'],
    ]);
    assert.deepEqual(words('TYPE[2]'), [
      [
        'unknown-element-type',
        'unknown element type `TYPE`: element types are lower case, such as f32, bf16, s32 or pred',
      ],
    ]);
  });

  it('stops at the first fatal error and keeps the tree read so far', () => {
    const text = '(s32[], f32[2,3]{1,0:T(2,x)}, u8[])';
    const r = parseShapeText(text);
    assert.equal(r.diagnostics.length, 1);
    assert.equal(r.end, text.indexOf('x'));
    const t = r.shape as TupleShapeNode;
    assert.equal(t.kind, 'tuple');
    assert.equal(t.elements.length, 2);
    const partial = t.elements[1] as ArrayShapeNode;
    assert.deepEqual(
      partial.dims.map((d) => d.value),
      [2n, 3n],
    );
    assert.deepEqual(
      partial.layout!.minorToMajor.map((i) => i.value),
      [1n, 0n],
    );
  });

  it('keeps misordered attributes in the tree after reporting them', () => {
    const r = parseShapeText('f32[2,3]{1,0:S(1)T(2,2)}');
    const l = (r.shape as ArrayShapeNode).layout!;
    assert.equal(l.memorySpace!.value.value, 1n);
    assert.deepEqual(
      l.tiles!.tiles[0].entries.map((e) => e.value),
      [2n, 2n],
    );
  });

  it('reports recursion deeper than 8192 quickly, without overflowing the stack', () => {
    const depth = 10_000;
    const text = '('.repeat(depth) + 'f32[]' + ')'.repeat(depth);
    const t0 = performance.now();
    const r = parseShapeText(text);
    assert.ok(performance.now() - t0 < 1000);
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['recursion-depth'],
    );
    assert.equal(r.diagnostics[0].message, 'maximum recursion depth exceeded');
    assert.deepEqual(r.diagnostics[0].range, { start: 8192, end: 8193 });
    const ok = parseShapeText('('.repeat(8000) + 'f32[]' + ')'.repeat(8000));
    assert.deepEqual(ok.diagnostics, []);
    const shallow = parseShape('((f32[]))', 0, { maxDepth: 1 });
    assert.deepEqual(
      shallow.diagnostics.map((d) => d.code),
      ['recursion-depth'],
    );
  });

  it('bounds nesting through P(...) as well', () => {
    const text = 'f32[1]{0:P('.repeat(100) + 'f32[1]' + ')}'.repeat(100);
    const codes = new Set(parseShapeText(text).diagnostics.map((d) => d.code));
    assert.ok(codes.has('recursion-depth'));
  });
});
