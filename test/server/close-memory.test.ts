/**
 * A closed document leaves nothing of its text behind in the server: the search memos of the core,
 * the lean pass's finder state and the engine's record of the last regular expression match all
 * outlive a document, and each kept a 50 MB dump alive after its tab was closed.
 */
import { strict as assert } from 'node:assert';
import { heapAfterGc } from '../support/heap';
import { TestClient } from './harness';

/** An 8 MiB dump, distinct from any other string of the process. */
function dump(): string {
  const lines = ['HloModule big', '', 'ENTRY %main {', '  %p = f32[8,128]{1,0:T(8,128)} parameter(0)'];
  for (let i = 0; lines.length < 100_000; i++)
    lines.push(
      `  %a.${i} = bf16[8,${(i % 7) + 1}]{1,0:T(8,128)(2,1)} add(%p, %p), metadata={op_name="jit(f)/${Math.random()}"}`,
    );
  lines.push('  ROOT %r = f32[] constant(0)', '}');
  return lines.join('\n');
}

describe('server: closing a document', function () {
  this.timeout(60_000);

  it('lets go of its text', async () => {
    const { client } = await TestClient.start();
    try {
      const uri = 'file:///w/big.hlo';
      const before = heapAfterGc();
      let text: string | undefined = dump();
      const length = text.length;
      assert.ok(length > 8_000_000);
      await client.open(uri, text);
      text = undefined;
      await client.request('textDocument/hover', {
        textDocument: { uri },
        position: { line: 50_000, character: 20 },
      });
      await client.close(uri);
      const kept = heapAfterGc() - before;
      // The shape caches shared by all documents stay (well under a MiB here); the text must not.
      assert.ok(
        kept < length / 4,
        `${(kept / 2 ** 20).toFixed(1)} MiB kept after closing ${(length / 2 ** 20).toFixed(1)} MiB`,
      );
    } finally {
      await client.dispose();
    }
  });
});
