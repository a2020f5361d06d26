/**
 * Modules of a dump folder ranked by what they cost: XLA's total (the sum of its allocations),
 * then the peak, then the padding. A jax program's folder holds dozens of small helper modules
 * (`jit_convert_element_type`, 8 B) beside the one that matters; the ranking puts that one first.
 */
import type { MemoryModule } from './model';

/** One module's figures in the ranking. */
export interface ModuleRank {
  readonly module: string;
  readonly basis: MemoryModule['basis'];
  readonly totalBytes: bigint;
  readonly peakBytes?: bigint;
  readonly paddingBytes: bigint;
  readonly allocations: number;
}

export function moduleRank(m: MemoryModule): ModuleRank {
  return {
    module: m.module,
    basis: m.basis,
    totalBytes: m.totalBytes,
    ...(m.peak ? { peakBytes: m.peak.bytes } : {}),
    paddingBytes: m.paddingBytes,
    allocations: m.allocations.length,
  };
}

function descending(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? -1 : 1;
}

/** Largest total first, then largest peak, then most padding; ties keep their order. */
export function byCost(a: ModuleRank, b: ModuleRank): number {
  return (
    descending(a.totalBytes, b.totalBytes) ||
    descending(a.peakBytes ?? 0n, b.peakBytes ?? 0n) ||
    descending(a.paddingBytes, b.paddingBytes)
  );
}
