/**
 * Spelling help: how far apart two words are, and the element type a mistyped one most likely
 * meant (`F32` → `f32`, `float32` → `f32`, `int8` → `s8`, `g32` → `f32`, `s32` or `u32`).
 */
import { PRIMITIVE_TYPE_NAMES, primitiveType } from '../primitive-types';

/**
 * Edit distance of `a` and `b` with adjacent transpositions (optimal string alignment), or
 * `max + 1` as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2] + 1);
      row.push(d);
      least = Math.min(least, d);
    }
    if (least > max) return max + 1;
    before = previous;
    previous = row;
  }
  return Math.min(previous[b.length], max + 1);
}

/**
 * Of `candidates` (nearest first), the first one closest to `name`: one edit away for names of three
 * to five characters, two up to eleven, three beyond; never for shorter names (`c` for `b` is no
 * guess). Undefined when none is that close.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const max = name.length <= 2 ? 0 : name.length <= 5 ? 1 : name.length <= 11 ? 2 : 3;
  if (max === 0) return undefined;
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const c of candidates) {
    if (c === name) continue;
    const d = editDistance(name, c, Math.min(max, bestDistance - 1));
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Other languages' names for XLA's element types (NumPy, jax, C, MLIR), lower case. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['bool', 'pred'],
  ['boolean', 'pred'],
  ['i1', 'pred'],
  ['int', 's32'],
  ['half', 'f16'],
  ['float', 'f32'],
  ['double', 'f64'],
  ['float16', 'f16'],
  ['float32', 'f32'],
  ['float64', 'f64'],
  ['bfloat16', 'bf16'],
  ['complex64', 'c64'],
  ['complex128', 'c128'],
  ['opaque_type', 'opaque'],
  ...[2, 4, 8, 16, 32, 64].flatMap((n): [string, string][] => [
    [`int${n}`, `s${n}`],
    [`uint${n}`, `u${n}`],
    [`i${n}`, `s${n}`],
    [`ui${n}`, `u${n}`],
  ]),
]);

/** Most types one edit away worth naming; a word closer to more of them gets no guess. */
const MAX_GUESSES = 3;

/**
 * The element types `word` (not itself one) most likely means: the same in lower case, another
 * name for it (`float32`, `int8`, `bool`, jax's `float8_e4m3fn`), or failing those the types one
 * edit away, if there are at most three. Empty when there is no good guess (`TYPE`, `tuple`).
 */
export function elementTypeGuesses(word: string): string[] {
  const lower = word.toLowerCase();
  if (primitiveType(lower) !== undefined) return [lower];
  const alias = ALIASES.get(lower) ?? (lower.startsWith('float8_') ? `f8${lower.slice(7)}` : undefined);
  if (alias !== undefined && primitiveType(alias) !== undefined) return [alias];
  if (lower.length < 2) return [];
  const near = PRIMITIVE_TYPE_NAMES.filter((name) => editDistance(lower, name, 1) <= 1);
  return near.length <= MAX_GUESSES ? near : [];
}

/**
 * Plain words for an unknown element type: "unknown element type `F32`; did you mean `f32`?" with
 * the guesses of {@link elementTypeGuesses}, or what element types look like when there is none.
 */
export function unknownElementTypeWords(word: string): string {
  const guesses = elementTypeGuesses(word).map((g) => `\`${g}\``);
  if (guesses.length === 0)
    return `unknown element type \`${word}\`: element types are lower case, such as f32, bf16, s32 or pred`;
  const list =
    guesses.length === 1
      ? guesses[0]
      : `${guesses.slice(0, -1).join(', ')} or ${guesses[guesses.length - 1]}`;
  return `unknown element type \`${word}\`; did you mean ${list}?`;
}
