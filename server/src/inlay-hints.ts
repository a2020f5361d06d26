/**
 * Inlay hints after result shapes whose padding changes a decision: ` 16 KiB → 512 KiB (32x)`,
 * prefixed "assumed" when the padding comes from the assumed TPU tiling rather than the dump. Only
 * where physical bytes reach `inlayHints.minExpansion` times the logical and `minWastedBytes` are
 * padding, and not on scalars unless `inlayHints.scalars` (TPU dumps tile every scalar; asked
 * for, scalars need no minimum of wasted bytes). `auto` shows them in after-optimizations dumps (by
 * file name) and in any document whose shapes carry `T(...)`.
 *
 * VS Code cuts the hints of one line once their labels pass `editor.inlayHints.maximumLength`
 * characters in all (43 by default): the second leaf of a tuple read "16 KiB → 512 KiB (32x…". So
 * the hints of a line that would pass it say only the factor ("32x", the figures in the tooltip),
 * and where even that is too long, the line gets one hint after its last padded leaf.
 */
import { InlayHintKind, type CancellationToken, type InlayHint, type Range } from 'vscode-languageserver';
import type { HloDocument } from './document';
import type { Analyzer } from './analyzer';
import { TimeSlice } from './guard';
import { formatFactor, groupDigits, humanBytes } from '../../core/src';
import { toPosition, toTextRange } from './positions';
import type { LeafPadding } from './shape-facts';
import type { Settings } from '../../protocol/src/settings';

/** VS Code's default `editor.inlayHints.maximumLength`: the characters of hint labels one line shows. */
const LINE_HINT_CHARS = 43;

/** Whether hints are on for `doc` under `settings`. */
function hintsEnabled(doc: HloDocument, settings: Settings): boolean {
  if (settings.inlayHints === 'off') return false;
  if (settings.inlayHints === 'on') return true;
  return /after_optimizations/.test(doc.uri) || doc.hasTiles;
}

/**
 * Most hints one answer holds: a generated file can have 100,000 padded arrays in view. The last
 * one shown says that the rest are not.
 */
export const MAX_INLAY_HINTS = 1000;

/** Most padded arrays one line's single hint lists in its tooltip. */
const MAX_TOOLTIP_ARRAYS = 16;

/** Whether the padding of `leaf` is worth a hint under `settings`. */
function worthAHint(leaf: LeafPadding, settings: Settings): boolean {
  if (leaf.physicalBytes <= leaf.logicalBytes) return false;
  if (leaf.expansion < settings.inlayHintMinExpansion) return false;
  // A tiled scalar wastes less than the default minimum of bytes: asking for scalars asks for these.
  if (leaf.scalar) return settings.inlayHintScalars;
  return leaf.physicalBytes - leaf.logicalBytes >= BigInt(Math.ceil(settings.inlayHintMinWastedBytes));
}

function tooltip(leaf: LeafPadding): string {
  return (
    `${groupDigits(leaf.logicalBytes)} bytes logical, ${groupDigits(leaf.physicalBytes)} bytes physical` +
    (leaf.cause ? `. ${leaf.cause}.` : '.') +
    (leaf.assumed ? ` Assumed ${leaf.assumed}; the dump prints no tiles.` : '')
  );
}

/** The hints of one line: full labels when they fit VS Code's budget, factors when those do, else one. */
function lineHints(doc: HloDocument, leaves: readonly { leaf: LeafPadding; at: number }[]): InlayHint[] {
  const assumed = (leaf: LeafPadding) => (leaf.assumed ? 'assumed ' : '');
  const full = (leaf: LeafPadding) =>
    `${assumed(leaf)}${humanBytes(leaf.logicalBytes)} → ${humanBytes(leaf.physicalBytes)} (${formatFactor(leaf.expansion)})`;
  const short = (leaf: LeafPadding) => `${assumed(leaf)}${formatFactor(leaf.expansion)}`;
  const hint = (at: number, label: string, tip: string): InlayHint => ({
    position: toPosition(doc.text, at),
    label,
    kind: InlayHintKind.Type,
    paddingLeft: true,
    tooltip: tip,
  });
  // Labels are built only for lines short enough to show them all.
  const length = (label: (leaf: LeafPadding) => string) =>
    leaves.length > LINE_HINT_CHARS ? Infinity : leaves.reduce((n, { leaf }) => n + label(leaf).length, 0);
  const label = length(full) <= LINE_HINT_CHARS ? full : length(short) <= LINE_HINT_CHARS ? short : undefined;
  if (label) return leaves.map(({ leaf, at }) => hint(at, label(leaf), tooltip(leaf)));
  // Too many padded leaves for one line: one hint after the last, the worst factor, each in the tooltip.
  let worst = 0;
  for (const { leaf } of leaves) worst = Math.max(worst, leaf.expansion);
  const last = leaves[leaves.length - 1];
  const listed = leaves
    .slice(0, MAX_TOOLTIP_ARRAYS)
    .map(({ leaf }, i) => `${i + 1}. ${full(leaf)}: ${tooltip(leaf)}`);
  if (leaves.length > MAX_TOOLTIP_ARRAYS)
    listed.push(`… and ${groupDigits(leaves.length - MAX_TOOLTIP_ARRAYS)} more`);
  return [
    hint(
      last.at,
      `${groupDigits(leaves.length)} arrays pad, up to ${formatFactor(worst)}`,
      listed.join('\n'),
    ),
  ];
}

/** textDocument/inlayHint for the visible `range`. */
export async function inlayHints(
  doc: HloDocument,
  range: Range,
  settings: Settings,
  analyzer: Analyzer,
  token: CancellationToken,
): Promise<InlayHint[]> {
  if (!hintsEnabled(doc, settings)) return [];
  const text = doc.text.getText();
  const span = toTextRange(doc.text, range);
  const { first, end } = doc.statementsOverlapping(span.start, span.end);
  const slice = new TimeSlice([doc]);
  const out: InlayHint[] = [];
  for (let i = first; i < end; i++) {
    await slice.tick(token);
    if (doc.summary(i).kind !== 'instruction') continue;
    const st = doc.parse(i);
    if (st.kind !== 'instruction' || !st.shape) continue;
    const origin = st.shape.range.start;
    // The leaves worth a hint, by the line their hint falls on (a tuple may span lines).
    const byLine = new Map<number, { leaf: LeafPadding; at: number }[]>();
    for (const leaf of analyzer.shapeFacts(text, st.shape).leaves) {
      const at = origin + leaf.range.end;
      if (at < span.start || at > span.end || !worthAHint(leaf, settings)) continue;
      const line = doc.text.positionAt(at).line;
      const list = byLine.get(line);
      if (list) list.push({ leaf, at });
      else byLine.set(line, [{ leaf, at }]);
    }
    for (const leaves of byLine.values()) {
      out.push(...lineHints(doc, leaves));
      if (out.length >= MAX_INLAY_HINTS) return capped(out);
    }
  }
  return out;
}

/** The first {@link MAX_INLAY_HINTS} of `hints`, the last saying that more follow. */
function capped(hints: InlayHint[]): InlayHint[] {
  const out = hints.slice(0, MAX_INLAY_HINTS);
  const last = out[out.length - 1];
  const before = typeof last.tooltip === 'string' ? last.tooltip : (last.tooltip?.value ?? '');
  out[out.length - 1] = {
    ...last,
    tooltip: `${before} More padded arrays follow in view without hints: at most ${groupDigits(MAX_INLAY_HINTS)} are shown at once.`,
  };
  return out;
}
