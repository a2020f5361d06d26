/**
 * The body of close-memory.test.ts, run in a worker thread with a heap of its own: opens an 8 MiB
 * dump, hovers in it, closes it, and posts the heap growth (after full collections) and the
 * text's length.
 */
import { parentPort } from 'node:worker_threads';
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

async function measure(): Promise<{ kept: number; length: number }> {
  const { client } = await TestClient.start();
  try {
    const uri = 'file:///w/big.hlo';
    const before = heapAfterGc();
    let text: string | undefined = dump();
    const length = text.length;
    await client.open(uri, text);
    text = undefined;
    await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 50_000, character: 20 },
    });
    await client.close(uri);
    return { kept: heapAfterGc() - before, length };
  } finally {
    await client.dispose();
  }
}

void measure().then((result) => parentPort?.postMessage(result));
