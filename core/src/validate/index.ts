/** Public API of shape validation. */
export {
  capShapeDiagnostics,
  MAX_SHAPE_DIAGNOSTICS,
  validateShape,
  type ValidateOptions,
} from './validate-shape';
export { RegionCache } from './region-cache';
export { createShapeChecker, type ShapeChecker, type ShapeCheckerOptions } from './shape-checker';
