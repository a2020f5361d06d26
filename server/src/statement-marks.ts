/**
 * The statements of a table that one question picks out (a number other than 0 for each), in
 * ascending order with that number beside each, kept in step with the table's edits. A document of
 * 600,000 statements has a few thousand with diagnostics and a few tens of thousands that shape its
 * computations: passes over these, not over every statement, keep each publish cheap.
 */
import { spliceLarge } from './text-store';

export class StatementMarks<S> {
  /** Indexes of the picked statements, ascending. */
  indexes: number[] = [];
  /** What the picker gave each of {@link indexes}, at the same place. */
  values: number[] = [];

  constructor(private readonly pick: (summary: S) => number) {}

  clear(): void {
    this.indexes = [];
    this.values = [];
  }

  /** Appends statement `i` (after every statement marked so far) if the picker picks it. */
  add(i: number, summary: S): void {
    const value = this.pick(summary);
    if (value === 0) return;
    this.indexes.push(i);
    this.values.push(value);
  }

  /** Replaces the marks of old statements [first, k) by those of `added` (statements `first`… now) and shifts the later ones. */
  splice(first: number, k: number, added: readonly S[]): void {
    const marks = this.indexes;
    let a = 0;
    while (a < marks.length && marks[a] < first) a++;
    let b = a;
    while (b < marks.length && marks[b] < k) b++;
    const fresh: number[] = [];
    const freshValues: number[] = [];
    for (let i = 0; i < added.length; i++) {
      const value = this.pick(added[i]);
      if (value === 0) continue;
      fresh.push(first + i);
      freshValues.push(value);
    }
    const shift = added.length - (k - first);
    if (shift !== 0) for (let i = b; i < marks.length; i++) marks[i] += shift;
    spliceLarge(marks, a, b - a, fresh);
    spliceLarge(this.values, a, b - a, freshValues);
  }
}
