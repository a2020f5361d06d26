/**
 * An estimate of a module's memory from its HLO alone, for dumps without XLA's buffer assignment:
 * every value the HLO defines counted once, as its own buffer (no reuse, so an upper bound). Which
 * instructions define values follows XLA's dataflow analysis (`HloDataflowAnalysis::
 * InitializeInstructionValueSets`): `bitcast`, `get-tuple-element`, `while`, `call`,
 * `conditional`, `add-dependency`, `domain`, `opt-barrier`, `copy-done` and `all-reduce-done`
 * define nothing (their results are their operands' or their callee's values); a `tuple` (and a
 * `copy`) defines only its table of pointers; the parameters of a while body, a called computation
 * or a branch are the caller's operands; the asynchronous starts and dones define the parts their
 * comments name. Where values go follows `GatherComputationsByAllocationType`: a fused computation
 * is one kernel whose instructions, its parameters among them, get no buffer; computations applied
 * per element (reductions, sorts, scatters, maps, custom calls, also inside fusions) get
 * thread-local scratch; constants get an allocation of their own wherever they are. On every real
 * dump of the tests, the values this defines are exactly XLA's values that are not phis.
 */
import type { ShapeNode } from '../ast';
import { parseShapeText } from '../parse';
import type { HloIndex, HloInstructionInfo } from './hlo-index';
import { byWorst, type MemoryAllocation, type MemoryModule, type MemoryValue } from './model';
import type { AllocationKind } from './types';
import { tupleSize, ValueSizeCache } from './value-size';

/** Opcodes whose callees run as part of the module's own schedule (XLA's control-flow calls). */
const CONTROL_FLOW = new Set(['while', 'call', 'conditional', 'async-start', 'async-update', 'async-done']);

/** Opcodes that define no value of their own. */
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

const ALL: Defines = () => true;
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

/** Where XLA places a computation's values (`GatherComputationsByAllocationType`). */
interface Placement {
  /** Reached from ENTRY by control flow: the module's own buffers. */
  readonly global: Set<string>;
  /**
   * Called per element (reductions, sorts, maps, scatters, custom calls), directly or from inside
   * a fusion: each value gets thread-local scratch.
   */
  readonly threadLocal: Set<string>;
  /** Where the module's parameters live: ENTRY (or, in a fragment without one, what nobody calls). */
  readonly roots: Set<string>;
}

/**
 * Walks the call graph from ENTRY. Fused computations are entered (a reduction inside a fusion
 * still gets thread-local scratch) but place nothing themselves: a fusion is one kernel.
 */
function placement(hlo: HloIndex): Placement {
  const byName = new Map(hlo.computations.map((c) => [c.name, c]));
  const called = new Set<string>();
  for (const c of hlo.computations) for (const callee of c.calls.keys()) called.add(callee);
  const entries = hlo.computations.filter((c) => c.entry);
  const start = entries.length > 0 ? entries : hlo.computations.filter((c) => !called.has(c.name));
  const global = new Set<string>();
  const threadLocal = new Set<string>();
  const fused = new Set<string>();
  const work: [string, 'global' | 'thread-local' | 'fused'][] = start.map((c) => [c.name, 'global']);
  while (work.length > 0) {
    const [name, how] = work.pop()!;
    const seen = how === 'global' ? global : how === 'thread-local' ? threadLocal : fused;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const [callee, opcode] of byName.get(name)?.calls ?? []) {
      if (opcode === 'fusion') work.push([callee, 'fused']);
      else if (CONTROL_FLOW.has(opcode) && how === 'global') work.push([callee, 'global']);
      else work.push([callee, 'thread-local']);
    }
  }
  for (const g of global) threadLocal.delete(g);
  return { global, threadLocal, roots: new Set(start.map((c) => c.name)) };
}

/** Visits the parts of a shape with their tuple index. */
function visit(
  node: ShapeNode,
  index: number[],
  f: (node: ShapeNode, index: readonly number[]) => void,
): void {
  // Without recursion: XLA reads tuples nested 8,192 deep. Pre-order, elements in order.
  const stack: { node: ShapeNode; index: number[] }[] = [{ node, index }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    f(top.node, top.index);
    const t = top.node;
    if (t.kind === 'tuple')
      for (let i = t.elements.length - 1; i >= 0; i--)
        stack.push({ node: t.elements[i], index: [...top.index, i] });
  }
}

/** Estimates the memory of the module in `hlo`; `module` names it. */
export function estimateMemory(hlo: HloIndex, module?: string, sizes = new ValueSizeCache()): MemoryModule {
  const { global, threadLocal, roots } = placement(hlo);
  const allocations: MemoryAllocation[] = [];
  let worst: MemoryValue | undefined;
  const add = (
    info: HloInstructionInfo,
    shape: string,
    index: readonly number[] | undefined,
    kinds: AllocationKind[],
    size = sizes.of(shape),
  ) => {
    if (size.bytes === undefined || size.bytes === 0n) return;
    const paddingBytes = (size.physical ?? 0n) - (size.logical ?? 0n);
    const value: MemoryValue = {
      instruction: info.name,
      ...(index ? { shapeIndex: index } : {}),
      phi: false,
      allocation: allocations.length,
      shape,
      size,
      paddingBytes,
      hlo: info,
    };
    if (paddingBytes > 0n && (worst === undefined || paddingBytes > worst.paddingBytes)) worst = value;
    allocations.push({
      index: allocations.length,
      size: size.bytes,
      color: size.memorySpace,
      kinds,
      other: [],
      values: [value],
      paddingBytes,
    });
  };
  for (const c of hlo.computations) {
    const local = threadLocal.has(c.name);
    if (!local && !global.has(c.name)) continue;
    for (const name of c.instructions) {
      const info = hlo.instructions.get(name);
      if (!info || info.computation !== c.name || ALIASING.has(info.opcode) || info.shape === '') continue;
      // Parameters of a scheduled callee are its caller's operands; per-element ones are scratch.
      if (info.opcode === 'parameter' && !local && !roots.has(c.name)) continue;
      const kinds: AllocationKind[] = [];
      if (info.opcode === 'parameter' && !local) kinds.push('parameter');
      // XLA gives every constant an allocation of its own, wherever it is.
      if (info.opcode === 'constant') kinds.push('constant');
      else if (local) kinds.push('thread-local');
      if (c.entry && name === c.root) kinds.push('output');
      const parsed = parseShapeText(info.shape);
      if (parsed.shape === undefined || parsed.shape.kind !== 'tuple') {
        add(info, info.shape, undefined, kinds);
        continue;
      }
      const defines = DEFINES[info.opcode] ?? ALL;
      visit(parsed.shape, [], (node, index) => {
        const isTuple = node.kind === 'tuple';
        if (!defines(index, isTuple)) return;
        // A tuple's size is its table of pointers: parsing its text again would make deep nests quadratic.
        const text = info.shape.slice(node.range.start, node.range.end);
        const own = index.length === 0 ? kinds : [];
        add(info, text, index, own, node.kind === 'tuple' ? tupleSize(node.elements.length) : sizes.of(text));
      });
    }
  }
  let total = 0n;
  let padding = 0n;
  const spaces = new Map<number, { bytes: bigint; padding: bigint; count: number }>();
  for (const a of allocations) {
    total += a.size;
    padding += a.paddingBytes;
    const s = spaces.get(a.color) ?? { bytes: 0n, padding: 0n, count: 0 };
    s.bytes += a.size;
    s.padding += a.paddingBytes;
    s.count++;
    spaces.set(a.color, s);
  }
  return {
    module: module ?? hlo.module ?? '',
    basis: 'estimate',
    totalBytes: total,
    paddingBytes: padding,
    spaces: [...spaces.entries()]
      .sort(([a], [b]) => a - b)
      .map(([color, s]) => ({
        color,
        name: color === 0 ? 'default' : `S(${color})`,
        bytes: s.bytes,
        paddingBytes: s.padding,
        allocations: s.count,
      })),
    allocations: allocations.sort(byWorst),
    valueCount: allocations.length,
    disagreements: [],
    ...(worst ? { worst } : {}),
    missingInstructions: 0,
    problems: [],
    problemCount: 0,
  };
}
