/** From a source line to its HLO instructions (xlaLayout/sourceInstructions), over the real protocol. */
import { strict as assert } from 'node:assert';
import { SourceInstructionsRequest } from '../../protocol/src/lsp';
import { TestClient } from './harness';

const MAIN = [
  'HloModule m',
  '',
  'ENTRY %main (p: f32[8,4]) -> f32[8,4] {',
  '  %p = f32[8,4]{1,0:T(8,128)} parameter(0)',
  '  %a = f32[8,4]{1,0:T(8,128)} add(%p, %p), metadata={op_name="jit(f)/add" source_file="/workspace/model/train.py" source_line=788}',
  '  %b = (f32[8,4]{1,0}, s32[]) tuple(%a, %a), metadata={op_name="jit(f)/pack" source_file="/workspace/model/train.py" source_line=790}',
  '  %c = f32[8,4]{1,0} negate(%a), metadata={op_name="jit(f)/neg" source_file="/site-packages/jax/train.py" source_line=788}',
  '  ROOT %d = f32[8,4]{1,0:T(8,128)} copy(%c), metadata={op_name="jit(f)/copy" source_file="/workspace/model/train.py" source_line=788}',
  '}',
  '',
].join('\n');
const OTHER = [
  'HloModule n',
  '',
  'ENTRY %e () -> f32[2] {',
  '  ROOT %k = f32[2]{0} constant({1, 2}), metadata={source_file="model/train.py" source_line=788}',
  '}',
  '',
].join('\n');

describe('server: instructions of a source line', () => {
  let client: TestClient;
  const ask = async (path: string, line?: number) => {
    const r = await client.request(SourceInstructionsRequest, {
      path,
      ...(line !== undefined ? { line } : {}),
    });
    assert.ok(r, 'the server answered null');
    return r;
  };

  before(async () => {
    ({ client } = await TestClient.start());
  });
  after(async () => client.dispose());

  it('says when no HLO document is open', async () => {
    assert.deepEqual(await ask('/home/me/proj/model/train.py', 788), {
      items: [],
      truncated: false,
      documents: 0,
    });
  });

  it("lists the line's instructions of every open dump, with their sizes, for the file sharing the longest path tail", async () => {
    await client.open('file:///d/main.hlo', MAIN);
    await client.open('file:///d/other.hlo', OTHER);
    const r = await ask('/home/me/proj/workspace/model/train.py', 788);
    assert.equal(r.documents, 2);
    assert.equal(r.truncated, false);
    // /workspace/model/train.py shares three segments; jax's train.py and model/train.py fewer.
    assert.deepEqual(
      r.items.map((i) => [
        i.uri,
        i.name,
        i.computation,
        i.shape,
        i.logicalBytes,
        i.physicalBytes,
        i.expansion,
        i.sourceLine,
        i.opName,
        i.range.start.line,
      ]),
      [
        [
          'file:///d/main.hlo',
          'a',
          'main',
          'f32[8,4]{1,0:T(8,128)}',
          '128',
          '4096',
          32,
          788,
          'jit(f)/add',
          4,
        ],
        [
          'file:///d/main.hlo',
          'd',
          'main',
          'f32[8,4]{1,0:T(8,128)}',
          '128',
          '4096',
          32,
          788,
          'jit(f)/copy',
          7,
        ],
      ],
    );
  });

  it('lists every line of the file without a line, and matches other files by their own tails', async () => {
    const whole = await ask('/home/me/proj/workspace/model/train.py');
    assert.deepEqual(
      whole.items.map((i) => [i.name, i.sourceLine, i.logicalBytes]),
      [
        ['a', 788, '128'],
        ['b', 790, '132'],
        ['d', 788, '128'],
      ],
    );
    const jax = await ask('/usr/lib/python3/site-packages/jax/train.py', 788);
    assert.deepEqual(
      jax.items.map((i) => i.name),
      ['c'],
    );
    const relative = await ask('/x/model/train.py', 788);
    // model/train.py (other.hlo) and /workspace/model/train.py both share model/train.py.
    assert.deepEqual(
      relative.items.map((i) => [i.uri, i.name]),
      [
        ['file:///d/main.hlo', 'a'],
        ['file:///d/main.hlo', 'd'],
        ['file:///d/other.hlo', 'k'],
      ],
    );
    assert.deepEqual((await ask('/x/model/eval.py', 788)).items, []);
  });
});
