/**
 * The slice the visualizer opens on (webview/src/default-slice.ts): where the first tile pads,
 * the two dims in memory order, and the sentence that says why, for every kind of layout.
 */
import { strict as assert } from 'node:assert';
import { analyzeShape } from '../../webview/src/analyze';
import { defaultSlice } from '../../webview/src/default-slice';

function sliceOf(text: string): { rows?: number; cols?: number; reason: string } {
  const a = analyzeShape(text);
  assert.equal(a.kind, 'array', text);
  if (a.kind !== 'array') return { reason: '' };
  const c = defaultSlice(a);
  return { rows: c.rowDim, cols: c.colDim, reason: c.reason };
}

describe('default slice: open where the tiles pad', () => {
  it('opens the OOM buffer on dims 1 and 0, where T(4,128) pads dim 1 from 1 to 4', () => {
    assert.deepEqual(sliceOf('bf16[1024,1,1024,512]{0,1,3,2:T(4,128)(2,1)}'), {
      rows: 1,
      cols: 0,
      reason: ', where the tiles pad: T(4,128) pads dim 1 from 1 to 4.',
    });
  });

  it('shows the two dims in memory order: the more major as rows', () => {
    const cases: [string, number | undefined, number][] = [
      ['f32[3,5]{1,0:T(2,2)}', 0, 1],
      ['f32[3,5]{0,1:T(2,2)}', 1, 0],
      ['f32[2,3,5]{2,1,0:T(2,2)}', 1, 2],
      // Physical [100, 100, 8, 3]: T(8,128) covers dims 0 and 3 and pads only dim 3.
      ['f32[8,100,100,3]{3,0,2,1:T(8,128)}', 0, 3],
      // A 1-D tile covers only dim 2; the next most minor dim joins it.
      ['f32[4,5,6]{2,1,0:T(128)}', 1, 2],
      ['f32[3]{0:T(8,128)}', undefined, 0],
    ];
    for (const [text, rows, cols] of cases) {
      const s = sliceOf(text);
      assert.deepEqual([s.rows, s.cols], [rows, cols], text);
    }
  });

  it('names a * merge once, and says when nothing pads', () => {
    assert.deepEqual(sliceOf('bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}'), {
      rows: 2,
      cols: 3,
      reason: ', where the tiles pad: T(2,*,*,128) pads dims 1 * 2 * 3 (merged by *) from 6,024 to 6,144.',
    });
    assert.deepEqual(sliceOf('f32[4,5,6]{0,2,1}'), {
      rows: 2,
      cols: 0,
      reason: ', the minor-most in memory: the array is not tiled.',
    });
    assert.deepEqual(sliceOf('bf16[16,256,4]{2,1,0:T(8,128)(2,1)}'), {
      rows: 1,
      cols: 2,
      reason: ', where the tiles pad: T(8,128) pads dim 2 from 4 to 128.',
    });
    assert.equal(
      sliceOf('f32[64,256]{1,0:T(8,128)}').reason,
      ', the minor-most in memory: no tile pads them.',
    );
  });
});
