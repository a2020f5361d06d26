/**
 * Hovers on dynamic shapes: a `<=N` dimension is sized at its bound, and `M(n)` (XLA's
 * dynamic_shape_metadata_prefix_bytes) is explained where the other layout attributes are.
 */
import { strict as assert } from 'node:assert';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { positionOf, TestClient, textOf } from './harness';

// latency_hiding_scheduler_test.cc line 3577 (the corpus file of finding 11), cut to one computation.
const TEXT = `HloModule m

ENTRY main {
  %p = f32[8]{0} parameter(0)
  ROOT %param = s32[<=4096]{0:T(8)M(1024)} parameter(1)
}
`;

describe('server: hover on dynamic shapes', () => {
  let client: TestClient;
  const uri = 'file:///w/dynamic.hlo';
  const hoverAt = async (needle: string, delta = 0) => {
    const h = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(TEXT, needle, delta),
    });
    assert.ok(h, `no hover at ${needle}`);
    return { value: (h.contents as MarkupContent).value, covered: h.range ? textOf(TEXT, h.range) : '' };
  };
  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(uri, TEXT);
  });
  after(async () => client.dispose());

  it('says what M(1024) is and what it adds, on M(1024) itself', async () => {
    const h = await hoverAt('M(1024)', 1);
    assert.equal(h.covered, 'M(1024)');
    assert.equal(
      h.value.split('\n')[0],
      "**M(1024)** — dynamic-shape metadata prefix: 1,024 bytes in front of the data holding the sizes of the dynamic dimensions (XLA's `dynamic_shape_metadata_prefix_bytes`); not counted in ByteSizeOf or the tiled size. Here: 16 KiB of data at the bound + 1 KiB of metadata where the backend allocates it.",
    );
  });

  it('calls a <=N size a bound and names M(n) in the shape hover, first line and details', async () => {
    const h = await hoverAt('s32[<=4096]', 1);
    const [first] = h.value.split('\n');
    assert.match(
      first,
      /^\*\*16 KiB\*\* \(4,096 × s32\), no padding · sized at the bound \\<=4,096 · M\(1024\): \+1 KiB of dynamic-shape metadata · /,
    );
    assert.match(
      h.value,
      /\*\*Bounded dynamic\*\* dim 0 \(\\<=4,096\): the sizes here are at the bound; at run time the dimension can be smaller\. \*\*M\(1024\)\*\* — dynamic-shape metadata prefix/,
    );
  });
});
