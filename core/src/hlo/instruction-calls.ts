/**
 * The opcode of an instruction in its plain form and the computations it calls, read in place
 * from the text after its result shape: what the padding warning needs to know whether the
 * instruction defines memory of its own and which computations are fused, without parsing the
 * rest of the statement (operands, metadata).
 */
import { attributesOf, COMPUTATION_ATTRIBUTES } from './attribute-table';
import { nameEnd, skipBlanks } from './instruction-start';
import { skipBalanced } from './lex';
import { calledComputationNames } from './statement-attributes';

/** Where an instruction's opcode is: `[start, end)`, its `(` at `end`. */
export interface OpcodeSpan {
  readonly start: number;
  readonly end: number;
}

/** The opcode after the result shape ending at `resultEnd`, followed by its `(`; undefined otherwise. */
export function opcodeAfter(text: string, resultEnd: number, end: number): OpcodeSpan | undefined {
  const op = skipBlanks(text, resultEnd, end);
  const open = nameEnd(text, op, end);
  if (open < 0 || open >= end || text.charCodeAt(open) !== 40) return undefined;
  return { start: op, end: open };
}

const TAKES = new Map<string, boolean>();

/** Whether XLA's parser takes an attribute naming computations on `opcode` (`fusion`, `reduce`, `while`, ...). */
export function takesComputations(opcode: string): boolean {
  let takes = TAKES.get(opcode);
  if (takes === undefined) {
    takes = attributesOf(opcode).some((a) => COMPUTATION_ATTRIBUTES.has(a.name));
    TAKES.set(opcode, takes);
  }
  return takes;
}

/** The computations named by the attributes of the instruction whose operands open at `open` (its `(`). */
export function calledAfter(text: string, open: number, end: number): string[] {
  const close = skipBalanced(text, open, end);
  return calledComputationNames(text, close, end);
}
