/**
 * A closed document leaves nothing of its text behind in the server: the search memos of the core,
 * the lean pass's finder state and the engine's record of the last regular expression match all
 * outlive a document, and each kept a 50 MB dump alive after its tab was closed. Measured in a
 * heap of its own (a worker thread), where no other test's servers or data can be counted.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { inOwnHeap } from '../support/own-heap';

describe('server: closing a document', function () {
  this.timeout(60_000);

  it('lets go of its text', async () => {
    const { kept, length } = await inOwnHeap<{ kept: number; length: number }>(
      path.join(__dirname, 'close-memory.worker.ts'),
    );
    assert.ok(length > 8_000_000);
    // The shape caches shared by all documents stay (well under a MiB here); the text must not.
    assert.ok(
      kept < length / 4,
      `${(kept / 2 ** 20).toFixed(1)} MiB kept after closing ${(length / 2 ** 20).toFixed(1)} MiB`,
    );
  });
});
