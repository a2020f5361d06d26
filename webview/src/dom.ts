/**
 * Tiny element builder. Text goes in through `textContent` only: nothing in this page is ever
 * parsed as HTML, so document text (shapes, file names) stays inert whatever it contains.
 */
import { groupDigits } from '../../core/src/format';

export type Child = Node | string | undefined | false;

/** Creates `<tag>` with attributes (set with setAttribute, never `style`/`on*`) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | number | boolean | undefined>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, ...children);
  return node;
}

/** Appends children; strings become text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

export { groupDigits as formatInt } from '../../core/src/format';

/** Bytes as an exact count plus a binary-unit figure: `131,072 B (128 KiB)`. */
export function formatBytes(bytes: bigint): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let unit = -1;
  let value = Number(bytes);
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const exact = `${groupDigits(bytes)} B`;
  if (unit < 0) return exact;
  const shown = value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  return `${exact} (${shown.replace(/\.?0+$/, '')} ${units[unit]})`;
}
