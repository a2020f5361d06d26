/**
 * Primitive type lookup straight from the text, without slicing a string first: the shape finder
 * and the parser ask "is text[start, stop) a type name?" for every identifier before `[` in a dump.
 * Names are bucketed by length and first character; the few candidates are compared in place.
 */
import { PRIMITIVE_TYPE_NAMES, primitiveType, type PrimitiveTypeInfo } from '../primitive-types';

/** Longest primitive type name (`f8e4m3b11fnuz`). */
const MAX_TYPE_NAME_LENGTH = Math.max(...PRIMITIVE_TYPE_NAMES.map((n) => n.length));

/** Candidates per `length * 128 + first char code` (names are ASCII). */
const BUCKETS: (readonly PrimitiveTypeInfo[] | undefined)[] = [];
for (const name of PRIMITIVE_TYPE_NAMES) {
  const key = name.length * 128 + name.charCodeAt(0);
  BUCKETS[key] = [...(BUCKETS[key] ?? []), primitiveType(name)!];
}

/**
 * The primitive type spelled exactly by `text[start, stop)`, or undefined. Same answer as
 * `primitiveType(text.slice(start, stop))`; the returned `name` is the table's own string.
 */
export function typeAt(text: string, start: number, stop: number): PrimitiveTypeInfo | undefined {
  const length = stop - start;
  if (length <= 0 || length > MAX_TYPE_NAME_LENGTH) return undefined;
  const first = text.charCodeAt(start);
  if (first >= 128) return undefined;
  const bucket = BUCKETS[length * 128 + first];
  if (bucket === undefined) return undefined;
  outer: for (const info of bucket) {
    const name = info.name;
    for (let k = 1; k < length; k++) if (name.charCodeAt(k) !== text.charCodeAt(start + k)) continue outer;
    return info;
  }
  return undefined;
}
