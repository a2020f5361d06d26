/** A shape found in a statement, explained by core in document coordinates (hovers, analyzeShape). */
import { explainShapeNode, type ShapeExplanation, type StatementShape } from '../../core/src';
import type { Settings } from '../../protocol/src/settings';
import type { HloDocument } from './document';

/** Core's explanation of a found shape, in document coordinates. */
export function explainFound(doc: HloDocument, found: StatementShape, settings: Settings): ShapeExplanation {
  return explainShapeNode(found.shape, doc.text.getText(), found.diagnostics, {
    assumedTiling: settings.assumedTiling,
  });
}
