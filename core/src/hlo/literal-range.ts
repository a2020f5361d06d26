/**
 * The range check XLA's parser makes on an integer constant's values: `s2[] constant(1000)` is
 * refused with "value 1000 is out of range for literal's primitive type S2 namely [-2, 1]".
 */
import { primitiveType } from '../primitive-types';

const RANGES = new Map<string, readonly [bigint, bigint] | undefined>();

/** `[min, max]` of an integer element type (`s8`, `u4`, ...), or undefined for any other type. */
function integerRange(typeName: string): readonly [bigint, bigint] | undefined {
  if (RANGES.has(typeName)) return RANGES.get(typeName);
  const range = rangeOf(typeName);
  RANGES.set(typeName, range);
  return range;
}

function rangeOf(typeName: string): readonly [bigint, bigint] | undefined {
  const m = /^([su])(\d+)$/.exec(typeName);
  const type = primitiveType(typeName);
  if (!m || !type) return undefined;
  const bits = BigInt(type.bits);
  return m[1] === 's' ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

export interface IntegerRangeError {
  readonly message: string;
  readonly plain: string;
}

/**
 * XLA's refusal of the integer `written` (as the lexer read it: -2^63 to 2^64-1) in a constant of
 * the integer type `elementType`, or undefined when it fits. The parser takes the lexer's number as
 * an int64 (2^64-1 is -1), then checks a signed type's range on it and an unsigned type's on its
 * uint64 bits: `s32[] constant(18446744073709551615)` is -1, `u32[] constant(-1)` is refused, and
 * s64 and u64 take every number.
 */
export function integerOutOfRange(written: string, elementType: string): IntegerRangeError | undefined {
  const range = integerRange(elementType);
  if (!range) return undefined;
  // Most literals are small: compared as numbers, without making a bigint.
  if (written.length < 16) {
    const n = Number(written);
    if (n >= Number(range[0]) && n <= Number(range[1])) return undefined;
  }
  const value = BigInt.asIntN(64, BigInt(written));
  const [min, max] = range;
  const fits = min < 0n ? value >= min && value <= max : BigInt.asUintN(64, value) <= max;
  if (fits) return undefined;
  return {
    message: `value ${value} is out of range for literal's primitive type ${elementType.toUpperCase()} namely [${min}, ${max}].`,
    plain: `${written} does not fit in ${elementType}, which holds ${min} to ${max}`,
  };
}
