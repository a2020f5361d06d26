/**
 * XLA primitive types as HLO text names them (spec §1.2, `xla/xla_data.proto`,
 * `xla/primitive_util.cc`). Names are lower case and matched case-sensitively.
 */

/** Facts about one array element type. `bits` is `primitive_util::BitWidth`. */
export interface PrimitiveTypeInfo {
  readonly name: string;
  /** `primitive_util::BitWidth`; 0 for token and opaque, which are not array types. */
  readonly bits: number;
  /** `ShapeUtil::ByteSizeOfPrimitiveType` = ceil(bits / 8); 0 for token/opaque. */
  readonly bytes: number;
  /** Whether the type can be the element type of an array (everything but token/opaque). */
  readonly isArray: boolean;
  /** `IsSubByteNonPredType`: an array type other than pred narrower than a byte. */
  readonly isSubByte: boolean;
  /** Unsigned integer types are the only ones accepted inside `#(...)` and `*(...)`. */
  readonly isUnsignedInteger: boolean;
}

function info(name: string, bits: number, extra: Partial<PrimitiveTypeInfo> = {}): PrimitiveTypeInfo {
  const isArray = extra.isArray ?? true;
  return {
    name,
    bits,
    bytes: Math.ceil(bits / 8),
    isArray,
    isSubByte: isArray && name !== 'pred' && bits < 8,
    isUnsignedInteger: /^u\d+$/.test(name),
    ...extra,
  };
}

const TABLE: readonly PrimitiveTypeInfo[] = [
  info('pred', 1),
  info('s1', 1),
  info('u1', 1),
  info('s2', 2),
  info('u2', 2),
  info('s4', 4),
  info('u4', 4),
  info('s8', 8),
  info('u8', 8),
  info('s16', 16),
  info('u16', 16),
  info('s32', 32),
  info('u32', 32),
  info('s64', 64),
  info('u64', 64),
  info('f16', 16),
  info('bf16', 16),
  info('f32', 32),
  info('f64', 64),
  info('f8e5m2', 8),
  info('f8e4m3', 8),
  info('f8e4m3fn', 8),
  info('f8e4m3b11fnuz', 8),
  info('f8e3m4', 8),
  info('f8e5m2fnuz', 8),
  info('f8e4m3fnuz', 8),
  info('f8e8m0fnu', 8),
  info('f4e2m1fn', 4),
  // f6 types are stored one per byte; XLA's BitWidth for them is 8 by code reading (spec §1.2, UNVERIFIED).
  info('f6e3m2fn', 8),
  info('f6e2m3fn', 8),
  info('c64', 64),
  info('c128', 128),
  info('token', 0, { isArray: false, bytes: 0 }),
  info('opaque', 0, { isArray: false, bytes: 0 }),
];

const BY_NAME: ReadonlyMap<string, PrimitiveTypeInfo> = new Map(TABLE.map((t) => [t.name, t]));

/** All primitive type names XLA's lexer recognises, in table order. */
export const PRIMITIVE_TYPE_NAMES: readonly string[] = TABLE.map((t) => t.name);

/** Looks a type up by its exact (lower-case) HLO name; `undefined` for anything else. */
export function primitiveType(name: string): PrimitiveTypeInfo | undefined {
  return BY_NAME.get(name);
}
