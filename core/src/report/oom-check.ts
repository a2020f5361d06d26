/**
 * The layout math of each allocation an out-of-memory message lists, set against what the message
 * says. TPU messages often print shapes without `T(...)` although the target tiles them (users.md
 * item 8): for those, the conventional TPU tiling is tried as well and, when it gives the size the
 * message reports, used and labelled assumed.
 */
import { readableMessage, type LayoutDiagnostic } from '../diagnostics';
import { explainShapeText, type ArrayExplanation } from '../explain';
import { normalPrintedSize, xlaBytes, type OomAllocation } from './oom-message';

/** The first error among `diagnostics` as people read it, or ''. */
function firstErrorText(diagnostics: readonly LayoutDiagnostic[]): string {
  const first = diagnostics.find((d) => d.severity === 'error');
  return first ? readableMessage(first) : '';
}

export interface OomAllocationCheck {
  readonly allocation: OomAllocation;
  /** The array the figures describe: as written, or with the assumed TPU tiles (then `assumed` is set). */
  readonly array?: ArrayExplanation;
  /** The assumed-tiling rule, when the figures use it. */
  readonly assumed?: string;
  readonly logicalBytes?: bigint;
  readonly physicalBytes?: bigint;
  /** Whether the physical size, printed as XLA prints it, is the size the message gives. */
  readonly sizeAgrees?: boolean;
  /** Whether the logical size is the message's "Unpadded size" (when it gives one). */
  readonly unpaddedAgrees?: boolean;
  /** Why no figures: no shape, or one with errors or of many arrays. */
  readonly problem?: string;
}

/** Whether `bytes`, printed as XLA prints sizes, reads `printed`. */
function printedAs(bytes: bigint, printed: string): boolean {
  return xlaBytes(bytes) === normalPrintedSize(printed);
}

function figures(allocation: OomAllocation, array: ArrayExplanation): OomAllocationCheck {
  const sizes = array.sizes;
  if (!sizes) return { allocation, array, problem: array.error?.message ?? 'its sizes cannot be computed' };
  return {
    allocation,
    array,
    ...(array.assumed ? { assumed: array.assumed } : {}),
    logicalBytes: sizes.logicalBytes,
    physicalBytes: sizes.physicalBytes,
    sizeAgrees: printedAs(sizes.physicalBytes, allocation.size.text),
    ...(allocation.unpaddedSize
      ? { unpaddedAgrees: printedAs(sizes.logicalBytes, allocation.unpaddedSize.text) }
      : {}),
  };
}

/** The figures of one listed allocation: its shape as written, or under the assumed TPU tiling when that is what the message's size says. */
export function checkOomAllocation(allocation: OomAllocation): OomAllocationCheck {
  const shape = allocation.shape;
  if (!shape) return { allocation, problem: 'the message gives no shape for it' };
  const written = explainShapeText(shape.text);
  if (written.hasErrors)
    return {
      allocation,
      problem: `its shape does not parse: ${firstErrorText(written.diagnostics)}`,
    };
  const array = written.arrays.length === 1 ? written.arrays[0] : undefined;
  if (!array)
    return { allocation, problem: 'its shape is a tuple; each array of it is an allocation of its own' };
  const asWritten = figures(allocation, array);
  if (asWritten.sizeAgrees !== false || array.tiles.length > 0) return asWritten;
  const assumed = explainShapeText(shape.text, { assumedTiling: 'tpu' }).arrays[0];
  if (!assumed?.assumed) return asWritten;
  const underAssumed = figures(allocation, assumed);
  // The assumed tiles are shown when they explain the message's size, or when the message reports
  // padding the written shape cannot have.
  return underAssumed.sizeAgrees || allocation.paddingSize ? underAssumed : asWritten;
}
