/** Where an element slot sits in bytes: E(n) packs several elements per byte. */
import type { ArrayShape } from '../../core/src';
import { primitiveType } from '../../core/src';

/** Bits one slot occupies: E(n) when set, else the type's byte width × 8 (XLA's ElementSizeInBits). */
function slotBits(shape: ArrayShape): bigint {
  return BigInt(
    shape.elementSizeBits !== 0 ? shape.elementSizeBits : (primitiveType(shape.elementType)?.bytes ?? 0) * 8,
  );
}

/** Byte offset of slot `slot`, and the bit offset inside that byte (0 unless E packs sub-byte). */
export function byteOffset(shape: ArrayShape, slot: bigint): { byte: bigint; bit: number } {
  const bits = slot * slotBits(shape);
  return { byte: bits / 8n, bit: Number(bits % 8n) };
}
