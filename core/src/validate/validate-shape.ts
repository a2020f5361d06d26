/**
 * `ShapeUtil::ValidateShape` on a parsed shape (spec §2): the non-layout properties (dimension
 * sizes, int64 overflow), the layout rules, what XLA crashes on, and advice. Messages are XLA's
 * where XLA has one. Checks that XLA's parser makes itself (the minor_to_major count, `P(...)`)
 * are reported by the parser, not repeated here.
 */
import type { ArrayShapeNode, ShapeNode } from '../ast';
import { diagnostic, RULES, type LayoutDiagnostic } from '../diagnostics';
import { primitiveType } from '../primitive-types';
import { elide, groupDigits } from '../format';
import { printShape } from '../print';
import { checkLayout } from './layout-rules';

export interface ValidateOptions {
  /**
   * Include this tool's advice (stage 'advice': warnings and information on legal but suspicious
   * layouts). Default true.
   */
  readonly advice?: boolean;
}

const INT64_MAX = (1n << 63n) - 1n;

function validateArray(node: ArrayShapeNode, advice: boolean, out: LayoutDiagnostic[]): void {
  const type = primitiveType(node.elementType);
  if (type === undefined) return; // the parser already said "expected primitive type"
  let humanText: string | undefined;
  // XLA quotes the whole shape in its messages; a 100 KB one is quoted by its ends.
  const human = (): string => (humanText ??= elide(printShape(node, { layout: false })));
  if (!type.isArray) {
    if (node.dims.length > 0) {
      out.push(
        diagnostic(
          'token-dimensions',
          `${type.name} shapes take no dimensions: XLA aborts (CHECK failure in Shape::add_dimensions) on ${human()}. Write ${type.name}[].`,
          node.dimsRange,
        ),
      );
    } else if (node.layout !== undefined) {
      out.push(
        diagnostic(
          'token-layout',
          `${type.name}[] takes no layout: XLA aborts (CHECK failure in Shape::dimensions) on one. Write ${type.name}[].`,
          node.layout.range,
        ),
      );
    }
    return;
  }
  const shapeError = (msg: string): string => `Shape Error: ${msg} Shape(${type.name}): ${human()}`;
  let negative = false;
  node.dims.forEach((dim, i) => {
    if (dim.kind !== 'unbounded' && dim.value < 0n) {
      negative = true;
      out.push(
        diagnostic(
          'invalid-dimension-size',
          shapeError(`Negative dimension at index ${i}: ${dim.value}.`),
          dim.range,
          `dimension ${i} has negative size ${dim.value}: sizes are 0 or more (\`?\` for unbounded)`,
        ),
      );
    }
  });
  if (!negative) {
    // ShapeUtil multiplies the sizes in order and remembers any overflow, so a later 0 does not
    // undo it: c64[4611686018427387904,256,0] overflows (measured against jaxlib 0.10.2).
    let elements = 1n;
    let overflow = false;
    for (const dim of node.dims) {
      if (dim.kind === 'unbounded') continue;
      elements *= dim.value;
      if (elements > INT64_MAX) overflow = true;
    }
    if (overflow) {
      out.push(
        diagnostic(
          'dimensions-overflow',
          shapeError('Dimensions overflow.'),
          node.dimsRange,
          'the number of elements does not fit in 64 bits',
        ),
      );
    } else if (elements * BigInt(type.bytes) > INT64_MAX) {
      out.push(
        diagnostic(
          'dimensions-overflow',
          `Shape ${human()} size may overflow int64_t.`,
          node.dimsRange,
          'the size in bytes does not fit in 64 bits',
        ),
      );
    }
  }
  if (node.layout !== undefined) checkLayout(node.layout, { node, type, human, advice }, out);
}

/**
 * Most diagnostics one shape reports. XLA stops at the first problem; listing more helps, but a
 * generated line with 50,000 negative dimensions would otherwise publish 50,000 diagnostics.
 */
export const MAX_SHAPE_DIAGNOSTICS = 100;

/** The first {@link MAX_SHAPE_DIAGNOSTICS} of one shape's `all`, the last of them saying how many more there are. */
export function capShapeDiagnostics(all: LayoutDiagnostic[]): LayoutDiagnostic[] {
  if (all.length <= MAX_SHAPE_DIAGNOSTICS) return all;
  const kept = all.slice(0, MAX_SHAPE_DIAGNOSTICS);
  const last = kept[kept.length - 1];
  const more = all.length - MAX_SHAPE_DIAGNOSTICS;
  kept[kept.length - 1] = {
    ...last,
    message: `${last.message} (${groupDigits(more)} more problem${more === 1 ? '' : 's'} in this shape not listed: at most ${MAX_SHAPE_DIAGNOSTICS} are)`,
  };
  return kept;
}

/**
 * Validates a parsed shape as XLA would (tuple elements and buffer contents recursively, with an
 * explicit stack). Returns diagnostics in source order of the shapes, at most
 * {@link MAX_SHAPE_DIAGNOSTICS}; never throws.
 */
export function validateShape(node: ShapeNode, options: ValidateOptions = {}): LayoutDiagnostic[] {
  const advice = options.advice !== false;
  const out: LayoutDiagnostic[] = [];
  const work: ShapeNode[] = [node];
  while (work.length > 0) {
    const item = work.pop()!;
    if (item.kind === 'array') validateArray(item, advice, out);
    else if (item.kind === 'buffer') work.push(item.element);
    else for (let i = item.elements.length - 1; i >= 0; i--) work.push(item.elements[i]);
  }
  return capShapeDiagnostics(advice ? out : out.filter((d) => RULES[d.code].stage !== 'advice'));
}
