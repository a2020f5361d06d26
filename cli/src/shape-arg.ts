/** Turns a SHAPE argument into the array model, or an {@link InputError} with a caret. */
import { arrayShapeFromText } from '../../core/src';
import type { ArrayShape } from '../../core/src';
import { InputError } from './errors';

/** The array shape written in `text`; throws InputError (exit 2) pointing at the first error. */
export function requireArrayShape(text: string): ArrayShape {
  const r = arrayShapeFromText(text);
  if (!('shape' in r))
    throw new InputError(
      r.rule ? `${r.message} [${r.rule}]` : r.message,
      text,
      r.range.start,
      r.range.end,
      r.rule,
    );
  return r.shape;
}

/**
 * Parses `2,3` (optionally in brackets or parentheses, spaces allowed) into coordinates with the
 * column range of each, for carets under a bad coordinate.
 */
export function parseCoordinates(text: string): {
  values: bigint[];
  ranges: { start: number; end: number }[];
} {
  const values: bigint[] = [];
  const ranges: { start: number; end: number }[] = [];
  const inner = /^\s*[[(]?(.*?)[\])]?\s*$/.exec(text);
  const body = inner?.[1] ?? text;
  const offset = text.indexOf(body);
  if (body.trim() === '') return { values, ranges };
  let pos = 0;
  for (const part of body.split(',')) {
    const lead = part.length - part.trimStart().length;
    const start = offset + pos + lead;
    const token = part.trim();
    const end = start + Math.max(1, token.length);
    if (!/^\d+$/.test(token))
      throw new InputError(`expected a non-negative integer coordinate, got '${token}'`, text, start, end);
    values.push(BigInt(token));
    ranges.push({ start, end });
    pos += part.length + 1;
  }
  return { values, ranges };
}

/** Parses a non-negative decimal integer argument exactly. */
export function parseOffset(text: string): bigint {
  const t = text.trim();
  if (!/^\d+$/.test(t))
    throw new InputError(`expected a non-negative integer offset, got '${text}'`, text, 0, text.length);
  return BigInt(t);
}
