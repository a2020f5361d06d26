/**
 * One seed for every fast-check property of a mocha run (a root hook plugin, loaded by
 * .mocharc.json): `XLA_LENS_FUZZ_SEED=N` replays a run. Under `CI=true` the seed is fixed, so a
 * commit's verdict is the same on every run; elsewhere, or with `XLA_LENS_FUZZ_SEED=random`, a seed
 * is drawn to explore. Any failing test prints the seed with the command that replays it. Each
 * property starts from the same seed, so a failure replays whether its file runs alone or with the
 * rest.
 */
import fc from 'fast-check';
import type { Context } from 'mocha';

/** The seed of CI runs. */
const CI_SEED = 29;

function seedFromEnvironment(): number {
  const given = process.env.XLA_LENS_FUZZ_SEED || (process.env.CI === 'true' ? String(CI_SEED) : 'random');
  if (given === 'random') return (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`XLA_LENS_FUZZ_SEED=${given} is not an integer`);
  return seed | 0;
}

export const FUZZ_SEED = seedFromEnvironment();
fc.configureGlobal({ seed: FUZZ_SEED });

export const mochaHooks = {
  afterEach(this: Context): void {
    const test = this.currentTest;
    if (test?.state !== 'failed') return;
    console.error(
      `  fast-check seed ${FUZZ_SEED}: replay with XLA_LENS_FUZZ_SEED=${FUZZ_SEED} npx mocha ${test.file ?? ''} -g ${JSON.stringify(test.title)}`,
    );
  },
};
