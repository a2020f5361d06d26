/**
 * Inlay hints after result shapes that pad: ` 4.0 KiB → 128 KiB (32x)`, prefixed "assumed" when
 * the padding comes from the assumed TPU tiling rather than the dump. `auto` shows them in
 * after-optimizations dumps (by file name) and in any document whose shapes carry `T(...)`.
 */
import { InlayHintKind, type CancellationToken, type InlayHint, type Range } from 'vscode-languageserver';
import type { HloDocument } from './document';
import type { Analyzer } from './analyzer';
import { TimeSlice } from './guard';
import { formatFactor, groupDigits, humanBytes } from '../../core/src';
import { toPosition, toTextRange } from './positions';
import type { Settings } from '../../protocol/src/settings';

/** Whether hints are on for `doc` under `settings`. */
function hintsEnabled(doc: HloDocument, settings: Settings): boolean {
  if (settings.inlayHints === 'off') return false;
  if (settings.inlayHints === 'on') return true;
  return /after_optimizations/.test(doc.uri) || doc.hasTiles;
}

/**
 * Most hints one answer holds: a generated line can be a tuple of 100,000 padded arrays. The last
 * one shown says that the rest are not.
 */
export const MAX_INLAY_HINTS = 1000;

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
    for (const leaf of analyzer.shapeFacts(text, st.shape).leaves) {
      if (leaf.physicalBytes <= leaf.logicalBytes) continue;
      const at = origin + leaf.range.end;
      if (at < span.start || at > span.end) continue;
      const label = `${leaf.assumed ? 'assumed ' : ''}${humanBytes(leaf.logicalBytes)} → ${humanBytes(leaf.physicalBytes)} (${formatFactor(leaf.expansion)})`;
      if (out.length === MAX_INLAY_HINTS) {
        const last = out[out.length - 1];
        const before = typeof last.tooltip === 'string' ? last.tooltip : (last.tooltip?.value ?? '');
        out[out.length - 1] = {
          ...last,
          tooltip: `${before} More padded arrays follow in view without hints: at most ${groupDigits(MAX_INLAY_HINTS)} are shown at once.`,
        };
        return out;
      }
      const tooltip =
        `${groupDigits(leaf.logicalBytes)} bytes logical, ${groupDigits(leaf.physicalBytes)} bytes physical` +
        (leaf.cause ? `. ${leaf.cause}.` : '.') +
        (leaf.assumed ? ` Assumed ${leaf.assumed}; the dump prints no tiles.` : '');
      out.push({
        position: toPosition(doc.text, at),
        label,
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip,
      });
    }
  }
  return out;
}
