/**
 * Shared checks for the fuzz suites: the invariants every core entry point must keep on ANY input
 * (no throw, ranges inside the text, children inside parents, determinism), the corpus loaders,
 * the one edit the mutation fuzzers apply, and the per-suite "inputs tried" counter the lead
 * reports.
 *
 * Walkers here are iterative: fuzz inputs nest thousands deep, and a recursive checker would
 * overflow the stack before the code under test does.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShapeNode } from '../../core/src/ast';
import type { LayoutDiagnostic, TextRange } from '../../core/src/diagnostics';
import { RULES } from '../../core/src/diagnostics';
import { CORPUS_DIR } from '../support/corpus';

const CORPUS = CORPUS_DIR;

function lines(file: string): string[] {
  return readFileSync(join(CORPUS, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

/** Every corpus shape: valid, invalid (text before the tab) and legacy. */
export function corpusShapes(): string[] {
  return [
    ...lines('valid_shapes.txt'),
    ...lines('invalid_shapes.txt').map((l) => l.split('\t')[0]),
    ...lines('legacy_shapes.txt').map((l) => l.split('\t')[0]),
  ];
}

/** Every example HLO file the project ships (examples/*.hlo): [name, text]. */
export function exampleHloFiles(): [string, string][] {
  const dir = join(__dirname, '..', '..', 'examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.hlo'))
    .sort()
    .map((f) => [f, readFileSync(join(dir, f), 'utf8')]);
}

/** Every corpus HLO file: [name, text]. */
export function corpusHloFiles(): [string, string][] {
  const dir = join(CORPUS, 'hlo');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.hlo'))
    .sort()
    .map((f) => [f, readFileSync(join(dir, f), 'utf8')]);
}

/**
 * `text` with one edit at `at` (taken modulo its length + 1) over the span of up to `length`
 * characters there: kind 0 inserts `junk`, 1 deletes the span, 2 replaces it with `junk`, any
 * other duplicates it. The mutation fuzzers all edit their corpus texts this way.
 */
export function editText(text: string, at: number, length: number, junk: string, kind: number): string {
  const a = at % (text.length + 1);
  const b = Math.min(text.length, a + length);
  switch (kind) {
    case 0:
      return text.slice(0, a) + junk + text.slice(a);
    case 1:
      return text.slice(0, a) + text.slice(b);
    case 2:
      return text.slice(0, a) + junk + text.slice(b);
    default:
      return text.slice(0, b) + text.slice(a, b) + text.slice(b);
  }
}

/** Counts inputs per suite and prints the total once, for the lead's "inputs tried" figure. */
export class InputCounter {
  private count = 0;
  constructor(private readonly suite: string) {}
  add(n = 1): void {
    this.count += n;
  }
  get total(): number {
    return this.count;
  }
  print(): void {
    console.log(`      [fuzz] ${this.suite}: ${this.count} inputs tried`);
  }
}

function isRange(v: unknown): v is TextRange {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as TextRange).start === 'number' &&
    typeof (v as TextRange).end === 'number' &&
    Object.keys(v).length === 2
  );
}

/** 0 <= start <= end <= length, integers. */
export function assertRangeInText(range: TextRange, length: number, what: string): void {
  assert.ok(
    Number.isInteger(range.start) &&
      Number.isInteger(range.end) &&
      range.start >= 0 &&
      range.start <= range.end &&
      range.end <= length,
    `${what}: range [${range.start}, ${range.end}) outside text of length ${length}`,
  );
}

/** Every diagnostic has a known code, a severity, a message and a range inside the text. */
export function assertDiagnostics(
  diagnostics: readonly LayoutDiagnostic[],
  length: number,
  what: string,
): void {
  for (const d of diagnostics) {
    assert.ok(d.code in RULES, `${what}: unknown code ${String(d.code)}`);
    assert.equal(typeof d.message, 'string');
    assert.ok(d.message.length > 0, `${what}: empty message for ${d.code}`);
    assert.ok(
      !/\[object |function |undefined|NaN/.test(d.message),
      `${what}: suspicious message ${JSON.stringify(d.message)}`,
    );
    assertRangeInText(d.range, length, `${what} diagnostic ${d.code}`);
  }
}

/**
 * Every range in a shape tree lies inside the text, and inside the range of the nearest enclosing
 * object that has a `range` (children inside parents). `*Range` fields (elementTypeRange,
 * dimsRange, typeRange) must lie inside their own object's range.
 */
export function assertShapeTree(node: ShapeNode, length: number, what: string): void {
  const work: { value: unknown; parent: TextRange }[] = [{ value: node, parent: { start: 0, end: length } }];
  while (work.length > 0) {
    const { value, parent } = work.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value) work.push({ value: v, parent });
      continue;
    }
    const own = (value as { range?: unknown }).range;
    let here = parent;
    if (isRange(own)) {
      assertRangeInText(own, length, what);
      assert.ok(
        own.start >= parent.start && own.end <= parent.end,
        `${what}: child [${own.start}, ${own.end}) outside parent [${parent.start}, ${parent.end})`,
      );
      here = own;
    }
    for (const [key, v] of Object.entries(value)) {
      if (key === 'range') continue;
      if (key.endsWith('Range') && isRange(v)) {
        assertRangeInText(v, length, `${what} ${key}`);
        assert.ok(
          v.start >= here.start && v.end <= here.end,
          `${what}: ${key} [${v.start}, ${v.end}) outside [${here.start}, ${here.end})`,
        );
      } else if (typeof v === 'object' && v !== null) {
        work.push({ value: v, parent: here });
      }
    }
  }
}

/** Every TextRange-shaped object anywhere in `value` lies inside the text (no nesting rule). */
export function assertAllRangesInText(value: unknown, length: number, what: string): void {
  const seen = new Set<object>();
  const work: unknown[] = [value];
  while (work.length > 0) {
    const v = work.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (isRange(v)) {
      assertRangeInText(v, length, what);
      continue;
    }
    if (v instanceof Map) {
      for (const x of v.values()) work.push(x);
      continue;
    }
    for (const x of Object.values(v)) work.push(x);
  }
}

/**
 * A canonical string of any plain value (bigints tagged, key order as created), built without
 * recursion so 8192-deep trees can be compared for determinism.
 */
export function canonical(value: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [value];
  const CLOSE_ARRAY = Symbol('close-array');
  const CLOSE_OBJECT = Symbol('close-object');
  while (work.length > 0) {
    const v = work.pop();
    if (v === CLOSE_ARRAY) out.push(']');
    else if (v === CLOSE_OBJECT) out.push('}');
    else if (typeof v === 'bigint') out.push(`${v}n`);
    else if (typeof v === 'string') out.push(JSON.stringify(v));
    else if (typeof v !== 'object' || v === null) out.push(String(v));
    else if (Array.isArray(v)) {
      out.push('[');
      work.push(CLOSE_ARRAY);
      for (let i = v.length - 1; i >= 0; i--) work.push(v[i]);
    } else {
      out.push('{');
      work.push(CLOSE_OBJECT);
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) work.push(entries[i][1], `${entries[i][0]}:`);
    }
  }
  return out.join(' ');
}

/** Runs `f`, turning a throw into an assertion failure that names the input. */
export function noThrow<T>(what: string, text: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    const shown =
      text.length > 300
        ? `${JSON.stringify(text.slice(0, 300))}… (${text.length} chars)`
        : JSON.stringify(text);
    assert.fail(`${what} threw on ${shown}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}

/** Shows an input in a failure message without flooding the terminal. */
export function shown(text: string): string {
  return text.length > 300
    ? `${JSON.stringify(text.slice(0, 300))}… (${text.length} chars)`
    : JSON.stringify(text);
}
