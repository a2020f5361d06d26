/**
 * The client's only contact with the core's math: parse and validate a typed shape, parse index
 * and offset input, and compute a linear index or the element at an offset with the steps that
 * explain it. Free of `vscode` so it can be unit-tested in plain Node.
 */
import type { ArrayShape } from '../../core/src';
import { parseShapeText, printShape } from '../../core/src';
import { validateShape } from '../../core/src';
import { toArrayShape } from '../../core/src';
import {
  elementAt,
  isLayoutError,
  layoutError,
  linearIndex,
  planTiling,
  sizes,
  type LayoutError,
  type LayoutSizes,
  type TilingPlan,
  type TilingStep,
} from '../../core/src';
// Not re-exported by the layout index: the per-step index mapping the steps below narrate.
import { stepForward, toPhysicalIndex } from '../../core/src';
import { elide, groupDigits, readableMessage } from '../../core/src';
import { code } from '../../protocol/src/markdown';
import { printTile } from '../../core/src';

/** A shape the math can work on, or the first reason it cannot. */
export type ParsedShape =
  | { readonly ok: true; readonly text: string; readonly shape: ArrayShape }
  | { readonly ok: false; readonly message: string };

/**
 * Parses, validates and models `text` as one array shape. Errors (not warnings) refuse it, with the
 * core's message and the column, so an input box can show why while the user types.
 */
export function parseArrayShape(text: string): ParsedShape {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Type an array shape, e.g. f32[3,5]{1,0:T(2,2)}' };
  const parsed = parseShapeText(trimmed);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (parsed.shape === undefined || errors.length > 0) {
    const first = errors[0];
    return {
      ok: false,
      message: first ? `${readableMessage(first)} (column ${first.range.start + 1})` : 'Not a shape',
    };
  }
  if (parsed.shape.kind !== 'array')
    return { ok: false, message: 'Tuples and buffers have no single layout: pick one array element' };
  const invalid = validateShape(parsed.shape).find((d) => d.severity === 'error');
  if (invalid)
    return { ok: false, message: `${readableMessage(invalid)} (column ${invalid.range.start + 1})` };
  const shape = toArrayShape(parsed.shape);
  if (shape === undefined)
    return { ok: false, message: `${trimmed} is not an array shape the layout math can use` };
  return { ok: true, text: trimmed, shape };
}

/** Decimal integer literal, optionally signed; `1_000` or `1e3` are not accepted. */
const INTEGER = /^[+-]?\d+$/;

/**
 * Parses a multi-index typed as `1,2`, `[1, 2]`, `(1 2)` or `1 2` for `shape` and checks rank and
 * bounds. Returns the index or a message for the input box.
 */
export function parseIndex(text: string, shape: ArrayShape): bigint[] | string {
  const body = text
    .trim()
    .replace(/^[[(]/, '')
    .replace(/[\])]$/, '')
    .trim();
  const parts = body === '' ? [] : body.split(/[\s,]+/).filter((p) => p !== '');
  const rank = shape.dims.length;
  if (parts.length !== rank) {
    return rank === 0
      ? 'A scalar has no indices: leave this empty'
      : `Give ${rank} index${rank === 1 ? '' : 'es'} (one per dimension), e.g. ${new Array(rank).fill('0').join(',')}`;
  }
  const index: bigint[] = [];
  for (let i = 0; i < rank; i++) {
    const p = parts[i];
    if (!INTEGER.test(p)) return `'${p}' is not an integer`;
    const v = BigInt(p);
    if (v < 0n || v >= shape.dims[i])
      return `Index ${v} is outside dimension ${i} (size ${shape.dims[i]}): use 0..${shape.dims[i] - 1n}`;
    index.push(v);
  }
  return index;
}

/** What the Element at Offset box accepts, said where it asks and when the input is not one of them. */
export const OFFSET_FORMS =
  'an element slot (17, 0x11, slot 17) or a byte offset (68B, 68 B, byte 68), as Linear Index answers';

/**
 * Parses an offset into the array's buffer, as an element slot (`17`, `0x11`, `slot 17`) or in
 * bytes (`68B`, `68 B`, `byte 68`: what Linear Index answers beside the slot; in hex only as
 * `byte 0x44`, since `0x44b` is a hex number), and checks it against the array's physical slots. A byte offset must start a slot (with sub-byte
 * `E(n)` packing, a byte holds several). Returns the slot, or a message for the input box.
 */
export function parseOffset(text: string, shape: ArrayShape): bigint | string {
  const m = /^(?:(slot|byte)s?\s*)?(0x[0-9a-f]+|\d+)\s*(b|bytes?)?$/i.exec(text.trim().replace(/_/g, ''));
  if (!m || (m[1]?.toLowerCase() === 'slot' && m[3] !== undefined)) return `Type ${OFFSET_FORMS}`;
  const v = BigInt(m[2]);
  const s = sizes(shape);
  if (isLayoutError(s)) return s.message;
  let slot = v;
  if (m[1]?.toLowerCase() === 'byte' || m[3] !== undefined) {
    const bits = BigInt(s.elementSizeBits);
    if ((v * 8n) % bits !== 0n) {
      const inside = (v * 8n) / bits;
      const start = (inside * bits) / 8n;
      return `Byte ${v} is inside slot ${inside}, which starts at byte ${start} (${bits} bits per element)`;
    }
    slot = (v * 8n) / bits;
  }
  if (slot >= s.physicalElements)
    return `Offset ${v}${slot === v ? '' : ` (slot ${slot})`} is past the last slot (${s.physicalElements - 1n}); the array has ${s.physicalElements} slots`;
  return slot;
}

/**
 * The shape as XLA prints it, for the one-line summary: VS Code renders `[label](target)` in a
 * notification as a link, and a comment in the typed text could hold one.
 */
function summaryShape(text: string): string {
  const shape = parseShapeText(text).shape;
  return elide(shape ? printShape(shape) : text.replace(/[[\]()]/g, ' '));
}

const formatIndex = (index: readonly bigint[]): string => `[${index.join(',')}]`;

/** The answer to one question: a one-line summary and markdown steps for "Show steps". */
export interface Answer {
  readonly summary: string;
  readonly steps: string;
}

/** Where slot `slot` starts: a byte, or a bit with sub-byte E(n) packing. */
function slotPosition(elementSizeBits: number, slot: bigint): string {
  const bit = slot * BigInt(elementSizeBits);
  if (elementSizeBits % 8 === 0) return `byte ${bit / 8n}`;
  return `bit ${bit} (byte ${bit / 8n}${bit % 8n === 0n ? '' : ` + ${bit % 8n} bits`})`;
}

/** Header shared by both answers: the shape, its physical order, tiles and sizes. */
function shapeFacts(text: string, shape: ArrayShape, plan: TilingPlan, s: LayoutSizes): string[] {
  // The text is the user's (a comment in it can hold HTML or links): shown as code, never as markdown.
  const lines = [`Shape: ${code(text)}`, ''];
  if (plan.rank > 0) {
    lines.push(
      `- Physical order, major → minor: dims ${plan.physicalToLogical.join(', ')} (sizes ${plan.physicalDims.join(' × ')})`,
    );
  }
  if (shape.tiles.length > 0)
    lines.push(`- Tiles, applied in order: ${shape.tiles.map(printTile).join(' then ')}`);
  lines.push(`- Expanded shape (row-major = memory order): [${plan.expandedShape.join(',')}]`);
  lines.push(
    `- Logical elements ${groupDigits(s.logicalElements)}; physical slots ${groupDigits(s.physicalElements)} (${groupDigits(s.physicalElements - s.logicalElements)} padding)`,
  );
  lines.push(
    `- Logical bytes ${groupDigits(s.logicalBytes)}; physical bytes ${groupDigits(s.physicalBytes)}; ${s.elementSizeBits} bits per element`,
  );
  return lines;
}

/** One tile level as pad → reshape → transpose, with what happens to the index. */
function describeStep(step: TilingStep, before: readonly bigint[], after: readonly bigint[]): string {
  const parts = [`**Tile ${step.level + 1} ${printTile(step.tile)}** on [${step.input.join(',')}]:`];
  if (step.vectorPadding > 0)
    parts.push(`prepend ${step.vectorPadding} dim(s) of size 1 → [${step.vectorPadded.join(',')}];`);
  if (step.mergedFrom.some((g) => g.length > 1)) parts.push(`combine * dims → [${step.combined.join(',')}];`);
  parts.push(
    `pad → [${step.padded.join(',')}], reshape → [${step.reshaped.join(',')}], transpose → [${step.output.join(',')}].`,
  );
  parts.push(`Index ${formatIndex(before)} → ${formatIndex(after)}.`);
  return parts.join(' ');
}

/** Linear (slot) index of `index` in `shape`, with every tiling step applied to the index. */
export function explainLinearIndex(
  text: string,
  shape: ArrayShape,
  index: readonly bigint[],
): Answer | LayoutError {
  const plan = planTiling(shape);
  if (isLayoutError(plan)) return plan;
  const s = sizes(shape);
  if (isLayoutError(s)) return s;
  const result = linearIndex(shape, index);
  if (isLayoutError(result)) return result;
  const lines = [
    `# Linear index of element ${formatIndex(index)}`,
    '',
    ...shapeFacts(text, shape, plan, s),
    '',
    '## Steps',
    '',
  ];
  let current = toPhysicalIndex(plan, index);
  lines.push(
    `1. Logical index ${formatIndex(index)} in physical order (major → minor): ${formatIndex(current)}.`,
  );
  plan.steps.forEach((step, i) => {
    const next = stepForward(step, current);
    lines.push(`${i + 2}. ${describeStep(step, current, next)}`);
    current = next;
  });
  const terms = current.map((e, i) => `${e}×${plan.expandedStrides[i]}`).join(' + ');
  lines.push(
    `${plan.steps.length + 2}. Row-major in [${plan.expandedShape.join(',')}] (strides [${plan.expandedStrides.join(',')}]): ${terms || '0'} = **${result}**.`,
  );
  const where = slotPosition(s.elementSizeBits, result);
  lines.push('', `**Result: slot ${result}**, at ${where} of the buffer.`);
  return {
    summary: `${formatIndex(index)} of ${summaryShape(text)} is at linear index ${result} (${where})`,
    steps: lines.join('\n'),
  };
}

/** What slot `offset` of `shape` holds (an element or padding), with the round trip as steps. */
export function explainElementAt(text: string, shape: ArrayShape, offset: bigint): Answer | LayoutError {
  const plan = planTiling(shape);
  if (isLayoutError(plan)) return plan;
  const s = sizes(shape);
  if (isLayoutError(s)) return s;
  const found = elementAt(shape, offset);
  if (isLayoutError(found)) return found;
  if (found.kind === 'out-of-range')
    return layoutError(
      'offset-out-of-range',
      `Offset ${offset} is outside the array's ${s.physicalElements} slots`,
    );
  const where = slotPosition(s.elementSizeBits, offset);
  const lines = [
    `# Element at offset ${offset}`,
    '',
    ...shapeFacts(text, shape, plan, s),
    '',
    '## Result',
    '',
  ];
  if (found.kind === 'element') {
    lines.push(`Slot ${offset} (${where}) holds element **${formatIndex(found.index)}**.`);
    const back = linearIndex(shape, found.index);
    if (!isLayoutError(back))
      lines.push('', `Check: the linear index of ${formatIndex(found.index)} is ${back}.`);
    return {
      summary: `Slot ${offset} (${where}) of ${summaryShape(text)} holds element ${formatIndex(found.index)}`,
      steps: lines.join('\n'),
    };
  }
  if (found.cause === 'tail') {
    lines.push(
      `Slot ${offset} (${where}) is **tail padding**: L(${shape.tailPaddingAlignment}) rounds ${plan.expandedElements} slots up to ${plan.totalSlots}.`,
    );
  } else {
    const dims =
      found.paddedDims.length > 0
        ? `dimension(s) ${found.paddedDims.join(', ')}`
        : 'a vector-padding dimension';
    lines.push(
      `Slot ${offset} (${where}) is **padding** of tile ${found.level + 1} ${printTile(shape.tiles[found.level] ?? [])}: it lies past the end of ${dims}.`,
    );
    for (const t of found.tiles)
      lines.push(
        `- Tile ${t.level + 1}: tile ${formatIndex(t.tile)}, position ${formatIndex(t.inTile)} inside it`,
      );
  }
  return {
    summary: `Slot ${offset} (${where}) of ${summaryShape(text)} is padding (no element)`,
    steps: lines.join('\n'),
  };
}
