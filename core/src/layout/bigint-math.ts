/**
 * Exact integer helpers for layout arithmetic. Sizes reach past 2^53 (f32[2^40,2^20] is legal),
 * so every size and offset is a bigint; these helpers keep the call sites short.
 */

/** ceil(a / b) for a >= 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** The smallest multiple of `b` that is >= `a` (a >= 0, b > 0). */
export function roundUp(a: bigint, b: bigint): bigint {
  return ceilDiv(a, b) * b;
}

/** Product of all entries; 1 for an empty list. */
export function product(values: readonly bigint[]): bigint {
  let p = 1n;
  for (const v of values) p *= v;
  return p;
}

/** Greatest common divisor of two non-negative integers. */
function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) {
    const r = x % y;
    x = y;
    y = r;
  }
  return x;
}

/** Row-major strides of a shape: stride[i] = product of sizes after i. */
export function rowMajorStrides(shape: readonly bigint[]): bigint[] {
  const strides = new Array<bigint>(shape.length);
  let s = 1n;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

/** An exact non-negative fraction, reduced, with a floating approximation for display. */
export interface Ratio {
  readonly numerator: bigint;
  readonly denominator: bigint;
  /** numerator / denominator as a double (approximate past 2^53). */
  readonly value: number;
}

/** Builds a reduced {@link Ratio}; `undefined` when the denominator is 0. */
export function ratio(numerator: bigint, denominator: bigint): Ratio | undefined {
  if (denominator === 0n) return undefined;
  const g = gcd(numerator, denominator);
  const n = g === 0n ? numerator : numerator / g;
  const d = g === 0n ? denominator : denominator / g;
  return { numerator: n, denominator: d, value: divideToNumber(n, d) };
}

/** The remainder's scale in {@link divideToNumber}: 15 decimal digits. */
const FRACTION_SCALE = 10n ** 15n;

/**
 * n / d as a double (d > 0), keeping precision when both are far past 2^53. It is the `value` of
 * `ratio(n, d)` (reducing first does not change it), for callers that need only that.
 */
export function divideToNumber(n: bigint, d: bigint): number {
  const whole = n / d;
  const rest = n % d;
  // Scale the remainder so its quotient keeps ~15 significant digits even for huge d.
  return Number(whole) + Number((rest * FRACTION_SCALE) / d) / 1e15;
}
