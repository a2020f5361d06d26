/** The edit distance behind "Change to %name", against a plain full-table reference. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { editDistance } from '../../core/src';
import { closestName } from '../../core/src';

/** Optimal string alignment distance, the whole table, no cut-off. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('server: spelling suggestions', () => {
  it('property: the distance is the reference one, or max + 1 when that exceeds max', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', '1'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const exact = reference(a, b);
        assert.equal(editDistance(a, b, max), exact <= max ? exact : max + 1);
      }),
    );
  });

  it('picks the nearest of the closest names, within a bound that grows with the name', () => {
    assert.equal(closestName('ad', ['add', 'ab']), undefined, 'no guess for two letters');
    assert.equal(closestName('ddd', ['add', 'ab']), 'add');
    assert.equal(closestName('mulitply.3', ['add.3', 'multiply.3', 'multiply.4']), 'multiply.3');
    assert.equal(closestName('fusoin', ['fusion.1', 'fusion']), 'fusion');
    assert.equal(closestName('zzz', ['a', 'b', 'zzzzz']), undefined);
    assert.equal(closestName('sum', ['sum']), undefined, 'never the name itself');
    assert.equal(
      closestName('param_0.12', ['param_0.1', 'param_0.21']),
      'param_0.1',
      'the first of equally close ones',
    );
  });
});
