/**
 * Module headers, computations, instructions, opcodes, attributes, strings, numbers and comments,
 * tokenized by the real engine.
 */
import { expectToken, tokenize } from './tokenize';

const HEADER = ['meta.computation-header.hlo'];
const PARAMS = [...HEADER, 'meta.parameters.hlo'];
const OPERANDS = ['meta.operands.hlo'];

describe('grammar: statements', () => {
  it('scopes the module header and its attributes', async () => {
    const [line] = await tokenize(
      'HloModule jit_f.3, is_scheduled=true, entry_computation_layout={(f32[2]{0})->f32[2]{0}}',
    );
    expectToken(line, 'HloModule', ['keyword.other.module.hlo']);
    expectToken(line, 'jit_f.3', ['entity.name.namespace.module.hlo']);
    expectToken(line, 'is_scheduled', ['entity.other.attribute-name.hlo']);
    expectToken(line, '=', ['punctuation.separator.key-value.hlo']);
    expectToken(line, 'true', ['constant.language.boolean.hlo']);
    const ecl = ['meta.attribute.entry-computation-layout.hlo'];
    expectToken(line, 'entry_computation_layout', [...ecl, 'entity.other.attribute-name.hlo']);
    expectToken(line, '->', [...ecl, 'keyword.operator.arrow.hlo']);
    expectToken(line, 'f32', [...ecl, 'meta.shape.array.hlo', 'storage.type.primitive.hlo'], 1);
  });

  it('scopes computation headers: ENTRY, names, parameters, arrow and body brace', async () => {
    const lines = await tokenize(
      'ENTRY %main.6 (Arg_0.1: f32[2], Arg_2.3: (f32[1], s32[])) -> (f32[2]) {\n%fused_computation.1 {\n}',
    );
    const [entry, fused] = lines;
    expectToken(entry, 'ENTRY', [...HEADER, 'keyword.other.entry.hlo']);
    expectToken(entry, '%main.6', [...HEADER, 'entity.name.function.computation.hlo']);
    expectToken(entry, '(', [...PARAMS, 'punctuation.section.parameters.begin.hlo']);
    expectToken(entry, 'Arg_0.1', [...PARAMS, 'variable.parameter.hlo']);
    expectToken(entry, ':', [...PARAMS, 'punctuation.separator.parameter.hlo']);
    expectToken(entry, 's32', [
      ...PARAMS,
      'meta.shape.tuple.hlo',
      'meta.shape.array.hlo',
      'storage.type.primitive.hlo',
    ]);
    expectToken(entry, '->', [...HEADER, 'keyword.operator.arrow.hlo']);
    expectToken(entry, '(', [...HEADER, 'meta.shape.tuple.hlo', 'punctuation.definition.tuple.begin.hlo'], 2);
    expectToken(entry, '{', [...HEADER, 'punctuation.section.block.begin.hlo']);
    expectToken(fused, '%fused_computation.1', [...HEADER, 'entity.name.function.computation.hlo']);
    expectToken(lines[2], '}', ['punctuation.section.block.end.hlo']);
  });

  it('scopes instructions: ROOT, definitions, opcodes, operands and references', async () => {
    const [line] = await tokenize(
      '  ROOT %add.5 = f32[2]{0} add(f32[2]{0} %Arg_0.1, p1), metadata={op_name="jit(f)/add" source_file="/x.py" source_line=12}',
    );
    expectToken(line, 'ROOT', ['keyword.other.root.hlo']);
    expectToken(line, '%add.5', ['entity.name.variable.instruction.hlo']);
    expectToken(line, '=', ['keyword.operator.assignment.hlo']);
    expectToken(line, 'add', [...OPERANDS, 'entity.name.function.call.opcode.hlo']);
    expectToken(line, '(', [...OPERANDS, 'punctuation.definition.arguments.begin.hlo']);
    expectToken(line, '%Arg_0.1', [...OPERANDS, 'variable.other.hlo']);
    expectToken(line, 'p1', [...OPERANDS, 'variable.other.hlo']);
    const md = ['meta.attribute.metadata.hlo'];
    expectToken(line, 'metadata', [...md, 'entity.other.attribute-name.hlo']);
    expectToken(line, 'op_name', [...md, 'entity.other.attribute-name.hlo']);
    expectToken(line, 'jit(f)/add', [...md, 'string.quoted.double.hlo']);
    expectToken(line, 'source_file', [...md, 'entity.other.attribute-name.hlo']);
    expectToken(line, 'source_line', [...md, 'entity.other.attribute-name.hlo']);
    expectToken(line, '12', [...md, 'constant.numeric.integer.hlo']);
  });

  it('scopes kind=, calls=, to_apply= (also wrapped onto the next line), dimensions= and enums', async () => {
    const lines = await tokenize(
      '%f = f32[2]{0} fusion(%a), kind=kLoop, calls=%fused.1, dimensions={0,1}, direction=LT\n%r = f32[] reduce(%a, %b), to_apply=\n    sum.2, branch_computations={%b0, b1}',
    );
    const [a, b, c] = lines;
    expectToken(a, 'kind', ['entity.other.attribute-name.hlo']);
    expectToken(a, 'kLoop', ['constant.language.enum.hlo']);
    expectToken(a, '%fused.1', ['entity.name.function.computation.reference.hlo']);
    expectToken(a, '1', ['meta.braces.hlo', 'constant.numeric.integer.hlo']);
    expectToken(a, 'LT', ['constant.language.enum.hlo']);
    expectToken(b, 'to_apply', ['entity.other.attribute-name.hlo']);
    expectToken(c, 'sum.2', ['entity.name.function.computation.reference.hlo']);
    expectToken(c, 'b1', [
      'meta.attribute.computations.hlo',
      'entity.name.function.computation.reference.hlo',
    ]);
  });

  it('scopes backend_config JSON, sharding, slice, window and dim_labels', async () => {
    const [line] = await tokenize(
      '%c = f16[1,2]{1,0} convolution(%i, %k), window={size=7x7 pad=3_3x3_3}, dim_labels=b01f_o01i->bf01, slice={[0:2], [6:8]}, ' +
        'sharding={devices=[2,1]<=[2] last_tile_dim_replicate}, backend_config={"kind":"__triton","n":[1,2.5],"ok":true}',
    );
    const win = ['meta.braces.hlo'];
    expectToken(line, 'size', [...win, 'entity.other.attribute-name.hlo']);
    expectToken(line, '7x7', [...win, 'constant.numeric.integer.compound.hlo']);
    expectToken(line, '3_3x3_3', [...win, 'constant.numeric.integer.compound.hlo']);
    expectToken(line, 'b01f_o01i->bf01', ['constant.other.dim-labels.hlo']);
    const slice = ['meta.attribute.slice.hlo'];
    expectToken(line, ':', [...slice, 'punctuation.separator.slice.hlo']);
    expectToken(line, '6', [...slice, 'constant.numeric.integer.hlo']);
    const sh = ['meta.attribute.sharding.hlo'];
    expectToken(line, 'devices', [...sh, 'entity.other.attribute-name.hlo']);
    expectToken(line, '<=', [...sh, 'keyword.operator.iota.hlo']);
    expectToken(line, 'last_tile_dim_replicate', [...sh, 'constant.language.sharding.hlo']);
    const bc = ['meta.attribute.backend-config.hlo'];
    expectToken(line, 'backend_config', [...bc, 'entity.other.attribute-name.hlo']);
    expectToken(line, '"kind"', [
      ...bc,
      'string.quoted.double.json.hlo',
      'support.type.property-name.json.hlo',
    ]);
    expectToken(line, '__triton', [...bc, 'string.quoted.double.json.hlo']);
    expectToken(line, '2.5', [...bc, 'constant.numeric.json.hlo']);
    expectToken(line, 'true', [...bc, 'constant.language.json.hlo']);
  });

  it('scopes strings with escapes, numbers of every form and both comment styles', async () => {
    const lines = await tokenize(
      '%k = f32[4]{0} constant({1, -2.5, 1e-05, inf, -nan}), custom_call_target="a\\"b\\n", x=0x1F // tail\n' +
        '/* multi\nline */ %z = s32[] constant(-3)',
    );
    const [a, b, c] = lines;
    expectToken(a, '1', [...OPERANDS, 'meta.braces.hlo', 'constant.numeric.integer.hlo']);
    expectToken(a, '-2.5', [...OPERANDS, 'meta.braces.hlo', 'constant.numeric.float.hlo']);
    expectToken(a, '1e-05', [...OPERANDS, 'meta.braces.hlo', 'constant.numeric.float.hlo']);
    expectToken(a, 'inf', [...OPERANDS, 'meta.braces.hlo', 'constant.numeric.float.hlo']);
    expectToken(a, '-nan', [...OPERANDS, 'meta.braces.hlo', 'constant.numeric.float.hlo']);
    expectToken(a, '\\"', ['string.quoted.double.hlo', 'constant.character.escape.hlo']);
    expectToken(a, '\\n', ['string.quoted.double.hlo', 'constant.character.escape.hlo']);
    expectToken(a, '0x1F', ['constant.numeric.integer.hexadecimal.hlo']);
    expectToken(a, '//', ['comment.line.double-slash.hlo', 'punctuation.definition.comment.hlo']);
    expectToken(b, ' multi', ['comment.block.hlo']);
    expectToken(c, '*/', ['comment.block.hlo', 'punctuation.definition.comment.end.hlo']);
    expectToken(c, '-3', [...OPERANDS, 'constant.numeric.integer.hlo']);
  });
});
