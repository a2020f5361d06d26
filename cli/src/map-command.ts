/** `xla-layout map SHAPE`: the memory map of a 2-D slice as a text table of slot offsets. */
import { buildMemoryMap, isLayoutError, planTiling, type SliceSpec } from '../../core/src';
import { intOption, parseArgs } from './args';
import { InputError, UsageError } from './errors';
import { groupDigits } from '../../core/src';
import type { Output } from './output';
import { parseCoordinates, requireArrayShape } from './shape-arg';

/** Tables wider than a terminal screenful are no use as text; the visualizer is for those. */
const DEFAULT_MAX_CELLS = 4096;

export const MAP_HELP = `Usage: xla-layout map SHAPE [--rows DIM] [--cols DIM] [--fixed I0,I1,...] [--max-cells N] [--json]

Prints the memory map of a 2-D slice of the array: one row per index of the row dimension, one
column per index of the column dimension, each cell the element slot (linear index) where that
element is stored. Below the table, the padding slots are listed (for rank <= 2 all of them; for
higher ranks those inside the slice's span), then slots of the span holding other slices.

  --rows DIM, --cols DIM   logical dims shown as rows / columns (default: the last two)
  --fixed I0,I1,...        index of every other dim (default 0); one entry per dim
  --max-cells N            refuse slices with more cells (default ${DEFAULT_MAX_CELLS})
  --json                   {"rows", "cols", "offsets": [[...]], "slots": [...]}; offsets are
                           decimal strings

Exit status: 0 ok, 2 for a bad shape or a slice over --max-cells.`;

/** Compact ranges: [9,11,14,15] → "9, 11, 14-15". */
function ranges(values: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === (values[j] ?? 0) + 1) j++;
    parts.push(i === j ? `${values[i]}` : `${values[i]}-${values[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** Runs `map`. */
export function runMap(argv: readonly string[], out: Output): number {
  const args = parseArgs(argv, { flags: ['json', 'help'], values: ['rows', 'cols', 'fixed', 'max-cells'] });
  if (args.flags.has('help')) {
    out.write(MAP_HELP);
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError('map takes exactly one SHAPE');
  const shapeText = args.positionals[0] ?? '';
  const shape = requireArrayShape(shapeText);
  const maxCells = intOption(args, 'max-cells', DEFAULT_MAX_CELLS);
  const slice: SliceSpec = {};
  const dimOption = (name: string): number | undefined => {
    const raw = args.values.get(name);
    if (raw === undefined) return undefined;
    if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} expects a dimension number, got '${raw}'`);
    return Number(raw);
  };
  const rowDim = dimOption('rows');
  const colDim = dimOption('cols');
  if (rowDim !== undefined) slice.rowDim = rowDim;
  if (colDim !== undefined) slice.colDim = colDim;
  const fixedText = args.values.get('fixed');
  if (fixedText !== undefined) slice.fixed = parseCoordinates(fixedText).values;
  const map = buildMemoryMap(shape, slice, maxCells);
  if (isLayoutError(map))
    throw new InputError(`${map.message} (see --max-cells, --rows, --cols)`, shapeText, 0, shapeText.length);
  const { rows, cols, slotToCell, firstSlot, slotCount } = map;
  const padding: number[] = [];
  const others: number[] = [];
  for (let s = 0; s < slotCount; s++) {
    const cell = slotToCell[s] ?? -1;
    if (cell === -1) padding.push(firstSlot + s);
    else if (cell === -2) others.push(firstSlot + s);
  }
  // When the slice is the whole array (rank <= 2), the slots after its last element are padding too.
  const plan = planTiling(shape);
  if (shape.dims.length <= 2 && !isLayoutError(plan) && plan.totalSlots <= BigInt(maxCells) * 1024n) {
    for (let s = firstSlot + slotCount; s < Number(plan.totalSlots); s++) padding.push(s);
  }
  if (args.flags.has('json')) {
    const table: string[][] = [];
    for (let r = 0; r < rows; r++)
      table.push(Array.from({ length: cols }, (_, c) => String(map.slotOf(r, c))));
    out.write(
      JSON.stringify({
        shape: shapeText,
        rows,
        cols,
        firstSlot,
        slotCount,
        offsets: table,
        paddingSlots: padding,
        otherSliceSlots: others,
      }),
    );
    return 0;
  }
  const cells: string[][] = [];
  for (let r = 0; r < rows; r++) cells.push(Array.from({ length: cols }, (_, c) => String(map.slotOf(r, c))));
  // A loop, not a spread: --max-cells allows more cells than a call takes arguments.
  let width = 1;
  for (const row of cells) for (const c of row) width = Math.max(width, c.length);
  out.write(
    slotCount > 0
      ? `${shapeText}: ${rows} x ${cols} slice, slots ${groupDigits(firstSlot)}..${groupDigits(firstSlot + slotCount - 1)}`
      : `${shapeText}: ${rows} x ${cols} slice, no slots (the array is empty)`,
  );
  for (const row of cells) out.write(row.map((c) => c.padStart(width)).join(' '));
  out.write(`padding slots: ${padding.length > 0 ? ranges(padding) : 'none'}`);
  if (others.length > 0) out.write(`other slices' slots: ${ranges(others)}`);
  return 0;
}
