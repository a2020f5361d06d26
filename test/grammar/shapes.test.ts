/**
 * Shapes in parts: element type, dimensions, layout braces, minor_to_major, every layout attribute
 * letter with its numbers, tiles with `*`, tuples, buffers and tokens, tokenized by the real engine.
 */
import * as assert from 'node:assert/strict';
import { PRIMITIVE_TYPE_NAMES } from '../../core/src/primitive-types';
import { expectInnermost, expectToken, tokenAt, tokenize } from './tokenize';

const SHAPE = ['meta.shape.array.hlo'];
const DIMS = [...SHAPE, 'meta.shape.dimensions.hlo'];
const LAYOUT = [...SHAPE, 'meta.layout.hlo'];
const ATTRS = [...LAYOUT, 'meta.layout.attributes.hlo'];
const TILES = [...ATTRS, 'meta.layout.tiles.hlo'];
const TILE = [...TILES, 'meta.layout.tile.hlo'];
const SPLITS = [...ATTRS, 'meta.layout.split-configs.hlo'];
const SPLIT = [...SPLITS, 'meta.layout.split-config.hlo'];

describe('grammar: shapes', () => {
  it('scopes the parts of bf16[8,256]{1,0:T(8,128)(2,1)S(1)}', async () => {
    const [line] = await tokenize('%p = bf16[8,256]{1,0:T(8,128)(2,1)S(1)} parameter(0)');
    expectToken(line, 'bf16', [...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, '[', [...DIMS, 'punctuation.definition.dimensions.begin.hlo']);
    expectToken(line, '8', [...DIMS, 'constant.numeric.integer.dimension.hlo']);
    expectToken(line, ',', [...DIMS, 'punctuation.separator.comma.hlo']);
    expectToken(line, '256', [...DIMS, 'constant.numeric.integer.dimension.hlo']);
    expectToken(line, ']', [...DIMS, 'punctuation.definition.dimensions.end.hlo']);
    expectToken(line, '{', [...LAYOUT, 'punctuation.definition.layout.begin.hlo']);
    expectToken(line, '1', [...LAYOUT, 'constant.numeric.integer.minor-to-major.hlo']);
    expectToken(line, '0', [...LAYOUT, 'constant.numeric.integer.minor-to-major.hlo']);
    expectToken(line, ':', [...ATTRS, 'punctuation.separator.layout.hlo']);
    expectToken(line, 'T', [...TILES, 'keyword.other.layout.tile.hlo']);
    expectToken(line, '(', [...TILE, 'punctuation.definition.tile.begin.hlo']);
    expectToken(line, '8', [...TILE, 'constant.numeric.integer.tile.hlo'], 1);
    expectToken(line, '128', [...TILE, 'constant.numeric.integer.tile.hlo']);
    expectToken(line, ')', [...TILE, 'punctuation.definition.tile.end.hlo']);
    expectToken(line, '2', [...TILE, 'constant.numeric.integer.tile.hlo']);
    expectToken(line, '1', [...TILE, 'constant.numeric.integer.tile.hlo'], 1);
    expectToken(line, 'S', [...ATTRS, 'keyword.other.layout.memory-space.hlo']);
    expectToken(line, '1', [...ATTRS, 'constant.numeric.integer.memory-space.hlo'], 2);
    expectToken(line, '}', [...LAYOUT, 'punctuation.definition.layout.end.hlo']);
    expectToken(line, 'parameter', ['meta.operands.hlo', 'entity.name.function.call.opcode.hlo']);
  });

  it('gives every layout attribute letter, in XLA order, its own scope', async () => {
    const text =
      '%q = f32[10,20]{0,1:D(D,C+~)T(2,*,128)L(4)#(u32)*(u16)E(32)S(2)SC(0:3)(1:0,4)P(s32[10,20]{1,0})M(8)} parameter(0)';
    const [line] = await tokenize(text);
    const dlt = [...ATTRS, 'meta.layout.dim-level-types.hlo'];
    expectToken(line, 'D', [...dlt, 'keyword.other.layout.dim-level-types.hlo']);
    expectToken(line, 'D', [...dlt, 'constant.language.dim-level-type.hlo'], 1);
    expectToken(line, 'C', [...dlt, 'constant.language.dim-level-type.hlo']);
    expectToken(line, '+', [...dlt, 'keyword.operator.dim-level-property.hlo']);
    expectToken(line, '~', [...dlt, 'keyword.operator.dim-level-property.hlo']);
    expectToken(line, 'T', [...TILES, 'keyword.other.layout.tile.hlo']);
    expectToken(line, '*', [...TILE, 'constant.language.combine-dimension.hlo']);
    expectToken(line, 'L', [...ATTRS, 'keyword.other.layout.tail-padding-alignment.hlo']);
    expectToken(line, '4', [...ATTRS, 'constant.numeric.integer.tail-padding-alignment.hlo']);
    expectToken(line, '#', [...ATTRS, 'keyword.other.layout.index-type.hlo']);
    expectToken(line, 'u32', [...ATTRS, 'storage.type.primitive.hlo']);
    expectToken(line, '*', [...ATTRS, 'keyword.other.layout.pointer-type.hlo'], 1);
    expectToken(line, 'u16', [...ATTRS, 'storage.type.primitive.hlo']);
    expectToken(line, 'E', [...ATTRS, 'keyword.other.layout.element-size.hlo']);
    expectToken(line, '32', [...ATTRS, 'constant.numeric.integer.element-size.hlo']);
    expectToken(line, 'S', [...ATTRS, 'keyword.other.layout.memory-space.hlo']);
    expectToken(line, 'SC', [...SPLITS, 'keyword.other.layout.split-config.hlo']);
    expectToken(line, '3', [...SPLIT, 'constant.numeric.integer.split-config.hlo']);
    expectToken(line, ':', [...SPLIT, 'punctuation.separator.split-config.hlo'], 1);
    expectToken(line, '4', [...SPLIT, 'constant.numeric.integer.split-config.hlo'], 1);
    const physical = [...ATTRS, 'meta.layout.physical-shape.hlo'];
    expectToken(line, 'P', [...physical, 'keyword.other.layout.physical-shape.hlo']);
    expectToken(line, 's32', [...physical, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, 'M', [...ATTRS, 'keyword.other.layout.dynamic-shape-metadata.hlo']);
    expectToken(line, '8', [...ATTRS, 'constant.numeric.integer.dynamic-shape-metadata.hlo']);
    expectToken(line, '}', [...LAYOUT, 'punctuation.definition.layout.end.hlo'], 1);
  });

  it('scopes bounded <= and unbounded ? dimensions and whitespace inside shapes', async () => {
    const [line] = await tokenize('%d = s32[<=4096, ?,3]{ 2, 1,0 :T( 2 , * , 128 )} parameter(0)');
    expectToken(line, '<=', [...DIMS, 'keyword.operator.bounded-dynamic.hlo']);
    expectToken(line, '4096', [...DIMS, 'constant.numeric.integer.dimension.hlo']);
    expectToken(line, '?', [...DIMS, 'keyword.operator.unbounded-dynamic.hlo']);
    expectToken(line, '2', [...LAYOUT, 'constant.numeric.integer.minor-to-major.hlo']);
    expectToken(line, '*', [...TILE, 'constant.language.combine-dimension.hlo']);
    expectToken(line, '128', [...TILE, 'constant.numeric.integer.tile.hlo']);
    expectToken(line, 'parameter', ['meta.operands.hlo', 'entity.name.function.call.opcode.hlo']);
  });

  it('scopes scalar layouts with an empty minor_to_major', async () => {
    const [line] = await tokenize('%s = s32[]{:T(128)S(6)} parameter(1)');
    expectToken(line, '{', [...LAYOUT, 'punctuation.definition.layout.begin.hlo']);
    expectToken(line, ':', [...ATTRS, 'punctuation.separator.layout.hlo']);
    expectToken(line, '128', [...TILE, 'constant.numeric.integer.tile.hlo']);
    expectToken(line, '6', [...ATTRS, 'constant.numeric.integer.memory-space.hlo']);
  });

  it('scopes tuples (nested, empty, with /*index=5*/), b(...) buffers and token[]', async () => {
    const [line] = await tokenize(
      '%t = (f32[], (s32[2]{0}, ()), b(u8[4]{0}), token[], f32[], /*index=5*/pred[]) parameter(0)',
    );
    const tuple = ['meta.shape.tuple.hlo'];
    expectToken(line, '(', [...tuple, 'punctuation.definition.tuple.begin.hlo']);
    expectToken(line, 'f32', [...tuple, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, 's32', [...tuple, ...tuple, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, '(', [...tuple, ...tuple, ...tuple, 'punctuation.definition.tuple.begin.hlo'], 2);
    expectToken(line, ')', [...tuple, ...tuple, ...tuple, 'punctuation.definition.tuple.end.hlo']);
    const buffer = [...tuple, 'meta.shape.buffer.hlo'];
    expectToken(line, 'b', [...buffer, 'storage.type.buffer.hlo']);
    expectToken(line, 'u8', [...buffer, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, 'token', [...tuple, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, '/*', [...tuple, 'comment.block.hlo', 'punctuation.definition.comment.begin.hlo']);
    expectToken(line, 'index=5', [...tuple, 'comment.block.hlo']);
    expectToken(line, 'pred', [...tuple, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, ')', [...tuple, 'punctuation.definition.tuple.end.hlo'], 3);
    expectToken(line, 'parameter', ['meta.operands.hlo', 'entity.name.function.call.opcode.hlo']);
  });

  it('scopes every primitive type the core knows, and no made-up one', async () => {
    const text = PRIMITIVE_TYPE_NAMES.map((t) => `%x = ${t}[] parameter(0)`).join('\n');
    const lines = await tokenize(`${text}\n%y = f31[2]{0} parameter(0)\n%z = F32[2]{0} parameter(0)`);
    PRIMITIVE_TYPE_NAMES.forEach((t, i) =>
      expectToken(lines[i], t, [...SHAPE, 'storage.type.primitive.hlo']),
    );
    for (const [i, name] of [
      [PRIMITIVE_TYPE_NAMES.length, 'f31'],
      [PRIMITIVE_TYPE_NAMES.length + 1, 'F32'],
    ] as const) {
      assert.ok(
        !tokenAt(lines[i], name).scopes.includes('storage.type.primitive.hlo'),
        `${name} is not a type`,
      );
    }
  });

  it('follows the parser look-ahead: `{` starts a layout only before an integer or `:`', async () => {
    const lines = await tokenize('ENTRY %c (p: f32[123]) -> f32[123] {\n  %e = f32[2,3]{} parameter(0)\n}');
    expectToken(lines[0], '{', ['meta.computation-header.hlo', 'punctuation.section.block.begin.hlo']);
    const brace = tokenAt(lines[1], '{}');
    assert.ok(!brace.scopes.includes('meta.layout.hlo'), `{} is not a layout: ${brace.scopes.join(' ')}`);
  });

  it('recovers from an unterminated shape at the next statement', async () => {
    const lines = await tokenize(
      '  %bad = f32[2]{0:T(8,128 parameter(1)\n  %b2 = (f32[2], s32[\n  %ok = bf16[2]{0:T(2)} parameter(0)\n}',
    );
    expectToken(lines[2], '%ok', ['entity.name.variable.instruction.hlo']);
    expectToken(lines[2], 'bf16', [...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(lines[2], 'T', [...TILES, 'keyword.other.layout.tile.hlo']);
    expectToken(lines[3], '}', ['punctuation.section.block.end.hlo']);
  });

  it('does not take identifiers ending in a type name, or layout letters outside layouts, for shape parts', async () => {
    const [line] = await tokenize('%x = f32[2]{0} custom-call(%myf32), custom_call_target="T(8,128)"');
    expectInnermost(line, '%myf32', 'variable.other.hlo');
    expectInnermost(line, 'T(8', 'string.quoted.double.hlo');
  });
});
