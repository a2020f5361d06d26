/** Completion of instruction and computation names over the real protocol, as a person types. */
import { strict as assert } from 'node:assert';
import type { CompletionItem, CompletionList, InitializeResult, TextEdit } from 'vscode-languageserver';
import { HLO_OPCODES } from '../../core/src/hlo/opcodes';
import { PRIMITIVE_TYPE_NAMES } from '../../core/src/primitive-types';
import { positionAt } from '../support/editor-positions';
import { positionOf, TestClient } from './harness';

const TEXT = `HloModule completes

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%fused (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%p)
}

ENTRY %main (x: f32[8]) -> f32[] {
  %x = f32[8]{0} parameter(0)
  %y = f32[8]{0:T(128)} fusion(%x), kind=kLoop, calls=%fused
  %zero = f32[] constant(0)
  ROOT %r = f32[] reduce(%y, %zero), dimensions={0}, to_apply=%add, metadata={op_name="jit(main)/r"}
}
// -----
HloModule other

e {
  a = f32[] parameter(0)
  ROOT b = f32[] negate(a)
}
`;

describe('server: completion', () => {
  let client: TestClient;
  let init: InitializeResult;
  let text = TEXT;
  const uri = 'file:///w/completes.hlo';

  /** Replaces the first `needle` with `typed`, as a person typing it would, and asks for completions at the end of `typed`. */
  async function typeAndComplete(needle: string, typed: string): Promise<CompletionItem[]> {
    const at = text.indexOf(needle);
    assert.ok(at >= 0, needle);
    await client.change(uri, [
      {
        range: { start: positionOf(text, needle), end: positionOf(text, needle, needle.length) },
        text: typed,
      },
    ]);
    text = text.slice(0, at) + typed + text.slice(at + needle.length);
    const cursor = positionAt(text, at + typed.length);
    const result = await client.request<CompletionItem[] | CompletionList | null>('textDocument/completion', {
      textDocument: { uri },
      position: cursor,
    });
    return Array.isArray(result) ? result : (result?.items ?? []);
  }
  const labels = (items: CompletionItem[]) => items.map((i) => i.label);
  const inserted = (items: CompletionItem[], label: string) =>
    (items.find((i) => i.label === label)?.textEdit as TextEdit | undefined)?.newText;

  beforeEach(async () => {
    ({ client, init } = await TestClient.start());
    text = TEXT;
    await client.open(uri, TEXT);
  });
  afterEach(async () => {
    await client.dispose();
  });

  it('announces completion, triggered by %', () => {
    assert.deepEqual(init.capabilities.completionProvider?.triggerCharacters, ['%']);
  });

  it('completes operands with the instructions of the computation, nearest first, shapes as detail', async () => {
    const items = await typeAndComplete('reduce(%y, %zero)', 'reduce(%y, %');
    assert.deepEqual(labels(items), ['zero', 'y', 'x']);
    assert.deepEqual(
      items.map((i) => i.detail),
      ['f32[] constant', 'f32[8]{0:T(128)} fusion', 'f32[8]{0} parameter'],
    );
    // The typed % stays; the item replaces only what follows it.
    assert.equal(inserted(items, 'zero'), 'zero');
    const started = await typeAndComplete('reduce(%y, %', 'reduce(%y, %ze');
    const edit = started.find((i) => i.label === 'zero')?.textEdit as TextEdit;
    assert.equal(edit.range.end.character - edit.range.start.character, 2, 'replaces the typed "ze"');
    assert.equal(edit.newText, 'zero');
    // In another computation, its own instructions only.
    assert.deepEqual(labels(await typeAndComplete('negate(%p)', 'negate(%')), ['p']);
    // Not the names defined further down (%zero, %r): XLA's one-pass parser rejects them there.
    assert.deepEqual(labels(await typeAndComplete('fusion(%x)', 'fusion(%')), ['x']);
  });

  it('completes computations after calls=, to_apply= and in branch lists, from this module only', async () => {
    const items = await typeAndComplete('to_apply=%add', 'to_apply=%');
    assert.deepEqual(labels(items), ['add', 'fused']);
    assert.equal(items[0].detail, '%add (a: f32[], b: f32[]) -> f32[]');
    // What is typed narrows the list (letters in order, any case), as the editor's own filter does.
    assert.deepEqual(labels(await typeAndComplete('to_apply=%', 'to_apply=%Ad')), ['add']);
    assert.deepEqual(labels(await typeAndComplete('calls=%fused', 'calls=')), ['add', 'fused']);
    // Without a typed %, the name is written the way its definition writes it.
    assert.equal(inserted(await typeAndComplete('calls=', 'calls='), 'fused'), '%fused');
    assert.deepEqual(labels(await typeAndComplete('dimensions={0}', 'branch_computations={%add, %')), [
      'add',
      'fused',
    ]);
  });

  it('completes control-predecessors with instructions, and names without % in a file that writes none', async () => {
    assert.deepEqual(labels(await typeAndComplete('dimensions={0}', 'control-predecessors={%x, ')), [
      'zero',
      'y',
      'x',
    ]);
    const items = await typeAndComplete('negate(a)', 'negate(');
    assert.deepEqual(labels(items), ['a']);
    assert.equal(inserted(items, 'a'), 'a');
  });

  it('completes the element type where a result shape starts and the opcode after it', async () => {
    const types = await typeAndComplete('  %zero = f32[] constant(0)', '  %zero = ');
    assert.deepEqual(labels(types), [...PRIMITIVE_TYPE_NAMES]);
    assert.equal(types.find((i) => i.label === 's4')?.detail, '4-bit elements');
    assert.deepEqual(labels(await typeAndComplete('  %zero = ', '  %zero = bf1')), ['bf16']);
    // After a whole shape and a blank: XLA's opcodes, narrowed as they are typed.
    const opcodes = await typeAndComplete('  %zero = bf1', '  %zero = f32[] ');
    assert.equal(opcodes.length, HLO_OPCODES.length);
    const gte = await typeAndComplete('  %zero = f32[] ', '  %zero = f32[] get-tu');
    assert.deepEqual(
      gte.map((i) => [i.label, i.detail]),
      [['get-tuple-element', '1 operand']],
    );
    // After a tuple shape too; the letters in order, as the editor's fuzzy filter takes them.
    const tup = await typeAndComplete('  %zero = f32[] get-tu', '  %zero = (f32[], s32[8]{0}) tup');
    assert.deepEqual(
      labels(tup),
      HLO_OPCODES.map((o) => o.name).filter((n) => /t.*u.*p/.test(n)),
    );
    assert.ok(labels(tup).includes('tuple'));
    // An opcode and a dash: its asynchronous forms, unless they are opcodes of their own.
    const call = await typeAndComplete('  %zero = (f32[], s32[8]{0}) tup', '  %zero = f32[] call-');
    assert.deepEqual(
      call.map((i) => [i.label, i.detail]),
      [
        ['call-start', 'the asynchronous form of call'],
        ['call-update', 'the asynchronous form of call'],
        ['call-done', 'the asynchronous form of call'],
      ],
    );
    const copy = await typeAndComplete('  %zero = f32[] call-', '  %zero = f32[] copy-');
    assert.deepEqual(labels(copy), ['copy-done', 'copy-start', 'copy-update']);
  });

  it('completes fusion kinds after kind= and comparison directions after direction=', async () => {
    const kinds = await typeAndComplete('kind=kLoop', 'kind=');
    assert.deepEqual(
      kinds.map((i) => [i.label, i.detail]),
      [
        ['kLoop', 'a loop over the output elements'],
        ['kInput', 'a reduction fused with its inputs'],
        ['kOutput', 'a dot or convolution fused with its users'],
        ['kCustom', 'a backend-specific fusion'],
      ],
    );
    assert.deepEqual(labels(await typeAndComplete('kind=', 'kind=kOu')), ['kOutput']);
    assert.deepEqual(labels(await typeAndComplete('dimensions={0}', 'direction=')), [
      'EQ',
      'NE',
      'GE',
      'GT',
      'LE',
      'LT',
    ]);
    assert.deepEqual(labels(await typeAndComplete('direction=', 'direction=G')), ['GE', 'GT']);
  });

  it("completes the keys of the attributes XLA's parser takes on the opcode (its own first, skipping those present) and in the module header", async () => {
    // reduce(...) has dimensions= and to_apply= (its two own, both required) and metadata= already.
    const all = await typeAndComplete('to_apply=%add', 'to_apply=%add, ');
    assert.deepEqual(labels(all), [
      'sharding',
      'frontend_attributes',
      'statistics',
      'parameter_replication',
      'control-predecessors',
      'origin',
      'backend_config',
    ]);
    assert.deepEqual(labels(await typeAndComplete('to_apply=%add, ', 'to_apply=%add, sta')), ['statistics']);
    // A fusion's own: kind and calls are there, output_to_operand_aliasing is not.
    const fusion = await typeAndComplete('calls=%fused', 'calls=%fused, ');
    assert.deepEqual(labels(fusion).slice(0, 2), ['output_to_operand_aliasing', 'sharding']);
    assert.equal(fusion[0]?.detail, '{{output index}: (operand, {operand index})}');
    assert.equal(inserted(fusion, 'sharding'), 'sharding=');
    // Required ones first, with what their value looks like.
    const compare = await typeAndComplete('negate(a)', 'compare(a, a), ');
    assert.deepEqual(
      compare.slice(0, 2).map((i) => [i.label, i.detail]),
      [
        ['direction', 'required · EQ, NE, GE, GT, LE or LT'],
        ['type', 'FLOAT, TOTALORDER, SIGNED or UNSIGNED'],
      ],
    );
    // The module header's, those of ParseHloModule.
    const header = await typeAndComplete('HloModule completes', 'HloModule completes, ');
    assert.equal(header.length, 11);
    assert.deepEqual(labels(header).slice(0, 3), ['is_scheduled', 'replica_count', 'num_partitions']);
    assert.equal(
      header.find((i) => i.label === 'entry_computation_layout')?.detail,
      '{(f32[8]{0}, ...)->f32[8]{0}}: the ENTRY layouts',
    );
    // Typed over an existing key, the item replaces the key and keeps its `=`.
    await typeAndComplete('kind=kLoop', 'ki=kLoop');
    const over = await client.request<CompletionList>('textDocument/completion', {
      textDocument: { uri },
      position: positionOf(text, 'ki=kLoop', 2),
    });
    const edit = over.items.find((i) => i.label === 'kind')?.textEdit as TextEdit;
    assert.equal(edit.newText, 'kind');
    assert.equal(edit.range.end.character - edit.range.start.character, 2);
  });

  it('offers nothing in shapes, strings, literals, the signature or other attributes', async () => {
    for (const [needle, typed] of [
      ['f32[8]{0:T(128)}', 'f32['],
      ['op_name="jit(main)/r"', 'op_name="jit(main)/r %'],
      ['constant(0)', 'constant('],
      ['dimensions={0}', 'dimensions={'],
      ['kind=kLoop', 'frontend_attributes='],
      ['ENTRY %main (x: f32[8])', 'ENTRY %main ('],
    ] as const) {
      assert.deepEqual(labels(await typeAndComplete(needle, typed)), [], `${typed}`);
    }
  });

  it('lists the 200 nearest names of a large computation, marked incomplete, and far ones once typed', async () => {
    const body = Array.from(
      { length: 300 },
      (_, i) => `  %v${i} = f32[] negate(%v${Math.max(0, i - 1)})`,
    ).join('\n');
    const big = `HloModule big\nENTRY %e {\n${body}\n  ROOT %r = f32[] add(%v299, %)\n}\n`;
    const bigUri = 'file:///w/big.hlo';
    await client.open(bigUri, big);
    const cursor = { line: 302, character: '  ROOT %r = f32[] add(%v299, %'.length };
    const first = await client.request<CompletionList>('textDocument/completion', {
      textDocument: { uri: bigUri },
      position: cursor,
    });
    assert.equal(first.isIncomplete, true);
    assert.equal(first.items.length, 200);
    assert.deepEqual(labels(first.items).slice(0, 3), ['v299', 'v298', 'v297']);
    // Typing narrows it to the names with those letters in order (v1, v21, v100, ...), from anywhere in the computation.
    await client.change(bigUri, [{ range: { start: cursor, end: cursor }, text: 'v1' }]);
    const far = await client.request<CompletionList>('textDocument/completion', {
      textDocument: { uri: bigUri },
      position: { line: 302, character: cursor.character + 2 },
    });
    assert.equal(far.isIncomplete, false);
    const expected = Array.from({ length: 300 }, (_, i) => `v${i}`).filter((n) => n.slice(1).includes('1'));
    assert.deepEqual(labels(far.items).sort(), expected.sort());
  });

  it('completes in a statement left unbalanced while typing, in the middle of a computation', async () => {
    // The open parenthesis makes the statement run on over the next lines; the names still come
    // from main, and only those above it (%zero and %r are defined further down).
    const items = await typeAndComplete('fusion(%x), kind=kLoop, calls=%fused', 'fusion(');
    assert.deepEqual(labels(items), ['x']);
  });
});
