/**
 * From syntax to meaning: turns a parsed array shape into the {@link ArrayShape} the layout math
 * works on, filling XLA's defaults (spec §1.3, §1.4): a missing layout is the descending
 * `{rank-1,...,0}`, a scalar's is `{}`, and absent attributes take their default values.
 */
import type { ShapeNode } from './ast';
import type { ArrayShape, SplitConfig, TileDim } from './model';
import { primitiveType } from './primitive-types';
import { validateShape } from './validate/validate-shape';

/**
 * The semantic model of an array shape, or undefined when there is nothing sound to compute with:
 * a tuple, buffer, token or opaque shape; a layout whose minor_to_major does not match the rank
 * or that carries `P(...)` (both parse errors); or any validation error. Parse errors that leave
 * a complete tree (such as misordered attributes) are the caller's to check. A caller that has
 * just validated `node` (or a tuple holding it) and found no error passes `validated` to skip
 * validating it again: the language server does so for every distinct shape of a dump.
 */
export function toArrayShape(node: ShapeNode, validated = false): ArrayShape | undefined {
  if (node.kind !== 'array') return undefined;
  const type = primitiveType(node.elementType);
  if (type === undefined || !type.isArray) return undefined;
  const rank = node.dims.length;
  const layout = node.layout;
  if (layout !== undefined && (layout.minorToMajor.length !== rank || layout.physicalShape !== undefined))
    return undefined;
  if (!validated && validateShape(node, { advice: false }).some((d) => d.severity === 'error'))
    return undefined;

  const minorToMajor: number[] = [];
  if (layout === undefined) for (let i = rank - 1; i >= 0; i--) minorToMajor.push(i);
  else for (const entry of layout.minorToMajor) minorToMajor.push(Number(entry.value));
  const tiles: TileDim[][] = (layout?.tiles?.tiles ?? []).map((t) => t.entries.map((e) => e.value));
  const splitConfigs: SplitConfig[] = (layout?.splitConfigs?.configs ?? []).map((c) => ({
    dimension: Number(c.dimension.value),
    indices: c.indices.map((i) => i.value),
  }));
  return {
    elementType: node.elementType,
    dims: node.dims.map((d) => d.value),
    dynamic: node.dims.map((d) => d.kind),
    minorToMajor,
    tiles,
    elementSizeBits: Number(layout?.elementSizeBits?.value.value ?? 0n),
    tailPaddingAlignment: layout?.tailPaddingAlignment?.value.value ?? 1n,
    // XLA keeps the memory space in an int8, so out-of-range values wrap (spec §1.3).
    memorySpace: Number(BigInt.asIntN(8, layout?.memorySpace?.value.value ?? 0n)),
    splitConfigs,
    dynamicMetadataBytes: layout?.dynamicMetadataBytes?.value.value ?? 0n,
  };
}
