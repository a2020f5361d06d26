/**
 * Operand counts judged by the real XLA: every opcode of the opcode table with 0 to 4 operands
 * (with the attributes and shapes that get its parser to the count), and the rules that look at
 * more than the count (a tuple's shape, a conditional's branches, a collective-permute's
 * `slice_sizes=`, a dynamic-reshape's rank, async ops, instructions written in place), and operands
 * whose written shape differs from their definition's. `xla-layout check` and the language server
 * must report a count exactly where XLA refuses or crashes on it, with XLA's text, on XLA's `(`
 * for a fixed count; other refusals of these texts are not this rule's (shapes, async chains,
 * send/recv, which they do not model).
 */
import * as assert from 'node:assert/strict';
import { HLO_OPCODES } from '../../core/src';
import { asyncFormOf } from '../../core/src/hlo/opcodes';
import { buildCli } from '../cli/run-cli';
import { describeWithXla } from '../support/real-xla';
import { judgeOnce, samePlace, xlaPlace, XlaOracle, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, firstError, type OurError } from './our-verdicts';
import { oneLine } from './tally';

const HEAD = [
  'HloModule m',
  '',
  '%f (x: f32[], y: f32[]) -> f32[] {',
  '  %x = f32[] parameter(0)',
  '  %y = f32[] parameter(1)',
  '  ROOT %a = f32[] add(%x, %y)',
  '}',
  '',
  '%g (x: f32[]) -> f32[] {',
  '  ROOT %x = f32[] parameter(0)',
  '}',
  '',
  '%c (x: f32[], y: f32[]) -> pred[] {',
  '  %x = f32[] parameter(0)',
  '  %y = f32[] parameter(1)',
  '  ROOT %a = pred[] compare(%x, %y), direction=LT',
  '}',
  '',
  'ENTRY %e {',
  ...Array.from({ length: 5 }, (_, i) => `  %p${i} = f32[] parameter(${i})`),
  '  %b = pred[] parameter(5)',
  '  %s = s32[] parameter(6)',
  '  %v = f32[3]{0} parameter(7)',
].join('\n');
/** What an opcode needs besides its operands to get its parser to the count: result shape, attributes, first operand. */
interface Setup {
  readonly shape?: string;
  readonly attributes?: string;
  readonly first?: string;
}

const SCATTER =
  ', update_window_dims={}, inserted_window_dims={}, scatter_dims_to_operand_dims={}, index_vector_dim=0, to_apply=%f';

const SETUPS: Readonly<Record<string, Setup>> = {
  'all-gather': { attributes: ', dimensions={0}' },
  'all-gather-start': { shape: '(f32[], f32[])', attributes: ', dimensions={0}' },
  'all-reduce': { attributes: ', to_apply=%f' },
  'all-reduce-start': { attributes: ', to_apply=%f' },
  'reduce-scatter': { attributes: ', to_apply=%f, dimensions={0}' },
  call: { attributes: ', to_apply=%f' },
  'collective-broadcast': { attributes: ', replica_groups={{0}}' },
  'collective-permute': { attributes: ', source_target_pairs={{0,0}}' },
  'collective-permute-start': { shape: '(f32[], f32[])', attributes: ', source_target_pairs={{0,0}}' },
  concatenate: { attributes: ', dimensions={0}' },
  conditional: { first: '%s', attributes: ', branch_computations={%g, %g}' },
  'custom-call': { attributes: ', custom_call_target="x"' },
  dot: { attributes: ', lhs_contracting_dims={}, rhs_contracting_dims={}' },
  'dynamic-slice': { attributes: ', dynamic_slice_sizes={}' },
  'dynamic-reshape': { shape: 'f32[<=1,1]' },
  fusion: { attributes: ', kind=kLoop, calls=%g' },
  map: { attributes: ', to_apply=%f' },
  reduce: { attributes: ', to_apply=%f, dimensions={}' },
  'reduce-window': { attributes: ', to_apply=%f' },
  rng: { attributes: ', distribution=rng_uniform' },
  'rng-bit-generator': { shape: '(u64[2], u32[])', attributes: ', algorithm=rng_default' },
  scan: { attributes: ', to_apply=%f, dimensions={0}, num_carries=0' },
  scatter: { attributes: SCATTER },
  sort: { attributes: ', dimensions={0}, to_apply=%c' },
  tuple: { shape: '(f32[], f32[])' },
};

/** Further setups of the rules that look at more than the count. */
const MORE: readonly (Setup & { readonly opcode: string })[] = [
  { opcode: 'tuple', shape: '()' },
  { opcode: 'tuple', shape: '(f32[], f32[], f32[])' },
  { opcode: 'tuple', shape: 'f32[]' },
  { opcode: 'conditional', first: '%b', attributes: ', true_computation=%g, false_computation=%g' },
  { opcode: 'conditional', first: '%s', attributes: ', branch_computations={%g}' },
  { opcode: 'collective-permute', attributes: ', source_target_pairs={{0,0}}, slice_sizes={{1}}' },
  { opcode: 'dynamic-reshape', shape: 'f32[<=1]' },
  { opcode: 'call-done' },
  { opcode: 'fusion-update' },
  { opcode: 'async-update' },
  { opcode: 'add', attributes: ', zzz_made_up=1' },
  { opcode: 'ragged-dot', attributes: ', zzz_made_up=1' },
];

/** Opcodes jaxlib 0.10.2 does not know, and those whose parentheses hold no operands. */
const SKIP = new Set(['atan', 'collective-reduce', 'shuffle', 'constant', 'parameter']);

/** Texts XLA writes for a wrong count (and nothing else). */
const COUNT_TEXT =
  /expects \d+ operands, but has|an? (even|odd) number of operands|Expected at least (one|two) operand|DynamicReshape requires at least one operand|must have exactly four operands|Wrong number of operands|operand layout constraints, \d+ given/;
/** XLA's text for an async-update or -done of other than one operand, and of one that is no async op. */
const SINGLE_ASYNC = 'AsyncUpdate and AsyncDone expect a single async op as their operand.';

/**
 * Instructions XLA builds without the operand it then reads (a memory error): whether it crashes
 * depends on what else the process did (jaxlib 0.10.2 crashed on `reduce()` in some modules and
 * took it in others; `reduce-start()` and `all-reduce-start()` likewise). Either verdict is XLA's on these.
 */
const UNDEFINED = new Set(['reduce()', 'reduce-start()', 'all-reduce-start()']);

/** Whether XLA refused case `c` for its count. */
function refusedForCount(c: Case, v: XlaVerdict): boolean {
  return COUNT_TEXT.test(v.message) || (c.count !== 1 && v.message.includes(SINGLE_ASYNC));
}

interface Case {
  readonly what: string;
  /** Which group of counts it belongs to: one opcode with one setup. */
  readonly group: string;
  readonly text: string;
  /** Where the operand list's `(` is (1-based column on the instruction's line). */
  readonly paren: number;
  readonly count: number;
}

function instruction(opcode: string, count: number, setup: Setup): Case {
  const args = Array.from({ length: count }, (_, i) => (i === 0 && setup.first ? setup.first : `%p${i}`));
  const head = `  ROOT %r = ${setup.shape ?? 'f32[]'} ${opcode}`;
  const group = `${opcode}${setup.shape ? ` ${setup.shape}` : ''}${setup.attributes ?? ''}`;
  return {
    what: `${opcode}(${args.join(', ')})${setup.attributes ?? ''} -> ${setup.shape ?? 'f32[]'}`,
    group,
    text: `${HEAD}\n${head}(${args.join(', ')})${setup.attributes ?? ''}\n}\n`,
    paren: head.length + 1,
    count,
  };
}

const CASES: Case[] = [];
for (const { name, operands } of HLO_OPCODES) {
  if (SKIP.has(name)) continue;
  for (let n = 0; n <= 4; n++) CASES.push(instruction(name, n, SETUPS[name] ?? {}));
  // `<op>-start` runs `<op>` asynchronously: its shape is ((operands), result, state). One operand
  // fewer and as many as a fixed count (each crash costs XLA a process), 0 to 2 for the other rules.
  const start = `${name}-start`;
  if (asyncFormOf(start) === undefined) continue;
  const setup = SETUPS[name] ?? {};
  const arity = typeof operands === 'number' ? operands : undefined;
  for (let n = arity === undefined ? 0 : Math.max(0, arity - 1); n <= (arity ?? 2); n++) {
    const operands = Array.from({ length: n }, (_, i) =>
      i === 0 && setup.first === '%s' ? 's32[]' : 'f32[]',
    );
    const shape = `((${operands.join(', ')}), ${setup.shape ?? 'f32[]'}, s32[])`;
    CASES.push(instruction(start, n, { ...setup, shape }));
  }
}
for (const m of MORE) for (let n = 0; n <= 4; n++) CASES.push(instruction(m.opcode, n, m));

/** Hand-written: instructions written in place, and declared operand shapes (XLA's first place is the operand). */
const HAND: readonly { what: string; line: string; at: string }[] = [
  { what: 'nested add of 3', line: '  ROOT %r = f32[] negate(f32[] add(%p0, %p1, %p2))', at: 'f32[] add' },
  {
    what: 'nested negate of 2, no shape',
    line: '  ROOT %r = f32[] add(negate(%p0, %p1), %p2)',
    at: 'negate',
  },
  { what: 'nested add of 2', line: '  ROOT %r = f32[] negate(f32[] add(%p0, %p1))', at: '' },
  {
    what: 'declared f32[2]{0} for f32[3]',
    line: '  ROOT %r = f32[3]{0} negate(f32[2]{0} %v)',
    at: 'f32[2]{0} %v',
  },
  { what: 'declared s32[3] for f32[3]', line: '  ROOT %r = f32[3]{0} add(s32[3] %v, %v)', at: 's32[3] %v' },
  { what: 'declared f32[2] for f32[]', line: '  ROOT %r = f32[] add(%p0, f32[2] %p1)', at: 'f32[2] %p1' },
  { what: 'declared tiled f32[5]', line: '  ROOT %r = f32[3]{0} negate(f32[5]{0:T(2)} %v)', at: 'f32[5]' },
  { what: 'declared, other layout', line: '  ROOT %r = f32[3]{0} negate(f32[3]{0:T(2)} %v)', at: '' },
  { what: 'declared ?', line: '  ROOT %r = f32[3]{0} negate(f32[?] %v)', at: '' },
  {
    what: 'declared tuple',
    line: '  %t = (f32[], s32[]) tuple(%p0, %s)\n  ROOT %r = (f32[], f32[]) copy((f32[], f32[]) %t)',
    at: '(f32[], f32[]) %t',
  },
];
/**
 * A dynamic-slice's start indices against its array's rank, and a custom-call's operand layout
 * constraints against its operands: XLA's place is the token after the statement, ours the text
 * `at` (the operand list, the constraints). `%m` is f32[3,4], `%i` s32[2].
 */
const ARRAYS = '  %m = f32[3,4]{1,0} parameter(8)\n  %i = s32[2]{0} parameter(9)\n';
const COUNTED: readonly { what: string; line: string; at: string }[] = [
  ...[
    ['dynamic-slice(%m, %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%m, %s, %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%m, %s, %s, %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%m, %i)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%m, %i, %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%v)', 'f32[2]{0}', ', dynamic_slice_sizes={2}'],
    ['dynamic-slice(%p0)', 'f32[]', ', dynamic_slice_sizes={}'],
    ['dynamic-slice(%p0, %s)', 'f32[]', ', dynamic_slice_sizes={}'],
    ['dynamic-slice(%p0, %i)', 'f32[]', ', dynamic_slice_sizes={}'],
    ['dynamic-slice(f32[3,4] %m, s32[] %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(f32[3,4,5] negate(%m), %s, %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(f32[3,4] negate(%m), %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%t, %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%m, %t)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-slice(%m, %t, %s)', 'f32[2,2]{1,0}', ', dynamic_slice_sizes={2,2}'],
    ['dynamic-update-slice(%m, %m, %s)', 'f32[3,4]{1,0}', ''],
    ['dynamic-update-slice(%m, %m, %s, %s)', 'f32[3,4]{1,0}', ''],
    ['dynamic-update-slice(%m, %m)', 'f32[3,4]{1,0}', ''],
    ['dynamic-update-slice(%m, %m, %i)', 'f32[3,4]{1,0}', ''],
    ['dynamic-update-slice(%v, %v, %s, %s)', 'f32[3]{0}', ''],
    ['dynamic-update-slice(%p0, %p0)', 'f32[]', ''],
    ['dynamic-update-slice(%p0, %p0, %s)', 'f32[]', ''],
  ].map(([call, shape, attributes]) => ({
    what: call,
    line: `${ARRAYS}  %t = (s32[2]{0}) tuple(%i)\n  ROOT %r = ${shape} ${call}${attributes}`,
    at: call.slice(call.indexOf('(')),
  })),
  ...[
    ['(%p0, %p1)', '{f32[]}'],
    ['(%p0, %p1)', '{}'],
    ['()', '{f32[]}'],
    ['(%p0, %p1)', '{f32[], f32[]}'],
    ['(%p0, %p1, %p2)', '{f32[], f32[]}'],
  ].map(([operands, constraints]) => ({
    what: `custom-call${operands} with operand_layout_constraints=${constraints}`,
    line: `  ROOT %r = f32[] custom-call${operands}, custom_call_target="x", operand_layout_constraints=${constraints}`,
    at: constraints,
  })),
];
for (const h of [...HAND, ...COUNTED]) {
  const last = h.line.split('\n').pop() ?? '';
  CASES.push({
    what: h.what,
    group: h.what,
    text: `${HEAD}\n${h.line}\n}\n`,
    paren: h.at === '' ? -1 : last.indexOf(h.at) + 1,
    count: -1,
  });
}

/**
 * An operand not defined (or declared with another shape) and a wrong operand count on one
 * instruction: XLA stops at the first it meets (operands, a count at their `)`, attributes, a count
 * after them), and we report that one alone.
 */
const FIRST: readonly string[] = [
  '  ROOT %r = f32[] add(%p0, %nope, %p1)',
  '  ROOT %r = f32[] add(%nope)',
  '  ROOT %r = f32[] add(%p0, %p1, f32[2] %p0)',
  '  ROOT %r = (f32[], f32[]) tuple(%nope)',
  '  ROOT %r = f32[] reduce(%p0, %nope, %p1), dimensions={}, to_apply=%f',
  '  ROOT %r = f32[] add(%p0, %p1, %p0), control-predecessors={%nope}',
  '  ROOT %r = f32[] reduce(%p0, %p1, %p1), dimensions={}, to_apply=%f, control-predecessors={%nope}',
  '  ROOT %r = f32[] negate(f32[] add(%p0, %nope, %p1))',
  '  ROOT %r = f32[] add(negate(%p0, %p1), %nope)',
  '  ROOT %r = f32[] custom-call(%p0, %nope), custom_call_target="x", operand_layout_constraints={f32[]}',
  '  ROOT %r = f32[] custom-call(%p0, %p1), custom_call_target="x", operand_layout_constraints={f32[]}, control-predecessors={%nope}',
];

/** Our diagnostic's XLA text: the part of the message after `— XLA: `, or the whole message. */
function ourXlaText(e: OurError): string {
  const at = e.message.indexOf(' — XLA: ');
  return at < 0 ? e.message : e.message.slice(at + 8);
}

describeWithXla('the real XLA judges operand counts', function (xla) {
  this.timeout(1_200_000);
  let verdicts: XlaVerdict[] = [];
  /** Whether XLA crashes on the text again when it judges it alone: some crashes depend on what it judged before. */
  const crashesAlone = new Set<number>();

  before(async () => {
    verdicts = await judgeOnce(
      xla,
      CASES.map((c) => c.text),
    );
    const oracle = await XlaOracle.start(xla);
    try {
      for (let i = 0; i < CASES.length; i++)
        if (verdicts[i].verdict === 'crash' && (await oracle.judge([CASES[i].text]))[0].verdict === 'crash')
          crashesAlone.add(i);
    } finally {
      oracle.close();
    }
    buildCli();
  });

  function compare(errors: readonly OurError[][]): string[] {
    const ours = errors.map((e) =>
      firstError(e.filter((d) => d.code.startsWith('operand-count') || d.code === 'operand-shape-mismatch')),
    );
    // A group whose XLA takes some count we take too: a crash at another count is then the count's doing.
    const clean = new Set(
      CASES.filter((_, i) => verdicts[i].verdict === 'ok' && !ours[i]).map((c) => c.group),
    );
    const wrong: string[] = [];
    CASES.forEach((c, i) => {
      const v = verdicts[i];
      const o = ours[i];
      let agree: boolean;
      if (UNDEFINED.has(c.what.split(',')[0].split(' ')[0])) agree = v.verdict !== 'error';
      else if (o === undefined)
        agree =
          !refusedForCount(c, v) &&
          !v.message.includes('declared operand shape') &&
          !(crashesAlone.has(i) && clean.has(c.group));
      else if (o.code === 'operand-count-crash')
        // `<op>-start` short of `<op>`'s operands: a crash, or in some modules an internal check failing;
        // which one also varies between a batch and the same text judged alone.
        agree =
          crashesAlone.has(i) ||
          (/-start\(/.test(c.what) && (v.verdict === 'crash' || /RET_CHECK failure/.test(v.message)));
      else {
        // The instruction under test is the last before the `}`. XLA points at the `(` of a fixed
        // count and at a declared shape (its first message, the operand); for the other rules at
        // the token after the statement, or nowhere: ours is the `(` then.
        const xlaAt = xlaPlace(v);
        const line = o.line === c.text.split('\n').length - 2;
        const afterStatement = xlaAt !== undefined && Number(xlaAt.split(':')[0]) === o.line + 1;
        const place =
          /^(expects \d+ operands, but has|The declared operand shape)/.test(ourXlaText(o)) && !afterStatement
            ? xlaAt !== undefined && samePlace(xlaAt, o.line, o.column)
            : o.column === c.paren;
        agree = v.verdict === 'error' && v.message.includes(ourXlaText(o)) && line && place;
      }
      if (!agree)
        wrong.push(
          `${c.what}: XLA ${v.verdict} ${xlaPlace(v) ?? ''} ${oneLine(v.message, 200)}; ours ${o ? `${o.line}:${o.column} ${o.code}: ${oneLine(o.message, 200)}` : 'none'}`,
        );
    });
    return wrong;
  }

  it('XLA refuses or crashes on a wrong count of most opcodes', () => {
    const counted = verdicts.filter((v, i) => refusedForCount(CASES[i], v)).length;
    const crashed = verdicts.filter((v) => v.verdict === 'crash').length;
    assert.ok(counted > 400, `${counted} refused for their count`);
    assert.ok(crashed > 10, `${crashed} crashed`);
  });

  it('xla-layout check reports a count exactly where XLA refuses or crashes on it, with its text and place', () => {
    assert.deepEqual(compare(checkErrors(CASES.map((c) => c.text))), []);
  });

  it('the language server reports it too (over LSP)', async () => {
    assert.deepEqual(compare(await serverErrors(CASES.map((c) => c.text))), []);
  });

  it('reports only what XLA meets first of an operand not defined and a wrong count, in check and the server', async () => {
    const texts = FIRST.map((line) => `${HEAD}\n${line}\n}\n`);
    const judged = await judgeOnce(xla, texts);
    const line = HEAD.split('\n').length + 1;
    const wrong = (errors: readonly OurError[][]) =>
      errors.flatMap((e, i) => {
        const v = judged[i];
        const mine = e.filter((d) => d.line === line);
        const agree = v.verdict === 'error' && mine.length === 1 && v.message.includes(ourXlaText(mine[0]));
        return agree
          ? []
          : [
              `${FIRST[i].trim()}: XLA ${oneLine(v.message, 300)}; ours ${mine.map((d) => `${d.column} ${d.code}`).join(', ')}`,
            ];
      });
    assert.deepEqual(wrong(checkErrors(texts)), []);
    assert.deepEqual(wrong(await serverErrors(texts)), []);
  });
});
