/** `xla-layout element SHAPE OFFSET`: which element (or which padding) a slot holds. */
import { elementAt, isLayoutError, planTiling, type ElementAtResult } from '../../core/src';
import type { ArrayShape } from '../../core/src';
import { parseArgs } from './args';
import { InputError, UsageError } from './errors';
import { groupDigits } from '../../core/src';
import type { Output } from './output';
import { parseOffset, requireArrayShape } from './shape-arg';
import { printTile } from '../../core/src';

export const ELEMENT_HELP = `Usage: xla-layout element SHAPE OFFSET [--json]

Prints what element slot OFFSET (0-based, counting padding, as 'index' prints it) holds: the
logical element index, or that it is padding — which tile level pads there, which tile it is in
and where inside that tile, and which dimension the padding extends.
Example: xla-layout element 'f32[3,5]{1,0:T(2,2)}' 9  ->  padding

  --json   {"offset": "N", "kind": "element"|"padding", ...}; integers as decimal strings

Exit status: 0 ok, 2 for a bad shape or an offset outside the array (a caret points at it).`;

function tileName(shape: ArrayShape, level: number): string {
  const t = shape.tiles[level];
  return t ? `T${printTile(t)}` : '';
}

function describe(shape: ArrayShape, r: ElementAtResult): string[] {
  if (r.kind === 'element') return [`element (${r.index.join(',')})`];
  if (r.kind === 'out-of-range') return ['out of range'];
  if (r.cause === 'tail')
    return [`padding: L(${shape.tailPaddingAlignment}) tail rounding after the last tile`];
  const dims =
    r.paddedDims.length > 0
      ? `dim ${r.paddedDims.join(', ')}`
      : 'a vector-padding dim (the tile has more dims than the shape)';
  const lines = [`padding: tile level ${r.level + 1} ${tileName(shape, r.level)} pads ${dims} here`];
  for (const t of r.tiles)
    lines.push(
      `  level ${t.level + 1} ${tileName(shape, t.level)}: tile [${t.tile.join(',')}], position in tile [${t.inTile.join(',')}]`,
    );
  return lines;
}

/** Runs `element`. */
export function runElement(argv: readonly string[], out: Output): number {
  const args = parseArgs(argv, { flags: ['json', 'help'], values: [] });
  if (args.flags.has('help')) {
    out.write(ELEMENT_HELP);
    return 0;
  }
  if (args.positionals.length !== 2)
    throw new UsageError('element takes SHAPE and OFFSET (e.g. element "f32[3,5]{1,0:T(2,2)}" 9)');
  const [shapeText = '', offsetText = ''] = args.positionals;
  const shape = requireArrayShape(shapeText);
  const offset = parseOffset(offsetText);
  const plan = planTiling(shape);
  if (isLayoutError(plan)) throw new InputError(plan.message, shapeText, 0, shapeText.length);
  const r = elementAt(shape, offset);
  if (isLayoutError(r)) throw new InputError(r.message, shapeText, 0, shapeText.length);
  if (r.kind === 'out-of-range') {
    throw new InputError(
      `offset ${offset} is outside the array: it has ${plan.totalSlots} slots (0..${plan.totalSlots - 1n})`,
      offsetText,
      0,
      offsetText.length,
    );
  }
  if (args.flags.has('json')) {
    out.write(
      JSON.stringify({ shape: shapeText, offset: offset.toString(), ...r }, (_k, v: unknown) =>
        typeof v === 'bigint' ? v.toString() : v,
      ),
    );
    return 0;
  }
  const [first = '', ...rest] = describe(shape, r);
  out.write(`${shapeText} slot ${groupDigits(offset)} of ${groupDigits(plan.totalSlots)}: ${first}`);
  for (const l of rest) out.write(l);
  return 0;
}
