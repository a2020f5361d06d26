/**
 * The range check XLA's parser makes on a floating-point constant's values
 * (`CheckParsedValueIsInRange`): the value is rounded to the element type first, and refused only
 * when that rounding leaves the finite values (`f16[] constant(65519)` rounds to 65504 and is
 * taken, 65520 is "value 65520 is out of range for literal's primitive type F16 namely [-65504,
 * 65504]."). Types without infinities and NaN (f4e2m1fn, the f6 types) saturate, so nothing is out
 * of their range; infinities and NaN are never checked.
 */

interface FloatLimits {
  /** The largest finite value. */
  readonly max: number;
  /** Halfway from `max` to the next value the type's format would have: the rounding boundary. */
  readonly boundary: number;
  /** Whether a value exactly at `boundary` rounds past `max` (to even, when max's last bit is 1). */
  readonly boundaryOverflows: boolean;
  /** f8e8m0fnu holds only powers of two, none of them zero or negative. */
  readonly positiveOnly?: true;
}

const F32_MAX = (2 - 2 ** -23) * 2 ** 127;

const LIMITS: Readonly<Record<string, FloatLimits>> = {
  f16: { max: 65504, boundary: 65520, boundaryOverflows: true },
  bf16: { max: (2 - 2 ** -7) * 2 ** 127, boundary: (2 - 2 ** -8) * 2 ** 127, boundaryOverflows: true },
  f32: { max: F32_MAX, boundary: F32_MAX + 2 ** 103, boundaryOverflows: true },
  f8e5m2: { max: 57344, boundary: 61440, boundaryOverflows: true },
  f8e5m2fnuz: { max: 57344, boundary: 61440, boundaryOverflows: true },
  f8e4m3: { max: 240, boundary: 248, boundaryOverflows: true },
  f8e4m3fnuz: { max: 240, boundary: 248, boundaryOverflows: true },
  f8e4m3fn: { max: 448, boundary: 464, boundaryOverflows: false },
  f8e4m3b11fnuz: { max: 30, boundary: 31, boundaryOverflows: true },
  f8e3m4: { max: 15.5, boundary: 15.75, boundaryOverflows: true },
  f8e8m0fnu: { max: 2 ** 127, boundary: 1.5 * 2 ** 127, boundaryOverflows: true, positiveOnly: true },
};

/** The smallest f8e8m0fnu value, the lower end of its range in XLA's message. */
const E8M0_MIN = 2 ** -127;

/** A double as absl's StrCat writes it (`%g` with six significant digits): 70000, 1e+10, 3.40282e+38. */
export function sixDigits(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  const [mantissa, exponentText] = v.toExponential(5).split('e');
  const exponent = Number(exponentText);
  const trim = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
  if (exponent < -4 || exponent >= 6) {
    const digits = String(Math.abs(exponent)).padStart(2, '0');
    return `${trim(mantissa)}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return trim(v.toFixed(5 - exponent));
}

export interface FloatRangeError {
  /** XLA's message. */
  readonly message: string;
  /** What the type holds, in words. */
  readonly holds: string;
}

/**
 * XLA's refusal of the value `v` (read as a double) in a constant of the floating-point type
 * `elementType`, or undefined when the type takes it (or is no type this knows the range of).
 */
export function floatOutOfRange(v: number, elementType: string): FloatRangeError | undefined {
  const limits = LIMITS[elementType];
  if (!limits || !Number.isFinite(v)) return undefined;
  const size = Math.abs(v);
  const over = size > limits.boundary || (size === limits.boundary && limits.boundaryOverflows);
  // Zero and negative values round to NaN in f8e8m0fnu; tiny positive ones to its smallest value.
  const under = limits.positiveOnly === true && v <= 0;
  if (!over && !under) return undefined;
  const min = limits.positiveOnly ? E8M0_MIN : -limits.max;
  const type = elementType.toUpperCase();
  return {
    message: `value ${sixDigits(v)} is out of range for literal's primitive type ${type} namely [${sixDigits(min)}, ${sixDigits(limits.max)}].`,
    holds: limits.positiveOnly
      ? `powers of two from 2^-127 to 2^127 (no zero, nothing negative)`
      : `-${sixDigits(limits.max)} to ${sixDigits(limits.max)}`,
  };
}

/**
 * NaN payload bits of the types that carry one (all their mantissa bits); the other types with a
 * NaN take only a plain `nan` (f8e4m3fn: "tries to set NaN payload 0x1 ..., but f8e4m3fn does not
 * support payloads").
 */
const PAYLOAD_BITS: Readonly<Record<string, bigint>> = {
  f64: 52n,
  f32: 23n,
  f16: 10n,
  bf16: 7n,
  f8e5m2: 2n,
  f8e4m3: 3n,
  f8e3m4: 4n,
};

/** A quiet NaN without payload, as a double's payload bits: what `nan(0x8000000000000)` writes. */
const QUIET_NAN = 1n << 51n;

/**
 * Why XLA refuses the NaN payload `payload` (from `nan(0x...)`) in a `elementType` value, as the
 * end of its message ("the NaN payload is out of range (0x7fffff)"), or undefined when it fits.
 */
export function nanPayloadRefusal(payload: bigint, elementType: string): string | undefined {
  if (payload === QUIET_NAN || elementType === 'c64' || elementType === 'c128') return undefined;
  const bits = PAYLOAD_BITS[elementType];
  if (bits === undefined) return `${elementType} does not support payloads`;
  const mask = (1n << bits) - 1n;
  return payload > mask ? `the NaN payload is out of range (0x${mask.toString(16)})` : undefined;
}

/** The largest c64 part, which XLA compares complex parts with without rounding them first. */
export const C64_PART_MAX = F32_MAX;
