/** Which workspace file a dump's source path means (client/src/source-match.ts). */
import { strict as assert } from 'node:assert';
import { LongestTailMatches, closestBySuffix, sharedPathTail } from '../../core/src/hlo/source-path';

describe('core: source path matching', () => {
  it('prefers the workspace file sharing the longest tail with the recorded path', () => {
    const found = [
      '/home/me/proj/tests/model/train.py',
      '/home/me/proj/model/train.py',
      '/home/me/other/train.py',
    ];
    assert.equal(closestBySuffix('/workspace/proj/model/train.py', found), '/home/me/proj/model/train.py');
    assert.equal(closestBySuffix('/build/tests/model/train.py', found), '/home/me/proj/tests/model/train.py');
  });

  it('among equal tails takes the shallower path, then the first in order', () => {
    assert.equal(closestBySuffix('/x/train.py', ['/a/b/c/train.py', '/a/train.py']), '/a/train.py');
    assert.equal(closestBySuffix('/x/train.py', ['/b/train.py', '/a/train.py']), '/a/train.py');
  });

  it('needs at least the file name in common', () => {
    assert.equal(closestBySuffix('/workspace/train.py', ['/w/train.pyc', '/w/Train.py']), undefined);
    assert.equal(closestBySuffix('/workspace/train.py', []), undefined);
  });

  it('counts shared trailing segments, with either separator', () => {
    assert.equal(sharedPathTail('/home/b/src/proj/model/layers.py', '/work/proj/model/layers.py'), 3);
    assert.equal(sharedPathTail('C:\\src\\proj\\layers.py', '/w/proj/layers.py'), 2);
    assert.equal(sharedPathTail('layers.py', '/w/layers.py'), 1);
    assert.equal(sharedPathTail('/a/layers.py', '/a/other.py'), 0);
  });

  it('keeps the items of the longest shared tail only, up to a limit, counting every match', () => {
    const m = new LongestTailMatches<string>(2);
    m.offer(0, () => 'other file');
    m.offer(1, () => 'a');
    // Matched but not listable (the server cannot size its shape): counted, not kept.
    m.offer(1, () => undefined);
    assert.deepEqual([m.items, m.truncated], [['a'], true]);
    m.offer(3, () => 'b');
    m.offer(2, () => 'c');
    m.offer(3, () => 'd');
    assert.deepEqual([m.items, m.truncated], [['b', 'd'], false]);
    let built = 0;
    m.offer(3, () => `e${++built}`);
    assert.deepEqual([m.items, m.truncated, built], [['b', 'd'], true, 0]);
  });
});
