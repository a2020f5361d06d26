/**
 * HLO opcodes as the text format spells them, with their operand counts ('variadic' for any
 * number), from XLA's `HLO_OPCODE_LIST` (xla/hlo/ir/hlo_opcode.h, openxla/xla 0725a3a). Used for
 * completion, hovers and the unknown-opcode error (after a missing shape, or one edit from an
 * opcode: other XLA versions have other opcodes, never reported otherwise). XLA also prints an
 * async-wrapped instruction as its opcode with `-start`, `-update` or `-done` (`call-start`,
 * `custom-call-done`); those are not listed here, unless they are opcodes of their own
 * (`copy-start`).
 */
import { editDistance } from '../parse/spelling';

export interface HloOpcodeInfo {
  readonly name: string;
  readonly operands: number | 'variadic';
}

const V = 'variadic';

export const HLO_OPCODES: readonly HloOpcodeInfo[] = (
  [
    ['abs', 1],
    ['acos', 1],
    ['acosh', 1],
    ['add', 2],
    ['add-dependency', 2],
    ['after-all', V],
    ['all-gather', V],
    ['all-gather-done', 1],
    ['all-gather-start', V],
    ['all-reduce', V],
    ['all-reduce-done', 1],
    ['all-reduce-start', V],
    ['all-to-all', V],
    ['and', 2],
    ['asin', 1],
    ['asinh', 1],
    ['async-done', 1],
    ['async-start', V],
    ['async-update', V],
    ['atan', 1],
    ['atan2', 2],
    ['atanh', 1],
    ['batch-norm-grad', 5],
    ['batch-norm-inference', 5],
    ['batch-norm-training', 3],
    ['bitcast', 1],
    ['bitcast-convert', 1],
    ['broadcast', 1],
    ['call', V],
    ['cbrt', 1],
    ['ceil', 1],
    ['cholesky', 1],
    ['clamp', 3],
    ['count-leading-zeros', 1],
    ['collective-broadcast', V],
    ['collective-permute', V],
    ['collective-permute-done', 1],
    ['collective-permute-start', V],
    ['collective-reduce', V],
    ['compare', 2],
    ['complex', 2],
    ['concatenate', V],
    ['conditional', V],
    ['constant', 0],
    ['convert', 1],
    ['convolution', 2],
    ['copy', 1],
    ['copy-done', 1],
    ['copy-start', 1],
    ['cosine', 1],
    ['cosh', 1],
    ['custom-call', V],
    ['divide', 2],
    ['domain', 1],
    ['dot', 2],
    ['dynamic-reshape', V],
    ['dynamic-slice', V],
    ['dynamic-update-slice', V],
    ['erf', 1],
    ['exponential', 1],
    ['exponential-minus-one', 1],
    ['fft', 1],
    ['floor', 1],
    ['fusion', V],
    ['gather', 2],
    ['get-dimension-size', 1],
    ['get-tuple-element', 1],
    ['imag', 1],
    ['infeed', 1],
    ['iota', 0],
    ['is-finite', 1],
    ['log', 1],
    ['log-plus-one', 1],
    ['logistic', 1],
    ['map', V],
    ['maximum', 2],
    ['minimum', 2],
    ['mulhi', 2],
    ['multiply', 2],
    ['negate', 1],
    ['not', 1],
    ['opt-barrier', 1],
    ['or', 2],
    ['outfeed', 2],
    ['pad', 2],
    ['parameter', 0],
    ['partition-id', 0],
    ['popcnt', 1],
    ['power', 2],
    ['ragged-all-to-all', 6],
    ['ragged-dot', 3],
    ['real', 1],
    ['recv', 1],
    ['recv-done', 1],
    ['reduce', V],
    ['reduce-precision', 1],
    ['reduce-scatter', V],
    ['reduce-window', V],
    ['remainder', 2],
    ['replica-id', 0],
    ['reshape', 1],
    ['reverse', 1],
    ['rng', V],
    ['rng-bit-generator', 1],
    ['rng-get-and-update-state', 0],
    ['round-nearest-afz', 1],
    ['round-nearest-even', 1],
    ['rsqrt', 1],
    ['scaled-dot', 4],
    ['scan', V],
    ['scatter', V],
    ['select', 3],
    ['select-and-scatter', 3],
    ['send', 2],
    ['send-done', 1],
    ['set-dimension-size', 2],
    ['shift-left', 2],
    ['shift-right-arithmetic', 2],
    ['shift-right-logical', 2],
    ['shuffle', 1],
    ['sign', 1],
    ['sine', 1],
    ['sinh', 1],
    ['slice', 1],
    ['sort', V],
    ['sqrt', 1],
    ['stochastic-convert', 2],
    ['subtract', 2],
    ['tan', 1],
    ['tanh', 1],
    ['topk', 1],
    ['transpose', 1],
    ['triangular-solve', 2],
    ['tuple', V],
    ['while', 1],
    ['xor', 2],
  ] as const
).map(([name, operands]) => ({ name, operands }));

const BY_NAME = new Map(HLO_OPCODES.map((o) => [o.name, o]));

/** XLA's opcode spelled `name`, if there is one. */
export function hloOpcode(name: string): HloOpcodeInfo | undefined {
  return BY_NAME.get(name);
}

/** Opcodes whose parentheses hold literals, not operand names. */
export const LITERAL_OPCODES: ReadonlySet<string> = new Set(['constant', 'parameter', 'iota']);

/** Whether `name` is an opcode or an asynchronous form of one (`call-start`): what the parser reads without a word. */
export function isOpcode(name: string): boolean {
  return hloOpcode(name) !== undefined || asyncFormOf(name) !== undefined;
}

/** Opcode names per `length * 128 + first char code` (names are ASCII), for {@link isOpcodeAt}. */
const OPCODE_BUCKETS: string[][] = [];
for (const { name } of HLO_OPCODES)
  (OPCODE_BUCKETS[name.length * 128 + name.charCodeAt(0)] ??= []).push(name);

/**
 * The opcode `text[start, end)` when it is one (an asynchronous form too, `call-start`), compared in
 * place: the checks ask it of every instruction of a dump, and slicing and hashing each opcode cost
 * them 2%. A listed opcode comes back as the table's own string, which maps look up fast.
 */
export function opcodeAt(text: string, start: number, end: number): string | undefined {
  const first = text.charCodeAt(start);
  const bucket = first < 128 ? OPCODE_BUCKETS[(end - start) * 128 + first] : undefined;
  if (bucket !== undefined)
    outer: for (const name of bucket) {
      for (let k = 1; k < name.length; k++)
        if (name.charCodeAt(k) !== text.charCodeAt(start + k)) continue outer;
      return name;
    }
  const name = text.slice(start, end);
  return isOpcode(name) ? name : undefined;
}

/** Whether `text[start, end)` is one of {@link LITERAL_OPCODES}, compared in place. */
export function literalOpcodeAt(text: string, start: number, end: number): boolean {
  for (const name of LITERAL_OPCODES)
    if (end - start === name.length && text.startsWith(name, start)) return true;
  return false;
}

/**
 * The opcodes one edit away from `name` (no opcode itself): what a typo most likely meant
 * (`parmeter` → `parameter`). Empty for short words, where one edit reaches too many.
 */
export function opcodeGuesses(name: string): string[] {
  if (name.length < 4) return [];
  return HLO_OPCODES.filter((o) => editDistance(name, o.name, 1) <= 1).map((o) => o.name);
}

/**
 * For `<op>-start`, `<op>-update` or `<op>-done` where `<op>` is an XLA opcode and the whole name
 * is not one (`call-start`, not `copy-start`): the wrapped opcode and the step. XLA's parser reads
 * these as `async-start`, `async-update` or `async-done` wrapping `<op>`.
 */
export function asyncFormOf(
  name: string,
): { readonly wrapped: HloOpcodeInfo; readonly step: 'start' | 'update' | 'done' } | undefined {
  if (hloOpcode(name) !== undefined) return undefined;
  const m = /^(.*)-(start|update|done)$/.exec(name);
  const wrapped = m ? hloOpcode(m[1] ?? '') : undefined;
  return m && wrapped ? { wrapped, step: m[2] as 'start' | 'update' | 'done' } : undefined;
}
