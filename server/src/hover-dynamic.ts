/**
 * Hover text for dynamic shapes: a `<=N` dimension is sized at its bound N (XLA sizes every
 * bounded dimension so; the run-time size can be smaller), and `M(n)` is XLA's
 * `dynamic_shape_metadata_prefix_bytes`: n bytes holding the dynamic dimensions' sizes, in front of
 * the data and outside ByteSizeOf and the tiled sizes (spec §2 and §3).
 */
import { groupDigits, humanBytes, type ArrayExplanation } from '../../core/src';

/** "dim 0 (\<=4,096)", the bounded dims of `a`, or undefined when none is bounded. */
function boundedDims(a: ArrayExplanation): string | undefined {
  const bounded = a.dims.filter((d) => d.dynamic === 'bounded');
  if (bounded.length === 0) return undefined;
  return bounded.map((d) => `dim ${d.dim} (\\<=${groupDigits(d.size)})`).join(', ');
}

/** The M(n) bytes of `a`'s layout (0 when it has none). */
function prefixBytes(a: ArrayExplanation): bigint {
  return a.shape?.dynamicMetadataBytes ?? 0n;
}

/** The details line on dynamic dimensions and M(n) (undefined for a static array without M). */
export function dynamicDetails(a: ArrayExplanation): string | undefined {
  const dims = boundedDims(a);
  const m = prefixBytes(a);
  const out: string[] = [];
  if (dims !== undefined)
    out.push(
      `**Bounded dynamic** ${dims}: the sizes here are at the bound; at run time the dimension can be smaller.`,
    );
  if (m > 0n) out.push(metadataPrefixText(m, a));
  return out.length > 0 ? out.join(' ') : undefined;
}

/** What `M(n)` is, and what it adds to the array's own bytes when they are known. */
export function metadataPrefixText(m: bigint, a: ArrayExplanation | undefined): string {
  const what = `**M(${m})** — dynamic-shape metadata prefix: ${groupDigits(m)} bytes in front of the data holding the sizes of the dynamic dimensions (XLA's \`dynamic_shape_metadata_prefix_bytes\`); not counted in ByteSizeOf or the tiled size.`;
  if (a?.sizes === undefined) return what;
  const bound = boundedDims(a) !== undefined ? ' at the bound' : '';
  return `${what} Here: ${humanBytes(a.sizes.physicalBytes)} of data${bound} + ${humanBytes(m)} of metadata where the backend allocates it.`;
}
