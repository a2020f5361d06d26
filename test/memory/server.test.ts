/**
 * The allocation section of instruction hovers, over the real protocol: the client sends the
 * buffer assignment beside a dump (xlaLayout/bufferAssignment), and hovers on an instruction's
 * name, a reference to it or its opcode then say where XLA put its values and who shares the
 * allocation. Without one, or after the client withdraws it, hovers are as before; a malformed
 * notification leaves the server answering.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { BufferAssignmentNotification, type BufferAssignmentParams } from '../../protocol/src/memory';
import { positionOf, TestClient } from '../server/harness';

const BASE = join(__dirname, 'fixtures', 'tpu', 'module_0042.jit_train_step.after_optimizations');
const HLO = readFileSync(`${BASE}.txt`, 'utf8');
const ASSIGNMENT = readFileSync(`${BASE}-buffer-assignment.txt`, 'utf8');
const URI = 'file:///dumps/module_0042.jit_train_step.after_optimizations.txt';

describe('server: allocations in instruction hovers', () => {
  let client: TestClient;
  const hover = async (needle: string, delta = 0, occurrence = 0): Promise<string> => {
    const h = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: URI },
      position: positionOf(HLO, needle, delta, occurrence),
    });
    return h ? (h.contents as MarkupContent).value : '';
  };
  const send = (params: unknown) => client.rpc.sendNotification(BufferAssignmentNotification, params);

  before(async () => {
    ({ client } = await TestClient.start());
    await client.open(URI, HLO);
  });
  after(async () => client.dispose());

  it('says nothing of memory before the client sends a buffer assignment', async () => {
    const text = await hover('%copy.40488 = ', 2);
    assert.match(text, /copy\.40488/);
    assert.doesNotMatch(text, /Memory/);
  });

  it("gives an instruction's allocation, offset and size, and who shares the allocation", async () => {
    await send({ uri: URI, text: ASSIGNMENT } satisfies BufferAssignmentParams);
    const lines = (await hover('%copy.40488 = ', 2)).split('\n\n');
    const memory = lines.findIndex((l) => l.startsWith('**Memory**'));
    assert.ok(memory > 0, 'after the instruction summary');
    assert.deepEqual(lines.slice(memory), [
      "**Memory** (XLA's buffer assignment): 32 GiB at offset 0 of allocation 8 (preallocated-temp, 38 GiB)",
      'Allocation 8 also holds 5 other values, at other times or other offsets (largest first): `%fusion.44044` 6 GiB at offset 34,359,738,368; `%broadcast.6042` 4 GiB at offset 0; `%fusion.10062{0}` 84 MiB at offset 4,294,967,296; `%fusion.10062{1}` 1 KiB at offset 4,383,047,696; and 1 more.',
    ]);
  });

  it('lists values of equal size by offset', async () => {
    const uri = 'file:///dumps/equal.txt';
    const hlo = [
      'HloModule equal',
      '',
      'ENTRY %main (p: f32[8]) -> f32[8] {',
      '  %p = f32[8]{0} parameter(0)',
      '  %a = f32[8]{0} negate(%p)',
      '  %b = f32[8]{0} negate(%a)',
      '  %c = f32[8]{0} negate(%b)',
      '  ROOT %d = f32[8]{0} negate(%c)',
      '}',
      '',
    ].join('\n');
    const assignment = [
      'BufferAssignment:',
      'allocation 0: size 128, preallocated-temp:',
      ' value: <1 a @0> (size=32,offset=0): f32[8]{0}',
      ' value: <2 b @0> (size=32,offset=96): f32[8]{0}',
      ' value: <3 c @0> (size=32,offset=32): f32[8]{0}',
      ' value: <4 d @0> (size=32,offset=64): f32[8]{0}',
      '',
    ].join('\n');
    await client.open(uri, hlo);
    await send({ uri, text: assignment } satisfies BufferAssignmentParams);
    const h = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(hlo, '%a = ', 1),
    });
    assert.match(
      h ? (h.contents as MarkupContent).value : '',
      /Allocation 0 also holds 3 other values, at other times or other offsets \(largest first\): `%c` 32 B at offset 32; `%d` 32 B at offset 64; `%b` 32 B at offset 96\./,
    );
  });

  it('answers on a reference to the instruction and on its opcode; a tuple lists each of its values', async () => {
    assert.match(
      await hover('fusion(%copy.40488)', 9),
      /\*\*Memory\*\* .*32 GiB at offset 0 of allocation 8/,
    );
    const tuple = await hover('= (f32[128,56,32,96]{0,1,3,2:T(8,128)}, f32[56]{0:T(256)}) fusion(', 60);
    assert.match(
      tuple,
      /\*\*Memory\*\* \(XLA's buffer assignment\): 16 B at offset 4,383,047,680 of allocation 8/,
    );
    assert.match(tuple, /`\{0\}`: 84 MiB at offset 4,294,967,296 of allocation 8/);
    assert.match(tuple, /`\{1\}`: 1 KiB at offset 4,383,047,696 of allocation 8/);
    const param = await hover('%param.4 = ', 2);
    assert.match(param, /2 KiB at offset 0 of allocation 3 \(parameter, 2 KiB\)/);
    assert.match(param, /Allocation 3 holds nothing else\./);
    const vmem = await hover('%reduce-window.4 = ', 2);
    assert.match(vmem, /64 KiB at offset 0 of allocation 7 \(preallocated-temp, memory space 1, 64 KiB\)/);
  });

  it('leaves shape hovers alone, forgets the assignment on null, and survives malformed notifications', async () => {
    assert.doesNotMatch(await hover('s32[8388608,8,4]{2,1,0:T(8,128)} copy', 3), /\*\*Memory\*\*/);
    await send({ uri: URI, text: 42 });
    await send({ uri: 7 });
    await send(null);
    assert.match(await hover('%copy.40488 = ', 2), /\*\*Memory\*\*/);
    await send({ uri: URI, text: null } satisfies BufferAssignmentParams);
    assert.doesNotMatch(await hover('%copy.40488 = ', 2), /\*\*Memory\*\*/);
  });
});
