/**
 * `entry_computation_layout` against the entry computation, judged by the real XLA: generated
 * modules whose layout lists parameters and a result as tuples nested at random, sometimes matching
 * the entry computation's counts and sometimes not. XLA's parser accepts every one; importing the
 * module aborts on a count that differs. This tool must report `entry-layout-count` exactly where
 * XLA aborts, in `check` and in the language server, and no other error. Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { judgeOnce, rejects, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

/** A shape as a tree: an array leaf, a token leaf, or a tuple of trees. */
type Tree = 'array' | 'token' | readonly Tree[];

function tree(rand: () => number, depth: number): Tree {
  const r = rand();
  if (depth > 0 && r < 0.3)
    return Array.from({ length: Math.floor(rand() * 4) }, () => tree(rand, depth - 1));
  return r < 0.9 ? 'array' : 'token';
}

function shape(t: Tree): string {
  if (t === 'array') return 'f32[4]{0}';
  if (t === 'token') return 'token[]';
  return `(${t.map(shape).join(', ')})`;
}

function leaves(t: Tree): number {
  return typeof t === 'string' ? 1 : t.reduce((n, e) => n + leaves(e), 0);
}

/** Instructions that build a value of shape `t` (constants, `after-all`, `tuple`), the last one named `name`. */
function build(t: Tree, name: string, out: string[]): void {
  if (t === 'array') out.push(`  %${name} = f32[4]{0} constant({1, 2, 3, 4})`);
  else if (t === 'token') out.push(`  %${name} = token[] after-all()`);
  else {
    t.forEach((e, i) => build(e, `${name}.${i}`, out));
    out.push(`  %${name} = ${shape(t)} tuple(${t.map((_, i) => `%${name}.${i}`).join(', ')})`);
  }
}

interface Case {
  readonly text: string;
  /** Whether the layout's counts differ from the entry computation's. */
  readonly differs: boolean;
}

function module(rand: () => number): Case {
  const params = Array.from({ length: Math.floor(rand() * 4) }, () => tree(rand, 2));
  const result = tree(rand, 2);
  // Half the layouts repeat the entry computation's shapes; the others are drawn on their own.
  const same = rand() < 0.5;
  const layoutParams = same ? params : Array.from({ length: Math.floor(rand() * 4) }, () => tree(rand, 2));
  const layoutResult = same ? result : tree(rand, 2);
  const body: string[] = params.map((p, i) => `  %p${i} = ${shape(p)} parameter(${i})`);
  build(result, 'r', body);
  body[body.length - 1] = body[body.length - 1].replace('  %r =', '  ROOT %r =');
  const signature = params.map((p, i) => `p${i}: ${shape(p)}`).join(', ');
  // The entry computation is marked ENTRY, or is the last one; another computation comes before it.
  const entry = rand() < 0.7 ? 'ENTRY ' : '';
  const text = [
    `HloModule m, entry_computation_layout={(${layoutParams.map(shape).join(', ')})->${shape(layoutResult)}}`,
    '',
    '%other (a: f32[4]) -> f32[4] {',
    '  ROOT %a = f32[4]{0} parameter(0)',
    '}',
    '',
    `${entry}%main (${signature}) -> ${shape(result)} {`,
    ...body,
    '}',
    '',
  ].join('\n');
  const count = (ts: readonly Tree[]) => ts.reduce((n, t) => n + leaves(t), 0);
  return {
    text,
    differs: count(layoutParams) !== count(params) || leaves(layoutResult) !== leaves(result),
  };
}

function ours(errors: readonly OurError[]): string {
  return (
    errors.map((e) => `${e.code} at ${e.line}:${e.column}: ${oneLine(e.message, 120)}`).join('; ') ||
    'no error'
  );
}

describeWithXla('the real XLA judges entry_computation_layout against the entry computation', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const rand = mulberry32(seed);
  const cases = Array.from({ length: 80 }, () => module(rand));
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    verdicts = await judgeOnce(
      xla,
      cases.map((c) => c.text),
    );
    buildCli();
  });

  it('draws both kinds, and XLA aborts exactly on the layouts whose counts differ', () => {
    const differing = cases.filter((c) => c.differs).length;
    assert.ok(
      differing >= 20 && cases.length - differing >= 20,
      `seed ${seed}: ${differing} of ${cases.length} differ`,
    );
    cases.forEach((c, i) => {
      const v = verdicts[i];
      assert.equal(
        rejects(v),
        c.differs,
        `seed ${seed}, case ${i}: XLA ${v.verdict} ${v.stage}: ${oneLine(v.message)}\n${c.text}`,
      );
      if (c.differs) assert.equal(v.stage, 'import-crash', `seed ${seed}, case ${i}: ${oneLine(v.message)}`);
    });
  });

  for (const [way, errorsOf] of [
    ['check', (texts: readonly string[]) => Promise.resolve(checkErrors(texts))],
    ['the language server', serverErrors],
  ] as const) {
    it(`${way} reports entry-layout-count where XLA aborts, and no other error`, async () => {
      const errors = await errorsOf(cases.map((c) => c.text));
      cases.forEach((c, i) => {
        const expected = rejects(verdicts[i]) ? ['entry-layout-count'] : [];
        assert.deepEqual(
          [...new Set(errors[i].map((e) => e.code))],
          expected,
          `seed ${seed}, case ${i}: XLA ${verdicts[i].verdict}: ${oneLine(verdicts[i].message)}; ours: ${ours(errors[i])}\n${c.text}`,
        );
      });
    });
  }
});
