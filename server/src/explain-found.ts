/** A shape found in a statement, explained by core in document coordinates (hovers, analyzeShape). */
import { explainShapeNode, type ShapeExplanation, type ShapeNode, type StatementShape } from '../../core/src';
import type { Settings } from '../../protocol/src/settings';
import type { HloDocument } from './document';

/**
 * Explanations by shape node and settings. The document keeps the long statements it parsed last
 * (kept-parses.ts), so hovers moving along one long shape explain it once; an edit drops the parse,
 * and with it the entry.
 */
const explained = new WeakMap<ShapeNode, { readonly settings: Settings; readonly e: ShapeExplanation }>();

/** Core's explanation of a found shape, in document coordinates. */
export function explainFound(doc: HloDocument, found: StatementShape, settings: Settings): ShapeExplanation {
  const known = explained.get(found.shape);
  if (known?.settings === settings) return known.e;
  const e = explainShapeNode(found.shape, doc.text.getText(), found.diagnostics, {
    assumedTiling: settings.assumedTiling,
  });
  explained.set(found.shape, { settings, e });
  return e;
}
