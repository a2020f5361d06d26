import { strict as assert } from 'node:assert';
import { regionHash } from '../../core/src/parse/text-hash';
import { RegionCache } from '../../core/src/validate/region-cache';

describe('RegionCache', () => {
  const text = 'x = f32[8,128]{1,0} add(f32[8,128]{1,0} a, bf16[8,128]{1,0} b)';
  const at = (shape: string, n = 0): [number, number, number] => {
    let start = -1;
    for (let k = 0; k <= n; k++) start = text.indexOf(shape, start + 1);
    return [start, start + shape.length, regionHash(text, start, start + shape.length)];
  };

  it('finds a value by the text of its region, wherever that text occurs', () => {
    const cache = new RegionCache<string>(100);
    const [s, e, h] = at('f32[8,128]{1,0}');
    cache.set(text, s, e, h, 'f32 facts');
    const [s2, e2, h2] = at('f32[8,128]{1,0}', 1);
    assert.equal(cache.get(text, s2, e2, h2), 'f32 facts');
    const [s3, e3, h3] = at('bf16[8,128]{1,0}');
    assert.equal(cache.get(text, s3, e3, h3), undefined);
    assert.equal(cache.size, 1);
  });

  it("keeps a caller's copy of the key only when it is the region's text", () => {
    const cache = new RegionCache<string>(100);
    const [s, e, h] = at('f32[8,128]{1,0}');
    // A copy of another text of the same length is not stored as the key: lookups stay exact.
    cache.set(text, s, e, h, 'f32 facts', 'f16[8,128]{1,0}');
    assert.equal(cache.get('f32[8,128]{1,0}', 0, 15, regionHash('f32[8,128]{1,0}', 0, 15)), 'f32 facts');
    assert.equal(cache.get('f16[8,128]{1,0}', 0, 15, h), undefined);
    const [b, be, bh] = at('bf16[8,128]{1,0}');
    cache.set(text, b, be, bh, 'bf16 facts', 'bf16[8,128]{1,0}');
    assert.equal(cache.get('(bf16[8,128]{1,0})', 1, 17, bh), 'bf16 facts');
  });
});
