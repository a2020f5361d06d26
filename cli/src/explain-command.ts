/** `xla-layout explain SHAPE`: everything about one shape's layout, as text or JSON. */
import {
  arrayVerdict,
  explainShapeText,
  tupleVerdict,
  MAX_JSON_LIST,
  readableMessage,
  toJsonSafe,
  toJsonText,
  unboundedSizeNote,
  type ArrayExplanation,
  type DimensionInfo,
  type LayoutDiagnostic,
  type ShapeExplanation,
} from '../../core/src';
import { parseArgs, type ParsedArgs } from './args';
import { InputError, UsageError } from './errors';
import { bytesWithUnit, formatFactor, formatPercent, groupDigits } from '../../core/src';
import { dimsList } from './format';
import type { Output } from './output';

export const EXPLAIN_HELP = `Usage: xla-layout explain SHAPE [--json] [--assumed-tiling tpu]

Explains one shape: logical and physical shape, memory order (major to minor, by dimension
number), tiles, the pad -> reshape -> transpose steps of each tile, element and byte counts
(logicalElements, physicalElements, logicalBytes = XLA ByteSizeOf, physicalBytes = every tile
level, arraySizeBytes = XLA ArraySize), expansion and overhead, padding per dimension, a layout
change that saves memory when one exists, and diagnostics. A tuple explains each array leaf.

  --json                  machine-readable output; exact integers are decimal strings
  --assumed-tiling tpu    for untiled arrays, show XLA TPU's conventional tiles (labelled assumed)

Exit status: 0 ok, 2 when the shape has errors (a caret points at the first one).`;

/** A dimension's size as written: `?` for an unbounded one, which has none. */
function sizeText(d: DimensionInfo): string {
  return d.dynamic === 'unbounded' ? '?' : String(d.size);
}

function describeDims(a: ArrayExplanation): string {
  return a.dims.map((d) => `${d.dim}=${d.dynamic === 'bounded' ? '<=' : ''}${sizeText(d)}`).join(' ');
}

function describeOrder(a: ArrayExplanation): string {
  return a.physicalOrder
    .map((dim) => {
      const d = a.dims[dim];
      return `${dim}:${d === undefined ? '?' : sizeText(d)}`;
    })
    .join(' > ');
}

function arrayText(a: ArrayExplanation): string[] {
  const lines: string[] = [];
  const title = a.path.length > 0 ? `tuple element {${a.path.join(',')}}: ${a.text}` : a.text;
  lines.push(title);
  if (a.assumed) lines.push(`  ASSUMED tiling (${a.assumed}); the dump itself gives no tiles`);
  lines.push(
    `  element type     ${a.elementType}${a.sizes ? ` (${a.sizes.elementSizeBits} bits per element)` : ''}`,
  );
  lines.push(`  logical shape    [${a.dims.map(sizeText).join(',')}]  dims ${describeDims(a) || '(scalar)'}`);
  lines.push(`  memory order     ${describeOrder(a) || '(scalar)'}   (major -> minor)`);
  if (a.error) {
    // A layout too large to plan step by step is still sized: the sizes follow.
    lines.push(`  ${a.sizes ? 'no step-by-step plan' : 'no layout math'}: ${a.error.message}`);
    if (!a.sizes) return lines;
  }
  lines.push(`  tiles            ${a.tiles.length > 0 ? a.tiles.join('') : 'none (untiled)'}`);
  if (a.memorySpace.value !== 0)
    lines.push(`  memory space     S(${a.memorySpace.value}): ${a.memorySpace.meaning}`);
  if (a.shape && a.shape.tailPaddingAlignment !== 1n)
    lines.push(
      `  tail alignment   L(${a.shape.tailPaddingAlignment}): element count rounded up to a multiple`,
    );
  if (a.plan && a.plan.steps.length > 0) {
    lines.push('  steps');
    for (const s of a.plan.steps) {
      const tile = a.tiles[s.level] ?? '';
      lines.push(`    tile ${s.level + 1} ${tile} on ${dimsList(s.input)}:`);
      if (s.vectorPadding > 0)
        lines.push(
          `      vector-pad  ${dimsList(s.vectorPadded)} (${s.vectorPadding} leading 1s: the tile has more dims)`,
        );
      if (s.combined.length !== s.vectorPadded.length)
        lines.push(`      combine *   ${dimsList(s.combined)}`);
      lines.push(`      pad         ${dimsList(s.padded)}`);
      lines.push(`      reshape     ${dimsList(s.reshaped)}`);
      lines.push(`      transpose   ${dimsList(s.output)}`);
    }
    lines.push(`    expanded shape ${dimsList(a.plan.expandedShape)} (row-major order = memory order)`);
  }
  const z = a.sizes;
  const unbounded = unboundedSizeNote(a.dims);
  if (unbounded) lines.push(`  sizes            unknown: ${unbounded}`);
  else if (z) {
    lines.push('  sizes');
    lines.push(`    logicalElements   ${groupDigits(z.logicalElements)}`);
    lines.push(`    physicalElements  ${groupDigits(z.physicalElements)}`);
    lines.push(`    logicalBytes      ${bytesWithUnit(z.logicalBytes)}   (XLA ByteSizeOf)`);
    lines.push(`    physicalBytes     ${bytesWithUnit(z.physicalBytes)}   (all tile levels)`);
    lines.push(
      `    arraySizeBytes    ${z.arraySizeBytes === null ? "n/a (XLA's ArraySize does not handle *)" : `${bytesWithUnit(z.arraySizeBytes)}   (XLA ArraySize, first tile only)`}`,
    );
    if (z.expansion)
      lines.push(
        `    expansion         ${formatFactor(z.expansion.value)} (${z.expansion.numerator}/${z.expansion.denominator})`,
      );
    if (z.overhead)
      lines.push(`    overhead          ${formatPercent(z.overhead.value)} of physical memory is padding`);
  }
  // An array without a size has no padding to tell.
  if (a.padding && !unbounded && a.padding.tilingFactor === undefined)
    lines.push('  padding by dimension: none (the array is empty)');
  else if (a.padding && !unbounded) {
    lines.push('  padding by dimension');
    for (const d of a.padding.dimensions) {
      const where = `${d.isMinorMost ? 'minor-most' : `physical position ${d.physicalPosition}`}`;
      const causes = d.causes
        .map((c) => `tile ${c.level + 1} entry ${c.tileEntry} (${c.tileSize}) pads ${c.from} -> ${c.to}`)
        .join('; ');
      lines.push(
        `    dim ${d.dim}, size ${d.size}, ${where}: ${causes ? `${causes} = ${formatFactor(d.factor.value)}` : 'not padded'}`,
      );
    }
    const dom = a.padding.dominant;
    if (dom)
      lines.push(
        `    dominant: tile ${dom.level + 1} entry ${dom.tileEntry} pads ${dom.from} -> ${dom.to} (${formatFactor(dom.factor.value)})`,
      );
  }
  if (a.fix)
    lines.push(
      `  suggestion: ${a.fix.description} -> ${bytesWithUnit(a.fix.physicalBytes)}, saves ${bytesWithUnit(a.fix.savedBytes)}`,
    );
  return lines;
}

function diagnosticLine(d: LayoutDiagnostic): string {
  return `${d.severity}: ${readableMessage(d)} [${d.code}] at column ${d.range.start + 1}`;
}

/** Text form of an explanation: the answer (bytes, what pads, the fix) first, then the details. */
function explanationText(e: ShapeExplanation): string {
  const lines: string[] = [];
  const only = e.arrays.length === 1 && e.arrays[0].path.length === 0 ? e.arrays[0] : undefined;
  if (e.arrays.length > 0) lines.push(only ? arrayVerdict(only) : tupleVerdict(e));
  for (const a of e.arrays) lines.push(...arrayText(a));
  if (e.diagnostics.length > 0) {
    lines.push('diagnostics');
    for (const d of e.diagnostics) lines.push(`  ${diagnosticLine(d)}`);
  }
  return lines.join('\n');
}

/** Sum of a bigint size over the leaves; null when a leaf has none. */
function total(e: ShapeExplanation, pick: (a: ArrayExplanation) => bigint | null | undefined): bigint | null {
  let sum = 0n;
  for (const a of e.arrays) {
    const v = pick(a);
    if (v === null || v === undefined) return null;
    sum += v;
  }
  return sum;
}

/** JSON form: sums over array leaves at the top, the single array's details spread in too. */
function explanationJson(e: ShapeExplanation): Record<string, unknown> {
  const sum = (pick: (a: ArrayExplanation) => bigint | null | undefined): string | null =>
    total(e, pick)?.toString() ?? null;
  const arrays = e.arrays.map((a) => {
    // The model goes out as `model`: the top-level `shape` is the text that was explained.
    const { shape: model, ...rest } = a;
    return toJsonSafe({ ...rest, model, expansion: a.sizes?.expansion, overhead: a.sizes?.overhead });
  });
  const only = arrays.length === 1 ? arrays[0] : undefined;
  return {
    shape: e.text,
    ...(only ?? {}),
    logicalElements: sum((a) => a.sizes?.logicalElements),
    physicalElements: sum((a) => a.sizes?.physicalElements),
    logicalBytes: sum((a) => a.sizes?.logicalBytes),
    physicalBytes: sum((a) => a.sizes?.physicalBytes),
    arraySizeBytes: sum((a) => a.sizes?.arraySizeBytes),
    diagnostics: toJsonSafe(e.diagnostics),
    arrays,
  };
}

/** Runs `explain`. */
export function runExplain(argv: readonly string[], out: Output): number {
  const args: ParsedArgs = parseArgs(argv, { flags: ['json', 'help'], values: ['assumed-tiling'] });
  if (args.flags.has('help')) {
    out.write(EXPLAIN_HELP);
    return 0;
  }
  if (args.positionals.length !== 1)
    throw new UsageError('explain takes exactly one SHAPE (quote it for the shell)');
  const assumed = args.values.get('assumed-tiling') ?? 'none';
  if (assumed !== 'none' && assumed !== 'tpu')
    throw new UsageError(`--assumed-tiling expects 'none' or 'tpu', got '${assumed}'`);
  const text = args.positionals[0] ?? '';
  const e = explainShapeText(text, { assumedTiling: assumed });
  const firstError = e.diagnostics.find((d) => d.severity === 'error');
  if (args.flags.has('json')) {
    const json = explanationJson(e);
    // Lists of thousands of dims are cut (core's MAX_JSON_LIST); `cut` says which, first thing.
    const first = toJsonText(json, MAX_JSON_LIST, 2);
    out.write(
      first.cut === undefined ? first.text : toJsonText({ cut: first.cut, ...json }, MAX_JSON_LIST, 2).text,
    );
    return firstError ? 2 : 0;
  }
  if (firstError)
    throw new InputError(
      `${readableMessage(firstError)} [${firstError.code}]`,
      text,
      firstError.range.start,
      firstError.range.end,
      firstError.code,
    );
  out.write(explanationText(e));
  return 0;
}
