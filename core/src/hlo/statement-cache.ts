/**
 * Memoised statement parsing for incremental analysis: dumps repeat statements and an edit leaves
 * most statements' text unchanged, so a statement is parsed once per distinct text and moved to
 * its new offset by shifting every range (a cheap walk, no re-parse).
 */
import type { TextRange } from '../diagnostics';
import { parseStatement } from './parse-statement';
import type { HloStatement } from './types';

function isRange(v: object): v is TextRange {
  const keys = Object.keys(v);
  return (
    keys.length === 2 &&
    typeof (v as TextRange).start === 'number' &&
    typeof (v as TextRange).end === 'number'
  );
}

/**
 * Deep copy of `root` with every range moved by `delta`. Iterative, because a statement's shapes
 * may nest 8192 tuples deep (XLA's limit), which a recursive walk would not survive.
 */
function shift(root: unknown, delta: number): unknown {
  const result: Record<string, unknown> = {};
  const stack: [unknown, Record<string | number, unknown>, string | number][] = [[root, result, 'value']];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [value, target, key] = item;
    if (typeof value !== 'object' || value === null) {
      target[key] = value;
    } else if (Array.isArray(value)) {
      const copy: unknown[] = new Array<unknown>(value.length);
      target[key] = copy;
      value.forEach((v, i) => stack.push([v, copy as unknown as Record<number, unknown>, i]));
    } else if (isRange(value)) {
      target[key] = { start: value.start + delta, end: value.end + delta };
    } else {
      const copy: Record<string, unknown> = {};
      target[key] = copy;
      // Keys are created in order first so the copy enumerates like the original.
      for (const [k, v] of Object.entries(value)) {
        copy[k] = undefined;
        stack.push([v, copy, k]);
      }
    }
  }
  return result.value;
}

/**
 * A copy of `statement` with every range (statement, names, shapes, diagnostics) moved by `delta`
 * UTF-16 units.
 */
export function rebaseStatement<T extends HloStatement>(statement: T, delta: number): T {
  return delta === 0 ? statement : (shift(statement, delta) as T);
}

export interface StatementParser {
  /** `parseStatement(text, range)`, answered from the cache when the same statement text was seen. */
  parse(text: string, range: TextRange): HloStatement;
  /** Number of distinct statement texts cached. */
  readonly size: number;
  clear(): void;
}

/**
 * Creates a memoising statement parser. The cache holds at most `maxEntries` statement texts and is
 * emptied when full (statements of one document rarely exceed it; the bound keeps memory flat).
 */
export function createStatementParser(maxEntries = 100_000): StatementParser {
  const cache = new Map<string, HloStatement>();
  return {
    parse(text: string, range: TextRange): HloStatement {
      const key = text.slice(range.start, range.end);
      let parsed = cache.get(key);
      if (!parsed) {
        parsed = parseStatement(key, { start: 0, end: key.length });
        if (cache.size >= maxEntries) cache.clear();
        cache.set(key, parsed);
      }
      return rebaseStatement(parsed, range.start);
    },
    get size(): number {
      return cache.size;
    },
    clear(): void {
      cache.clear();
    },
  };
}
