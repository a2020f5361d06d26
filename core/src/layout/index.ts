/**
 * Layout math of the core: tiling plan, linear index and its inverse, sizes, padding account,
 * memory map, and the dimension vocabulary. Pure functions of an {@link ArrayShape}; nothing here
 * throws on bad input — refusals are {@link LayoutError} values.
 */
export {
  type LayoutError,
  type LayoutErrorCode,
  LAYOUT_ERROR_CODES,
  isLayoutError,
  layoutError,
} from './errors';
export { type Ratio } from './bigint-math';
export {
  type TilingPlan,
  type TilingStep,
  MAX_PLAN_SIZES,
  planTiling,
  stepForward,
  toExpandedIndex,
  toPhysicalIndex,
} from './tiling-plan';
export {
  type ElementAtResult,
  type PaddingSlot,
  type TilePosition,
  linearIndex,
  elementAt,
} from './linear-index';
export { type LayoutSizes, sizes, maxSplitSize } from './sizes';
export { type PhysicalSizes, physicalSizes } from './physical-sizes';
export {
  type PaddingAccount,
  type PaddingCause,
  type DimensionPadding,
  type TileDivisibility,
  type TileLevelFit,
  paddingByDimension,
  dominantCause,
  paddingCauses,
  tileDivisibility,
} from './padding';
export { type LayoutFix, suggestFix } from './suggest-fix';
export { trueRank, normalizeDimension, physicalOrder, isUntiled } from './dimensions';
export { type AssumedTileRule, assumedTpuTileRule, assumedTpuTiling, withTileRule } from './assumed-tiling';
export {
  type SliceSpec,
  type ElementMapper,
  type MemoryMap,
  createElementMapper,
  buildMemoryMap,
} from './memory-map';
