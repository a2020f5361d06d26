import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHloText, type HloModel } from '../../core/src/hlo';
import { asyncFormOf, HLO_OPCODES } from '../../core/src/hlo/opcodes';
import { attributesAccepted, attributesOf } from '../../core/src/hlo/attribute-table';
import { CORPUS_HLO_DIR, describeWithSharedCorpus } from '../support/corpus';

const DIR = CORPUS_HLO_DIR;
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.hlo'))
  .sort();

function load(name: string): { text: string; model: HloModel } {
  const text = readFileSync(join(DIR, name), 'utf8');
  return { text, model: parseHloText(text) };
}

describeWithSharedCorpus('hlo model on the corpus', () => {
  it('has the 42 corpus files', () => assert.equal(FILES.length, 42));

  it("knows every opcode the corpus uses (the completion list is XLA's)", () => {
    const known = new Set(HLO_OPCODES.map((o) => o.name));
    assert.equal(known.size, HLO_OPCODES.length, 'no opcode twice');
    // XLA prints an async-wrapped instruction as its opcode with -start, -update or -done (call-start).
    const isKnown = (o: string) => known.has(o) || asyncFormOf(o) !== undefined;
    const used = new Set(
      FILES.flatMap((f) =>
        load(f).model.statements.flatMap((s) =>
          s.kind === 'instruction' && s.opcode ? [s.opcode.name] : [],
        ),
      ),
    );
    assert.ok(used.size > 30, String(used.size));
    assert.deepEqual(
      [...used].filter((o) => !isKnown(o)),
      [],
    );
  });

  it("finds every attribute the corpus writes in the attribute table taken from XLA's parser", () => {
    const unknown: string[] = [];
    let checked = 0;
    for (const f of FILES) {
      for (const s of load(f).model.statements) {
        const table = attributesAccepted(s);
        if (!table || (s.kind !== 'module' && s.kind !== 'instruction')) continue;
        const what = s.kind === 'module' ? 'HloModule' : (s.opcode?.name ?? '');
        const accepted = new Set(table.map((a) => a.name));
        for (const a of s.attributes) {
          checked++;
          if (!accepted.has(a.key.name)) unknown.push(`${f}: ${what} ${a.key.name}`);
        }
      }
    }
    assert.ok(checked > 200, String(checked));
    assert.deepEqual(unknown, []);
    // And the table says no to what no parser takes.
    assert.ok(!attributesOf('add').some((a) => a.name === 'dimensions'));
    assert.deepEqual(attributesOf('call-done').map((a) => a.name)[0], 'async_execution_thread');
  });

  for (const file of FILES) {
    it(`reads ${file} without errors, unknown statements or unresolved names`, () => {
      const { text, model } = load(file);
      const diagnostics = model.statements.flatMap((s) => [
        ...s.diagnostics,
        ...s.shapes.flatMap((f) => f.diagnostics),
      ]);
      assert.deepEqual(
        diagnostics.map((d) => `${d.code}: ${text.slice(d.range.start, d.range.end)}`),
        [],
      );
      const unknown = model.statements
        .filter((s) => s.kind === 'unknown')
        .map((s) => text.slice(s.range.start, s.range.end));
      assert.deepEqual(unknown, []);
      assert.deepEqual(
        model.symbols.filter((s) => !s.definition).map((s) => s.name),
        [],
      );
      assert.ok(model.computations.length > 0);
      assert.ok(model.computations.every((c) => c.closed && c.root));
    });
  }

  it('conditional_code_motion: four computations, branches referenced by true/false_computation', () => {
    const { model } = load('raw__xla__service__conditional_code_motion_test__L2208.hlo');
    assert.deepEqual(
      model.computations.map((c) => [c.name?.name, c.instructions.length, c.root?.name.name]),
      [
        ['branch_true', 6, 'tmp_5'],
        ['branch_false', 2, 'tmp_1'],
        ['scalar_add_computation.1', 3, 'add.1'],
        ['xla_computation', 12, 'conditional.1'],
      ],
    );
    const cond = model.computations[3]?.root;
    assert.deepEqual(
      cond?.calledComputations.map((c) => `${c.attribute}=${c.name}`),
      ['true_computation=branch_true', 'false_computation=branch_false'],
    );
    assert.deepEqual(
      cond?.operands.map((o) => o.name),
      ['parameter.2', 'tuple.2', 'multiply.13463'],
    );
    const branchTrue = model.symbols.find((s) => s.kind === 'computation' && s.name === 'branch_true');
    assert.equal(branchTrue?.references.length, 1);
  });

  it('import_entry_computation_layout: 14 modules split by // -----, the first with a multi-line layout', () => {
    const { text, model } = load(
      'file__xla__hlo__translate__hlo_to_mhlo__tests__import_entry_computation_layout.hlo',
    );
    assert.equal(model.modules.length, 14);
    const layout = model.modules[0]?.header?.entryComputationLayout;
    assert.ok(layout);
    assert.deepEqual(
      layout.parameters.map((p) => text.slice(p.range.start, p.range.end).replace(/\s+/g, '')),
      [
        'f32[2,3,4]{0,1,2:T(2,128)}',
        'f32[2,3,4]{1,2,0:T(2,1)}',
        '(f32[1,2]{1,0:T(1,2)},f32[1,2]{0,1:T(2,1)})',
        's32[]',
      ],
    );
    assert.equal(
      layout.result && text.slice(layout.result.range.start, layout.result.range.end),
      'f32[2,3,4]{2,0,1:T(2,128)}',
    );
    const main = model.computations[0];
    assert.deepEqual(
      main?.parameters.map((p) => p.name),
      ['Arg_0.1', 'Arg_1.2', 'Arg_2.3', 'Arg_3.4'],
    );
    assert.equal(main?.root?.opcode?.name, 'add');
  });

  it('pad_to_static: a three-line ROOT custom-call is one instruction', () => {
    const { model } = load('file__xla__backends__gpu__tests__pad_to_static.hlo');
    const root = model.computations[0]?.root;
    assert.equal(root?.name.name, 'custom_call_2');
    assert.equal(root?.opcode?.name, 'custom-call');
    assert.deepEqual(
      root?.operands.map((o) => o.name),
      ['param'],
    );
    assert.equal(root?.shape?.kind, 'tuple');
  });

  it('memory_space_assignment L2982: 13 instructions, nested tuple results', () => {
    const { model } = load(
      'raw__xla__service__memory_space_assignment__memory_space_assignment_test__L2982.hlo',
    );
    const c = model.computations[0];
    assert.equal(c?.instructions.length, 13);
    assert.equal(c?.root?.name.name, 'tuple.2');
    const t3 = c?.instructions.find((i) => i.name.name === 'tuple.3');
    assert.equal(t3?.shape?.kind === 'tuple' ? t3.shape.elements.length : -1, 2);
    assert.deepEqual(
      t3?.operands.map((o) => o.name),
      ['tuple.1', 'tuple.1'],
    );
  });

  it('hlo_parser_test L1143: async-start calls= an async computation', () => {
    const { model } = load('raw__xla__hlo__parser__hlo_parser_test__L1143.hlo');
    const start = model.computations[1]?.instructions.find((i) => i.opcode?.name === 'async-start');
    assert.deepEqual(
      start?.calledComputations.map((c) => c.name),
      ['async_computation'],
    );
  });
});
