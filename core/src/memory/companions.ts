/**
 * The files XLA writes beside each compiled module with `--xla_dump_to`, named after the optimized
 * module's dump: `module_0032.jit_step.cpu_after_optimizations.txt` has
 * `module_0032.jit_step.cpu_after_optimizations-buffer-assignment.txt` and so on. Pure names: the
 * CLI and the editor look the files up in their own ways.
 */

export type CompanionKind =
  'buffer-assignment' | 'buffer-assignment-values' | 'memory-usage-report' | 'live-range';

/** Each companion's suffix after the module dump's name without `.txt`. */
export const COMPANION_SUFFIXES: Readonly<Record<CompanionKind, string>> = {
  'buffer-assignment': '-buffer-assignment.txt',
  'buffer-assignment-values': '-buffer-assignment-values.txt',
  'memory-usage-report': '-memory-usage-report.txt',
  'live-range': '-live-range.txt',
};

const KINDS = Object.keys(COMPANION_SUFFIXES) as CompanionKind[];

/** A module dump and its companions, by file name (no folder). */
export interface CompanionNames {
  /** The optimized module's HLO text. */
  readonly hlo: string;
  readonly companions: Readonly<Record<CompanionKind, string>>;
}

/**
 * The file names that belong together with `fileName`, which may be the HLO dump
 * (`….txt`, `….hlo`) or any of its companions; undefined for a name that is neither.
 */
export function companionNames(fileName: string): CompanionNames | undefined {
  let base: string | undefined;
  for (const kind of KINDS) {
    const suffix = COMPANION_SUFFIXES[kind];
    if (fileName.endsWith(suffix) && fileName.length > suffix.length) {
      base = fileName.slice(0, -suffix.length);
      break;
    }
  }
  let hlo: string;
  if (base !== undefined) hlo = `${base}.txt`;
  else {
    const dot = fileName.lastIndexOf('.');
    if (dot <= 0) return undefined;
    base = fileName.slice(0, dot);
    hlo = fileName;
  }
  const companions = {} as Record<CompanionKind, string>;
  for (const kind of KINDS) companions[kind] = `${base}${COMPANION_SUFFIXES[kind]}`;
  return { hlo, companions };
}

/** The companion kind a file name has, if it is one. */
export function companionKind(fileName: string): CompanionKind | undefined {
  return KINDS.find((k) => fileName.endsWith(COMPANION_SUFFIXES[k]));
}

/**
 * A module's name from its dump's file name: `module_0032.jit_step.cpu_after_optimizations.txt` →
 * `module_0032.jit_step` (the part before the dump stage); otherwise the name without its extension.
 */
export function moduleLabel(fileName: string): string {
  const names = companionNames(fileName);
  const base = (names?.hlo ?? fileName).replace(/\.(txt|hlo|hlotxt)$/, '');
  const parts = base.split('.');
  let stage = parts.findIndex((p) => p.endsWith('after_optimizations'));
  if (stage <= 0) return base;
  // A GPU stage names the compute capability: `sm_8.0_gpu_after_optimizations`.
  if (/^\d/.test(parts[stage]) && stage > 1) stage--;
  return parts.slice(0, stage).join('.');
}
