/**
 * The real XLA judges thousands of random shapes each run (generate-shapes.ts: every element type,
 * dimension kind and layout attribute, in and out of order, blanks and comments anywhere, and
 * people's mistakes), each as the result of a one-instruction module. This tool's verdict (any
 * error) must equal XLA's (an error or a crash) through `xla-layout check`, through the language
 * server over LSP, and for the shape alone through `explain`. The seed is printed; XLA_LENS_SEED
 * replays a run and XLA_LENS_SHAPES sets how many shapes it draws.
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { generateShape } from './generate-shapes';
import { moduleWithShape, rejects, XlaOracle, type XlaVerdict } from './oracle';
import { checkErrors, explainCliRejects, explainErrors, serverErrors, type OurError } from './our-verdicts';
import { oneLine, runSeed, Tally } from './tally';

/** Shapes also put to `xla-layout explain` one process each (the rest go through core's explain). */
const EXPLAIN_CLI_SAMPLE = 40;

function ours(errors: readonly OurError[]): string {
  return errors.length === 0
    ? 'no error'
    : errors.map((e) => `${e.code} at ${e.line}:${e.column}`).join(', ');
}

describeWithXla('the real XLA judges generated shapes', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const count = Number(process.env.XLA_LENS_SHAPES ?? 3000);
  const tally = new Tally();
  let shapes: string[] = [];
  let verdicts: XlaVerdict[] = [];
  let seconds = 0;

  before(async () => {
    const rand = mulberry32(seed);
    shapes = Array.from({ length: count }, () => generateShape(rand));
    const started = Date.now();
    const oracle = await XlaOracle.start(xla);
    try {
      verdicts = await oracle.judge(shapes.map(moduleWithShape));
    } finally {
      oracle.close();
    }
    seconds = (Date.now() - started) / 1000;
    buildCli();
  });

  after(() => {
    const refused = verdicts.filter(rejects).length;
    const crashed = verdicts.filter((v) => v.verdict === 'crash').length;
    console.log(
      `      XLA judged ${shapes.length} shapes in ${seconds.toFixed(1)} s (seed ${seed}; XLA_LENS_SEED=${seed} replays): ` +
        `refused ${refused} (${crashed} by crashing)\n${tally.summary()}`,
    );
  });

  function compare(path: string, errors: readonly (readonly OurError[])[]): void {
    shapes.forEach((shape, i) => {
      const v = verdicts[i];
      tally.add(path, rejects(v), errors[i].length > 0, () => ({
        what: JSON.stringify(shape),
        xla: `${v.verdict} ${v.stage}: ${oneLine(v.message)}`,
        ours: ours(errors[i]),
      }));
    });
    assert.ok(
      tally.agrees([path]),
      `${path} disagrees with XLA (seed ${seed}; XLA_LENS_SEED=${seed} replays):\n${tally.summary()}\n${tally.examples([path])}`,
    );
  }

  it('xla-layout check reports an error exactly where XLA refuses the module', () => {
    compare('check', checkErrors(shapes.map(moduleWithShape)));
  });

  it('the language server reports an error exactly where XLA refuses the module (over LSP)', async () => {
    compare('server', await serverErrors(shapes.map(moduleWithShape)));
  });

  it('explain reports an error on the shape alone exactly where XLA refuses it', () => {
    compare('explain', shapes.map(explainErrors));
    const rand = mulberry32(seed ^ 0x5bd1e995);
    for (let k = 0; k < EXPLAIN_CLI_SAMPLE; k++) {
      const i = Math.floor(rand() * shapes.length);
      tally.add('explain (CLI)', rejects(verdicts[i]), explainCliRejects(shapes[i]), () => ({
        what: JSON.stringify(shapes[i]),
        xla: `${verdicts[i].verdict}: ${oneLine(verdicts[i].message)}`,
        ours: 'xla-layout explain disagrees',
      }));
    }
    assert.ok(tally.agrees(['explain (CLI)']), tally.examples(['explain (CLI)']));
  });
});
