/**
 * XLA's parser refuses an attribute given twice, one the opcode does not take and a missing
 * required one (jaxlib 0.10.2's messages and places, from the finding's cases). `xla-layout check`
 * reports them through its fast path, which must send every such instruction to the statement
 * parser and agree with it (seeded mutations of corpus instructions).
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNames, parseHloText, parseStatement } from '../../core/src/hlo';
import { createShapeChecker } from '../../core/src/validate';
import { CheckStream } from '../../core/src/report/check-stream';
import { checkErrors as errors } from '../support/check-errors';
import { CORPUS_DIR } from '../support/corpus';
import { mulberry32 } from '../support/prng';
import { FUZZ_SEED } from '../support/fuzz-seed';

const F = '%f (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\n';

describe('attribute lists XLA refuses', () => {
  it('refuses a computation-valued attribute that names none, where and as jaxlib 0.10.2 does', () => {
    const call = (v: string) =>
      `HloModule m\n\n%c (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), to_apply=${v}\n}\n`;
    const first = (text: string) => errors(text)[0];
    assert.deepEqual(errors(call('%c')), []);
    assert.deepEqual(errors(call('c')), []);
    assert.equal(first(call('{}')), 'invalid-name 9:39 expects name');
    assert.equal(first(call('{ }')), 'invalid-name 9:40 expects name');
    assert.equal(first(call('{%c}')), "expected-token 9:41 expects '=' in instruction");
    assert.equal(first(call('{ROOT}')), 'invalid-name 9:43 expects name');
    for (const v of ['1', '"c"', '(%c)', '%', 'ENTRY', 'f32', 'true'])
      assert.equal(first(call(v)), 'invalid-name 9:38 expects name', v);
    // Nothing after `=`: XLA stops at the next token, the `}` on the next line.
    assert.equal(first(call('')), 'invalid-name 10:1 expects name');
    const cond = (v: string) =>
      `HloModule m\n\n%b (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  %i = s32[] constant(0)\n  ROOT %r = f32[] conditional(%i, %a), branch_computations=${v}\n}\n`;
    assert.deepEqual(errors(cond('{%b}')), []);
    assert.equal(first(cond('%b')), 'expected-token 10:60 expects a list starting with kLbrace');
    assert.equal(first(cond('{%b,}')), 'invalid-name 10:64 expects name');
    assert.equal(first(cond('{%b %b}')), 'expected-token 10:64 expects a list to end with kRbrace');
    assert.equal(first(cond('{{}}')), 'invalid-name 10:62 expects name');
  });

  it('reports an attribute given twice at the second one', () => {
    const text = `HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  ROOT %r = f32[2]{0} negate(%a), metadata={op_name="a"}, metadata={op_name="b"}\n}\n`;
    assert.deepEqual(errors(text), ['attribute-list 5:59 attribute metadata already exists']);
  });

  it('reports an attribute the opcode does not take, with its list and what to write', () => {
    const text = `HloModule m\n\n${F}ENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), calls=%f\n}\n`;
    assert.deepEqual(errors(text), [
      'attribute-list 9:29 unexpected attribute "calls". Allowed attributes: backend_config, control-predecessors, frontend_attributes, is_composite, metadata, origin, parameter_replication, sharding, statistics, to_apply',
    ]);
    const [d] = parseStatement(text, {
      start: text.indexOf('  ROOT %r'),
      end: text.lastIndexOf('\n}'),
    }).diagnostics;
    assert.match(d.plain ?? '', /^`call` does not take `calls=`: write `to_apply=` instead/);
    const typo = `HloModule m\n\nENTRY %e {\n  %a = f32[2,3]{1,0} parameter(0)\n  ROOT %t = f32[3,2]{1,0} transpose(%a), dimension={1,0}\n}\n`;
    assert.deepEqual(
      errors(typo).map((e) => e.split(' ').slice(0, 2).join(' ')),
      ['attribute-list 5:42'],
    );
  });

  it('reports a missing required attribute at the first comma, or at the first token after the `)`', () => {
    const b = '%b (p: s32[]) -> s32[] {\n  ROOT %p = s32[] parameter(0)\n}\n\n';
    const text = `HloModule m\n\n${b}ENTRY %e {\n  %a = s32[] parameter(0)\n  ROOT %w = s32[] while(%a), body=%b\n}\n`;
    assert.deepEqual(errors(text), ['attribute-list 9:28 attribute condition is expected but not seen']);
    // Of several missing, XLA names the first alphabetically, at the next statement's `}`.
    const bare = `HloModule m\n\nENTRY %e {\n  %a = s32[] parameter(0)\n  ROOT %w = s32[] while(%a)\n}\n`;
    assert.deepEqual(errors(bare), ['attribute-list 6:1 attribute body is expected but not seen']);
  });

  it('places a missing attribute where jaxlib 0.10.2 does when nothing follows the `)`', () => {
    const at = (tail: string) =>
      errors(
        `HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  ROOT %b = f32[2]{0} transpose(%a)${tail}`,
      ).map((e) => e.split(' ').slice(0, 2).join(' '));
    // The next statement's first token, past blank and comment lines; the end of the text.
    assert.deepEqual(at('\n}\n'), ['attribute-list 6:1']);
    assert.deepEqual(at(' /* c */ // x\n\n  // y\n}\n'), ['attribute-list 8:1']);
    assert.deepEqual(at('\n\n// c\n/* d\n */ }\n'), ['attribute-list 9:5']);
    assert.deepEqual(at(''), ['attribute-list 5:36']);
    assert.deepEqual(at('\n\n'), ['attribute-list 7:1']);
    // On the same line: a `;`, a word, a `}`, a second instruction.
    assert.deepEqual(at(';\n}\n'), ['attribute-list 5:36']);
    assert.deepEqual(at(' foo\n}\n'), ['attribute-list 5:37']);
    assert.deepEqual(at(' }\n'), ['attribute-list 5:37']);
    const mid = `HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  %b = f32[2]{0} transpose(%a)\n  ROOT %r = f32[2]{0} negate(%b)\n}\n`;
    assert.deepEqual(
      errors(mid).map((e) => e.split(' ').slice(0, 2).join(' ')),
      ['attribute-list 6:3'],
    );
  });

  it('places an HloModule line without a name at the next token too, as jaxlib 0.10.2 does', () => {
    assert.deepEqual(
      errors('HloModule\n\n// c\nENTRY %e {\n  ROOT %r = f32[] parameter(0)\n}\n').map((e) =>
        e.split(' ').slice(0, 2).join(' '),
      ),
      ['invalid-name 4:1'],
    );
  });

  it('places it at the next statement when that comes in a later piece of the stream', () => {
    const text = `HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  %b = f32[2]{0} transpose(%a)\n\n  // c\n  ROOT %r = f32[2]{0} negate(%b)\n}\n`;
    const cut = text.indexOf('  // c');
    for (const at of [cut, cut + 3, text.indexOf('  ROOT'), text.length - 1]) {
      const out: string[] = [];
      const stream = new CheckStream((d) => out.push(`${d.start.line}:${d.start.column}`));
      stream.write(text.slice(0, at));
      stream.write(text.slice(at));
      stream.end();
      assert.deepEqual(out, ['8:3'], `cut at ${at}`);
    }
  });

  it('reports the error XLA meets inside the list, not a required attribute after it', () => {
    // A blank before `=` or an odd blank after the key stops XLA's reading of the list, before it
    // looks for the required keys (jaxlib 0.10.2: "expects attribute name" at the key).
    const gte = (attribute: string) =>
      `HloModule m\n\nENTRY %e {\n  %t = (f32[]) parameter(0)\n  ROOT %g = f32[] get-tuple-element(%t), ${attribute}\n}\n`;
    assert.deepEqual(
      errors(gte('index = 0')).map((e) => e.split(' ').slice(0, 2).join(' ')),
      ['invalid-name 5:42'],
    );
    assert.deepEqual(
      errors(gte('index\u00a0=0')).map((e) => e.split(' ').slice(0, 2).join(' ')),
      ['invalid-character 5:42'],
    );
  });

  it('reports an attribute the HloModule line does not take, or one given twice', () => {
    assert.deepEqual(
      errors(
        'HloModule m, spmd_output_sharding={replicated}\n\nENTRY %e {\n  ROOT %a = f32[2]{0} parameter(0)\n}\n',
      ).map((e) => e.split(' ').slice(0, 4).join(' ')),
      ['attribute-list 1:14 unexpected attribute'],
    );
    assert.deepEqual(
      errors(
        'HloModule m, is_scheduled=true, is_scheduled=true\n\nENTRY %e {\n  ROOT %a = f32[] parameter(0)\n}\n',
      ),
      ['attribute-list 1:33 attribute is_scheduled already exists'],
    );
  });

  it("holds a broadcast and a conditional to the rules of their first operand's shape, as jaxlib 0.10.2 does", () => {
    /** `line:column message` of each error the name checks (which know the operands) give the ENTRY; places and messages are jaxlib's. */
    const named = (params: string, root: string) => {
      const text = `HloModule m\n\n${F}ENTRY %e {\n${params}\n  ROOT %r = ${root}\n}\n`;
      const lines = (at: number) => {
        const before = text.slice(0, at).split('\n');
        return `${before.length}:${before[before.length - 1].length + 1}`;
      };
      return checkNames(parseHloText(text), text).map((d) => `${lines(d.range.start)} ${d.message}`);
    };
    const vector = '  %a = f32[3]{0} parameter(0)';
    // A broadcast needs dimensions= unless its operand is a scalar (not by its annotated shape).
    assert.deepEqual(named(vector, 'f32[2,3]{1,0} broadcast(%a)'), [
      '10:1 attribute dimensions is expected but not seen',
    ]);
    assert.deepEqual(named(vector, 'f32[2,3]{1,0} broadcast(f32[3]{0} %a), metadata={}'), [
      '9:50 attribute dimensions is expected but not seen',
    ]);
    assert.deepEqual(named('  %a = f32[] parameter(0)', 'f32[2]{0} broadcast(%a)'), []);
    assert.deepEqual(named('  %a = (f32[]) parameter(0)', 'f32[2]{0} broadcast(%a)'), [
      '10:1 attribute dimensions is expected but not seen',
    ]);
    // A conditional's attributes by its first operand: pred[], s32[], or an error before them.
    const cond = (type: string, attributes: string) =>
      named(
        `  %p = ${type} parameter(0)\n  %a = f32[] parameter(1)`,
        `f32[] conditional(%p, %a, %a)${attributes}`,
      );
    assert.deepEqual(cond('pred[]', ', true_computation=%f, false_computation=%f'), []);
    assert.deepEqual(cond('s32[]', ', branch_computations={%f, %f}'), []);
    assert.deepEqual(cond('pred[]', ''), ['11:1 attribute false_computation is expected but not seen']);
    assert.deepEqual(cond('pred[]', ', true_computation=%f'), [
      '10:42 attribute false_computation is expected but not seen',
    ]);
    assert.deepEqual(cond('s32[]', ''), ['11:1 attribute branch_computations is expected but not seen']);
    assert.deepEqual(cond('pred[]', ', branch_computations={%f, %f}'), [
      '10:44 unexpected attribute "branch_computations". Allowed attributes: backend_config, control-predecessors, false_computation, frontend_attributes, metadata, origin, parameter_replication, sharding, statistics, true_computation',
    ]);
    assert.deepEqual(cond('s32[]', ', true_computation=%f, false_computation=%f'), [
      '10:44 unexpected attribute "true_computation". Allowed attributes: backend_config, branch_computations, control-predecessors, frontend_attributes, metadata, origin, parameter_replication, sharding, statistics',
    ]);
    assert.deepEqual(cond('pred[]', ', true_computation=%f, false_computation=%f, true_computation=%f'), [
      '10:87 attribute true_computation already exists',
    ]);
    assert.deepEqual(cond('pred[2]{0}', ', true_computation=%f, false_computation=%f'), [
      '10:42 The first operand must be a scalar',
    ]);
    assert.deepEqual(cond('f32[]', ', true_computation=%f, false_computation=%f'), [
      '10:42 The first operand must be a scalar of PRED or S32',
    ]);
    assert.deepEqual(cond('(pred[])', ''), ['11:1 The first operand must be a scalar']);
  });

  it('leaves what XLA accepts alone: a conditional, a broadcast without dimensions, async forms', () => {
    const text = `HloModule m\n\n${F}ENTRY %e {\n  %b = pred[] parameter(0)\n  %a = f32[] parameter(1)\n  %c = f32[] conditional(%b, %a, %a), true_computation=%f, false_computation=%f\n  %s = f32[4]{0} broadcast(%a), dimensions={}\n  %t = ((f32[]), f32[], u32[]) call-start(%a), to_apply=%f, async_execution_thread="x"\n  ROOT %d = f32[] call-done(%t)\n}\n`;
    assert.deepEqual(errors(text), []);
  });
});

describe('the fast path and the statement parser agree on attribute lists (seeded)', () => {
  const lines = readdirSync(join(CORPUS_DIR, 'hlo'))
    .filter((f) => f.endsWith('.hlo'))
    .flatMap((f) => readFileSync(join(CORPUS_DIR, 'hlo', f), 'utf8').split('\n'))
    .filter((l) => /^\s*(ROOT\s+)?%?[\w.-]+\s*=.*\),\s*[\w-]+=/.test(l));

  /** `line` with one attribute repeated, deleted, renamed to another opcode's, or moved into a value. */
  function mutate(rand: () => number, line: string): string {
    const keys = [...line.matchAll(/, ([a-z_][\w-]*)=/g)];
    const m = keys[Math.floor(rand() * keys.length)];
    const at = m.index;
    const next = line.indexOf(', ', at + 2);
    const attr = line.slice(at, next > at ? next : line.length);
    switch (Math.floor(rand() * 4)) {
      case 0:
        return line + attr;
      case 1:
        return line.slice(0, at) + line.slice(at + attr.length);
      case 2:
        return (
          line.slice(0, at + 2) +
          ['calls', 'to_apply', 'dimensions', 'index', 'kind'][Math.floor(rand() * 5)] +
          line.slice(at + 2 + m[1].length)
        );
      default:
        return `${line.slice(0, at)}, kind=(kLoop${attr})`;
    }
  }

  it('reports the same attribute-list error at the same place either way', () => {
    const seed = FUZZ_SEED;
    const rand = mulberry32(seed);
    const checker = createShapeChecker();
    let reported = 0;
    for (let n = 0; n < 3000; n++) {
      const text = mutate(rand, lines[Math.floor(rand() * lines.length)]);
      const fast = checker
        .checkStatement(text, 0, text.length)
        .filter((d) => d.code === 'attribute-list')
        .map((d) => `${d.range.start} ${d.message}`);
      const parsed = parseStatement(text, { start: 0, end: text.length })
        .diagnostics.filter((d) => d.code === 'attribute-list')
        .map((d) => `${d.range.start} ${d.message}`);
      assert.deepEqual(fast, parsed, `seed ${seed}: ${text}`);
      reported += fast.length;
    }
    assert.ok(reported > 500, `only ${reported} reported`);
  });
});
