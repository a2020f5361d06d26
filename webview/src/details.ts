/**
 * The text beside the pictures: the pad → reshape → transpose steps of every tile level with their
 * intermediate shapes (from the core's tiling plan), and the sizes: logical vs physical bytes,
 * XLA's ArraySize, the expansion and which dimension pads.
 */
import type { PaddingCause } from '../../core/src';
import type { Drawable } from './analyze';
import { bytesWithUnit, formatFactor, formatPercent, groupDigits } from '../../core/src';
import { el } from './dom';
import { printTile } from '../../core/src';

function dims(values: readonly bigint[]): string {
  return `[${values.join(',')}]`;
}

/** The tiling steps as an ordered list. */
export function stepsList(d: Drawable): HTMLElement {
  const plan = d.plan;
  const items: HTMLElement[] = [];
  const order = plan.physicalToLogical.map((dim) => `dim ${dim}`).join(', ');
  items.push(
    el('li', {}, el('strong', {}, 'physical order'), ` ${dims(plan.physicalDims)} (major→minor: ${order})`),
  );
  for (const step of plan.steps) {
    const lines: HTMLElement[] = [];
    const line = (name: string, value: readonly bigint[], note?: string): void => {
      lines.push(
        el(
          'div',
          { class: 'step-line' },
          el('span', { class: 'step-name' }, name),
          ` ${dims(value)}`,
          note !== undefined ? el('span', { class: 'note' }, ` ${note}`) : undefined,
        ),
      );
    };
    if (step.vectorPadding > 0)
      line(
        'vector pad',
        step.vectorPadded,
        `${step.vectorPadding} leading 1s: the tile has more dims than the shape`,
      );
    if (step.mergedFrom.some((g) => g.length > 1))
      line('combine *', step.combined, 'each * merges its dim into the next more-minor one');
    line('pad', step.padded, `covered dims rounded up to multiples of ${dims(step.effectiveTile)}`);
    line('reshape', step.reshaped);
    line('transpose', step.output, 'tile counts major, tile contents minor');
    items.push(
      el('li', {}, el('strong', {}, `T${printTile(step.tile)}`), ` on ${dims(step.input)}`, ...lines),
    );
  }
  const tail =
    plan.totalSlots !== plan.expandedElements
      ? ` → L rounds ${groupDigits(plan.expandedElements)} up to ${groupDigits(plan.totalSlots)} slots`
      : '';
  items.push(
    el(
      'li',
      {},
      el('strong', {}, 'memory order'),
      ` ${dims(plan.expandedShape)}: ${groupDigits(plan.expandedElements)} slots${tail}`,
    ),
  );
  return el('ol', { class: 'steps', 'aria-label': 'Tiling steps' }, ...items);
}

function causeText(d: Drawable, cause: PaddingCause): string {
  const step = d.plan.steps[cause.level];
  const tile = step !== undefined ? `T${printTile(step.tile)}` : `tile ${cause.level + 1}`;
  const who =
    cause.dims.length === 0 ? 'a vector-padding dim' : cause.dims.map((x) => `dim ${x}`).join(' * ');
  const entry = d.padding.dimensions.find((x) => cause.dims.length === 1 && x.dim === cause.dims[0]);
  const minor = entry?.isMinorMost === true ? ', the minor-most dim,' : '';
  return `${who}${minor} of size ${groupDigits(cause.from)}: ${tile} pads it to ${groupDigits(cause.to)} (${formatFactor(cause.factor.value)})`;
}

/** The sizes table and the padding account. */
export function sizesTable(d: Drawable): HTMLElement {
  const s = d.sizes;
  const rows: [string, string, string?][] = [
    ['logical', `${bytesWithUnit(s.logicalBytes)}`, `ByteSizeOf, ${groupDigits(s.logicalElements)} elements`],
    [
      'physical',
      `${bytesWithUnit(s.physicalBytes)}`,
      `${groupDigits(s.physicalElements)} slots under all tile levels`,
    ],
  ];
  if (s.arraySizeBytes === null) rows.push(['ArraySize', 'n/a', 'XLA does not handle * in the first tile']);
  else if (s.arraySizeBytes !== s.physicalBytes)
    rows.push(['ArraySize', bytesWithUnit(s.arraySizeBytes), "XLA's figure: first tile only"]);
  else rows.push(['ArraySize', bytesWithUnit(s.arraySizeBytes), 'XLA agrees']);
  if (s.expansion !== undefined) {
    const exact =
      s.expansion.denominator === 1n ? '' : ` = ${s.expansion.numerator}/${s.expansion.denominator}`;
    rows.push(['expansion', formatFactor(s.expansion.value), `physical / logical${exact}`]);
  }
  if (s.overhead !== undefined)
    rows.push(['padding', formatPercent(s.overhead.value), 'of the physical bytes']);
  const table = el(
    'table',
    { class: 'sizes', 'aria-label': 'Sizes' },
    el(
      'tbody',
      {},
      ...rows.map(([k, v, note]) =>
        el(
          'tr',
          { 'data-size': k },
          el('th', { scope: 'row' }, k),
          el('td', { class: 'value' }, v),
          el('td', { class: 'note' }, note ?? ''),
        ),
      ),
    ),
  );
  const dominant = d.padding.dominant;
  const cause =
    dominant !== undefined
      ? el('p', { class: 'dominant' }, `Padding: ${causeText(d, dominant)}.`)
      : el('p', { class: 'dominant' }, 'No tile pads this array.');
  return el('div', {}, table, cause);
}
