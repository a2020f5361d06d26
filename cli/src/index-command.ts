/** `xla-layout index SHAPE E0,E1,...`: the linear index (element slot) of a logical element. */
import { isLayoutError, linearIndex, planTiling } from '../../core/src';
import { parseArgs } from './args';
import { InputError, UsageError } from './errors';
import { groupDigits } from '../../core/src';
import { jsonInteger } from './format';
import type { Output } from './output';
import { parseCoordinates, requireArrayShape } from './shape-arg';
import { toExpandedIndex } from '../../core/src';
import { byteOffset } from './slots';

export const INDEX_HELP = `Usage: xla-layout index SHAPE E0,E1,... [--json]

Prints the linear index (element slot in memory, counting padding) of the element with logical
index (E0, E1, ...) under every tile level, its byte offset, and its index in the expanded
tiled shape. Example: xla-layout index 'f32[3,5]{1,0:T(2,2)}' 2,3  ->  17

  --json   {"index": N, ...}; N is a JSON number when it is a safe integer (<= 2^53 - 1) and a
           decimal string otherwise, so it is always exact. byteOffset follows the same rule.

Exit status: 0 ok, 2 for a bad shape or index (a caret points at it).`;

/** Runs `index`. */
export function runIndex(argv: readonly string[], out: Output): number {
  const args = parseArgs(argv, { flags: ['json', 'help'], values: [] });
  if (args.flags.has('help')) {
    out.write(INDEX_HELP);
    return 0;
  }
  if (args.positionals.length !== 2)
    throw new UsageError('index takes SHAPE and E0,E1,... (e.g. index "f32[3,5]{1,0:T(2,2)}" 2,3)');
  const [shapeText = '', indexText = ''] = args.positionals;
  const shape = requireArrayShape(shapeText);
  const { values, ranges } = parseCoordinates(indexText);
  if (values.length !== shape.dims.length) {
    throw new InputError(
      `the index has ${values.length} coordinates but the shape has rank ${shape.dims.length}`,
      indexText,
      0,
      indexText.length,
    );
  }
  values.forEach((v, i) => {
    const size = shape.dims[i] ?? 0n;
    const r = ranges[i] ?? { start: 0, end: indexText.length };
    if (v >= size)
      throw new InputError(
        `coordinate ${v} is out of bounds for dimension ${i} of size ${size}`,
        indexText,
        r.start,
        r.end,
      );
  });
  const li = linearIndex(shape, values);
  const plan = planTiling(shape);
  if (isLayoutError(li)) throw new InputError(li.message, shapeText, 0, shapeText.length);
  const expanded = isLayoutError(plan) ? undefined : toExpandedIndex(plan, values);
  const bytes = byteOffset(shape, li);
  if (args.flags.has('json')) {
    out.write(
      JSON.stringify({
        shape: shapeText,
        element: values.map(String),
        index: jsonInteger(li),
        byteOffset: jsonInteger(bytes.byte),
        bitOffset: bytes.bit,
        ...(expanded && !isLayoutError(plan)
          ? { expandedIndex: expanded.map(String), expandedShape: plan.expandedShape.map(String) }
          : {}),
      }),
    );
    return 0;
  }
  out.write(`${shapeText} element (${values.join(',')}) -> linear index ${groupDigits(li)}`);
  out.write(`  byte offset ${groupDigits(bytes.byte)}${bytes.bit !== 0 ? ` + ${bytes.bit} bits` : ''}`);
  if (expanded && !isLayoutError(plan) && plan.steps.length > 0) {
    out.write(`  expanded index [${expanded.join(',')}] in expanded shape [${plan.expandedShape.join(',')}]`);
  }
  return 0;
}
