/**
 * Where the test corpus lives. The shared specification corpus (`shared/` beside the repository
 * checkout, as on the developers' machines, or wherever XLA_LENS_SHARED points) is an extra layer:
 * where it is missing, as in a fresh clone, the tests read the project's own corpus in
 * test/fixtures/corpus (same layout: shape lists and `hlo/`), and the tests bound to the shared
 * corpus's contents ({@link describeWithSharedCorpus}) say plainly that they did not run.
 */
import { existsSync } from 'fs';
import { join, resolve } from 'path';

/** The shared folder (spec, seeds, corpus, notes). */
export const SHARED_DIR = process.env.XLA_LENS_SHARED ?? resolve(__dirname, '..', '..', '..', 'shared');
/** The project's own corpus, always there. */
export const OWN_CORPUS_DIR = resolve(__dirname, '..', 'fixtures', 'corpus');
/** Whether the shared corpus is there. */
export const SHARED_CORPUS = existsSync(join(SHARED_DIR, 'corpus', 'valid_shapes.txt'));
/** valid_shapes.txt, invalid_shapes.txt, legacy_shapes.txt and hlo/: the shared corpus, or the project's own. */
export const CORPUS_DIR = SHARED_CORPUS ? join(SHARED_DIR, 'corpus') : OWN_CORPUS_DIR;
/** HLO files: the shared corpus's real files from XLA's repository, or the project's own. */
export const CORPUS_HLO_DIR = join(CORPUS_DIR, 'hlo');

let told = false;

/** Says once, plainly, that the shared corpus layer did not run. */
function tellMissing(): void {
  if (told) return;
  told = true;
  process.stderr.write(
    `\n*** the shared corpus layer did not run: no corpus at ${join(SHARED_DIR, 'corpus')} ` +
      `(set XLA_LENS_SHARED to its parent folder); the tests used the project's own corpus in ${OWN_CORPUS_DIR}\n\n`,
  );
}

if (!SHARED_CORPUS) tellMissing();

/**
 * A mocha suite that checks the shared corpus's own contents (its line counts, its expectation
 * tables, its tiling vectors): where that corpus is missing it holds no test, and the run says so
 * once. Never a failure: the project's own corpus carries the rest of the suite.
 */
export function describeWithSharedCorpus(title: string, body: (this: Mocha.Suite) => void): void {
  if (SHARED_CORPUS) describe(title, body);
  else tellMissing();
}
