/**
 * Random shape texts for asking XLA and this tool the same question: every element type, static,
 * `<=N` and `?` dimensions, scalars, tuples and buffers, every layout attribute in and out of
 * order, bad minor_to_major lists and tiles, blanks and comments between any two tokens, and the
 * mistakes people make (capital or spelt-out types, missing brackets, stray characters). Valid and
 * invalid shapes come out in about equal numbers. Deterministic for a given random source.
 */
import { PRIMITIVE_TYPE_NAMES } from '../../core/src';

type Rand = () => number;

/** Element types written wrong, as people write them (XLA's own docs print `F32`). */
export const MISTAKEN_TYPES = [
  'F32',
  'BF16',
  'S32',
  'PRED',
  'float32',
  'float',
  'int8',
  'int32',
  'bool',
  'half',
  'i32',
  'g32',
  'f31',
  's3',
  'u128',
  'TYPE',
  'tuple',
  'buffer',
  'opaque_type',
  'primitive_type_invalid',
  'Token',
];

const TILE_SIZES = ['1', '2', '4', '8', '16', '32', '128', '256', '512', '1024', '3', '5'];

function pick<T>(rand: Rand, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function chance(rand: Rand, p: number): boolean {
  return rand() < p;
}

function int(rand: Rand, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

function shuffled<T>(rand: Rand, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Blanks and comments between two tokens: mostly none, sometimes any line end XLA's lexer knows. */
function trivia(rand: Rand): string {
  const r = rand();
  if (r < 0.86) return '';
  if (r < 0.93) return ' ';
  return pick(rand, ['\n', '\t', '\r\n', '\r', ' /* c */ ', '/**/', '// c\n', '// c\r', '  \n  ']);
}

/** Joins tokens with random trivia between them (never inside one). */
function join(rand: Rand, tokens: readonly string[]): string {
  let out = '';
  tokens.forEach((t, i) => (out += (i > 0 ? trivia(rand) : '') + t));
  return out;
}

function dimension(rand: Rand): string[] {
  const r = rand();
  if (r < 0.7) return [String(pick(rand, [0, 1, 2, 3, 4, 7, 8, 16, 100, 128, 256, 300, 1000, 1024]))];
  if (r < 0.76) return [String(2 ** int(rand, 20, 40))];
  if (r < 0.79)
    return [
      pick(rand, [
        '4611686018427387904',
        '9223372036854775807',
        '9223372036854775808',
        '18446744073709551615',
        '18446744073709551616',
        '3037000500',
        '2305843009213693952',
      ]),
    ];
  if (r < 0.86) return ['<=', String(pick(rand, [0, 1, 4, 100, 4096]))];
  if (r < 0.92) return ['?'];
  if (r < 0.95) return [pick(rand, ['-1', '-2'])];
  if (r < 0.96) return ['<=', '-1'];
  return [pick(rand, ['2x3', '1.5', 'a', '1_2', '+1', '<', ''])];
}

function permutation(rand: Rand, rank: number): string[] {
  return shuffled(
    rand,
    Array.from({ length: rank }, (_, i) => String(i)),
  );
}

function minorToMajor(rand: Rand, rank: number): string[] {
  const r = rand();
  const good = chance(rand, 0.7)
    ? Array.from({ length: rank }, (_, i) => String(rank - 1 - i))
    : permutation(rand, rank);
  if (r < 0.82 || rank === 0) return good;
  if (r < 0.86) return [...good.slice(1), good[good.length - 1]]; // duplicate
  if (r < 0.9) return [...good.slice(0, -1), String(pick(rand, [rank, rank + 3, -1]))];
  if (r < 0.94) return good.slice(1);
  if (r < 0.98) return [...good, String(rank)];
  return [];
}

function commaList(items: readonly string[][]): string[] {
  const out: string[] = [];
  items.forEach((item, i) => {
    if (i > 0) out.push(',');
    out.push(...item);
  });
  return out;
}

function tile(rand: Rand, rank: number): string[] {
  const n = chance(rand, 0.05) ? 0 : int(rand, 1, Math.min(rank + 1, 4)) || 1;
  const entries: string[][] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.84) entries.push([pick(rand, TILE_SIZES)]);
    else if (r < 0.9) entries.push(['*']);
    else if (r < 0.93) entries.push(['0']);
    else if (r < 0.96) entries.push([pick(rand, ['-1', '-128', '-9223372036854775808'])]);
    else entries.push([pick(rand, ['1099511627776', '9223372036854775807', '18446744073709551616'])]);
  }
  return ['(', ...commaList(entries), ')'];
}

function unsignedOrNot(rand: Rand): string {
  return pick(rand, ['u32', 'u16', 'u8', 'u64', 'u4', 's32', 'f32', 'pred']);
}

/** Layout attributes in XLA's order, each present at random; then reordered or repeated now and then. */
function attributes(rand: Rand, rank: number): string[][] {
  const attrs: string[][] = [];
  if (chance(rand, 0.03))
    attrs.push([
      'D',
      '(',
      ...commaList(Array.from({ length: rank }, () => [pick(rand, ['D', 'C', 'S', 'H', 'C+', 'S~', 'X'])])),
      ')',
    ]);
  if (chance(rand, 0.45)) {
    const tiles = ['T'];
    for (let i = int(rand, 1, 3); i > 0; i--) tiles.push(...tile(rand, rank));
    attrs.push(tiles);
  }
  if (chance(rand, 0.08)) attrs.push(['L', '(', pick(rand, ['1', '2', '128', '1024', '0', '-1']), ')']);
  if (chance(rand, 0.03)) attrs.push(['#', '(', unsignedOrNot(rand), ')']);
  if (chance(rand, 0.03)) attrs.push(['*', '(', unsignedOrNot(rand), ')']);
  if (chance(rand, 0.12))
    attrs.push([
      'E',
      '(',
      pick(rand, ['0', '1', '2', '4', '8', '16', '32', '64', '-1', '128', '2147483648']),
      ')',
    ]);
  if (chance(rand, 0.15))
    attrs.push([
      'S',
      '(',
      pick(rand, ['0', '1', '2', '3', '5', '6', '127', '128', '-1', '-128', '-129', '200', '1099511627776']),
      ')',
    ]);
  if (chance(rand, 0.06)) {
    const sc = ['SC'];
    for (let i = int(rand, 1, 2); i > 0; i--) {
      const indices = Array.from({ length: int(rand, 0, 3) }, () => [
        String(pick(rand, [0, 1, 2, 4, 8, 100, 1000, -1])),
      ]);
      sc.push('(', String(int(rand, -1, rank)), ':', ...commaList(indices), ')');
    }
    attrs.push(sc);
  }
  if (chance(rand, 0.02)) attrs.push(['P', '(', pick(rand, ['s32[10]{0}', 'f32[2,3]']), ')']);
  if (chance(rand, 0.06)) attrs.push(['M', '(', pick(rand, ['0', '1', '1024', '-1']), ')']);
  const r = rand();
  if (attrs.length > 1 && r < 0.12) return shuffled(rand, attrs);
  if (attrs.length > 0 && r < 0.15) return [...attrs, attrs[int(rand, 0, attrs.length - 1)]];
  if (r < 0.17)
    return [
      ...attrs,
      pick(rand, [
        ['X', '(', '1', ')'],
        ['t', '(', '2', ')'],
        ['s', '(', '1', ')'],
      ]),
    ];
  return attrs;
}

function layout(rand: Rand, rank: number): string[] {
  const r = rand();
  if (r < 0.05) return ['{', '}'];
  const m2m = commaList(minorToMajor(rand, rank).map((e) => [e]));
  const attrs = attributes(rand, rank);
  if (attrs.length === 0) return ['{', ...m2m, ...(chance(rand, 0.04) ? [':'] : []), '}'];
  return ['{', ...m2m, ':', ...attrs.flat(), '}'];
}

function elementType(rand: Rand): string {
  return chance(rand, 0.08) ? pick(rand, MISTAKEN_TYPES) : pick(rand, PRIMITIVE_TYPE_NAMES);
}

function arrayTokens(rand: Rand, type = elementType(rand)): string[] {
  const tokenLike = type === 'token' || type === 'opaque';
  const rank = tokenLike ? (chance(rand, 0.85) ? 0 : 1) : pick(rand, [0, 1, 1, 2, 2, 2, 3, 3, 4, 5]);
  const dims = Array.from({ length: rank }, () => dimension(rand));
  const tokens = [type, '[', ...commaList(dims), ']'];
  const layoutChance = tokenLike ? 0.1 : rank === 0 ? 0.3 : 0.65;
  if (chance(rand, layoutChance)) tokens.push(...layout(rand, rank));
  return tokens;
}

function shapeTokens(rand: Rand, depth: number): string[] {
  const r = rand();
  if (depth < 3 && r < 0.12) {
    const elements = Array.from({ length: int(rand, 0, 3) }, () => shapeTokens(rand, depth + 1));
    const tokens = ['(', ...commaList(elements), ')'];
    if (chance(rand, 0.04)) tokens.push(',', ')');
    if (chance(rand, 0.04)) tokens.push('{', '0', '}');
    return tokens;
  }
  if (depth < 3 && r < 0.16) {
    const inner = chance(rand, 0.8) ? arrayTokens(rand) : shapeTokens(rand, depth + 1);
    return ['b', '(', ...inner, ...(chance(rand, 0.05) ? [',', 'f32', '[', ']'] : []), ')'];
  }
  return arrayTokens(rand);
}

/** One character changed as people mistype: deleted, doubled, a bracket dropped, a letter's case flipped. */
function typo(rand: Rand, text: string): string {
  if (text.length === 0) return text;
  const brackets = [...text].flatMap((c, i) => ('[]{}()'.includes(c) ? [i] : []));
  const r = rand();
  if (r < 0.4 && brackets.length > 0) {
    const i = pick(rand, brackets);
    return text.slice(0, i) + text.slice(i + 1);
  }
  const i = int(rand, 0, text.length - 1);
  if (r < 0.6) return text.slice(0, i) + text.slice(i + 1);
  if (r < 0.75) return text.slice(0, i) + text[i] + text.slice(i);
  if (r < 0.9) {
    const c = text[i];
    const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    return text.slice(0, i) + flipped + text.slice(i + 1);
  }
  return text.slice(0, i) + pick(rand, [',', ':', '9', '-', ' ', '<', '=']) + text.slice(i);
}

/** One random shape text. */
export function generateShape(rand: Rand): string {
  const text = join(rand, shapeTokens(rand, 0));
  return chance(rand, 0.1) ? typo(rand, text) : text;
}
