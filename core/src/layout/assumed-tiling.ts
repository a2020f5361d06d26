/**
 * The tiling an XLA TPU target conventionally gives an array, for dumps that print no `T(...)` even
 * though the target pads (users.md item 8). Callers must label results "assumed": this is a
 * convention from spec §5, not something the dump says.
 *
 * Choices, all from spec §5 (docs/tiled_layout.md "Examples of tiling formats" and shapes observed in
 * XLA's test HLO):
 * - rank >= 2, by element width: 32-bit (8,128); 16-bit (8,128)(2,1); 8-bit and pred (8,128)(4,1);
 *   4-bit (8,128)(8,1) with E(4) (observed with s4; the docs do not state it).
 * - "compact 2nd minor layout" (docs): a second-minor physical size of 1–2 uses (2,128), 3–4 uses
 *   (4,128), each with the type's sub-tile — but only while the sub-tile divides the compact tile
 *   rows (a (2,1)/(4,1)/(8,1) sub-tile on fewer rows would pad again), so 8-bit only compacts to
 *   (4,128) and 4-bit never does.
 * - rank 0 and 1: one 128-lane row of 32-bit words, the most common observed form: 32-bit T(128)
 *   (`s32[]{:T(128)}`, `s32[6]{0:T(128)}`), 16-bit T(256) (`bf16[]{:T(256)}`, `f16[]{:T(256)}`),
 *   8-bit T(512) (`pred[]{:T(512)}`, `s8[]{:T(512)}`), 4-bit T(1024)E(4) by the same rule (not observed).
 * - 64/128-bit and 1/2-bit types: TPUs have no convention in the sources, so none is assumed.
 */
import type { ArrayShape } from '../model';
import { primitiveType } from '../primitive-types';

export interface AssumedTileRule {
  readonly tiles: readonly (readonly bigint[])[];
  /** E(n) to set, 0 for none. */
  readonly elementSizeBits: number;
  /** The convention applied, for the "assumed" label (e.g. "TPU 16-bit: (8,128)(2,1)"). */
  readonly rule: string;
}

/** Rows of the sub-tile that packs a type into 32-bit words, by bit width. */
const SUB_TILE_ROWS: Readonly<Record<number, bigint>> = { 32: 1n, 16: 2n, 8: 4n, 4: 8n };

/** The conventional TPU tiling for `shape`, or `undefined` when it has tiles already or none is known. */
export function assumedTpuTileRule(shape: ArrayShape): AssumedTileRule | undefined {
  if (shape.tiles.length > 0) return undefined;
  const type = primitiveType(shape.elementType);
  if (type === undefined || !type.isArray) return undefined;
  // pred has BitWidth 1 but TPUs store one boolean per byte (spec §5), so it tiles as 8-bit.
  const bits = type.name === 'pred' ? 8 : type.bits;
  const subRows = SUB_TILE_ROWS[bits];
  if (subRows === undefined) return undefined;
  const packed = bits === 4 ? 4 : 0;
  const rank = shape.dims.length;
  if (rank <= 1) {
    const lanes = 128n * (32n / BigInt(bits));
    return {
      tiles: [[lanes]],
      elementSizeBits: packed,
      rule: `TPU ${rank === 0 ? 'scalar' : 'vector'}, ${bits}-bit: (${lanes})`,
    };
  }
  const secondMinor = shape.dims[shape.minorToMajor[1]];
  let rows = 8n;
  let why = '';
  if (secondMinor <= 2n && subRows <= 2n) {
    rows = 2n;
    why = ', compact 2nd minor';
  } else if (secondMinor <= 4n && subRows <= 4n) {
    rows = 4n;
    why = ', compact 2nd minor';
  }
  const tiles =
    subRows === 1n
      ? [[rows, 128n]]
      : [
          [rows, 128n],
          [subRows, 1n],
        ];
  const text = tiles.map((t) => `(${t.join(',')})`).join('');
  return { tiles, elementSizeBits: packed, rule: `TPU ${bits}-bit${why}: ${text}${packed ? ' E(4)' : ''}` };
}

/**
 * A copy of `shape` with the conventional TPU tiles (see {@link assumedTpuTileRule}); `shape`
 * itself when it is tiled already or no convention applies. Callers label the result "assumed".
 */
export function assumedTpuTiling(shape: ArrayShape): ArrayShape {
  const rule = assumedTpuTileRule(shape);
  return rule === undefined ? shape : withTileRule(shape, rule);
}

/** A copy of `shape` tiled by `rule` (from {@link assumedTpuTileRule}), for callers that also show the rule. */
export function withTileRule(shape: ArrayShape, rule: AssumedTileRule): ArrayShape {
  return {
    ...shape,
    tiles: rule.tiles,
    elementSizeBits: shape.elementSizeBits !== 0 ? shape.elementSizeBits : rule.elementSizeBits,
  };
}
