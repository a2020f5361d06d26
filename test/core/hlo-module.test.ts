import { strict as assert } from 'node:assert';
import { computationAt, parseHloText, symbolAt } from '../../core/src/hlo';

const TEXT = [
  'HloModule m, entry_computation_layout={(f32[8]{0})->f32[8]{0}}',
  '',
  'ENTRY %main (p: f32[8]) -> f32[8] {',
  '  %p = f32[8]{0} parameter(0)',
  '  %f = f32[8]{0} fusion(%p), kind=kLoop, calls=%fused',
  '  ROOT %r = f32[8]{0} add(%f, %p)',
  '}',
  '',
  '%fused (q: f32[8]) -> f32[8] {',
  '  %q = f32[8]{0} parameter(0)',
  '  %p = f32[8]{0} negate(%q)',
  '  ROOT %z = f32[8]{0} multiply(%p, %missing)',
  '}',
  '// -----',
  'HloModule second',
  'ENTRY e {',
  '  a = f32[] parameter(0)',
  '  b = f32[] add(a, a)',
  '}',
].join('\n');

describe('hlo buildModule', () => {
  const model = parseHloText(TEXT);

  it('builds modules and computations with ranges, entry flags and roots', () => {
    assert.deepEqual(
      model.modules.map((m) => [m.name?.name, m.computations, m.entry]),
      [
        ['m', [0, 1], 0],
        ['second', [2], 2],
      ],
    );
    assert.deepEqual(
      model.computations.map((c) => [
        c.name?.name,
        c.entry,
        c.closed,
        c.instructions.map((i) => i.name.name),
        c.root?.name.name,
      ]),
      [
        ['main', true, true, ['p', 'f', 'r'], 'r'],
        ['fused', false, true, ['q', 'p', 'z'], 'z'],
        ['e', true, true, ['a', 'b'], 'b'], // no ROOT: the last instruction, as XLA does
      ],
    );
    const main = model.computations[0];
    assert.ok(main);
    assert.equal(
      TEXT.slice(main.range.start, main.range.end),
      TEXT.slice(TEXT.indexOf('ENTRY %main'), TEXT.indexOf('}\n\n%fused') + 1),
    );
    assert.equal(computationAt(model, TEXT.indexOf('negate'))?.name?.name, 'fused');
  });

  it('scopes instruction names per computation', () => {
    const p = model.symbols.filter((s) => s.kind === 'instruction' && s.name === 'p');
    assert.equal(p.length, 2);
    const [mainP, fusedP] = p;
    assert.ok(mainP && fusedP);
    // In main: the signature parameter name and two operands reference the parameter instruction.
    assert.deepEqual(mainP.definition, { start: TEXT.indexOf('%p = ') + 1, end: TEXT.indexOf('%p = ') + 2 });
    assert.equal(mainP.references.length, 3);
    // In fused: %p is the negate, referenced once by multiply.
    assert.equal(fusedP.instruction?.opcode?.name, 'negate');
    assert.equal(fusedP.references.length, 1);
  });

  it('counts control-predecessors as references of the instructions they name', () => {
    const text = [
      'ENTRY %e {',
      '  %a = f32[] parameter(0)',
      '  %b = f32[] negate(%a)',
      '  ROOT %c = f32[] abs(%a), control-predecessors={%b}',
      '}',
    ].join('\n');
    const m = parseHloText(text);
    const b = m.symbols.find((s) => s.name === 'b');
    assert.deepEqual(b?.references, [{ start: text.indexOf('{%b}') + 2, end: text.indexOf('{%b}') + 3 }]);
    assert.equal(symbolAt(m, text.indexOf('{%b}') + 2)?.symbol, b);
  });

  it('makes each part of a file split by // ----- lines a module, with or without an HloModule line', () => {
    const text = [
      '%add { ROOT %s = f32[] parameter(0) }',
      'e {\n  ROOT r = f32[] call(), to_apply=%add\n}',
      '// CHECK: add\n\n// -----\n',
      '%add { ROOT %t = f32[] parameter(0) }',
      'e {\n  ROOT r = f32[] call(), to_apply=%add\n}',
      '// -----',
      'HloModule named',
      'e {\n  ROOT r = f32[] constant(0)\n}',
    ].join('\n');
    const m = parseHloText(text);
    assert.deepEqual(
      m.modules.map((x) => [x.name?.name, x.computations.map((c) => m.computations[c]?.name?.name)]),
      [
        [undefined, ['add', 'e']],
        [undefined, ['add', 'e']],
        ['named', ['e']],
      ],
    );
    // Each part's call resolves to its own %add.
    const adds = m.symbols.filter((s) => s.kind === 'computation' && s.name === 'add');
    assert.deepEqual(
      adds.map((a) => [a.definition?.start, a.references.map((r) => r.start)]),
      [
        [text.indexOf('add'), [text.indexOf('%add\n') + 1]],
        [text.indexOf('add', text.indexOf('// -----')), [text.lastIndexOf('%add\n') + 1]],
      ],
    );
    assert.equal(m.statements.filter((st) => st.kind === 'separator').length, 2);
  });

  it('resolves computations referenced before their definition and keeps unresolved names', () => {
    const fused = model.symbols.find((s) => s.kind === 'computation' && s.name === 'fused');
    assert.ok(fused?.definition);
    assert.deepEqual(fused.references, [
      { start: TEXT.indexOf('calls=%fused') + 7, end: TEXT.indexOf('calls=%fused') + 12 },
    ]);
    const missing = model.symbols.find((s) => s.name === 'missing');
    assert.ok(missing);
    assert.equal(missing.definition, undefined);
    assert.equal(missing.references.length, 1);
  });

  it('finds the symbol at an offset, including right after a name', () => {
    const use = TEXT.indexOf('add(%f') + 5;
    const hit = symbolAt(model, use);
    assert.equal(hit?.symbol.name, 'f');
    assert.equal(hit?.occurrence.isDefinition, false);
    assert.equal(symbolAt(model, use + 1)?.symbol.name, 'f');
    assert.equal(symbolAt(model, TEXT.indexOf('kind=')), undefined);
    const def = symbolAt(model, TEXT.indexOf('ROOT %r') + 6);
    assert.equal(def?.occurrence.isDefinition, true);
  });

  it('tolerates a missing closing brace and stray instructions', () => {
    const m = parseHloText('%x = f32[] parameter(0)\nENTRY %e {\n  %a = f32[] parameter(0)\n');
    assert.equal(m.computations.length, 1);
    assert.equal(m.computations[0]?.closed, false);
    assert.deepEqual(
      m.computations[0]?.instructions.map((i) => i.name.name),
      ['a'],
    );
  });

  it('scopes a computation written in place (`calls=\\n{ ... }`) to itself, as XLA parses it', () => {
    const text = [
      'c {',
      '  p = f32[8] parameter(0)',
      '  t = f32[8] fusion(p), kind=kLoop, calls=',
      '  {',
      '    p = f32[8] parameter(0)',
      '    ROOT t = f32[8] negate(p)',
      '  }',
      '  ROOT r = f32[8] add(t, p)',
      '}',
    ].join('\n');
    const m = parseHloText(text);
    const opener = m.statements.find((s) => s.kind === 'instruction' && s.inlineComputation);
    assert.ok(opener?.kind === 'instruction');
    assert.equal(opener.inlineComputation?.attribute.name, 'calls');
    assert.equal(text.slice(opener.inlineComputation.brace.start, opener.inlineComputation.brace.end), '{');
    assert.deepEqual(
      m.computations.map((c) => [
        c.name?.name,
        c.inline?.computation,
        c.instructions.map((i) => i.name.name),
        c.root?.name.name,
        c.closed,
      ]),
      [
        ['c', undefined, ['p', 't', 'r'], 'r', true],
        [undefined, 0, ['p', 't'], 't', true],
      ],
    );
    // The inline computation runs from its `{` to its `}`; the outer one on to its own `}`.
    assert.equal(
      text.slice(m.computations[1].range.start, m.computations[1].range.end),
      text.slice(text.indexOf('{\n    p'), text.indexOf('  }') + 3),
    );
    assert.equal(m.computations[0].range.end, text.length);
    assert.equal(m.modules[0]?.computations.length, 2);
    // `p` and `t` after the `}` are the outer ones; inside, the inner ones.
    const defLine = (offset: number) => {
      const d = symbolAt(m, offset)?.symbol.definition;
      return d ? text.slice(0, d.start).split('\n').length - 1 : -1;
    };
    assert.equal(defLine(text.indexOf('negate(p') + 7), 4);
    assert.equal(defLine(text.indexOf('add(t') + 4), 2);
    assert.equal(defLine(text.indexOf('add(t, p') + 7), 1);
    assert.equal(computationAt(m, text.indexOf('negate'))?.index, 1);
    assert.equal(computationAt(m, text.indexOf('add('))?.index, 0);
  });

  it('reads `attr={` as an inline computation only for attributes that name computations', () => {
    const m = parseHloText(
      [
        'c {',
        '  x = f32[] custom-call(), custom_call_target="f", backend_config={',
        '  y = f32[] constant(0)',
        '}',
      ].join('\n'),
    );
    assert.equal(m.computations.length, 1);
    assert.deepEqual(
      m.computations[0]?.instructions.map((i) => i.name.name),
      ['x', 'y'],
    );
  });
});
