/**
 * Dump header lines pass 20,000 characters. The grammar's regexes must stay linear: the last shape on
 * such a line must still be scoped correctly, and adversarial lines must still be tokenized to their end
 * (a backtracking regex would hang here until the test times out).
 * Times are printed for the record; the assertions are about correctness.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectToken, tokenize } from './tokenize';

const ECL = ['meta.attribute.entry-computation-layout.hlo'];
const TUPLE = ['meta.shape.tuple.hlo'];
const SHAPE = ['meta.shape.array.hlo'];
const ATTRS = [...SHAPE, 'meta.layout.hlo', 'meta.layout.attributes.hlo'];

/** A module header as XLA prints it for a model with `n` tiled bf16 parameters, plus an s4 one and a tuple result. */
function eclLine(n: number): string {
  const shapes = Array.from(
    { length: n },
    (_, i) => `${i > 0 && i % 5 === 0 ? `/*index=${i}*/` : ''}bf16[${8 + i},256]{1,0:T(8,128)(2,1)S(1)}`,
  );
  return `HloModule big, entry_computation_layout={(${shapes.join(', ')}, s4[64,128]{1,0:T(64,128)(8,1)E(4)S(5)})->(f32[1024]{0:T(1024)S(6)})}, is_scheduled=true`;
}

/** Tokenizes `text` and returns its first line with the time taken. */
async function timed(
  text: string,
): Promise<{ line: Awaited<ReturnType<typeof tokenize>>[number]; ms: number }> {
  const t0 = performance.now();
  const [line] = await tokenize(text);
  return { line: line, ms: performance.now() - t0 };
}

describe('grammar: lines longer than 20,000 characters', () => {
  before(async () => {
    // Compile every rule's scanner and let the JavaScript engine warm up, so that the printed times
    // measure tokenizing rather than start-up.
    await tokenize(
      'ENTRY %e (p: f32[]) -> f32[] {\n  %a = f32[2]{0:D(D)L(2)#(u8)*(u8)E(4)SC(0:1)P(f32[2]{0})M(2)} add(%a), metadata={op_name="x"}, backend_config={"a":[1]}, sharding={replicated}, slice={[0:1]}\n}',
    );
    for (let i = 0; i < 3; i++) await tokenize(eclLine(200));
  });

  it('scopes the last of 600 tiled shapes in a one-line entry_computation_layout', async () => {
    const text = eclLine(600);
    assert.ok(text.length > 20000, `line has ${text.length} characters`);
    const { line, ms } = await timed(text);
    console.log(`      ${text.length} characters, ${line.tokens.length} tokens in ${ms.toFixed(0)} ms`);
    expectToken(line, 'bf16', [...ECL, ...TUPLE, ...SHAPE, 'storage.type.primitive.hlo'], 599);
    expectToken(line, '607', [
      ...ECL,
      ...TUPLE,
      ...SHAPE,
      'meta.shape.dimensions.hlo',
      'constant.numeric.integer.dimension.hlo',
    ]);
    expectToken(line, 'index=595', [...ECL, ...TUPLE, 'comment.block.hlo']);
    expectToken(line, 's4', [...ECL, ...TUPLE, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, 'E', [...ECL, ...TUPLE, ...ATTRS, 'keyword.other.layout.element-size.hlo']);
    expectToken(line, '5', [...ECL, ...TUPLE, ...ATTRS, 'constant.numeric.integer.memory-space.hlo']);
    expectToken(line, '6', [...ECL, ...TUPLE, ...ATTRS, 'constant.numeric.integer.memory-space.hlo']);
    expectToken(line, 'is_scheduled', ['entity.other.attribute-name.hlo']);
    expectToken(line, 'true', ['constant.language.boolean.hlo']);
  });

  it('scopes the last shape of a header just under the line length up to which VS Code colours HLO', async () => {
    // package.json raises editor.maxTokenizationLineLength for hlo: lines up to that length are tokenized.
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configurationDefaults: Record<string, Record<string, unknown>> };
    };
    const limit = pkg.contributes.configurationDefaults['[hlo]'][
      'editor.maxTokenizationLineLength'
    ] as number;
    assert.ok(limit > 20000, `limit ${limit}`);
    let n = 600;
    while (eclLine(n + 10).length < limit) n += 10;
    const text = eclLine(n);
    const { line, ms } = await timed(text);
    console.log(`      ${text.length} characters, ${line.tokens.length} tokens in ${ms.toFixed(0)} ms`);
    expectToken(line, `${8 + n - 1}`, [
      ...ECL,
      ...TUPLE,
      ...SHAPE,
      'meta.shape.dimensions.hlo',
      'constant.numeric.integer.dimension.hlo',
    ]);
    expectToken(line, 's4', [...ECL, ...TUPLE, ...SHAPE, 'storage.type.primitive.hlo']);
    expectToken(line, 'true', ['constant.language.boolean.hlo']);
  });

  it('scopes the attributes after a 25,000-character backend_config', async () => {
    const json = `{"configs":[${Array.from({ length: 900 }, (_, i) => `{"id":"${i}","v":[${i},true]}`).join(',')}]}`;
    const text = `  %f = f32[8,128]{1,0:T(8,128)} fusion(%p), kind=kLoop, backend_config=${json}, metadata={op_name="end" source_line=424242}`;
    assert.ok(text.length > 20000, `line has ${text.length} characters`);
    const { line, ms } = await timed(text);
    console.log(`      ${text.length} characters, ${line.tokens.length} tokens in ${ms.toFixed(0)} ms`);
    expectToken(
      line,
      '"id"',
      [
        'meta.attribute.backend-config.hlo',
        'string.quoted.double.json.hlo',
        'support.type.property-name.json.hlo',
      ],
      899,
    );
    expectToken(line, 'source_line', ['meta.attribute.metadata.hlo', 'entity.other.attribute-name.hlo']);
    expectToken(line, '424242', ['meta.attribute.metadata.hlo', 'constant.numeric.integer.hlo']);
  });

  const adversarial: Record<string, string> = {
    'an unterminated JSON string': '%x = f32[] custom-call(), backend_config={"' + 'a'.repeat(30000),
    'many JSON strings without keys': '%x = f32[] custom-call(), backend_config={' + '"a\\"",'.repeat(6000),
    'a compound number that never ends': '%x = f32[] c(), window={size=' + '1x'.repeat(15000) + 'a}',
    'one long identifier': '%a' + '.a-'.repeat(10000) + '(',
    'digits then a letter': '1'.repeat(30000) + 'x',
    'spaces between a type and nothing': 'f32' + ' '.repeat(30000) + 'x',
    'spaces before a layout brace': '%x = f32[2]' + ' '.repeat(30000) + '{0}',
    'thousands of tiles': '%x = f32[2]{0:T' + '(1)'.repeat(8000) + '}',
    'an endless parameter list': 'ENTRY %m (' + 'p: f32[2]{0}, '.repeat(2500),
  };
  for (const [name, text] of Object.entries(adversarial)) {
    it(`tokenizes ${name} (${text.length} characters) to the end`, async () => {
      const { line, ms } = await timed(text);
      console.log(`      ${ms.toFixed(0)} ms`);
      assert.equal(line.tokens[line.tokens.length - 1].end, text.length, 'tokens cover the whole line');
    });
  }
});
