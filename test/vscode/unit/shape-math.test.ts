/** The client's computations behind "Linear Index of Element…" and "Element at Offset…". */
import { strict as assert } from 'node:assert';
import {
  explainElementAt,
  explainLinearIndex,
  parseArrayShape,
  parseIndex,
  parseOffset,
} from '../../../client/src/shape-math';
import { isLayoutError } from '../../../core/src';

/** Figure 1 of the spec: f32[3,5] in 2×2 tiles, padded to 4×6 = 24 slots; (r,c) → 4·(3·⌊r/2⌋+⌊c/2⌋) + 2·(r mod 2) + c mod 2. */
const FIG1 = 'f32[3,5]{1,0:T(2,2)}';

function shapeOf(text: string) {
  const parsed = parseArrayShape(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.shape;
}

describe('client: shape input and index math', () => {
  it('accepts a valid array shape and explains why others are refused', () => {
    assert.equal(parseArrayShape(`  ${FIG1} `).ok, true);
    const dup = parseArrayShape('f32[2,2]{1,1}');
    assert.equal(dup.ok, false);
    const tuple = parseArrayShape('(f32[2]{0}, s32[])');
    assert.ok(!tuple.ok && /Tuples/.test(tuple.message), JSON.stringify(tuple));
    const empty = parseArrayShape('');
    assert.ok(!empty.ok && /Type an array shape/.test(empty.message));
    const garbage = parseArrayShape('f32[2');
    assert.ok(!garbage.ok && /column \d+/.test(garbage.message), JSON.stringify(garbage));
  });

  it('parses indices in every written form and checks rank and bounds', () => {
    const shape = shapeOf(FIG1);
    assert.deepEqual(parseIndex('2,3', shape), [2n, 3n]);
    assert.deepEqual(parseIndex('[2, 3]', shape), [2n, 3n]);
    assert.deepEqual(parseIndex('(2 3)', shape), [2n, 3n]);
    assert.equal(parseIndex('2', shape), 'Give 2 indexes (one per dimension), e.g. 0,0');
    assert.equal(parseIndex('3,0', shape), 'Index 3 is outside dimension 0 (size 3): use 0..2');
    assert.equal(parseIndex('1,x', shape), "'x' is not an integer");
    assert.deepEqual(parseIndex('', shapeOf('f32[]')), []);
  });

  it('parses offsets, hex included, up to the last physical slot', () => {
    const shape = shapeOf(FIG1);
    assert.equal(parseOffset('17', shape), 17n);
    assert.equal(parseOffset('0x11', shape), 17n);
    assert.equal(parseOffset('23', shape), 23n);
    assert.equal(parseOffset('24', shape), 'Offset 24 is past the last slot (23); the array has 24 slots');
    assert.equal(
      parseOffset('-1', shape),
      'Type an element slot (17, 0x11, slot 17) or a byte offset (68B, 68 B, byte 68), as Linear Index answers',
    );
    // Bytes, as Linear Index answers them: f32 slot 17 starts at byte 68.
    for (const bytes of ['68B', '68 B', 'byte 68', 'bytes 68', 'byte 0x44', 'Byte 68'])
      assert.equal(parseOffset(bytes, shape), 17n, bytes);
    assert.equal(parseOffset('slot 17', shape), 17n);
    assert.equal(
      parseOffset('byte 70', shape),
      'Byte 70 is inside slot 17, which starts at byte 68 (32 bits per element)',
    );
    assert.equal(
      parseOffset('byte 96', shape),
      'Offset 96 (slot 24) is past the last slot (23); the array has 24 slots',
    );
    assert.match(String(parseOffset('slot 17B', shape)), /^Type an element slot/);
    // With E(4) packing a byte holds two slots: byte 3 starts slot 6.
    const packed = parseArrayShape('s4[16]{0:E(4)}');
    assert.ok(packed.ok);
    assert.equal(parseOffset('byte 3', packed.shape), 6n);
  });

  it('puts Figure 1 element (2,3) at slot 17, byte 68, with the tile step shown', () => {
    const answer = explainLinearIndex(FIG1, shapeOf(FIG1), [2n, 3n]);
    assert.ok(!isLayoutError(answer), JSON.stringify(answer));
    assert.equal(answer.summary, `[2,3] of ${FIG1} is at linear index 17 (byte 68)`);
    assert.match(answer.steps, /pad → \[4,6\], reshape → \[2,2,3,2\], transpose → \[2,3,2,2\]/);
    assert.match(answer.steps, /Index \[2,3\] → \[1,1,0,1\]/);
    assert.match(answer.steps, /= \*\*17\*\*/);
  });

  it('maps slot 17 back to (2,3) and calls slot 9 the padding of dimension 1', () => {
    const shape = shapeOf(FIG1);
    const element = explainElementAt(FIG1, shape, 17n);
    assert.ok(!isLayoutError(element));
    assert.equal(element.summary, `Slot 17 (byte 68) of ${FIG1} holds element [2,3]`);
    const padding = explainElementAt(FIG1, shape, 9n);
    assert.ok(!isLayoutError(padding));
    assert.equal(padding.summary, `Slot 9 (byte 36) of ${FIG1} is padding (no element)`);
    assert.match(padding.steps, /padding\*\* of tile 1 \(2,2\): it lies past the end of dimension\(s\) 1/);
  });

  it('states the sizes with grouped digits: T(8,128) on f32[8,4] stores 1,024 slots, 992 of them padding', () => {
    const text = 'f32[8,4]{1,0:T(8,128)}';
    const answer = explainLinearIndex(text, shapeOf(text), [1n, 2n]);
    assert.ok(!isLayoutError(answer));
    assert.match(answer.steps, /^- Logical elements 32; physical slots 1,024 \(992 padding\)$/m);
    assert.match(answer.steps, /^- Logical bytes 128; physical bytes 4,096; 32 bits per element$/m);
  });

  it('gives bit positions for sub-byte E(4) packing', () => {
    const text = 's4[4,4]{1,0:E(4)}';
    const answer = explainLinearIndex(text, shapeOf(text), [1n, 1n]);
    assert.ok(!isLayoutError(answer));
    assert.equal(answer.summary, `[1,1] of ${text} is at linear index 5 (bit 20 (byte 2 + 4 bits))`);
  });

  it('shows a typed shape as code in the steps and as XLA prints it in the summary, never as markdown', () => {
    // A comment is part of a valid shape; what it holds must not become HTML or a command link.
    const text =
      'f32[3,5]/*`<img src=x onerror=alert(1)>[run](command:workbench.action.terminal.new)*/{1,0:T(2,2)}';
    const answer = explainLinearIndex(text, shapeOf(text), [2n, 3n]);
    assert.ok(!isLayoutError(answer), JSON.stringify(answer));
    const header = answer.steps.split('\n').find((l) => l.startsWith('Shape: '));
    assert.equal(header, `Shape: \`\`${text}\`\``);
    assert.equal(answer.summary, `[2,3] of ${FIG1} is at linear index 17 (byte 68)`);
    const element = explainElementAt(text, shapeOf(text), 9n);
    assert.ok(!isLayoutError(element));
    assert.equal(element.summary, `Slot 9 (byte 36) of ${FIG1} is padding (no element)`);
  });
});
