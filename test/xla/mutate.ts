/**
 * One-character mutations of real HLO, as typos make them: a character deleted, a number changed, a
 * bracket dropped. Each is aimed at one class of text, so agreement can be counted per class:
 * `layout` inside a shape, `names` in an instruction or computation name or a parameter number,
 * `anywhere` at a random place.
 */
import { parseHloText, scanShapes } from '../../core/src';

type Rand = () => number;

export type MutationClass = 'layout' | 'names' | 'anywhere';

export interface Mutation {
  readonly cls: MutationClass;
  readonly text: string;
  /** What changed, for reports: `deleted "]" at 12:30`. */
  readonly what: string;
}

function pick<T>(rand: Rand, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(rand() * items.length)];
}

function lineColumn(text: string, at: number): string {
  const before = text.slice(0, at);
  return `${before.split('\n').length}:${at - before.lastIndexOf('\n')}`;
}

function deleteAt(text: string, at: number): Mutation['text'] {
  return text.slice(0, at) + text.slice(at + 1);
}

const BRACKETS = '[]{}()';

/** A mutation of `text[start, end)`: one of the three kinds, or undefined when the range has nothing for it. */
function mutateRange(
  rand: Rand,
  cls: MutationClass,
  text: string,
  start: number,
  end: number,
): Mutation | undefined {
  const r = rand();
  if (r < 0.35) {
    const at = start + Math.floor(rand() * (end - start));
    return {
      cls,
      text: deleteAt(text, at),
      what: `deleted ${JSON.stringify(text[at])} at ${lineColumn(text, at)}`,
    };
  }
  if (r < 0.7) {
    const numbers = [...text.slice(start, end).matchAll(/\d+/g)];
    const m = pick(rand, numbers);
    if (!m) return undefined;
    const at = start + m.index;
    const value = pick(rand, ['0', '1', '2', '3', String(Number(m[0]) + 1), '7', '100', '-1'])!;
    if (value === m[0]) return undefined;
    return {
      cls,
      text: text.slice(0, at) + value + text.slice(at + m[0].length),
      what: `changed ${m[0]} to ${value} at ${lineColumn(text, at)}`,
    };
  }
  const brackets: number[] = [];
  for (let i = start; i < end; i++) if (BRACKETS.includes(text[i])) brackets.push(i);
  const at = pick(rand, brackets);
  if (at === undefined) return undefined;
  return {
    cls,
    text: deleteAt(text, at),
    what: `dropped ${JSON.stringify(text[at])} at ${lineColumn(text, at)}`,
  };
}

/** A mutation of a name: a character deleted or changed, or a parameter number changed. */
function mutateName(rand: Rand, text: string): Mutation | undefined {
  const model = parseHloText(text);
  if (rand() < 0.2) {
    const parameters = model.computations.flatMap((c) =>
      c.instructions.flatMap((i) => (i.parameter ? [i.parameter] : [])),
    );
    const p = pick(rand, parameters);
    if (!p) return undefined;
    const value = String(pick(rand, [0, 1, 2, p.value + 1, p.value + 2])!);
    if (value === String(p.value)) return undefined;
    return {
      cls: 'names',
      text: text.slice(0, p.range.start) + value + text.slice(p.range.end),
      what: `parameter(${p.value}) to parameter(${value}) at ${lineColumn(text, p.range.start)}`,
    };
  }
  const o = pick(rand, model.occurrences);
  if (!o) return undefined;
  const { start, end } = o.range;
  const at = start + Math.floor(rand() * (end - start));
  if (rand() < 0.5)
    return {
      cls: 'names',
      text: deleteAt(text, at),
      what: `deleted ${JSON.stringify(text[at])} of a name at ${lineColumn(text, at)}`,
    };
  const c = pick(rand, [...'abcxyz_0129.']);
  if (c === text[at]) return undefined;
  return {
    cls: 'names',
    text: text.slice(0, at) + c + text.slice(at + 1),
    what: `changed ${JSON.stringify(text[at])} of a name to ${JSON.stringify(c)} at ${lineColumn(text, at)}`,
  };
}

/** One mutation of `text` of class `cls`, or undefined when this draw found nothing to change. */
export function mutate(rand: Rand, cls: MutationClass, text: string): Mutation | undefined {
  if (cls === 'names') return mutateName(rand, text);
  if (cls === 'anywhere') {
    const at = Math.floor(rand() * text.length);
    return mutateRange(rand, cls, text, at, Math.min(text.length, at + 40));
  }
  const shape = pick(rand, scanShapes(text))?.shape;
  return shape && mutateRange(rand, cls, text, shape.range.start, shape.range.end);
}
