/**
 * Pieces shared by the readers of XLA's memory files: the problem log, value names
 * (`<12 fusion.3{1} (phi) @0>`), shape indices (`{0,1}`) and exact integers.
 */
import { MAX_READ_PROBLEMS, type MemoryReadProblem, type ValueRef } from './types';

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

/** Whether `literal` is written at `at` (character codes compared: faster than startsWith here). */
function matchAt(text: string, at: number, literal: string): boolean {
  for (let k = 0; k < literal.length; k++)
    if (text.charCodeAt(at + k) !== literal.charCodeAt(k)) return false;
  return true;
}

/** Where the digits at `at` end (at most `end`). */
function digitsEnd(text: string, at: number, end: number): number {
  let i = at;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  return i;
}

/**
 * The integer written in the digits [start, end): a number while it stays below 2^53 (summed from
 * the character codes, no substring, no parse), the exact bigint past that.
 */
function integerAt(text: string, start: number, end: number): number | bigint {
  if (end - start > 15) return BigInt(text.slice(start, end));
  let n = 0;
  for (let i = start; i < end; i++) n = n * 10 + (text.charCodeAt(i) - 48);
  return n;
}

/** The fields of a value line, written into one reused record (see {@link parseValueLine}). */
export interface ValueFields {
  id: number;
  /** The instruction's name is `text.slice(nameStart, nameEnd)`. */
  nameStart: number;
  nameEnd: number;
  index: number[] | undefined;
  phi: boolean;
  color: number | undefined;
  size: number | bigint;
  offset: number | bigint;
  /** The shape is `text.slice(shapeStart, end)`. */
  shapeStart: number;
}

export function valueFields(): ValueFields {
  return {
    id: 0,
    nameStart: 0,
    nameEnd: 0,
    index: undefined,
    phi: false,
    color: undefined,
    size: 0,
    offset: 0,
    shapeStart: 0,
  };
}

/**
 * Reads the value line ` value: <id name{index} (phi) @c> (size=S,offset=O): shape` that is
 * `text[start, end)` into `out`, without regular expressions, copies or new objects: a 40 MB
 * buffer assignment has 400,000 such lines. False when the line is not one.
 */
export function parseValueLine(text: string, start: number, end: number, out: ValueFields): boolean {
  const prefix = ' value: <';
  if (!matchAt(text, start, prefix)) return false;
  let i = start + prefix.length;
  let to = digitsEnd(text, i, end);
  if (to === i || to - i > 15 || text.charCodeAt(to) !== 32) return false;
  let id = 0;
  for (let k = i; k < to; k++) id = id * 10 + (text.charCodeAt(k) - 48);
  out.id = id;
  i = to + 1;
  out.nameStart = i;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 123 || c === 62 || c === 60 || c === 125) break;
    i++;
  }
  if (i === out.nameStart) return false;
  out.nameEnd = i;
  out.index = undefined;
  if (text.charCodeAt(i) === 123) {
    const close = text.indexOf('}', i);
    out.index = close < 0 || close >= end ? undefined : shapeIndex(text.slice(i, close + 1));
    if (out.index === undefined) return false;
    i = close + 1;
  }
  out.phi = text.charCodeAt(i) === 32 && matchAt(text, i, ' (phi)');
  if (out.phi) i += 6;
  out.color = undefined;
  if (text.charCodeAt(i) === 32 && text.charCodeAt(i + 1) === 64) {
    const from = i + 2;
    to = digitsEnd(text, text.charCodeAt(from) === 45 ? from + 1 : from, end);
    if (to === from || to - from > 10) return false;
    out.color = Number(text.slice(from, to));
    i = to;
  }
  if (!matchAt(text, i, '> (size=')) return false;
  i += 8;
  to = digitsEnd(text, i, end);
  if (to === i || !matchAt(text, to, ',offset=')) return false;
  out.size = integerAt(text, i, to);
  i = to + 8;
  to = digitsEnd(text, i, end);
  if (to === i || !matchAt(text, to, '): ')) return false;
  out.offset = integerAt(text, i, to);
  out.shapeStart = to + 3;
  return true;
}
