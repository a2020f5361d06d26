/** Public API of shape parsing and the HLO shape finder. */
export {
  parseShape,
  parseShapeText,
  DEFAULT_MAX_DEPTH,
  type ShapeParseOptions,
  type ShapeParseResult,
} from './shape-parser';
export { scanAt, scanShapes, walkShapeCandidates, type FoundShape } from './scan-shapes';
export { ScanState } from './scan-state';
export { forgetSharedTexts } from './next-occurrence';
export { shapeKeyEnd } from './shape-key';
export { closestName, editDistance, elementTypeGuesses, unknownElementTypeWords } from './spelling';
export { unterminatedComment } from './lexical-lines';
