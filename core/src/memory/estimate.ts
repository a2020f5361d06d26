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
import { allocatesIn, definesNothing, definesValue, placement } from './allocation-sites';

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
  const placed = placement(hlo.computations);
  const { global, threadLocal } = placed;
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
      if (!info || info.computation !== c.name || definesNothing(info.opcode) || info.shape === '') continue;
      // Parameters of a scheduled callee are its caller's operands; per-element ones are scratch.
      if (!allocatesIn(placed, c.name, info.opcode)) continue;
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
      visit(parsed.shape, [], (node, index) => {
        if (!definesValue(info.opcode, index, node.kind === 'tuple')) return;
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
