/**
 * Typos in real HLO, judged by the real XLA: one-character mutations (a character deleted, a number
 * changed, a bracket dropped) of the HLO files of the real dump folder, aimed at shapes, at names and
 * at random places. XLA's verdict decides; this tool (`xla-layout check`) must agree on every
 * mutation of a layout or a name, and never report an error where XLA accepts the text. The seed is
 * printed; XLA_LENS_SEED replays a run and XLA_LENS_MUTATIONS sets how many mutations it makes.
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { acceptedDumpTexts } from './dump-files';
import { mutate, type Mutation, type MutationClass } from './mutate';
import { rejects, XlaOracle, type XlaVerdict } from './oracle';
import { checkErrors, type OurError } from './our-verdicts';
import { oneLine, runSeed, Tally } from './tally';

/** Mutated texts per class, and the share of mutations drawn from each. */
const CLASSES: readonly MutationClass[] = ['layout', 'layout', 'names', 'names', 'anywhere'];
/** Files larger than this are not mutated: XLA takes longer on them and they add nothing new. */
const MAX_CHARS = 20_000;

/**
 * What XLA refused a text for at the import step when its parser accepted it: the shape and layout
 * validation (ShapeUtil, LayoutUtil) is this tool's business; anything else the import refuses
 * (MLIR's verifier on operand types after a dimension changed, say) is shape inference, which it
 * does not model.
 */
const VALIDATION = /layout|Shape Error|size may overflow|split config|minor_to_major|tile/i;

/** Whether XLA refuses the text in the sense this tool models: a parse error, a crash, or validation. */
function xlaRefuses(v: XlaVerdict): boolean {
  return rejects(v) && (v.stage !== 'import' || VALIDATION.test(v.message));
}

function ours(errors: readonly OurError[]): string {
  return errors.length === 0
    ? 'no error'
    : errors.map((e) => `${e.code} at ${e.line}:${e.column}: ${oneLine(e.message, 120)}`).join('; ');
}

describeWithXla('the real XLA judges typos in its own HLO', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const count = Number(process.env.XLA_LENS_MUTATIONS ?? 1200);
  const tally = new Tally();
  const mutations: Mutation[] = [];
  let verdicts: XlaVerdict[] = [];
  let errors: OurError[][] = [];
  let inference = 0;
  let seconds = 0;

  before(async () => {
    // Only texts XLA accepts whole: a mutation's verdict is then the mutation's doing.
    const texts = await acceptedDumpTexts(xla, MAX_CHARS);
    const rand = mulberry32(seed);
    while (mutations.length < count) {
      const m = mutate(
        rand,
        CLASSES[Math.floor(rand() * CLASSES.length)],
        texts[Math.floor(rand() * texts.length)],
      );
      if (m) mutations.push(m);
    }
    const started = Date.now();
    const oracle = await XlaOracle.start(xla);
    try {
      verdicts = await oracle.judge(mutations.map((m) => m.text));
    } finally {
      oracle.close();
    }
    seconds = (Date.now() - started) / 1000;
    buildCli();
    errors = checkErrors(mutations.map((m) => m.text));
    mutations.forEach((m, i) => {
      const v = verdicts[i];
      if (rejects(v) && !xlaRefuses(v)) inference++;
      tally.add(m.cls, xlaRefuses(v), errors[i].length > 0, () => ({
        what: m.what,
        xla: `${v.verdict} ${v.stage}: ${oneLine(v.message)}`,
        ours: ours(errors[i]),
      }));
    });
  });

  after(() => {
    console.log(
      `      XLA judged ${mutations.length} mutations in ${seconds.toFixed(1)} s (seed ${seed}; XLA_LENS_SEED=${seed} replays); ` +
        `${inference} refused only by MLIR's verifier (shape inference, not modelled, counted as accepted)\n${tally.summary()}`,
    );
  });

  it('agrees with XLA on every typo in a layout', () => {
    assert.ok(tally.agrees(['layout']), `seed ${seed}\n${tally.summary()}\n${tally.examples(['layout'])}`);
  });

  it('agrees with XLA on every typo in a name or parameter number', () => {
    assert.ok(tally.agrees(['names']), `seed ${seed}\n${tally.summary()}\n${tally.examples(['names'])}`);
  });

  it('never reports an error where XLA accepts a typo anywhere else', () => {
    assert.equal(tally.counts('anywhere').falseErrors, 0, `seed ${seed}\n${tally.examples(['anywhere'])}`);
  });
});
