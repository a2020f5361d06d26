/**
 * The allocation section of an instruction's hover: where XLA's buffer assignment put the values
 * the instruction defines (allocation, offset, size) and which other values share that allocation.
 * The client sends the text of the `-buffer-assignment.txt` beside each HLO document
 * (BufferAssignmentNotification); the server has no file system of its own in the browser.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import {
  groupDigits,
  humanBytes,
  readBufferAssignment,
  valueLabel,
  type AssignedValue,
  type BufferAllocationRecord,
} from '../../core/src';
import { code } from '../../protocol/src/markdown';
import { MAX_BUFFER_ASSIGNMENT_CHARS } from '../../protocol/src/memory';
import type { HloDocument } from './document';
import { inside, targetAt } from './locate';

/** Values sharing an allocation listed by name in a hover; the rest are counted. */
const MAX_SHARERS = 4;

interface Placed {
  readonly allocation: BufferAllocationRecord;
  readonly value: AssignedValue;
}

/** A buffer assignment indexed by the instructions that define its values. */
export class AllocationIndex {
  private readonly byInstruction = new Map<string, Placed[]>();

  constructor(text: string) {
    for (const allocation of readBufferAssignment(text).allocations) {
      for (const value of allocation.values) {
        const list = this.byInstruction.get(value.instruction);
        if (list) list.push({ allocation, value });
        else this.byInstruction.set(value.instruction, [{ allocation, value }]);
      }
    }
  }

  /** The values `instruction` defines, with their allocations. */
  of(instruction: string): readonly Placed[] {
    return this.byInstruction.get(instruction) ?? [];
  }
}

/** The buffer assignments the client sent, by document URI. */
export class BufferAssignmentStore {
  private readonly indexes = new Map<string, AllocationIndex>();

  /**
   * Takes the notification's parameters: the text the client found beside `uri`, or null when
   * there is none. Anything else (a client of another make) is ignored.
   */
  accept(params: unknown): void {
    if (typeof params !== 'object' || params === null) return;
    const { uri, text } = params as { uri?: unknown; text?: unknown };
    if (typeof uri !== 'string') return;
    if (text === null) this.indexes.delete(uri);
    else if (typeof text === 'string' && text.length <= MAX_BUFFER_ASSIGNMENT_CHARS)
      this.indexes.set(uri, new AllocationIndex(text));
  }

  get(uri: string): AllocationIndex | undefined {
    return this.indexes.get(uri);
  }
}

function kinds(a: BufferAllocationRecord): string {
  const words = a.kinds.length > 0 ? a.kinds.join(', ') : 'allocation';
  return a.color !== 0 ? `${words}, memory space ${a.color}` : words;
}

function at(v: AssignedValue): string {
  return `${humanBytes(v.size)} at offset ${groupDigits(v.offset)}`;
}

/** The markdown lines about `instruction`'s values, or none when the buffer assignment has none. */
function allocationLines(index: AllocationIndex, instruction: string): string[] {
  const placed = index.of(instruction);
  if (placed.length === 0) return [];
  const lines: string[] = [];
  for (const { allocation: a, value: v } of placed) {
    const which = v.shapeIndex && v.shapeIndex.length > 0 ? `${code(`{${v.shapeIndex.join(',')}}`)}: ` : '';
    lines.push(
      `**Memory** (XLA's buffer assignment): ${which}${at(v)} of allocation ${a.index} (${kinds(a)}, ${humanBytes(a.size)})`,
    );
  }
  // Who else lives in those allocations (at other times, or elsewhere in an arena).
  const seen = new Set<number>();
  for (const { allocation: a } of placed) {
    if (seen.has(a.index)) continue;
    seen.add(a.index);
    const others = a.values.filter((o) => o.instruction !== instruction);
    if (others.length === 0) {
      lines.push(`Allocation ${a.index} holds nothing else.`);
      continue;
    }
    // Largest first; equal sizes by offset, so that the list reads in a visible order.
    const largest = [...others].sort((x, y) =>
      x.size !== y.size
        ? x.size > y.size
          ? -1
          : 1
        : x.offset !== y.offset
          ? x.offset < y.offset
            ? -1
            : 1
          : x.id - y.id,
    );
    const named = largest.slice(0, MAX_SHARERS).map((o) => `${code(valueLabel(o))} ${at(o)}`);
    const more = others.length - named.length;
    lines.push(
      `Allocation ${a.index} also holds ${groupDigits(others.length)} other value${others.length === 1 ? '' : 's'}, at other times or other offsets (largest first): ${named.join('; ')}${more > 0 ? `; and ${groupDigits(more)} more` : ''}.`,
    );
  }
  return lines;
}

/**
 * `hover` with the allocation section appended when the cursor is on an instruction (its name, a
 * reference to it, or its opcode) that has values in `index`. Hovers on anything else are returned
 * as they are.
 */
export function withAllocation<H extends Hover>(
  hover: H | null,
  doc: HloDocument,
  offset: number,
  index: AllocationIndex | undefined,
): H | null {
  if (hover === null || index === undefined) return hover;
  const i = doc.statementIndexAt(offset);
  if (i < 0) return hover;
  const st = doc.parse(i);
  const target = targetAt(st, offset);
  let name: string | undefined;
  if (
    target?.kind === 'name' &&
    (target.role === 'instruction-definition' ||
      target.role === 'operand' ||
      target.role === 'control-predecessor')
  )
    name = target.name.name;
  else if (st.kind === 'instruction' && st.opcode && inside(st.opcode.range, offset)) name = st.name.name;
  if (name === undefined) return hover;
  const lines = allocationLines(index, name);
  if (lines.length === 0) return hover;
  const contents = hover.contents;
  const before = typeof contents === 'object' && 'kind' in contents ? contents.value : undefined;
  if (before === undefined) return hover;
  return { ...hover, contents: { kind: MarkupKind.Markdown, value: [before, ...lines].join('\n\n') } };
}
