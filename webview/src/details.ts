/**
 * The text beside the pictures: the pad → reshape → transpose steps of every tile level with their
 * intermediate shapes (from the core's tiling plan), and the sizes: logical vs physical bytes,
 * XLA's ArraySize, the expansion and which dimension pads.
 */
import type { Drawable } from './analyze';
import { bytesWithUnit, formatFactor, formatPercent, groupDigits, humanBytes } from '../../core/src';
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

function tileName(d: Drawable, level: number): string {
  const step = d.plan.steps[level];
  return step !== undefined ? `T${printTile(step.tile)}` : `tile ${level + 1}`;
}

/**
 * The padding account as the hover lists it (server/src/hover-shape.ts, from the same core
 * paddingByDimension): every padded dim with the tile that pads it, vector padding, L(n), the fix.
 */
function paddingLines(d: Drawable): string[] {
  const p = d.padding;
  const lines: string[] = [];
  for (const x of p.dimensions) {
    const c = x.causes[0];
    if (c === undefined) continue;
    const minor = x.isMinorMost ? ', minor-most' : '';
    lines.push(
      `dim ${x.dim} (size ${groupDigits(x.size)}${minor}): ${tileName(d, c.level)} pads ${groupDigits(c.from)} to ${groupDigits(c.to)} — ${formatFactor(x.factor.value)}`,
    );
  }
  for (const c of p.causes.filter((c) => c.dims.length === 0))
    lines.push(
      `tile ${c.level + 1} pads leading size-1 dims (vector padding) ${groupDigits(c.from)} to ${groupDigits(c.to)}`,
    );
  if (p.tailPaddingSlots > 0n) lines.push(`L(n) rounds up by ${groupDigits(p.tailPaddingSlots)} slots`);
  if (d.fix !== undefined)
    lines.push(
      `Fix: ${d.fix.description} → ${bytesWithUnit(d.fix.physicalBytes)} (saves ${humanBytes(d.fix.savedBytes)})`,
    );
  return lines;
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
  const lines = paddingLines(d);
  const padding =
    lines.length > 0
      ? el(
          'div',
          { class: 'padding-account' },
          el('h3', {}, 'Padding'),
          el('ul', { class: 'padding-lines' }, ...lines.map((line) => el('li', {}, line))),
        )
      : el('p', { class: 'padding-account' }, 'No tile pads this array.');
  return el('div', {}, table, padding);
}
