/**
 * Where the shared specification corpus lives: `shared/` beside the repository checkout (as on the
 * developers' machines and in CI), or wherever XLA_LENS_SHARED points.
 */
import { join, resolve } from 'path';

/** The shared folder (spec, seeds, corpus, notes). */
export const SHARED_DIR = process.env.XLA_LENS_SHARED ?? resolve(__dirname, '..', '..', '..', 'shared');
/** valid_shapes.txt, invalid_shapes.txt, tiling_vectors.json, ... */
export const CORPUS_DIR = join(SHARED_DIR, 'corpus');
/** Real HLO files from XLA's repository. */
export const CORPUS_HLO_DIR = join(CORPUS_DIR, 'hlo');
