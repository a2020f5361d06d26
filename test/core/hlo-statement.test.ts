import { strict as assert } from 'node:assert';
import type { TextRange } from '../../core/src/diagnostics';
import { parseStatement, type HloStatement } from '../../core/src/hlo';

/** Range of the `n`-th occurrence of `sub` in `text`. */
function at(text: string, sub: string, n = 0): TextRange {
  let i = -1;
  for (let k = 0; k <= n; k++) i = text.indexOf(sub, i + 1);
  assert.ok(i >= 0, `${sub} not in ${text}`);
  return { start: i, end: i + sub.length };
}

function parse(text: string): HloStatement {
  return parseStatement(text, { start: 0, end: text.length });
}

function slice(text: string, r: TextRange | undefined): string {
  assert.ok(r);
  return text.slice(r.start, r.end);
}

describe('hlo parseStatement', () => {
  it('refuses an instruction named like an element type or with __, a `;` after it, a module named like a keyword', () => {
    const errors = (text: string) =>
      parse(text).diagnostics.map((d) => [text.slice(d.range.start, d.range.end), d.message]);
    assert.deepEqual(errors('  %f32 = f32[] parameter(0)'), [
      ['%f32', 'illegal instruction name: f32; suggest renaming to: f32_'],
    ]);
    assert.deepEqual(errors('  ROOT %__a = f32[] parameter(0)'), [
      ['%__a', 'illegal instruction name: __a; suggest renaming to: a_a'],
    ]);
    assert.deepEqual(errors('  f32 = f32[] parameter(0)'), [['f32', 'expects name']]);
    for (const fine of ['tuple', '__xla_a', 'f32.1', 'F32'])
      assert.deepEqual(errors(`  %${fine} = f32[] parameter(0)`), []);
    assert.deepEqual(errors('  %a = f32[] parameter(0);'), [[';', 'expects name']]);
    for (const name of ['1m', 'f32', 'ENTRY', 'true'])
      assert.deepEqual(errors(`HloModule ${name}`), [[name, 'expects name']]);
    assert.deepEqual(errors('HloModule %m'), []);
  });

  it('refuses a `;` after an attribute value and an HloModule line without a name, where jaxlib 0.10.2 does', () => {
    const errors = (text: string) =>
      parse(text).diagnostics.map((d) => [d.range.start, d.message, d.atNextToken === true]);
    // XLA's "expects name" at the `;`: no attribute value takes it in.
    const attribute = '  %a = f32[] parameter(0), metadata={op_name="x"};';
    assert.deepEqual(errors(attribute), [[attribute.indexOf(';'), 'expects name', false]]);
    const sharding = '  %a = f32[] parameter(0), sharding={replicated};';
    assert.deepEqual(errors(sharding), [[sharding.indexOf(';'), 'expects name', false]]);
    const module = 'HloModule m, is_scheduled=true;';
    assert.deepEqual(errors(module), [[module.indexOf(';'), 'expects name', false]]);
    // No name: at the `,`, or at the next statement's first token (the check stream moves it there).
    assert.deepEqual(errors('HloModule , is_scheduled=true'), [[10, 'expects name', false]]);
    assert.deepEqual(errors('HloModule'), [[8, 'expects name', true]]);
  });

  it('reads an instruction: name, result shape, opcode, annotated operands, calls, metadata', () => {
    const text =
      '  ROOT %fusion.21 = s4[8,256]{1,0:T(8,128)(8,1)E(4)S(1)} fusion(s4[8,256]{1,0} %copy, s32[] %p.1), kind=kLoop, ' +
      'calls=%fused.434, metadata={op_name="jit(f)/add" source_file="/x/model.py" source_line=42}, backend_config={"a":[1,2]}';
    const s = parse(text);
    assert.equal(s.kind, 'instruction');
    if (s.kind !== 'instruction') return;
    assert.equal(s.root, true);
    assert.equal(s.name.name, 'fusion.21');
    assert.deepEqual(s.name.range, at(text, 'fusion.21'));
    assert.equal(slice(text, s.shape?.range), 's4[8,256]{1,0:T(8,128)(8,1)E(4)S(1)}');
    assert.deepEqual(s.opcode?.range, at(text, 'fusion('.slice(0, 6), 1));
    assert.deepEqual(
      s.operands.map((o) => [o.name, slice(text, o.range), o.shape ? slice(text, o.shape.range) : '']),
      [
        ['copy', 'copy', 's4[8,256]{1,0}'],
        ['p.1', 'p.1', 's32[]'],
      ],
    );
    assert.deepEqual(
      s.calledComputations.map((c) => [c.attribute, c.name, c.range]),
      [['calls', 'fused.434', at(text, 'fused.434')]],
    );
    const { sourceFileRange, sourceLineRange } = s.metadata ?? {};
    assert.deepEqual(
      s.metadata && {
        opName: s.metadata.opName,
        sourceFile: s.metadata.sourceFile,
        sourceLine: s.metadata.sourceLine,
      },
      { opName: 'jit(f)/add', sourceFile: '/x/model.py', sourceLine: 42 },
    );
    // Where go to source is offered: the values as written.
    assert.equal(sourceFileRange && text.slice(sourceFileRange.start, sourceFileRange.end), '"/x/model.py"');
    assert.equal(sourceLineRange && text.slice(sourceLineRange.start, sourceLineRange.end), '42');
    assert.deepEqual(
      s.attributes.map((a) => a.key.name),
      ['kind', 'calls', 'metadata', 'backend_config'],
    );
    assert.equal(slice(text, s.attributes[3]?.valueRange), '{"a":[1,2]}');
    // Every shape exactly once, in order, with no diagnostics.
    assert.deepEqual(
      s.shapes.map((f) => slice(text, f.shape.range)),
      ['s4[8,256]{1,0:T(8,128)(8,1)E(4)S(1)}', 's4[8,256]{1,0}', 's32[]'],
    );
    assert.deepEqual(
      s.shapes.flatMap((f) => f.diagnostics),
      [],
    );
  });

  it('reads control-predecessors as instruction names, a list or one name', () => {
    const text = '  %c = f32[8]{0} copy(%a), control-predecessors={%p.1, q}, metadata={op_name="p.1"}';
    const s = parse(text);
    assert.ok(s.kind === 'instruction');
    assert.deepEqual(
      s.controlPredecessors.map((n) => [n.name, n.range]),
      [
        ['p.1', at(text, 'p.1')],
        ['q', { start: text.indexOf('q}'), end: text.indexOf('q}') + 1 }],
      ],
    );
    assert.deepEqual(
      s.operands.map((o) => o.name),
      ['a'],
    );
    const one = parse('  %d = f32[] add(%x, %y), control-predecessors=%z');
    assert.ok(one.kind === 'instruction');
    assert.deepEqual(
      one.controlPredecessors.map((n) => n.name),
      ['z'],
    );
    assert.deepEqual(one.calledComputations, []);
  });

  it('reads names without % and tuple operand annotations', () => {
    const text = '  tmp_1 = (f32[], f32[]) get-tuple-element(((f32[], f32[])) tmp_0), index=0';
    const s = parse(text);
    assert.ok(s.kind === 'instruction');
    assert.equal(s.root, false);
    assert.equal(s.name.name, 'tmp_1');
    assert.equal(s.opcode?.name, 'get-tuple-element');
    assert.deepEqual(
      s.operands.map((o) => [o.name, o.shape?.kind]),
      [['tmp_0', 'tuple']],
    );
    assert.equal(slice(text, s.operands[0]?.shape?.range), '((f32[], f32[]))');
  });

  it('does not take literals of constant/parameter for operand names', () => {
    const c = parse('%c = pred[] constant(true)');
    const p = parse('%p = f32[2]{0} parameter(0)');
    assert.ok(c.kind === 'instruction' && p.kind === 'instruction');
    assert.deepEqual(c.operands, []);
    assert.deepEqual(p.operands, []);
    assert.equal(c.opcode?.name, 'constant');
  });

  it('reads computation lists: branch_computations, condition/body, to_apply', () => {
    const text =
      '%r = f32[] conditional(%i, %a, %b), branch_computations={%br0, br1}, condition=%c, body=%w, to_apply=add';
    const s = parse(text);
    assert.ok(s.kind === 'instruction');
    assert.deepEqual(
      s.calledComputations.map((c) => `${c.attribute}=${c.name}`),
      ['branch_computations=br0', 'branch_computations=br1', 'condition=c', 'body=w', 'to_apply=add'],
    );
    assert.deepEqual(s.calledComputations[1]?.range, at(text, 'br1'));
    // A custom call's computations; `comparator=` names none in XLA's parser.
    const call = parse(
      '%r = f32[] custom-call(%a), custom_call_target="f", called_computations={%c1, %c2}, comparator=%x',
    );
    assert.ok(call.kind === 'instruction');
    assert.deepEqual(
      call.calledComputations.map((c) => `${c.attribute}=${c.name}`),
      ['called_computations=c1', 'called_computations=c2'],
    );
  });

  it('reads the number of parameter(N), digits only', () => {
    const text = '%p = f32[2]{0} parameter( 12 )';
    const p = parse(text);
    assert.ok(p.kind === 'instruction');
    assert.deepEqual(p.parameter, { value: 12, range: at(text, '12') });
    for (const odd of [
      '%p = f32[] parameter()',
      '%p = f32[] parameter(-1)',
      '%p = f32[] parameter(1x)',
      '%q = f32[] negate(%p)',
    ]) {
      const s = parse(odd);
      assert.ok(s.kind === 'instruction' && s.parameter === undefined, odd);
    }
  });

  it('reads the operands of an instruction written in place of an operand, not its opcode', () => {
    const text = '%r = f32[] add(f32[] %a, f32[2]{0} negate(f32[] %b, constant(3)), %c)';
    const s = parse(text);
    assert.ok(s.kind === 'instruction');
    assert.deepEqual(
      s.operands.map((o) => [o.name, o.range.start]),
      [
        ['a', text.indexOf('a,')],
        ['b', text.indexOf('b,')],
        ['c', text.indexOf('c)')],
      ],
    );
    // Every shape once, the nested result's included.
    assert.deepEqual(
      s.shapes.map((f) => text.slice(f.shape.range.start, f.shape.range.end)),
      ['f32[]', 'f32[]', 'f32[2]{0}', 'f32[]'],
    );
  });

  it('reads names 16 instructions deep in operand position and skips deeper ones', () => {
    const depth = 10_000;
    const text = `%r = f32[] add(${'negate('.repeat(depth)}%x${')'.repeat(depth)}, %y)`;
    const s = parse(text);
    assert.ok(s.kind === 'instruction');
    assert.deepEqual(
      s.operands.map((o) => o.name),
      ['y'],
    );
    const shallow = `%r = f32[] add(${'negate('.repeat(16)}%x${')'.repeat(16)}, %y)`;
    const t = parse(shallow);
    assert.ok(t.kind === 'instruction');
    assert.deepEqual(
      t.operands.map((o) => o.name),
      ['x', 'y'],
    );
  });

  it('gives the ranges of the ROOT and ENTRY keywords', () => {
    const text = '  ROOT  %r = f32[] negate(%a)';
    const root = parse(text);
    assert.ok(root.kind === 'instruction' && root.root);
    assert.deepEqual(root.rootKeyword, at(text, 'ROOT'));
    const plain = parse('%r = f32[] negate(%a)');
    assert.ok(plain.kind === 'instruction' && !plain.root && plain.rootKeyword === undefined);
    const header = 'ENTRY %main (p: f32[]) -> f32[] {';
    const entry = parse(header);
    assert.ok(entry.kind === 'computation' && entry.entry);
    assert.deepEqual(entry.entryKeyword, at(header, 'ENTRY'));
  });

  it('reads a computation header with parameters and result', () => {
    const text =
      'ENTRY %main.6 (Arg_0.1: f32[2,3,4], Arg_2.3: (f32[1,2], f32[1,2]), /*index=2*/Arg_3.4: s32[]) -> f32[2,3,4] {';
    const s = parse(text);
    assert.ok(s.kind === 'computation');
    assert.equal(s.entry, true);
    assert.equal(s.name?.name, 'main.6');
    assert.deepEqual(s.name?.range, at(text, 'main.6'));
    assert.deepEqual(
      s.parameters.map((p) => [p.name, slice(text, p.shape?.range)]),
      [
        ['Arg_0.1', 'f32[2,3,4]'],
        ['Arg_2.3', '(f32[1,2], f32[1,2])'],
        ['Arg_3.4', 's32[]'],
      ],
    );
    assert.equal(slice(text, s.result?.range), 'f32[2,3,4]');
    assert.equal(s.shapes.length, 4);
  });

  it('reads a header without signature', () => {
    const s = parse('%branch_true  {');
    assert.ok(s.kind === 'computation');
    assert.equal(s.entry, false);
    assert.equal(s.name?.name, 'branch_true');
    assert.deepEqual(s.parameters, []);
  });

  it('reads the module header and its multi-line entry_computation_layout', () => {
    const text =
      'HloModule entry, is_scheduled=true, entry_computation_layout={(\n  f32[2,3,4]{0,1,2:T(2,128)},\n  (\n    f32[1,2]{1,0:T(1,2)}\n  ),\n  s32[]\n)->f32[2,3,4]{2,0,1:T(2,128)}}';
    const s = parse(text);
    assert.ok(s.kind === 'module');
    assert.equal(s.name?.name, 'entry');
    assert.deepEqual(
      s.attributes.map((a) => a.key.name),
      ['is_scheduled', 'entry_computation_layout'],
    );
    const layout = s.entryComputationLayout;
    assert.ok(layout);
    assert.deepEqual(
      layout.parameters.map((p) => p.kind),
      ['array', 'tuple', 'array'],
    );
    assert.equal(slice(text, layout.result?.range), 'f32[2,3,4]{2,0,1:T(2,128)}');
    assert.equal(slice(text, layout.range), text.slice(text.indexOf('{('), text.length));
    assert.equal(s.shapes.length, 4);
  });

  it('finds shapes in attribute values through the shape finder', () => {
    const text = '%o = token[] outfeed(f32[2]{0} %x, token[] %t), outfeed_shape=f32[2]{0:T(128)}';
    const s = parse(text);
    assert.deepEqual(
      s.shapes.map((f) => slice(text, f.shape.range)),
      ['token[]', 'f32[2]{0}', 'token[]', 'f32[2]{0:T(128)}'],
    );
  });

  it('classifies close, comment, blank and unknown statements', () => {
    assert.equal(parse('}').kind, 'close');
    assert.equal(parse('  // ----- f32[2]{0,0}').kind, 'comment');
    assert.equal(parse('   ').kind, 'blank');
    const u = parse('garbage f32[2]{5}');
    assert.equal(u.kind, 'unknown');
    assert.equal(u.shapes.length, 1);
  });

  it('reports a statement starting with a character no name starts with, as XLA expects a name', () => {
    const cases: [string, string, RegExp][] = [
      ['  @ROOT %x = f32[4]{0} parameter(0)', '@', /^`@` cannot start a statement/],
      ['\ufeffHloModule m', '\ufeff', /^the file starts with a byte-order mark/],
      ['  \ufeff%x = f32[] parameter(0)', '\ufeff', /^an invisible U\+FEFF/],
    ];
    for (const [text, stray, words] of cases) {
      const s = parse(text);
      assert.equal(s.kind, 'unknown', text);
      assert.deepEqual(
        s.diagnostics.map((d) => [d.code, d.message, slice(text, d.range)]),
        [['invalid-name', 'expects name', stray]],
        text,
      );
      assert.match(s.diagnostics[0].plain ?? '', words);
    }
    // The source tables at the top of a dump, and any line starting with a word, are no such error.
    for (const text of [
      'FileNames',
      '1 "/x/model.py"',
      'StackFrames',
      '2 {file_location_id=2 parent_frame_id=1}',
      '-1 {file_location_id=1}',
    ])
      assert.deepEqual(parse(text).diagnostics, [], text);
  });

  it('keeps parser diagnostics of a bad result shape on its exact range', () => {
    const text = '%x = f32[2,2]{1,0:S(1)T(2,2)} add(%a, %b)';
    const s = parse(text);
    assert.ok(s.kind === 'instruction');
    assert.equal(s.opcode?.name, 'add');
    const codes = [...s.diagnostics, ...s.shapes.flatMap((f) => f.diagnostics)].map((d) => [
      d.code,
      slice(text, d.range),
    ]);
    assert.deepEqual(codes, [['layout-attribute-order', 'S(1)']]);
  });

  it('gives absolute ranges for a statement inside a larger text', () => {
    const text = 'HloModule m\n%y = f32[] negate(%x)';
    const s = parseStatement(text, { start: 12, end: text.length });
    assert.ok(s.kind === 'instruction');
    assert.deepEqual(s.name.range, at(text, 'y'));
    assert.deepEqual(s.operands[0]?.range, at(text, 'x', 0));
  });
});
