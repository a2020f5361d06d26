/**
 * One module's memory model from the texts of its files, for callers that hold them whole (the
 * editor reads them through VS Code's file system): XLA's figures when the buffer assignment is
 * there, else an estimate from the HLO.
 */
import { readBufferAssignment } from './buffer-assignment';
import { estimateMemory } from './estimate';
import { indexHlo } from './hlo-index';
import { readLiveRange } from './live-range';
import { joinMemory, type MemoryModule } from './model';
import { readMemoryUsageReport } from './usage-report';
import { readBufferValues } from './values';
import { ValueSizeCache } from './value-size';

/** The texts of a module's dump and of the companions found beside it. */
export interface MemoryTexts {
  readonly hlo?: string;
  readonly bufferAssignment?: string;
  readonly values?: string;
  readonly usageReport?: string;
  readonly liveRange?: string;
}

/**
 * The memory model of one module, or undefined when there is neither a buffer assignment nor HLO
 * to estimate from. `module` names it (else the HLO's `HloModule` name).
 */
export function memoryFromTexts(
  texts: MemoryTexts,
  module?: string,
  sizes = new ValueSizeCache(),
): MemoryModule | undefined {
  const hlo = texts.hlo !== undefined ? indexHlo(texts.hlo) : undefined;
  if (texts.bufferAssignment === undefined) return hlo ? estimateMemory(hlo, module, sizes) : undefined;
  return joinMemory({
    ...(module !== undefined ? { module } : {}),
    bufferAssignment: readBufferAssignment(texts.bufferAssignment),
    ...(texts.values !== undefined ? { values: readBufferValues(texts.values) } : {}),
    ...(texts.usageReport !== undefined ? { usageReport: readMemoryUsageReport(texts.usageReport) } : {}),
    ...(texts.liveRange !== undefined ? { liveRange: readLiveRange(texts.liveRange) } : {}),
    ...(hlo ? { hlo } : {}),
    sizes,
  });
}
