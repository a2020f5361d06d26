/**
 * What a dump really allocates, from XLA's own buffer assignment: readers for the files XLA writes
 * beside each compiled module (buffer assignment, its values, the memory-usage report, live
 * ranges), all streaming and never throwing, and the model that joins them to the HLO
 * (allocation → values → instruction → source line) and to our layout math. Without a buffer
 * assignment, an estimate from the HLO alone.
 */
export type * from './types';
export { MAX_READ_PROBLEMS, MAX_INSTRUCTION_TEXT } from './types';
export { LineSplitter, byLine, type LineHandler } from './line-splitter';
export { BufferAssignmentReader, readBufferAssignment } from './buffer-assignment';
export { BufferValuesReader, readBufferValues, type BufferValuesReaderOptions } from './values';
export { MemoryUsageReportReader, readMemoryUsageReport } from './usage-report';
export { LiveRangeReader, readLiveRange } from './live-range';
export { parseValueRef, positionKey } from './read-helpers';
export {
  COMPANION_SUFFIXES,
  companionKind,
  companionNames,
  moduleLabel,
  type CompanionKind,
  type CompanionNames,
} from './companions';
export {
  HloIndexer,
  indexHlo,
  type HloIndex,
  type HloInstructionInfo,
  type HloComputationInfo,
} from './hlo-index';
export { POINTER_BYTES, ValueSizeCache, type PaddingCauseSummary, type ValueSize } from './value-size';
export {
  joinMemory,
  memorySpaceName,
  allocationPadding,
  type MemoryInputs,
  type MemoryModule,
  type MemoryAllocation,
  type MemoryValue,
  type MemorySpaceTotal,
} from './model';
export type { MemoryPeak, PeakGroup, PeakLiveValue } from './peak';
export { estimateMemory } from './estimate';
export { byCost, moduleRank, type ModuleRank } from './ranking';
export { headline, peakGroupLabel, valueLabel, type MemoryHeadline } from './headline';
export {
  memoryModuleJson,
  valueJson,
  type MemoryModuleJson,
  type MemoryAllocationJson,
  type MemoryValueJson,
  type MemoryJsonOptions,
  type MemoryPeakJson,
  type PeakGroupJson,
  type InstructionPlaceJson,
} from './json';
export { memoryFromTexts, type MemoryTexts } from './from-texts';
export {
  allocatesIn,
  definedLeafStarts,
  definesNothing,
  placement,
  type CallingComputation,
  type Placement,
} from './allocation-sites';
