/** Public API of shape validation. */
export { validateShape, type ValidateOptions } from './validate-shape';
export { RegionCache } from './region-cache';
export { createShapeChecker, type ShapeChecker, type ShapeCheckerOptions } from './shape-checker';
