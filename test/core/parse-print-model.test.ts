import { strict as assert } from 'node:assert';
import type { ArrayShape } from '../../core/src/model';
import { parseShapeText } from '../../core/src/parse';
import { printLayout, printShape } from '../../core/src/print';
import { toArrayShape } from '../../core/src/to-model';

function print(text: string, layout = true): string {
  return printShape(parseShapeText(text).shape!, { layout });
}

function model(text: string): ArrayShape | undefined {
  return toArrayShape(parseShapeText(text).shape!);
}

describe('printShape: XLA canonical text', () => {
  const cases: readonly [written: string, canonical: string][] = [
    ['f32[ 1, 2,3 ]{ 2, 1 , 0 : T( 2, * , 128 ) }', 'f32[1,2,3]{2,1,0:T(2,*,128)}'],
    ['f32[2,3]', 'f32[2,3]{1,0}'],
    ['f32[]', 'f32[]'],
    ['f32[]{:S(0)}', 'f32[]'],
    ['u32[]{:T(128)}', 'u32[]{:T(128)}'],
    ['f32[4096]{0:S(0)L(1)E(0)M(0)}', 'f32[4096]{0}'],
    ['f32[2]{0:M(-3)}', 'f32[2]{0}'],
    ['f32[3,4]{1,0:D(C+,S)T(8,128)}', 'f32[3,4]{1,0:T(8,128)}'],
    [
      'f32[4,8]{0,1:T(2,2)L(4)#(u32)*(u16)E(32)S(5)SC(0:1,2)(1:3)M(16)}',
      'f32[4,8]{0,1:T(2,2)L(4)#(u32)*(u16)E(32)S(5)SC(0:1,2)(1:3)M(16)}',
    ],
    ['f32[10,10]{1,0:T(128,8)P(f32[10,10])}', 'f32[10,10]{1,0:T(128,8)P(f32[10,10]{1,0})}'],
    ['s32[<=4, ?]', 's32[<=4,?]{1,0}'],
    ['token[]', 'token[]'],
    ['token[]{0}', 'token[]'],
    ['b(f32[4, 16])', 'b(f32[4,16]{1,0})'],
    ['( )', '()'],
    [
      '(f32[],f32[],f32[],f32[],f32[],f32[],f32[],f32[],f32[],f32[],f32[])',
      '(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[], f32[], f32[], f32[], /*index=10*/f32[])',
    ],
    ['((f32[2]), s32[])', '((f32[2]{0}), s32[])'],
  ];
  for (const [written, canonical] of cases) {
    it(`${written} -> ${canonical}`, () => assert.equal(print(written), canonical));
  }

  it('prints without layouts as ShapeUtil::HumanString does', () => {
    assert.equal(print('(f32[2,3]{0,1:T(2,2)}, s32[<=4]{0})', false), '(f32[2,3], s32[<=4])');
  });

  it('prints a layout node on its own', () => {
    const shape = parseShapeText('bf16[2,3,4]{1,2,0:T(16,256)(2,1)}').shape!;
    assert.equal(shape.kind, 'array');
    if (shape.kind === 'array') assert.equal(printLayout(shape.layout!), '{1,2,0:T(16,256)(2,1)}');
  });

  it('prints the model with its defaults filled in', () => {
    assert.equal(printShape(model('f32[2,3]')!), 'f32[2,3]{1,0}');
    assert.equal(printShape(model('f32[]')!), 'f32[]');
    assert.equal(
      printShape(model('s4[9216,6144]{1,0:T(64,128)(8,1)E(4)S(1)}')!),
      's4[9216,6144]{1,0:T(64,128)(8,1)E(4)S(1)}',
    );
    assert.equal(printShape(model('f32[<=8,?]{0,1:L(4)SC(1:2)M(64)}')!), 'f32[<=8,?]{0,1:L(4)SC(1:2)M(64)}');
    assert.equal(printShape(model('f32[2]{0:E(8)}')!, { layout: false }), 'f32[2]');
  });
});

describe('toArrayShape', () => {
  it('fills XLA defaults', () => {
    assert.deepEqual(model('f32[2,3,4]'), {
      elementType: 'f32',
      dims: [2n, 3n, 4n],
      dynamic: ['static', 'static', 'static'],
      minorToMajor: [2, 1, 0],
      tiles: [],
      elementSizeBits: 0,
      tailPaddingAlignment: 1n,
      memorySpace: 0,
      splitConfigs: [],
      dynamicMetadataBytes: 0n,
    });
    assert.deepEqual(model('s32[]')!.minorToMajor, []);
  });

  it('carries every attribute', () => {
    assert.deepEqual(model('bf16[<=8,256,?]{0,2,1:T(8,*)(2,1)L(1024)E(16)S(1)SC(0:4,6)M(16)}'), {
      elementType: 'bf16',
      dims: [8n, 256n, 0n],
      dynamic: ['bounded', 'static', 'unbounded'],
      minorToMajor: [0, 2, 1],
      tiles: [
        [8n, 'combine'],
        [2n, 1n],
      ],
      elementSizeBits: 16,
      tailPaddingAlignment: 1024n,
      memorySpace: 1,
      splitConfigs: [{ dimension: 0, indices: [4n, 6n] }],
      dynamicMetadataBytes: 16n,
    });
  });

  it('wraps S(n) to int8 as XLA stores it', () => {
    assert.equal(model('f32[2]{0:S(200)}')!.memorySpace, -56);
  });

  it('keeps sizes past 2^53 exact', () => {
    assert.deepEqual(model('u8[9007199254740993]')!.dims, [9007199254740993n]);
  });

  it('is undefined when there is nothing sound to compute with', () => {
    for (const text of [
      '(f32[2], s32[])',
      'b(f32[2])',
      'token[]',
      'opaque[]',
      'f32[2,3]{0,0}',
      'f32[2,3]{1,0,2}',
      'f32[2]{0:T(0)}',
      'f32[2]{0:T(-1)}',
      'f32[2]{0:L(0)}',
      'f32[2]{0:#(u32)}',
      'f32[2]{0:P(f32[2])}',
      'f32[-1]',
      'f32[4611686018427387904,4]',
      'f32[2]{0:E(-1)}',
      'pred[4]{0:SC(0:9)}',
    ]) {
      assert.equal(model(text), undefined, text);
    }
  });

  it('computes with shapes that only draw advice', () => {
    assert.notEqual(model('f32[2]{0:E(16)}'), undefined);
    assert.notEqual(model('f32[3]{0:T(8,128)}'), undefined);
    assert.notEqual(model('f32[10,10]{1,0:D(D,C)}'), undefined);
  });
});
