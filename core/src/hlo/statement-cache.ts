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
  return keys.length === 2 && typeof (v as TextRange).start === 'number' && typeof (v as TextRange).end === 'number';
}

function shift(value: unknown, delta: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => shift(v, delta));
  if (isRange(value)) return { start: value.start + delta, end: value.end + delta };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = shift(v, delta);
  return out;
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
