/**
 * How many operands XLA's HLO parser lets each opcode take, and what it does with a wrong count,
 * as jaxlib 0.10.2 does it (test/xla/operand-counts.test.ts puts every rule to it). Most opcodes
 * take a fixed count (their arity in opcodes.ts), which the parser checks at the operands' `(`
 * before it reads the attributes: `expects 2 operands, but has 3 operands`. The others have rules
 * of their own, checked after the attributes (XLA then points at the token after the statement),
 * and some wrong counts make XLA crash instead of reporting them (a segmentation fault or a CHECK
 * failure, in the parser or on import). Opcodes this XLA does not know get no rule.
 */
import type { ShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { printShape } from '../print';
import { skipTrivia, skipValue } from './lex';
import { asyncFormOf, hloOpcode } from './opcodes';
import type { HloAttribute, InstructionStatement } from './types';

/** A wrong operand count, as XLA's parser (or its crash) answers it. */
export interface OperandCountProblem {
  /** XLA's own text; for a crash without one, a sentence saying so. */
  readonly xla: string;
  /** Plain words: what the opcode takes and what this instruction has; absent when {@link xla} is one. */
  readonly plain?: string;
  /** Whether XLA aborts (or crashes on import) instead of reporting it. */
  readonly crash: boolean;
  /** Whether XLA reads the `, key=value` list first, so that an error there comes first. */
  readonly afterAttributes: boolean;
}

/** What else of the statement a rule looks at. */
export interface CountFacts {
  /** The result shape, when written and read cleanly. */
  readonly result?: ShapeNode;
  /** Whether the attribute `key=` is given. */
  readonly hasAttribute: (key: string) => boolean;
}

const WORDS = ['none', 'one', 'two', 'three', 'four', 'five', 'six'];

function operands(n: number): string {
  return `${n} operand${n === 1 ? '' : 's'}`;
}

/** `this one has 3` (`none` for 0). */
function has(count: number): string {
  return `this one has ${count === 0 ? 'none' : count}`;
}

function parser(xla: string, plain: string, afterAttributes: boolean): OperandCountProblem {
  return { xla, plain, crash: false, afterAttributes };
}

function crash(xla: string, plain: string | undefined, afterAttributes: boolean): OperandCountProblem {
  return plain === undefined
    ? { xla, crash: true, afterAttributes }
    : { xla, plain, crash: true, afterAttributes };
}

/** A crash without a message: the plain sentence is all there is. */
function segfault(words: string, afterAttributes: boolean, onImport = false): OperandCountProblem {
  return crash(
    `${words}: XLA crashes on it${onImport ? ' when importing the module' : ''} (a segmentation fault or memory error) instead of reporting it`,
    undefined,
    afterAttributes,
  );
}

/** XLA's fixed-count error, which it reports at the `(`. */
function exactly(
  opcode: string,
  expected: number,
  count: number,
  afterAttributes = false,
): OperandCountProblem {
  return parser(
    `expects ${expected} operands, but has ${count} operands`,
    `\`${opcode}\` takes ${expected === 0 ? 'no operands' : operands(expected)}; ${has(count)}`,
    afterAttributes,
  );
}

const SINGLE_ASYNC = 'AsyncUpdate and AsyncDone expect a single async op as their operand.';

/** Opcodes of the list that jaxlib 0.10.2 does not know: another XLA's rules may differ. */
const UNKNOWN_TO_XLA: ReadonlySet<string> = new Set(['atan', 'collective-reduce', 'shuffle']);

/**
 * Opcodes whose count XLA's parser does not check or checks otherwise than by their arity in
 * opcodes.ts (`dot` crashes with fewer than two and takes more, `ragged-all-to-all` is counted only
 * on import), and the literal opcodes, whose parentheses hold no operands.
 */
const OWN_RULE: ReadonlySet<string> = new Set([
  'dot',
  'ragged-all-to-all',
  'ragged-dot',
  'scaled-dot',
  'rng-bit-generator',
  'async-done',
  'constant',
  'parameter',
]);

/** The fixed count XLA's parser checks at the `(` before the attributes, if `opcode` has one. */
function fixedCount(opcode: string): number | undefined {
  if (OWN_RULE.has(opcode) || UNKNOWN_TO_XLA.has(opcode)) return undefined;
  const arity = hloOpcode(opcode)?.operands;
  return typeof arity === 'number' ? arity : undefined;
}

/**
 * Whether `count` operands may be wrong for `opcode` by the count alone (true also when the rule
 * needs more of the statement): what the checks that skip the statement parser ask of every
 * instruction before they skip it. A table lookup and a comparison or two; `tuple` is left to
 * the caller, which counts the result's elements in place.
 */
export function countMayBeWrong(opcode: string, count: number): boolean {
  const fixed = fixedCount(opcode);
  if (fixed !== undefined) return count !== fixed;
  switch (opcode) {
    case 'reduce':
      return count === 0 || count % 2 === 1;
    case 'reduce-window':
      return count % 2 === 1;
    case 'scatter':
      return count % 2 === 0;
    case 'ragged-dot':
      return count !== 3;
    case 'scaled-dot':
      return count !== 4;
    case 'async-done':
    case 'async-update':
      return count !== 1;
    case 'dot':
    case 'rng':
    case 'dynamic-update-slice':
      return count < 2;
    case 'dynamic-slice':
    case 'conditional':
    case 'rng-bit-generator':
      return count < 1;
    case 'collective-permute':
    case 'collective-permute-start':
      return count !== 4;
    case 'dynamic-reshape':
    case 'tuple':
      return true;
  }
  const async = asyncFormOf(opcode);
  if (async === undefined) return false;
  if (async.step !== 'start') return count !== 1;
  const wrapped = async.wrapped.name;
  if (NO_START_RULE.has(wrapped)) return false;
  const least = fixedCount(wrapped);
  return least !== undefined ? count < least : wrappedRule(wrapped) && countMayBeWrong(wrapped, count);
}

/**
 * Wrapped opcodes whose `-start` XLA refuses before counting: `send-start` and `recv-start` are no
 * opcodes to jaxlib 0.10.2, and an `infeed-start` has its shape checked first.
 */
const NO_START_RULE: ReadonlySet<string> = new Set(['send', 'recv', 'infeed']);

/**
 * Whether `<wrapped>-start` is held to the rule of `wrapped` (the rules below that look at no more
 * than the attributes): XLA's parser builds the wrapped instruction from the operands as it builds
 * `wrapped`, after reading the attributes. Not `tuple`'s, whose result differs.
 */
function wrappedRule(wrapped: string): boolean {
  return wrapped !== 'tuple';
}

/**
 * The problem with an instruction of `opcode` that has `count` operands, or undefined when XLA's
 * parser takes the count (or this XLA does not know the opcode). `facts` tells what else the rule
 * of `tuple`, `dynamic-reshape` and `collective-permute` looks at.
 */
export function operandCountProblem(
  opcode: string,
  count: number,
  facts: CountFacts,
): OperandCountProblem | undefined {
  if (!countMayBeWrong(opcode, count)) return undefined;
  const fixed = fixedCount(opcode);
  if (fixed !== undefined) return exactly(opcode, fixed, count);
  switch (opcode) {
    case 'tuple':
      return tupleProblem(count, facts.result);
    case 'ragged-dot':
      return exactly(opcode, 3, count, true);
    case 'scaled-dot':
      return exactly(opcode, 4, count, true);
    case 'reduce':
    case 'reduce-window':
      if (count === 0)
        return segfault(
          '`reduce` takes its arrays, then as many initial values; this one has none',
          true,
          true,
        );
      return parser(
        `expects an even number of operands, but has ${count} operands`,
        `\`${opcode}\` takes its arrays, then one initial value per array: an even number of operands; ${has(count)}`,
        true,
      );
    case 'scatter':
      return parser(
        `expects an odd number of operands, but has ${count} operands`,
        `\`scatter\` takes N arrays, one array of indices, then N arrays of updates: an odd number of operands; ${has(count)}`,
        true,
      );
    case 'dynamic-slice':
      return parser(
        'Expected at least one operand.',
        '`dynamic-slice` takes the array to slice, then its start indices; this one has none',
        true,
      );
    case 'dynamic-update-slice':
      return parser(
        'Expected at least two operands.',
        `\`dynamic-update-slice\` takes the array, the update, then the start indices; ${has(count)}`,
        true,
      );
    case 'dynamic-reshape':
      return dynamicReshapeProblem(count, facts.result);
    case 'collective-permute':
    case 'collective-permute-start':
      if (!facts.hasAttribute('slice_sizes')) return undefined;
      return parser(
        'CollectivePermute and CollectivePermuteStart must have exactly four operands for dynamic-slice and in-place update.',
        `with \`slice_sizes=\`, a \`${opcode}\` takes four operands (input, output, input offsets, output offsets); ${has(count)}`,
        true,
      );
    case 'conditional':
      return segfault(
        'a `conditional` takes the branch index, then one operand per branch; this one has none',
        false,
      );
    case 'dot':
      return segfault(`\`dot\` multiplies two operands; ${has(count)}`, true);
    case 'rng':
      return segfault(
        `\`rng\` takes two operands (the bounds of rng_uniform, the mean and deviation of rng_normal); ${has(count)}`,
        true,
        true,
      );
    case 'rng-bit-generator':
      return segfault("`rng-bit-generator` takes the generator's state; this one has none", true);
  }
  const async = asyncFormOf(opcode);
  if (async?.step === 'start') return asyncStartProblem(opcode, async.wrapped.name, count, facts);
  const step = opcode === 'async-update' ? 'update' : (async?.step ?? 'done');
  return parser(
    SINGLE_ASYNC,
    `\`${opcode}\` takes one operand, the async op it ${step === 'done' ? 'finishes' : 'continues'}; ${has(count)}`,
    false,
  );
}

/**
 * `opcode`, `<wrapped>-start`, with `count` operands, which {@link countMayBeWrong} finds may be
 * wrong. XLA's parser does not count the operands of a wrapped opcode with a fixed count: it builds
 * the instruction from those there are, and crashes when there are fewer (a segmentation fault).
 * The other opcodes' rules hold as they do without `-start` (the result shape aside), all checked
 * after the attributes.
 */
function asyncStartProblem(
  opcode: string,
  wrapped: string,
  count: number,
  facts: CountFacts,
): OperandCountProblem | undefined {
  const fixed = fixedCount(wrapped);
  if (fixed === undefined) {
    const p = operandCountProblem(wrapped, count, { hasAttribute: facts.hasAttribute });
    return p && { ...p, afterAttributes: true };
  }
  // Depending on the module, a segmentation fault or an internal check failing on the missing operand.
  return crash(
    `\`${opcode}\` runs \`${wrapped}\` asynchronously, which takes ${operands(fixed)}; ${has(count)}: XLA crashes on it (a segmentation fault, or an internal check that fails) instead of reporting it`,
    undefined,
    true,
  );
}

/** A `tuple` takes one operand per element of its result; a result that is no tuple makes XLA abort. */
function tupleProblem(count: number, result: ShapeNode | undefined): OperandCountProblem | undefined {
  if (result === undefined) return undefined;
  if (result.kind !== 'tuple') {
    const shape = printShape(result, { layout: false });
    return crash(
      `Check failed: state Expected a tuple shape. Got ${shape}`,
      `a \`tuple\`'s result shape is a tuple, \`(...)\`, with one element per operand, and \`${shape}\` is none: XLA aborts on it`,
      false,
    );
  }
  const n = result.elements.length;
  if (n === count) return undefined;
  return parser(
    `expects ${n} operands, but has ${count} operands`,
    `this \`tuple\`'s shape holds ${WORDS[n] ?? n} element${n === 1 ? '' : 's'}, so it takes ${operands(n)}; ${has(count)}`,
    false,
  );
}

/** `dynamic-reshape` takes the array, then one size per dimension of its result. */
function dynamicReshapeProblem(
  count: number,
  result: ShapeNode | undefined,
): OperandCountProblem | undefined {
  if (count === 0)
    return parser(
      'DynamicReshape requires at least one operand.',
      '`dynamic-reshape` takes the array, then one size per dimension of its result; this one has none',
      true,
    );
  if (result?.kind !== 'array' || result.dims.length === count - 1) return undefined;
  const rank = result.dims.length;
  return crash(
    `Check failed: shape.dimensions().size() == dim_sizes.size() (${rank} vs. ${count - 1})`,
    `a \`dynamic-reshape\` to a result of rank ${rank} takes the array, then ${rank} size${rank === 1 ? '' : 's'}: ${operands(rank + 1)}; ${has(count)}: XLA aborts on it`,
    true,
  );
}

/**
 * How many operands the list between `(` at `open` and `)` at `close` holds, each a top-level
 * comma-separated part; undefined when a part is empty (`add(%a,)`, which XLA refuses on its own).
 * `starts`, when given, gets where each part starts.
 */
export function operandCount(
  text: string,
  open: number,
  close: number,
  starts?: number[],
): number | undefined {
  let p = skipTrivia(text, open + 1, close);
  if (p >= close) return 0;
  let count = 0;
  for (;;) {
    const q = skipValue(text, p, close);
    if (q === p) return undefined;
    starts?.push(p);
    count++;
    p = skipTrivia(text, q, close);
    if (p >= close) return count;
    if (text.charCodeAt(p) !== 44) return undefined;
    p = skipTrivia(text, p + 1, close);
    if (p >= close) return undefined;
  }
}

/**
 * The diagnostic on the operand list `range` (its `(` to its `)`) of an instruction of `opcode`
 * with `count` operands, its result shape `result` and its `attributes`, when the count is wrong;
 * and whether XLA checks it after the attributes. The list is where XLA points for a fixed count
 * (at its `(`); for the other rules XLA points at the token after the statement, or nowhere.
 */
export function operandCountDiagnostic(
  opcode: string,
  count: number,
  range: TextRange,
  result: ShapeNode | undefined,
  attributes: readonly HloAttribute[],
): { readonly diagnostic: LayoutDiagnostic; readonly afterAttributes: boolean } | undefined {
  const problem = operandCountProblem(opcode, count, {
    ...(result ? { result } : {}),
    hasAttribute: (key) => attributes.some((a) => a.key.name === key),
  });
  if (!problem) return undefined;
  return {
    diagnostic: diagnostic(
      problem.crash ? 'operand-count-crash' : 'operand-count',
      problem.xla,
      range,
      problem.plain,
    ),
    afterAttributes: problem.afterAttributes,
  };
}

/**
 * How many elements the tuple shape at `at` holds, read in place (a `/*index=5*\/` comment aside),
 * or -1 when no tuple starts there or it does not close before `end`: the checks that skip the
 * statement parser compare it with a `tuple`'s operands.
 */
export function tupleElementsAt(text: string, at: number, end: number): number {
  if (at >= end || text.charCodeAt(at) !== 40) return -1;
  let depth = 0;
  let commas = 0;
  let empty = true;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0 || close >= end) return -1;
      i = close + 1;
      continue;
    }
    if (c === 41 || c === 93 || c === 125) {
      if (--depth === 0) return empty ? 0 : commas + 1;
      continue;
    }
    if (depth >= 1 && c !== 32 && c !== 9) empty = false;
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 44 && depth === 1) commas++;
  }
  return -1;
}

/**
 * Whether `count` operands are right for the plain instruction of `opcode` whose result shape
 * starts at `result`, by the count alone: what the checks that skip the statement parser ask
 * before they skip it (the parser reports the rest).
 */
export function countFits(text: string, opcode: string, count: number, result: number, end: number): boolean {
  if (!countMayBeWrong(opcode, count)) return true;
  return opcode === 'tuple' && tupleElementsAt(text, result, end) === count;
}

/**
 * Whether XLA checks the operand count whose diagnostic covers `range` in `ins` (an instruction of
 * `text`) after the attributes. One of an instruction written in place of an operand, whose range
 * starts at its shape or opcode, is checked at its `)`; `operand_layout_constraints={...}` after.
 */
export function countAfterAttributes(text: string, ins: InstructionStatement, range: TextRange): boolean {
  // A custom-call's `operand_layout_constraints={...}` are counted after the attributes too.
  if (text.charCodeAt(range.start) === 123) return true;
  if (text.charCodeAt(range.start) !== 40) return false;
  const count = operandCount(text, range.start, range.end - 1);
  if (count === undefined) return false;
  // The other rule with its diagnostic on the list, start-indices.ts's, comes after the attributes.
  return (
    operandCountDiagnostic(ins.opcode?.name ?? '', count, range, ins.shape, ins.attributes)
      ?.afterAttributes ?? true
  );
}

/**
 * XLA's error on a `custom-call` with `count` operands whose `operand_layout_constraints={...}`
 * (among `attributes`) lists another number of shapes, which it checks after the attributes; on
 * the attribute's value.
 */
export function layoutConstraintsDiagnostic(
  text: string,
  opcode: string,
  count: number,
  attributes: readonly HloAttribute[],
): LayoutDiagnostic | undefined {
  if (opcode !== 'custom-call') return undefined;
  // XLA refuses this API version first (which this check does not report).
  const api = attributes.find((a) => a.key.name === 'api_version')?.valueRange;
  if (api && text.slice(api.start, api.end) === 'API_VERSION_UNSPECIFIED') return undefined;
  const value = attributes.find((a) => a.key.name === 'operand_layout_constraints')?.valueRange;
  if (!value || text.charCodeAt(value.start) !== 123 || text.charCodeAt(value.end - 1) !== 125)
    return undefined;
  const given = operandCount(text, value.start, value.end - 1);
  if (given === undefined || given === count) return undefined;
  return diagnostic(
    'operand-count',
    `Expected ${count} operand layout constraints, ${given} given`,
    value,
    `\`operand_layout_constraints=\` holds one shape per operand, and this \`custom-call\` has ${count === 0 ? 'no operands' : operands(count)}; it lists ${given === 0 ? 'none' : given}`,
  );
}
