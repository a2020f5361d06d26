/** Text of the QuickPick rows of instructions with their bytes. */
import { strict as assert } from 'node:assert';
import { formatBytes, formatExpansion, rowItem } from '../../../client/src/padding-format';

const range = { start: { line: 4, character: 2 }, end: { line: 4, character: 30 } };

describe('client: instruction row text', () => {
  it('formats bytes exactly below 1 KiB and in binary units above, rounded, past 2^53 too', () => {
    assert.equal(formatBytes('0'), '0 B');
    assert.equal(formatBytes('1023'), '1023 B');
    assert.equal(formatBytes('4096'), '4 KiB');
    assert.equal(formatBytes('131072'), '128 KiB');
    assert.equal(formatBytes('1572863'), '1.5 MiB');
    assert.equal(formatBytes('12000000000000'), '10.9 TiB');
    assert.equal(formatBytes('1073741824'), '1 GiB');
    assert.equal(formatBytes(String(2n ** 60n)), '1 EiB');
    assert.equal(formatBytes('not a number'), 'not a number');
  });

  it('formats expansion factors', () => {
    assert.equal(formatExpansion(32), '32x');
    assert.equal(formatExpansion(1.5), '1.5x');
    assert.equal(formatExpansion(170.66), '170.7x');
    assert.equal(formatExpansion(0), '—');
  });

  it('builds rows worst-first-friendly, with the source line unless asked not to', () => {
    const row = {
      name: 'p0',
      computation: 'main',
      shape: 'f32[8,4]{1,0:T(8,128)}',
      range,
      logicalBytes: '128',
      physicalBytes: '4096',
      expansion: 32,
    };
    assert.deepEqual(rowItem(row), {
      label: '32x  p0',
      description: '128 B → 4 KiB',
      detail: 'f32[8,4]{1,0:T(8,128)}  ·  main',
      row,
    });
    const sourced = { ...row, source: 'train.py:12' };
    assert.equal(rowItem(sourced).detail, 'f32[8,4]{1,0:T(8,128)}  ·  main  ·  train.py:12');
    assert.equal(rowItem(sourced, false).detail, 'f32[8,4]{1,0:T(8,128)}  ·  main');
  });
});
