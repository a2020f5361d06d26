/**
 * The picture of a module's memory: a squarified treemap (Bruls, Huizing and van Wijk) of its
 * allocations, each rectangle's area its size and its colour how much of it is padding, as an SVG
 * whose rectangles are buttons. Inside an allocation large enough to show them, its values, grouped
 * by offset as XLA's memory-usage report groups them (each offset as large as its largest value),
 * coloured by that value's padding. Allocations too small to see are gathered into one rectangle.
 */
import { formatPercent, groupDigits, humanBytes } from '../../../core/src';
import type { AllocationRow } from './rows';

const SVG = 'http://www.w3.org/2000/svg';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** Worst aspect ratio of a row of areas laid along a side of length `side`. */
function worst(areas: readonly number[], side: number): number {
  let sum = 0;
  let max = 0;
  let min = Infinity;
  for (const a of areas) {
    sum += a;
    max = Math.max(max, a);
    min = Math.min(min, a);
  }
  const s2 = side * side;
  const sum2 = sum * sum;
  return Math.max((s2 * max) / sum2, sum2 / (s2 * min));
}

/**
 * Lays `weights` (largest first, all positive) out in `box`: rectangles in the same order, areas
 * in proportion to the weights.
 */
function squarify(weights: readonly number[], box: Rect): Rect[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total <= 0 || box.w <= 0 || box.h <= 0) return weights.map(() => ({ x: box.x, y: box.y, w: 0, h: 0 }));
  const scale = (box.w * box.h) / total;
  const areas = weights.map((w) => w * scale);
  const out: Rect[] = [];
  let { x, y, w, h } = box;
  let i = 0;
  while (i < areas.length) {
    const side = Math.min(w, h);
    const row = [areas[i]];
    let j = i + 1;
    while (j < areas.length && worst([...row, areas[j]], side) <= worst(row, side)) row.push(areas[j++]);
    const sum = row.reduce((s, a) => s + a, 0);
    if (w >= h) {
      // A column along the left side.
      const cw = h > 0 ? sum / h : 0;
      let cy = y;
      for (const a of row) {
        const rh = cw > 0 ? a / cw : 0;
        out.push({ x, y: cy, w: cw, h: rh });
        cy += rh;
      }
      x += cw;
      w -= cw;
    } else {
      const rh = w > 0 ? sum / w : 0;
      let cx = x;
      for (const a of row) {
        const rw = rh > 0 ? a / rh : 0;
        out.push({ x: cx, y, w: rw, h: rh });
        cx += rw;
      }
      y += rh;
      h -= rh;
    }
    i = j;
  }
  return out;
}

/** An offset of an allocation: the values placed there, drawn as the largest of them. */
export interface Part {
  /** The largest value's name, drawn in the part. */
  readonly name: string;
  readonly label: string;
  readonly size: bigint;
  readonly padding: bigint;
  readonly rect: Rect;
}

/** An allocation (or the gathered small ones) as drawn. */
export interface Tile {
  readonly rows: readonly AllocationRow[];
  readonly size: bigint;
  readonly padding: bigint;
  readonly rect: Rect;
  /** Its values by offset, when the allocation is drawn large enough and holds more than one offset. */
  readonly parts: readonly Part[];
}

/** Height of an allocation's label band above its values. */
const BAND = 40;

/** The values of `row` grouped by offset, largest first, laid out in `box`. */
function partsOf(row: AllocationRow, box: Rect): Part[] {
  const groups = new Map<string, { size: bigint; padding: bigint; names: string[]; name: string }>();
  for (const v of row.allocation.values) {
    const size = BigInt(v.xlaBytes ?? v.physicalBytes ?? '0');
    const g = groups.get(v.offset ?? '0') ?? { size: -1n, padding: 0n, names: [], name: '' };
    const name = `%${v.name}${v.shapeIndex ? `{${v.shapeIndex.join(',')}}` : ''}`;
    g.names.push(`${name} ${v.shape}`);
    if (size > g.size) {
      g.size = size;
      g.padding = BigInt(v.paddingBytes);
      g.name = name;
    }
    groups.set(v.offset ?? '0', g);
  }
  const list = [...groups.entries()]
    .map(([offset, g]) => ({ offset, ...g }))
    .filter((g) => g.size > 0n)
    .sort((a, b) => (a.size === b.size ? 0 : a.size > b.size ? -1 : 1));
  if (list.length < 2) return [];
  const largest = list[0].size;
  const weights = list.map((g) => Number((g.size * 1_000_000n) / largest) / 1_000_000);
  const rects = squarify(weights, box);
  return list.map((g, i) => ({
    name: g.name,
    label: `offset ${g.offset}: ${g.names.join('; ')}`,
    size: g.size,
    padding: g.padding,
    rect: rects[i],
  }));
}

/** Allocations under this share of the total are gathered into one tile. */
const SMALL_SHARE = 0.004;

/** Tiles of `rows` (sorted largest first) in a `width` × `height` box. */
export function layoutTiles(rows: readonly AllocationRow[], width: number, height: number): Tile[] {
  let total = 0n;
  for (const r of rows) total += r.size;
  if (total <= 0n) return [];
  const big: AllocationRow[] = [];
  const small: AllocationRow[] = [];
  for (const r of rows) {
    if (r.size <= 0n) continue;
    (Number((r.size * 1_000_000n) / total) / 1_000_000 < SMALL_SHARE && big.length > 0 ? small : big).push(r);
  }
  const groups: { rows: AllocationRow[]; size: bigint; padding: bigint }[] = big.map((r) => ({
    rows: [r],
    size: r.size,
    padding: r.padding,
  }));
  if (small.length > 0) {
    let size = 0n;
    let padding = 0n;
    for (const r of small) {
      size += r.size;
      padding += r.padding;
    }
    groups.push({ rows: small, size, padding });
  }
  groups.sort((a, b) => (a.size === b.size ? 0 : a.size > b.size ? -1 : 1));
  // Weights as doubles relative to the largest: exact enough for a picture, whatever the bytes.
  const weights = groups.map((g) => Number((g.size * 1_000_000n) / total) / 1_000_000);
  const rects = squarify(weights, { x: 0, y: 0, w: width, h: height });
  return groups.map((g, i) => {
    const r = rects[i];
    const inner = { x: r.x + 4, y: r.y + BAND, w: r.w - 8, h: r.h - BAND - 4 };
    const parts = g.rows.length === 1 && inner.w > 60 && inner.h > 30 ? partsOf(g.rows[0], inner) : [];
    return { ...g, rect: r, parts };
  });
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function share(part: bigint, whole: bigint): number {
  return whole > 0n ? Number((part * 1_000_000n) / whole) / 1_000_000 : 0;
}

/** Draws the tiles; `select` is called with the allocations of a clicked tile. */
export function drawTreemap(
  tiles: readonly Tile[],
  width: number,
  height: number,
  select: (rows: readonly AllocationRow[]) => void,
  selected: number | undefined,
): SVGSVGElement {
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: 'treemap',
    role: 'group',
    'aria-label': 'Allocations by size; colour: share of padding',
  });
  for (const t of tiles) {
    const { x, y, w, h } = t.rect;
    const one = t.rows.length === 1 ? t.rows[0] : undefined;
    const waste = share(t.padding, t.size);
    const label = one
      ? `Allocation ${one.allocation.index}, ${one.allocation.kinds.join(', ') || 'value'}: ${humanBytes(t.size)}, ${humanBytes(t.padding)} padding (${formatPercent(waste)})`
      : `${groupDigits(t.rows.length)} smaller allocations, ${humanBytes(t.size)} in all${t.padding > 0n ? `, ${humanBytes(t.padding)} padding (${formatPercent(waste)})` : ''}`;
    const g = svg('g', {
      class: `tile${one ? '' : ' gathered'}${one && one.allocation.index === selected ? ' selected' : ''}`,
      role: 'button',
      tabindex: 0,
      'aria-label': label,
      'data-allocation': one ? one.allocation.index : 'small',
    });
    g.style.setProperty('--waste', `${Math.round(waste * 1000) / 10}%`);
    const title = svg('title', {});
    title.textContent = label;
    g.append(
      title,
      svg('rect', { x: x + 1, y: y + 1, width: Math.max(0, w - 2), height: Math.max(0, h - 2), rx: 3 }),
    );
    for (const p of t.parts) {
      const part = svg('rect', {
        x: p.rect.x + 1,
        y: p.rect.y + 1,
        width: Math.max(0, p.rect.w - 2),
        height: Math.max(0, p.rect.h - 2),
        rx: 2,
        class: 'part',
      });
      part.style.setProperty('--waste', `${Math.round(share(p.padding, p.size) * 1000) / 10}%`);
      const tip = svg('title', {});
      tip.textContent = `${p.label}: ${humanBytes(p.size)}, ${humanBytes(p.padding)} padding`;
      part.append(tip);
      g.append(part);
      if (p.rect.w > 90 && p.rect.h > 24) {
        const chars = Math.floor((p.rect.w - 14) / 7);
        const text = `${p.name} · ${humanBytes(p.size)}${p.padding > 0n ? ` · ${formatPercent(share(p.padding, p.size))} padding` : ''}`;
        const label = svg('text', { x: p.rect.x + 7, y: p.rect.y + 17, class: 'part-name' });
        label.textContent = text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
        g.append(label);
      }
    }
    if (w > 70 && h > 34) {
      const chars = Math.floor((w - 16) / 7);
      const fit = (text: string): string =>
        text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
      const name = svg('text', { x: x + 8, y: y + 19, class: 'tile-name' });
      // The gathered tile must not read as one more allocation number: it says what it holds,
      // shorter where it is narrow.
      const count = groupDigits(t.rows.length);
      name.textContent = one
        ? fit(`#${one.allocation.index} ${one.allocation.kinds[0] ?? ''}`.trim())
        : fit(
            [`${count} smaller allocations`, `${count} smaller`, `+${count} more`].find(
              (text) => text.length <= chars,
            ) ?? `+${count}`,
          );
      const size = svg('text', { x: x + 8, y: y + 35, class: 'tile-size' });
      size.textContent = fit(
        `${humanBytes(t.size)}${one ? '' : ' in all'}${t.padding > 0n ? ` · ${formatPercent(waste)} padding` : ''}`,
      );
      g.append(name);
      if (h > 44) g.append(size);
    }
    const activate = () => select(t.rows);
    g.addEventListener('click', activate);
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        activate();
      }
    });
    root.append(g);
  }
  return root;
}
