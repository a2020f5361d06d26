/**
 * The range check XLA's parser makes on an integer constant's values: `s2[] constant(1000)` is
 * refused with "value 1000 is out of range for literal's primitive type S2 namely [-2, 1]".
 */
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { primitiveType } from '../primitive-types';
import { typeAt } from '../parse/type-names';
import { skipBalanced, skipString } from './lex';

/** XLA's lexer reads an integer as an int64, or as a uint64 when it is larger. */
const LEXER_MIN = -(1n << 63n);
const LEXER_MAX = (1n << 64n) - 1n;
/** Types whose literals XLA stores without a range check of their own. */
const LEXER_ONLY = new Set(['s64', 'u64']);

/** `[min, max]` of an integer element type (`s8`, `u4`, ...), or undefined for any other type. */
function integerRange(typeName: string): readonly [bigint, bigint] | undefined {
  const m = /^([su])(\d+)$/.exec(typeName);
  const type = primitiveType(typeName);
  if (!m || !type) return undefined;
  const bits = BigInt(type.bits);
  return m[1] === 's' ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/**
 * Whether the plain instruction whose result shape starts at `shapeStart` (a shape the finder read
 * cleanly), opcode at `op` and `(` at `open`, is a constant of an integer type holding a value
 * {@link literalOutOfRange} refuses, as the statement parser would find: the fast paths that skip
 * the parser leave such instructions to it, and take every other constant as plain.
 */
export function constantOutOfRange(
  text: string,
  shapeStart: number,
  op: number,
  open: number,
  end: number,
): boolean {
  if (open - op !== 8 || !text.startsWith('constant', op)) return false;
  const c = text.charCodeAt(shapeStart);
  if (c !== 115 && c !== 117) return false; // s, u
  let typeEnd = shapeStart + 1;
  while (text.charCodeAt(typeEnd) >= 48 && text.charCodeAt(typeEnd) <= 57) typeEnd++;
  const type = typeAt(text, shapeStart, typeEnd);
  if (type === undefined) return false;
  return literalOutOfRange(text, open + 1, skipBalanced(text, open, end), type.name) !== undefined;
}

/**
 * The first integer of the constant literal `text[start, end)` (what `constant(` holds) outside
 * the range of the element type `elementType` (of an array result), as a diagnostic; undefined when
 * all fit, when the type is no integer type, or when the literal holds anything but integers (left
 * to XLA's other rules).
 */
export function literalOutOfRange(
  text: string,
  start: number,
  end: number,
  elementType: string | undefined,
): LayoutDiagnostic | undefined {
  if (elementType === undefined) return undefined;
  const range = integerRange(elementType);
  if (!range) return undefined;
  const number = /-?\d+/y;
  for (let i = start; i < end;) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      i = skipString(text, i, end);
      continue;
    }
    if (c !== 45 && (c < 48 || c > 57)) {
      i++;
      continue;
    }
    number.lastIndex = i;
    const m = number.exec(text);
    if (!m || i + m[0].length > end) return undefined;
    const after = text.charCodeAt(i + m[0].length);
    // `1.5`, `1e3`, `0x10`: not an integer literal.
    if ((after >= 65 && after <= 90) || (after >= 97 && after <= 122) || after === 46) return undefined;
    const value = BigInt(m[0]);
    if (value < LEXER_MIN || value > LEXER_MAX)
      return diagnostic(
        'literal-out-of-range',
        'unexpected token type in a literal',
        { start: i, end: i + m[0].length },
        `${m[0]} is beyond the 64-bit integers XLA's lexer reads (${LEXER_MIN} to ${LEXER_MAX})`,
      );
    const [min, max] = range;
    // 64-bit literals are stored without a range check: 2^64-1 in s64 wraps to -1, -1 in u64 to 2^64-1.
    if (!LEXER_ONLY.has(elementType) && (value < min || value > max)) {
      const type = elementType.toUpperCase();
      return diagnostic(
        'literal-out-of-range',
        `value ${m[0]} is out of range for literal's primitive type ${type} namely [${min}, ${max}].`,
        { start: i, end: i + m[0].length },
        `${m[0]} does not fit in ${elementType}, which holds ${min} to ${max}`,
      );
    }
    i += m[0].length;
  }
  return undefined;
}
