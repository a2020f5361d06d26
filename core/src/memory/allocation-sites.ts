/**
 * Where a module's memory is allocated, from its HLO alone, as XLA's dataflow analysis and buffer
 * assignment have it: which parts of an instruction's result are values of its own
 * (`HloDataflowAnalysis::InitializeInstructionValueSets`) and which computations place values at
 * all (`GatherComputationsByAllocationType`). The memory estimate counts these values, and the
 * padding warning warns on them only: a value that aliases another, or one inside a fused
 * computation, holds no memory of its own.
 */
import type { ShapeNode } from '../ast';

/** Opcodes whose callees run as part of the module's own schedule (XLA's control-flow calls). */
const CONTROL_FLOW = new Set(['while', 'call', 'conditional', 'async-start', 'async-update', 'async-done']);

/**
 * Opcodes that define no value of their own: their results are their operands' (`bitcast`,
 * `get-tuple-element`, ...) or their callee's (`while`, `call`, `conditional`).
 */
const ALIASING = new Set([
  'bitcast',
  'get-tuple-element',
  'while',
  'call',
  'conditional',
  'add-dependency',
  'domain',
  'opt-barrier',
  'copy-done',
  'all-reduce-done',
]);

type Defines = (index: readonly number[], isTuple: boolean) => boolean;

const TUPLES: Defines = (_i, isTuple) => isTuple;

/** Which parts of its result an instruction defines, by opcode (the default: all of them). */
const DEFINES: Readonly<Record<string, Defines>> = {
  tuple: (i) => i.length === 0,
  copy: (i) => i.length === 0,
  'async-start': (i, t) => t || (i[0] ?? 0) > 1,
  'async-update': TUPLES,
  'async-done': TUPLES,
  'copy-start': (i) => i.length === 0 || (i.length === 1 && (i[0] === 0 || i[0] === 2)),
  'all-gather-start': (i, t) => t || i[0] === 1,
  'all-gather-done': (i) => i.length === 0,
  'collective-permute-start': (i, t) => (t && i.length <= 1) || (i[0] ?? 0) >= 1,
  'collective-permute-done': (i) => i.length === 0,
  'recv-done': (i) => i.length === 0 || (i.length === 1 && i[0] === 1),
  send: (i) => i.length === 0 || (i.length === 1 && (i[0] === 1 || i[0] === 2)),
};

/** Whether an instruction with `opcode` defines no value at all (its result is another's). */
export function definesNothing(opcode: string): boolean {
  return ALIASING.has(opcode);
}

/**
 * Whether an instruction with `opcode` defines the part of its result at tuple `index` (`[]`: the
 * whole result); `isTuple`: that part is a tuple (its table of pointers).
 */
export function definesValue(opcode: string, index: readonly number[], isTuple: boolean): boolean {
  if (ALIASING.has(opcode)) return false;
  const defines = DEFINES[opcode];
  return defines === undefined || defines(index, isTuple);
}

/**
 * Where the array leaves of the result `node` of an instruction with `opcode` start when which of
 * them it defines depends on their tuple index (a `tuple`'s elements are its operands', `copy-start`'s
 * `{1}` is the source); undefined when it defines all of them or none ({@link definesNothing}).
 * An array result is defined whole: only tuples have parts of someone else's.
 */
export function definedLeafStarts(node: ShapeNode, opcode: string): Set<number> | undefined {
  if (node.kind !== 'tuple' || DEFINES[opcode] === undefined) return undefined;
  const starts = new Set<number>();
  // Without recursion: XLA reads tuples nested 8,192 deep.
  const stack: { node: ShapeNode; index: readonly number[] }[] = [{ node, index: [] }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const n = top.node;
    if (n.kind === 'tuple') {
      for (let i = n.elements.length - 1; i >= 0; i--)
        stack.push({ node: n.elements[i], index: [...top.index, i] });
    } else if (n.kind === 'array' && definesValue(opcode, top.index, false)) starts.add(n.range.start);
  }
  return starts;
}

/** A computation as the call graph sees it. */
export interface CallingComputation {
  readonly name: string;
  readonly entry: boolean;
  /** Computations called by its instructions: callee name → the calling opcode. */
  readonly calls: ReadonlyMap<string, string>;
}

/** Where XLA places a computation's values (`GatherComputationsByAllocationType`). */
export interface Placement {
  /** Reached from ENTRY by control flow: the module's own buffers. */
  readonly global: ReadonlySet<string>;
  /**
   * Called per element (reductions, sorts, maps, scatters, custom calls), directly or from inside
   * a fusion: each value gets thread-local scratch.
   */
  readonly threadLocal: ReadonlySet<string>;
  /** Where the module's parameters live: ENTRY (or, in a fragment without one, what nobody calls). */
  readonly roots: ReadonlySet<string>;
}

/**
 * Walks the call graph from ENTRY. Fused computations are entered (a reduction inside a fusion
 * still gets thread-local scratch) but place nothing themselves: a fusion is one kernel.
 */
export function placement(computations: readonly CallingComputation[]): Placement {
  // By index, not by name: a dump has tens of thousands of fused computations, and a set of names
  // per way of being reached cost more than the walk. A name stands for the last computation
  // holding it, as a call by that name would.
  const byName = new Map<string, number>();
  computations.forEach((c, i) => byName.set(c.name, i));
  let start = computations.filter((c) => c.entry);
  if (start.length === 0) {
    const called = new Set<string>();
    for (const c of computations) for (const callee of c.calls.keys()) called.add(callee);
    start = computations.filter((c) => !called.has(c.name));
  }
  // Per computation, the ways it was reached: GLOBAL, THREAD_LOCAL, FUSED bits.
  const reached = new Uint8Array(computations.length);
  const work: number[] = [];
  const push = (name: string, how: number) => {
    const i = byName.get(name);
    if (i !== undefined) work.push(i, how);
  };
  for (const c of start) push(c.name, GLOBAL);
  while (work.length > 0) {
    const how = work.pop()!;
    const i = work.pop()!;
    if (reached[i] & how) continue;
    reached[i] |= how;
    for (const [callee, opcode] of computations[i].calls) {
      if (opcode === 'fusion') push(callee, FUSED);
      else if (CONTROL_FLOW.has(opcode) && how === GLOBAL) push(callee, GLOBAL);
      else push(callee, THREAD_LOCAL);
    }
  }
  const global = new Set<string>();
  const threadLocal = new Set<string>();
  reached.forEach((ways, i) => {
    if (ways & GLOBAL) global.add(computations[i].name);
    else if (ways & THREAD_LOCAL) threadLocal.add(computations[i].name);
  });
  return { global, threadLocal, roots: new Set(start.map((c) => c.name)) };
}

const GLOBAL = 1;
const THREAD_LOCAL = 2;
const FUSED = 4;

/**
 * Whether the instructions with `opcode` of `computation` get memory of their own under
 * `placed`: the computation places values (it is not fused, and is reached), and a parameter is
 * the module's (a root's) or scratch, not its caller's operand.
 */
export function allocatesIn(placed: Placement, computation: string, opcode: string): boolean {
  const local = placed.threadLocal.has(computation);
  if (!local && !placed.global.has(computation)) return false;
  return opcode !== 'parameter' || local || placed.roots.has(computation);
}
