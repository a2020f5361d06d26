/**
 * XLA's canonical text for shapes (`ShapeUtil::PrintHumanStringWithLayout`, `Layout::Print`;
 * spec §1.4, §1.5): no spaces inside a shape, `, ` between tuple elements with `/*index=i*\/`
 * before every fifth, default attributes omitted, a scalar's `{}` suppressed, legacy `D(...)`
 * dropped. An array written without a layout gets XLA's default descending layout, as XLA's
 * parser fills it in (`fill_missing_layouts`).
 */
import type { ArrayShapeNode, LayoutNode, ShapeNode } from './ast';
import type { ArrayShape, TileDim } from './model';
import { primitiveType } from './primitive-types';

export interface PrintOptions {
  /**
   * Print layouts (default true). False gives `ShapeUtil::HumanString`, the layout-free form XLA
   * uses inside its error messages.
   */
  readonly layout?: boolean;
}

/** XLA's `kAnnotationPrintInterval`: a `/*index=i*\/` comment precedes every fifth tuple element. */
const ANNOTATION_INTERVAL = 5;

function isModel(shape: ShapeNode | ArrayShape): shape is ArrayShape {
  return !('kind' in shape);
}

/** One tile as XLA prints it: `(8,128)`, with `*` for a combined dimension. */
export function printTile(entries: readonly TileDim[]): string {
  return `(${entries.map((e) => (e === 'combine' ? '*' : e.toString())).join(',')})`;
}

function defaultMinorToMajor(rank: number): string {
  const parts: number[] = [];
  for (let i = rank - 1; i >= 0; i--) parts.push(i);
  return parts.join(',');
}

/** `Layout::Print` of a parsed layout: `{` minor_to_major `:` non-default attributes `}`. */
export function printLayout(layout: LayoutNode): string {
  let attrs = '';
  if (layout.tiles !== undefined && layout.tiles.tiles.length > 0) {
    attrs += 'T' + layout.tiles.tiles.map((t) => printTile(t.entries.map((e) => e.value))).join('');
  }
  const l = layout.tailPaddingAlignment;
  if (l !== undefined && l.value.value !== 1n) attrs += `L(${l.value.value})`;
  if (layout.indexType !== undefined) attrs += `#(${layout.indexType.typeName})`;
  if (layout.pointerType !== undefined) attrs += `*(${layout.pointerType.typeName})`;
  const e = layout.elementSizeBits;
  if (e !== undefined && e.value.value !== 0n) attrs += `E(${e.value.value})`;
  const s = layout.memorySpace;
  if (s !== undefined && s.value.value !== 0n) attrs += `S(${s.value.value})`;
  if (layout.splitConfigs !== undefined && layout.splitConfigs.configs.length > 0) {
    attrs +=
      'SC' +
      layout.splitConfigs.configs
        .map((c) => `(${c.dimension.value}:${c.indices.map((i) => i.value).join(',')})`)
        .join('');
  }
  if (layout.physicalShape !== undefined) attrs += `P(${printShape(layout.physicalShape.shape)})`;
  const m = layout.dynamicMetadataBytes;
  if (m !== undefined && m.value.value > 0n) attrs += `M(${m.value.value})`;
  const m2m = layout.minorToMajor.map((i) => i.value).join(',');
  return attrs === '' ? `{${m2m}}` : `{${m2m}:${attrs}}`;
}

function printArrayNode(node: ArrayShapeNode, withLayout: boolean): string {
  const dims = node.dims
    .map((d) => (d.kind === 'unbounded' ? '?' : d.kind === 'bounded' ? `<=${d.value}` : d.value.toString()))
    .join(',');
  const head = `${node.elementType}[${dims}]`;
  // token and opaque never print a layout; XLA ignores one written there.
  if (!withLayout || primitiveType(node.elementType)?.isArray !== true) return head;
  if (node.layout === undefined)
    return node.dims.length === 0 ? head : `${head}{${defaultMinorToMajor(node.dims.length)}}`;
  const layout = printLayout(node.layout);
  return node.dims.length === 0 && layout === '{}' ? head : head + layout;
}

function printModel(shape: ArrayShape, withLayout: boolean): string {
  const dims = shape.dims
    .map((d, i) =>
      shape.dynamic[i] === 'unbounded' ? '?' : shape.dynamic[i] === 'bounded' ? `<=${d}` : d.toString(),
    )
    .join(',');
  const head = `${shape.elementType}[${dims}]`;
  if (!withLayout) return head;
  let attrs = '';
  if (shape.tiles.length > 0) attrs += 'T' + shape.tiles.map(printTile).join('');
  if (shape.tailPaddingAlignment !== 1n) attrs += `L(${shape.tailPaddingAlignment})`;
  if (shape.elementSizeBits !== 0) attrs += `E(${shape.elementSizeBits})`;
  if (shape.memorySpace !== 0) attrs += `S(${shape.memorySpace})`;
  if (shape.splitConfigs.length > 0)
    attrs += 'SC' + shape.splitConfigs.map((c) => `(${c.dimension}:${c.indices.join(',')})`).join('');
  if (shape.dynamicMetadataBytes > 0n) attrs += `M(${shape.dynamicMetadataBytes})`;
  const m2m = shape.minorToMajor.join(',');
  if (attrs === '') return shape.dims.length === 0 ? head : `${head}{${m2m}}`;
  return `${head}{${m2m}:${attrs}}`;
}

/**
 * XLA's canonical text of a parsed shape or of an {@link ArrayShape}. Iterative over tuples, so
 * 8192-deep nesting cannot overflow the stack.
 */
export function printShape(shape: ShapeNode | ArrayShape, options: PrintOptions = {}): string {
  const withLayout = options.layout !== false;
  if (isModel(shape)) return printModel(shape, withLayout);
  // Work list of nodes and literal text pieces, processed in order.
  const out: string[] = [];
  const work: (ShapeNode | string)[] = [shape];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      out.push(item);
    } else if (item.kind === 'array') {
      out.push(printArrayNode(item, withLayout));
    } else if (item.kind === 'buffer') {
      work.push(')', item.element, 'b(');
    } else {
      work.push(')');
      for (let i = item.elements.length - 1; i >= 0; i--) {
        work.push(item.elements[i]);
        if (i > 0) work.push(i % ANNOTATION_INTERVAL === 0 ? `, /*index=${i}*/` : ', ');
      }
      work.push('(');
    }
  }
  return out.join('');
}
