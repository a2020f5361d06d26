/**
 * How many start indices a `dynamic-slice` or `dynamic-update-slice` takes, as jaxlib 0.10.2's
 * parser checks it once it has read the attributes (test/xla/operand-counts.test.ts puts it to
 * XLA): one scalar per dimension of the array it slices (its first operand), or a single rank-1
 * array of them. It reads the operands' shapes for that, and aborts (a CHECK failure) when a shape
 * it reads is no array (a tuple, a token). The shapes come from the operands' definitions (the
 * name checks) or from the shapes written in the statement (the statement parser).
 */
import type { ShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { printShape } from '../print';
import { charAt, readName, skipBalanced, skipTrivia } from './lex';
import { operandCount } from './operand-counts';
import type { InstructionStatement, StatementShape } from './types';

/** An operand as the rule sees it: its shape, and how the messages name it (`` `%m` ``). */
interface Operand {
  readonly shape: ShapeNode;
  readonly what: string;
}

/** The operands before the start indices: the array, and for an update the update (also of the `-start` forms). */
function leading(opcode: string): number {
  if (opcode === 'dynamic-slice' || opcode === 'dynamic-slice-start') return 1;
  return opcode === 'dynamic-update-slice' || opcode === 'dynamic-update-slice-start' ? 2 : 0;
}

/** Whether the opcode is one this rule is for (one string comparison or two). */
export function takesStartIndices(opcode: string): boolean {
  return leading(opcode) > 0;
}

/** The rank XLA reads from `shape`: 'none' for a shape without dimensions to read (it aborts), undefined for a buffer. */
function rankOf(shape: ShapeNode): number | 'none' | undefined {
  if (shape.kind === 'buffer') return undefined;
  if (shape.kind === 'tuple' || shape.elementType === 'token' || shape.elementType === 'opaque')
    return 'none';
  return shape.dims.length;
}

/** `2 scalar start indices`, `no start index`. */
function scalars(n: number): string {
  return n === 0 ? 'no start index' : `${n} scalar start ${n === 1 ? 'index' : 'indices'}`;
}

/** XLA's abort on reading the rank of `o`, which is no array; `reads` says what the opcode reads it for. */
function noArray(opcode: string, o: Operand, reads: string, range: TextRange): LayoutDiagnostic {
  return diagnostic(
    'operand-count-crash',
    'Check failed: buffer != nullptr ((null) vs. (null))',
    range,
    `a \`${opcode}\` ${reads}, and ${o.what} is ${printShape(o.shape, { layout: false })}, no array: XLA aborts on it`,
  );
}

/**
 * XLA's error on the start indices of a `dynamic-slice` or `dynamic-update-slice` (`opcode`) with
 * `count` operands, whose operand list is `range`; `operand(k)` is operand k when its shape is
 * known. Undefined when the count is right, or when a shape the answer depends on is not known.
 */
export function startIndicesError(
  opcode: string,
  count: number,
  range: TextRange,
  operand: (k: number) => Operand | undefined,
): LayoutDiagnostic | undefined {
  const lead = leading(opcode);
  if (lead === 0 || count < lead) return undefined;
  // XLA asks first whether the one operand after the leading ones is a rank-1 array of indices.
  if (count === lead + 1) {
    const index = operand(lead);
    if (index === undefined) return undefined;
    const rank = rankOf(index.shape);
    if (rank === undefined || rank === 1) return undefined;
    if (rank === 'none') return noArray(opcode, index, 'with one start-index operand reads its rank', range);
  }
  const array = operand(0);
  if (array === undefined) return undefined;
  const rank = rankOf(array.shape);
  if (rank === 'none') return noArray(opcode, array, 'reads the rank of the array it slices', range);
  if (rank === undefined || count === lead + rank) return undefined;
  const takes = lead === 1 ? 'the array' : 'the array and the update';
  return diagnostic(
    'operand-count',
    'Wrong number of operands.',
    range,
    `${array.what} has rank ${rank}, so this \`${opcode}\` takes ${takes}, then ${scalars(rank)} or a single rank-1 array of them; it has ${count - lead} start-index operand${count - lead === 1 ? '' : 's'}`,
  );
}

/** Where the operands in `(` at `open` to `close` (just past its `)`) start, each a top-level part of the list. */
function operandStarts(text: string, open: number, close: number): number[] | undefined {
  if (text.charCodeAt(open) !== 40 || text.charCodeAt(close - 1) !== 41) return undefined;
  const starts: number[] = [];
  return operandCount(text, open, close - 1, starts) === undefined ? undefined : starts;
}

/**
 * {@link startIndicesOf} on the instruction statement `ins` of `text`, whose written shapes are
 * `found`; `definition` gives the shape of the instruction a name stands for, when known.
 */
export function startIndicesOfStatement(
  text: string,
  ins: InstructionStatement,
  found: readonly StatementShape[],
  definition: (name: string) => ShapeNode | undefined,
): LayoutDiagnostic | undefined {
  const end = ins.range.end;
  const open = skipTrivia(text, ins.opcode?.range.end ?? end, end);
  const close = skipBalanced(text, open, end);
  return startIndicesOf(text, ins.opcode?.name ?? '', open, close, end, found, definition);
}

/**
 * The error of {@link startIndicesError} on the instruction of `opcode` in `text`, its operands in
 * `(` at `open` to `close` (just past its `)`), the statement ending at `end`. An operand's shape is
 * that of the instruction it names, from `definition`, else the shape written before its name, or
 * that of an instruction written in its place; `found` holds the shapes written in the statement.
 */
export function startIndicesOf(
  text: string,
  opcode: string,
  open: number,
  close: number,
  end: number,
  found: readonly StatementShape[],
  definition: (name: string) => ShapeNode | undefined = () => undefined,
): LayoutDiagnostic | undefined {
  if (!takesStartIndices(opcode)) return undefined;
  const starts = operandStarts(text, open, close);
  if (!starts) return undefined;
  return startIndicesError(opcode, starts.length, { start: open, end: close }, (k) => {
    const at = starts[k];
    const written = found.find((s) => s.shape.range.start === at);
    if (written?.diagnostics.some((d) => d.severity === 'error')) return undefined;
    const name = readName(text, written ? skipTrivia(text, written.shape.range.end, end) : at, end);
    const nested = !name || charAt(text, skipTrivia(text, name.end, end), end) === 40;
    const shape = (nested ? undefined : definition(name.name.name)) ?? written?.shape;
    return shape && { shape, what: nested ? `operand ${k + 1}` : `\`%${name.name.name}\`` };
  });
}
