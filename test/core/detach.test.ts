import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { detach } from '../../core/src/detach';
import { heapAfterGc } from '../support/heap';

describe('detach', () => {
  it('returns a string equal to its argument, lone surrogates and all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.nat(20), (s, cut) => {
        const slice = s.slice(Math.min(cut, s.length));
        assert.equal(detach(slice), slice);
        assert.equal(detach(`${s}+${slice}`), `${s}+${slice}`);
      }),
    );
  });

  it('copies: what it returns keeps no larger string alive, and costs one small string each', () => {
    const n = 20_000;
    const length = 40;
    const before = heapAfterGc();
    let source: string | undefined =
      'f32[1024,4096]{1,0:T(8,128)} '.repeat((8 << 20) / 29) + String(Math.random());
    const kept = Array.from({ length: n }, (_, i) => detach(source!.slice(i * 29, i * 29 + length)));
    source = undefined;
    const perString = (heapAfterGc() - before) / n;
    assert.equal(kept[1], 'f32[1024,4096]{1,0:T(8,128)} f32[1024,40');
    // A view of the 8 MiB source would keep it: 400 bytes and more per string. One flat string of
    // 40 one-byte characters is 56 bytes in V8, plus the list's slot; a view of a copy would add 40.
    assert.ok(perString < 80, `${perString.toFixed(1)} bytes per detached string`);
  });
});
