/**
 * Real HLO files from shared/corpus/hlo: chosen files with their distinctive constructs, then
 * every file: each `type[` outside comments and strings is a scoped element type, nothing is
 * scoped invalid, and every computation closes back to the top level.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { PRIMITIVE_TYPE_NAMES } from '../../core/src/primitive-types';
import { CORPUS_DIR, corpusFile, expectToken, lineWith, tokenAt, tokenize } from './tokenize';
import { describeWithSharedCorpus } from '../support/corpus';

const SHAPE = ['meta.shape.array.hlo'];
const ATTRS = [...SHAPE, 'meta.layout.hlo', 'meta.layout.attributes.hlo'];
const TILE = [...ATTRS, 'meta.layout.tiles.hlo', 'meta.layout.tile.hlo'];
const TUPLE = ['meta.shape.tuple.hlo'];
const ECL = ['meta.attribute.entry-computation-layout.hlo'];

describeWithSharedCorpus('grammar: corpus files', () => {
  it('memory_space_assignment: T(128) in tuples, results and operand annotations', async () => {
    const lines = await tokenize(
      corpusFile('raw__xla__service__memory_space_assignment__memory_space_assignment_test__L2982.hlo'),
    );
    const header = lineWith(lines, 'HloModule');
    expectToken(header, 'DoIt_S64_10_0_5_1.3', ['entity.name.namespace.module.hlo']);
    expectToken(header, 'is_scheduled', ['entity.other.attribute-name.hlo']);
    const p0 = lineWith(lines, '%p0.1 = ');
    expectToken(p0, '%p0.1', ['entity.name.variable.instruction.hlo']);
    expectToken(p0, 'T', [...TUPLE, ...ATTRS, 'meta.layout.tiles.hlo', 'keyword.other.layout.tile.hlo'], 1);
    expectToken(p0, '128', [...TUPLE, ...TILE, 'constant.numeric.integer.tile.hlo'], 1);
    const gte = lineWith(lines, '%get-tuple-element.1 = ');
    expectToken(gte, '128', [...TILE, 'constant.numeric.integer.tile.hlo']);
    expectToken(gte, 'get-tuple-element', ['meta.operands.hlo', 'entity.name.function.call.opcode.hlo']);
    expectToken(gte, '128', ['meta.operands.hlo', ...TUPLE, ...TILE, 'constant.numeric.integer.tile.hlo'], 2);
    expectToken(gte, 'index', ['entity.other.attribute-name.hlo']);
    const root = lineWith(lines, 'ROOT %tuple.2');
    expectToken(root, 'ROOT', ['keyword.other.root.hlo']);
    expectToken(root, '%copy.3', ['meta.operands.hlo', 'variable.other.hlo']);
  });

  it('import_entry_computation_layout: a header spread over lines keeps shape scopes', async () => {
    const lines = await tokenize(
      corpusFile('file__xla__hlo__translate__hlo_to_mhlo__tests__import_entry_computation_layout.hlo'),
    );
    const first = lineWith(lines, 'HloModule entry, entry_computation_layout={(');
    expectToken(first, '(', [...ECL, ...TUPLE, 'punctuation.definition.tuple.begin.hlo']);
    const inner = lineWith(lines, '  f32[2,3,4]{0,1,2:T(2,128)},');
    expectToken(inner, 'f32', [...ECL, ...TUPLE, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(inner, '128', [...ECL, ...TUPLE, ...TILE, 'constant.numeric.integer.tile.hlo']);
    const nested = lineWith(lines, '    f32[1,2]{0,1:T(2,1)}');
    expectToken(nested, 'T', [
      ...ECL,
      ...TUPLE,
      ...TUPLE,
      ...ATTRS,
      'meta.layout.tiles.hlo',
      'keyword.other.layout.tile.hlo',
    ]);
    const last = lineWith(lines, ')->f32[2,3,4]{2,0,1:T(2,128)}}');
    expectToken(last, '->', [...ECL, 'keyword.operator.arrow.hlo']);
    expectToken(last, '128', [...ECL, ...TILE, 'constant.numeric.integer.tile.hlo']);
    expectToken(last, '}', [...ECL, 'punctuation.section.braces.end.hlo'], 1);
    assert.equal(last.depthAfter, 1, 'the header is closed after its last line');
    const entry = lineWith(lines, 'ENTRY %main.6');
    expectToken(entry, '%main.6', ['meta.computation-header.hlo', 'entity.name.function.computation.hlo']);
  });

  it('memory_space_propagation: E(4), S(1), S(6), /*index=5*/, metadata and backend_config', async () => {
    const lines = await tokenize(
      corpusFile('raw__xla__hlo__transforms__memory_space_propagation_test__L606.hlo'),
    );
    const input = lineWith(lines, '%input.20 = ');
    expectToken(input, 'E', [...ATTRS, 'keyword.other.layout.element-size.hlo']);
    expectToken(input, '4', [...ATTRS, 'constant.numeric.integer.element-size.hlo']);
    expectToken(input, '1', [...ATTRS, 'constant.numeric.integer.memory-space.hlo'], 3);
    const p1 = lineWith(lines, '%param_1.980 = ');
    expectToken(p1, '6', [...ATTRS, 'constant.numeric.integer.memory-space.hlo']);
    const dus = lineWith(lines, 'ROOT %dynamic-update-slice.455');
    expectToken(dus, 'index=5', ['meta.operands.hlo', 'comment.block.hlo']);
    expectToken(dus, 'op_name', ['meta.attribute.metadata.hlo', 'entity.other.attribute-name.hlo']);
    expectToken(dus, 'stack_frame_id', ['meta.attribute.metadata.hlo', 'entity.other.attribute-name.hlo']);
    const bc = ['meta.attribute.backend-config.hlo'];
    expectToken(dus, '"flag_configs"', [
      ...bc,
      'string.quoted.double.json.hlo',
      'support.type.property-name.json.hlo',
    ]);
    expectToken(dus, '"is_index_aligned"', [
      ...bc,
      'string.quoted.double.json.hlo',
      'support.type.property-name.json.hlo',
    ]);
    expectToken(dus, '}', [...bc, 'punctuation.definition.dictionary.end.json.hlo'], 6);
    const fusion = lineWith(lines, '%fusion.21 = ');
    expectToken(fusion, 'kLoop', ['constant.language.enum.hlo']);
    expectToken(fusion, '%fused_computation.434.clone', ['entity.name.function.computation.reference.hlo']);
  });

  it('sub_byte_collectives: sub-byte E(4) and bare computation names', async () => {
    const lines = await tokenize(corpusFile('file__xla__backends__gpu__tests__sub_byte_collectives.hlo'));
    expectToken(lineWith(lines, 'e {'), 'e', [
      'meta.computation-header.hlo',
      'entity.name.function.computation.hlo',
    ]);
    const f4 = lineWith(lines, 'a = f4e2m1fn[80,20]');
    expectToken(f4, 'a', ['entity.name.variable.instruction.hlo']);
    expectToken(f4, 'f4e2m1fn', [...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(f4, 'E', [...ATTRS, 'keyword.other.layout.element-size.hlo']);
    const check = lineWith(lines, '// CHECK: s4[32,16]{1,0:E(4)} bitcast');
    assert.ok(tokenAt(check, 's4').scopes.includes('comment.line.double-slash.hlo'));
  });

  it('host_offloader: S(5) in entry_computation_layout and a block comment line', async () => {
    const lines = await tokenize(corpusFile('raw__xla__hlo__transforms__host_offloader_test__L537.hlo'));
    const header = lineWith(lines, 'HloModule jit__prefill_impl');
    expectToken(header, 'S', [...ECL, ...TUPLE, ...ATTRS, 'keyword.other.layout.memory-space.hlo']);
    expectToken(header, '5', [...ECL, ...TUPLE, ...ATTRS, 'constant.numeric.integer.memory-space.hlo']);
    expectToken(lineWith(lines, '/* Increment iteration index */'), ' Increment iteration index ', [
      'comment.block.hlo',
    ]);
    const w = lineWith(lines, '  while = ');
    expectToken(w, 'while_condition', ['entity.name.function.computation.reference.hlo']);
    expectToken(w, 'while_body', ['entity.name.function.computation.reference.hlo']);
  });

  it('latency_hiding_scheduler: instructions wrapped over several lines', async () => {
    const lines = await tokenize(corpusFile('raw__xla__service__latency_hiding_scheduler_test__L3577.hlo'));
    const def = lineWith(lines, '%call-start.1 = ');
    expectToken(def, 'S', [...TUPLE, ...ATTRS, 'keyword.other.layout.memory-space.hlo']);
    const call = lineWith(lines, '    call-start(s32[<=4096]{0:T(8)M(1024)} %get-tuple-element.1),');
    expectToken(call, 'call-start', ['meta.operands.hlo', 'entity.name.function.call.opcode.hlo']);
    expectToken(call, 'M', [
      'meta.operands.hlo',
      ...ATTRS,
      'keyword.other.layout.dynamic-shape-metadata.hlo',
    ]);
    const attrs = lineWith(lines, '      async_execution_thread="sparsecore", to_apply=%called_computation');
    expectToken(attrs, 'async_execution_thread', ['entity.other.attribute-name.hlo']);
    expectToken(attrs, '%called_computation', ['entity.name.function.computation.reference.hlo']);
  });
});

describeWithSharedCorpus('grammar: every corpus file', () => {
  const files = fs
    .readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.hlo'))
    .sort();
  // Built from the core's type table, independently of the grammar's own regex, longest name first.
  const names = [...PRIMITIVE_TYPE_NAMES].sort((a, b) => b.length - a.length).join('|');
  const typeBeforeBracket = new RegExp(`(?<![\\w.%-])(${names})(?=\\s*\\[)`, 'g');

  it('finds the corpus', () => assert.ok(files.length >= 40, `${files.length} files`));

  it('scopes every element type outside comments and strings, and nothing as invalid', async () => {
    let checked = 0;
    for (const file of files) {
      const lines = await tokenize(corpusFile(file));
      lines.forEach((line, n) => {
        for (const token of line.tokens) {
          assert.ok(
            !token.scopes.some((s) => s.startsWith('invalid')),
            `${file}:${n + 1} invalid scope on "${token.text}"`,
          );
        }
        for (const m of line.text.matchAll(typeBeforeBracket)) {
          const token = line.tokens.find((t) => t.start <= m.index && m.index < t.end)!;
          if (token.scopes.some((s) => s.startsWith('comment.') || s.startsWith('string.'))) continue;
          assert.equal(token.text, m[1], `${file}:${n + 1} token at column ${m.index}`);
          assert.ok(
            token.scopes.includes('storage.type.primitive.hlo'),
            `${file}:${n + 1} ${m[1]} scoped ${token.scopes.join(' ')}`,
          );
          checked++;
        }
      });
    }
    console.log(`      ${checked} element types checked in ${files.length} files`);
    assert.ok(checked >= 900, `only ${checked} shapes checked`);
  });

  it('closes every computation: each line that is just `}` (or `}, execution_thread=...`) returns to the top level', async () => {
    for (const file of files) {
      const lines = await tokenize(corpusFile(file));
      lines.forEach((line, n) => {
        if (/^\s*\}(?:,|\s*$)/.test(line.text))
          assert.equal(line.depthAfter, 1, `${file}:${n + 1} still inside a construct`);
      });
      assert.equal(lines[lines.length - 1].depthAfter, 1, `${file} ends inside a construct`);
    }
  });
});
