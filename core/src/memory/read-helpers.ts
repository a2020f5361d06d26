/**
 * Pieces shared by the readers of XLA's memory files: the problem log, value names
 * (`<12 fusion.3{1} (phi) @0>`), shape indices (`{0,1}`) and exact integers.
 */
import { MAX_READ_PROBLEMS, type AssignedValue, type MemoryReadProblem, type ValueRef } from './types';

/** Collects what a reader could not read; keeps the first {@link MAX_READ_PROBLEMS}. */
export class ProblemLog {
  readonly problems: MemoryReadProblem[] = [];
  count = 0;

  add(line: number, message: string): void {
    this.count++;
    if (this.problems.length < MAX_READ_PROBLEMS) this.problems.push({ line, message });
  }
}

/** Longest line quoted in a problem's message. */
const QUOTE = 80;

/** `message: "the line"`, the line cut to a readable length. */
export function quoted(message: string, line: string): string {
  const text = line.length > QUOTE ? `${line.slice(0, QUOTE - 1)}…` : line;
  return `${message}: "${text}"`;
}

/** A non-negative decimal integer as written, exact; undefined when `text` is not one. */
export function exactInteger(text: string): bigint | undefined {
  return /^\d+$/.test(text) ? BigInt(text) : undefined;
}

/** `{}`, `{0}`, `{1,2}` as a list; undefined when `text` is not a shape index. */
export function shapeIndex(text: string): number[] | undefined {
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const parts = inner.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^\d{1,9}$/.test(p))) return undefined;
  return parts.map(Number);
}

/** `name{0,1}` from an instruction name and a shape index ([] prints `{}`). */
export function positionKey(instruction: string, index: readonly number[] | undefined): string {
  return `${instruction}{${(index ?? []).join(',')}}`;
}

const VALUE_REF = /^<(\d{1,15}) ([^\s{}<>]+)(\{[\d,\s]*\})?( \(phi\))?(?: @(-?\d{1,9}))?>$/;

/** A value reference whose optional fields can be set after it is made. */
type Building = { -readonly [K in keyof ValueRef]: ValueRef[K] };

/**
 * Reads `<id name{index} (phi) @color>`; undefined when `text` is not one. Objects are built field
 * by field, not spread: a 40 MB buffer assignment has 400,000 of them, and spreading cost seconds.
 */
export function parseValueRef(text: string): ValueRef | undefined {
  const m = VALUE_REF.exec(text);
  if (m === null) return undefined;
  const ref: Building = { id: Number(m[1]), instruction: m[2], phi: m[4] !== undefined };
  if (m[3] !== undefined) {
    const index = shapeIndex(m[3]);
    if (index === undefined) return undefined;
    ref.shapeIndex = index;
  }
  if (m[5] !== undefined) ref.color = Number(m[5]);
  return ref;
}

/** A value placed in an allocation, field by field (see {@link parseValueLine}). */
export type ValueLine = { -readonly [K in keyof AssignedValue]: AssignedValue[K] };

/** The digits at `at`: their end, and their value when it is below 2^53. */
function digitsEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  return i;
}

/** An exact integer from the digits [start, end): through a double when that is exact (faster). */
function integerAt(text: string, start: number, end: number): bigint {
  const digits = text.slice(start, end);
  return end - start <= 15 ? BigInt(Number(digits)) : BigInt(digits);
}

/**
 * Reads ` value: <id name{index} (phi) @c> (size=S,offset=O): shape` without regular expressions:
 * a 40 MB buffer assignment has 400,000 such lines, and the match arrays and captures of a regular
 * expression were most of the garbage of reading one. Undefined when the line is not one.
 */
export function parseValueLine(
  line: string,
  lineNumber: number,
  shapes: (text: string) => string,
): ValueLine | undefined {
  const prefix = ' value: <';
  if (!line.startsWith(prefix)) return undefined;
  let i = prefix.length;
  let end = digitsEnd(line, i);
  if (end === i || end - i > 15 || line.charCodeAt(end) !== 32) return undefined;
  const id = Number(line.slice(i, end));
  i = end + 1;
  const nameStart = i;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 123 || c === 62 || c === 60 || c === 125) break;
    i++;
  }
  if (i === nameStart) return undefined;
  const instruction = line.slice(nameStart, i);
  let index: number[] | undefined;
  if (line.charCodeAt(i) === 123) {
    const close = line.indexOf('}', i);
    index = close < 0 ? undefined : shapeIndex(line.slice(i, close + 1));
    if (index === undefined) return undefined;
    i = close + 1;
  }
  const phi = line.startsWith(' (phi)', i);
  if (phi) i += 6;
  let color: number | undefined;
  if (line.startsWith(' @', i)) {
    const start = i + 2;
    end = digitsEnd(line, line.charCodeAt(start) === 45 ? start + 1 : start);
    if (end === start || end - start > 10) return undefined;
    color = Number(line.slice(start, end));
    i = end;
  }
  if (!line.startsWith('> (size=', i)) return undefined;
  i += 8;
  end = digitsEnd(line, i);
  if (end === i || !line.startsWith(',offset=', end)) return undefined;
  const size = integerAt(line, i, end);
  i = end + 8;
  end = digitsEnd(line, i);
  if (end === i || !line.startsWith('): ', end)) return undefined;
  const offset = integerAt(line, i, end);
  const value: ValueLine = {
    id,
    instruction,
    phi,
    size,
    offset,
    shape: shapes(line.slice(end + 3)),
    line: lineNumber,
  };
  if (index !== undefined) value.shapeIndex = index;
  if (color !== undefined) value.color = color;
  return value;
}
