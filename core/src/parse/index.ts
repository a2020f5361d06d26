/** Public API of shape parsing and the HLO shape finder. */
export {
  parseShape,
  parseShapeText,
  DEFAULT_MAX_DEPTH,
  type ShapeParseOptions,
  type ShapeParseResult,
} from './shape-parser';
export { forgetSearchedText, scanShapes, type FoundShape } from './scan-shapes';
