/**
 * The visualizer panel's plain helpers (client/src/visualizer/cursor-shape.ts): which shape the
 * cursor is on when the server found a tuple, and where an element picked on the page lies.
 */
import { strict as assert } from 'node:assert';
import { elementOffsets, shapeForCursor } from '../../../client/src/visualizer/cursor-shape';
import type { AnalyzeShapeResult, ArrayAnalysis, Range } from '../../../protocol/src/lsp';

const range = (line: number, from: number, to: number): Range => ({
  start: { line, character: from },
  end: { line, character: to },
});

function leaf(path: number[], text: string, r: Range): ArrayAnalysis {
  return {
    path,
    text,
    range: r,
    elementType: 'f32',
    dims: [],
    physicalOrder: [],
    physicalDims: [],
    tiles: [],
    steps: [],
    expandedShape: [],
    padding: [],
    memorySpace: { value: 0, meaning: '' },
  };
}

describe('client: the shape under the cursor for the visualizer', () => {
  // `  ROOT %t = (f32[2]{0}, bf16[4,8]{1,0})`: the tuple spans characters 12-39 of line 5.
  const tuple: AnalyzeShapeResult = {
    text: '(f32[2]{0}, bf16[4,8]{1,0})',
    range: range(5, 12, 39),
    owner: 't',
    analysis: {
      hasErrors: false,
      diagnostics: [],
      arrays: [leaf([0], 'f32[2]{0}', range(5, 13, 22)), leaf([1], 'bf16[4,8]{1,0}', range(5, 24, 38))],
    },
  };

  it('shows the tuple element under the cursor, else the whole tuple', () => {
    assert.deepEqual(shapeForCursor(tuple, { line: 5, character: 30 }), {
      shape: 'bf16[4,8]{1,0}',
      range: range(5, 24, 38),
    });
    assert.deepEqual(shapeForCursor(tuple, { line: 5, character: 13 }).shape, 'f32[2]{0}');
    assert.deepEqual(shapeForCursor(tuple, { line: 5, character: 23 }), {
      shape: tuple.text,
      range: tuple.range,
    });
    // On the instruction's name the server answers with its (tuple) shape: the tuple it is.
    assert.deepEqual(shapeForCursor(tuple, { line: 5, character: 8 }).shape, tuple.text);
  });

  it('shows an array shape as it is', () => {
    const array: AnalyzeShapeResult = {
      text: 'f32[2]{0}',
      range: range(3, 7, 16),
      analysis: { hasErrors: false, diagnostics: [], arrays: [leaf([], 'f32[2]{0}', range(3, 7, 16))] },
    };
    assert.deepEqual(shapeForCursor(array, { line: 3, character: 9 }), {
      shape: 'f32[2]{0}',
      range: range(3, 7, 16),
    });
  });

  it('says when the text it found was cut, so the document is read instead', () => {
    const long: AnalyzeShapeResult = {
      ...tuple,
      text: '(f32[2]{0}, … , f32[2]{0})',
      textCut: { length: 90_000 },
      analysis: {
        ...tuple.analysis,
        arrays: [{ ...leaf([0], 'f32[1,1, … ,1]', range(5, 13, 3013)), textCut: { length: 3000 } }],
      },
    };
    assert.deepEqual(shapeForCursor(long, { line: 5, character: 20 }), {
      shape: 'f32[1,1, … ,1]',
      range: range(5, 13, 3013),
      cut: true,
    });
    assert.equal(shapeForCursor(long, { line: 5, character: 8 }).cut, true);
    assert.equal(shapeForCursor(tuple, { line: 5, character: 8 }).cut, undefined);
  });

  it("maps a picked element's offsets into the document, never past the range the host sent", () => {
    assert.deepEqual(elementOffsets(100, 127, { start: 12, end: 26 }), { start: 112, end: 126 });
    assert.deepEqual(elementOffsets(100, 127, { start: 12, end: 9000 }), { start: 112, end: 127 });
    assert.deepEqual(elementOffsets(100, 127, { start: 5000, end: 9000 }), { start: 127, end: 127 });
  });
});
