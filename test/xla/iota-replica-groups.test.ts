/**
 * Random iota replica groups (`replica_groups=[G,N]<=[D...]`, transposed or not) on an all-reduce,
 * judged by the real XLA, which aborts (a CHECK failure reshaping the iota) when G×N is not the
 * number of devices the iota lists. `xla-layout check` and the language server must report
 * replica-groups-count exactly on the texts XLA dies on. Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { judgeOnce, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, type OurError } from './our-verdicts';
import { runSeed } from './tally';

const TEXTS = 40;

function module(groups: string): string {
  return [
    'HloModule m, replica_count=8',
    '',
    '%add (x: f32[], y: f32[]) -> f32[] {',
    '  %x = f32[] parameter(0)',
    '  %y = f32[] parameter(1)',
    '  ROOT %s = f32[] add(%x, %y)',
    '}',
    '',
    'ENTRY %e {',
    '  %p = f32[8]{0} parameter(0)',
    `  ROOT %r = f32[8]{0} all-reduce(%p), replica_groups=${groups}, to_apply=%add`,
    '}',
    '',
  ].join('\n');
}

/** `[G,N]<=[D]` or `[G,N]<=[A,B]T(1,0)`, its counts right about half the time. */
function groups(rand: () => number): string {
  const pick = (xs: readonly number[]) => xs[Math.floor(rand() * xs.length)];
  const g = pick([1, 2, 4, 8]);
  const n = rand() < 0.5 ? 8 / g : pick([0, 1, 2, 3, 4]);
  return rand() < 0.5 ? `[${g},${n}]<=[8]` : `[${g},${n}]<=[${pick([2, 4])},${pick([2, 4])}]T(1,0)`;
}

describeWithXla('the real XLA judges iota replica groups whose counts differ', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const rand = mulberry32(seed);
  const cases = Array.from({ length: TEXTS }, () => groups(rand));
  const texts = cases.map(module);
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    verdicts = await judgeOnce(xla, texts);
    buildCli();
  });

  const wrong = (errors: readonly OurError[][]) =>
    cases.flatMap((c, i) => {
      const ours = errors[i].some((e) => e.code === 'replica-groups-count');
      const dies = verdicts[i].verdict === 'crash';
      return ours === dies ? [] : [`${c}: XLA ${verdicts[i].verdict}, ours ${ours ? 'crash' : 'none'}`];
    });

  it('XLA dies on some and not on others', () => {
    const dead = verdicts.filter((v) => v.verdict === 'crash').length;
    assert.ok(dead > 0 && dead < TEXTS, `seed ${seed}: ${dead} of ${TEXTS}`);
  });

  it('xla-layout check reports it exactly where XLA dies', () => {
    assert.deepEqual(wrong(checkErrors(texts)), [], `seed ${seed}`);
  });

  it('the language server reports it exactly where XLA dies (over LSP)', async () => {
    assert.deepEqual(wrong(await serverErrors(texts)), [], `seed ${seed}`);
  });
});
