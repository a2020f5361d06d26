/**
 * What an instruction's padding warnings depend on beyond its own shape: its opcode (a `bitcast`
 * or a `tuple` defines no array of its own; core's allocation-sites.ts), and, through the
 * computation it is in, the calls of the whole module (a fused computation's values get no buffer;
 * a called computation's parameters are its caller's operands). The first is settled per
 * statement; for the second each statement keeps whether it is a parameter and what it calls, and
 * the document decides when publishing (HloDocument.paddingShown).
 */
import { definedLeafStarts, definesNothing, takesComputations, type ShapeNode } from '../../core/src';
import { detach } from '../../core/src';
import type { Settings } from '../../protocol/src/settings';
import { paddingWarning, type PaddingWarning, type ShapeFacts } from './shape-facts';

/** The computations an instruction calls, with its opcode (`fusion`, `while`, `reduce`, ...). */
export interface InstructionCalls {
  readonly opcode: string;
  /** Names without `%`; empty for a computation written in place. */
  readonly callees: readonly string[];
}

/** What a statement's padding warnings need of its context. */
export interface InstructionAllocation {
  /** How many padding-overhead warnings its diagnostics hold. */
  readonly padding: number;
  /** Whether it is a `parameter` (the module's only in ENTRY). */
  readonly parameter: boolean;
  readonly calls: InstructionCalls | undefined;
}

/** The allocation of every statement that warns on no padding and calls nothing. */
export const NO_ALLOCATION: InstructionAllocation = Object.freeze({
  padding: 0,
  parameter: false,
  calls: undefined,
});

/**
 * The allocation facts of an instruction with `opcode` and `padding` warnings; `callees` reads
 * the computations it names (only asked of opcodes that take such attributes).
 */
export function instructionAllocation(
  opcode: string,
  padding: number,
  callees: () => readonly string[],
  opensComputation = false,
): InstructionAllocation {
  let calls: InstructionCalls | undefined;
  if (takesComputations(opcode)) {
    const names = callees();
    if (names.length > 0 || opensComputation) calls = { opcode: detach(opcode), callees: names.map(detach) };
  }
  const parameter = opcode === 'parameter';
  if (padding === 0 && calls === undefined) return NO_ALLOCATION;
  if (calls === undefined && padding < SHARED_UP_TO)
    return (SHARED[parameter ? 1 : 0][padding] ??= Object.freeze({ padding, parameter, calls }));
  return { padding, parameter, calls };
}

/**
 * Allocations that call nothing, shared by their padding count and parameter flag: the 50 MB
 * stress dump holds about 70,000, which differ in nothing else.
 */
const SHARED_UP_TO = 16;
const SHARED: InstructionAllocation[][] = [[], []];

/**
 * The padding warnings of the result shape whose facts are `facts`, at `offset` from the
 * statement start, for an instruction with `opcode`: none when it defines no array of its own,
 * and for a tuple only on the elements it defines (`node` parses the result shape, asked only
 * then).
 */
export function resultPaddingWarnings(
  facts: ShapeFacts,
  offset: number,
  opcode: string,
  settings: Settings,
  node: () => ShapeNode | undefined,
): PaddingWarning[] {
  const out: PaddingWarning[] = [];
  if (facts.leaves.length === 0 || definesNothing(opcode)) return out;
  let defined: Set<number> | undefined;
  let origin = 0;
  for (const leaf of facts.leaves) {
    const w = paddingWarning(leaf, offset, settings);
    if (!w) continue;
    if (defined === undefined) {
      const n = node();
      defined = (n && definedLeafStarts(n, opcode)) ?? ALL;
      origin = n?.range.start ?? 0;
    }
    if (defined === ALL || defined.has(origin + leaf.range.start)) out.push(w);
  }
  return out;
}

/** Stands for "every leaf" in {@link resultPaddingWarnings}. */
const ALL = new Set<number>();
