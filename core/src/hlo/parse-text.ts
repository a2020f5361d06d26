/** Convenience: split, parse and index a whole HLO text in one call. */
import { buildModule, type HloModel } from './build-module';
import { parseStatement } from './parse-statement';
import { splitStatements } from './split-statements';

/** `buildModule(splitStatements(text).map(r => parseStatement(text, r)))`. */
export function parseHloText(text: string): HloModel {
  return buildModule(splitStatements(text).map((r) => parseStatement(text, r)));
}
