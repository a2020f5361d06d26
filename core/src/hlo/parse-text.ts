/** Convenience: split, parse and index a whole HLO text in one call. */
import { buildModule, type HloModel } from './build-module';
import { parseStatements } from './parse-statement';
import { splitStatements } from './split-statements';

/** `buildModule(parseStatements(text, splitStatements(text)))`. */
export function parseHloText(text: string): HloModel {
  return buildModule(parseStatements(text, splitStatements(text)));
}
