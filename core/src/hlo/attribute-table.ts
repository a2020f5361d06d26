/**
 * The `key=value` attributes XLA's HLO parser accepts on each opcode, on every instruction, and in
 * the `HloModule` line, from `HloParserImpl::ParseInstructionRhs`, `CreateInstruction` and
 * `ParseHloModule` in xla/hlo/parser/hlo_parser.cc, checked against jaxlib 0.10.2: its error on an
 * unknown attribute lists every attribute the opcode takes, and its error on a bare instruction
 * names a required one (test/xla/attribute-list.test.ts compares each opcode's list). `cholesky`
 * and `triangular-solve` take the fields of their options protos (xla_data.proto). Used for
 * completion, hovers and the attribute-list diagnostic ({@link attributeRules}). Value kinds are
 * the parser's `AttrTy` names without their `k`.
 */

import { asyncFormOf, isOpcode } from './opcodes';
import type { HloStatement } from './types';

/** Where the table comes from, for messages that rest on it. */
export const ATTRIBUTE_TABLE_SOURCE = 'jaxlib 0.10.2';

/** What an attribute's value is (the parser's `AttrTy`, without its `k`). */
export type AttributeValueKind =
  | 'Aliasing'
  | 'Bool'
  | 'BracedBoolListOrBool'
  | 'BracedHloComputationList'
  | 'BracedInt64List'
  | 'BracedInt64ListList'
  | 'CollectiveDeviceListBase'
  | 'ComparisonDirection'
  | 'BufferDonor'
  | 'ComparisonType'
  | 'ComputationLayout'
  | 'ConvKind'
  | 'ConvolutionDimensionNumbers'
  | 'CustomCallApiVersion'
  | 'CustomCallSchedule'
  | 'Distribution'
  | 'Domain'
  | 'Enum'
  | 'FftType'
  | 'Float'
  | 'FrontendAttributes'
  | 'FusionKind'
  | 'HloComputation'
  | 'InstructionAliasing'
  | 'InstructionList'
  | 'Int32'
  | 'Int64'
  | 'Literal'
  | 'Metadata'
  | 'Mode'
  | 'OriginalValue'
  | 'PaddingConfig'
  | 'PaddingType'
  | 'ParameterReplication'
  | 'PrecisionAlgorithm'
  | 'PrecisionList'
  | 'RandomAlgorithm'
  | 'ResultAccuracy'
  | 'OriginalValueRecoveryTable'
  | 'Shape'
  | 'ShapeList'
  | 'Sharding'
  | 'SliceRanges'
  | 'SparsityConfig'
  | 'StatisticsViz'
  | 'String'
  | 'StringOrJsonDict'
  | 'Window';

export interface HloAttributeInfo {
  readonly name: string;
  readonly value: AttributeValueKind;
  /** Whether XLA's parser rejects the instruction without it. */
  readonly required: boolean;
}

type Row = readonly [name: string, value: AttributeValueKind, required?: true];
const R = true;

/** Accepted on every instruction. */
const COMMON: readonly Row[] = [
  ['sharding', 'Sharding'],
  ['frontend_attributes', 'FrontendAttributes'],
  ['statistics', 'StatisticsViz'],
  ['parameter_replication', 'ParameterReplication'],
  ['control-predecessors', 'InstructionList'],
  ['origin', 'OriginalValue'],
  ['metadata', 'Metadata'],
  ['backend_config', 'StringOrJsonDict'],
];

/** The names of the attributes every instruction takes. */
export const COMMON_ATTRIBUTE_NAMES: ReadonlySet<string> = new Set(COMMON.map(([name]) => name));

/**
 * Each opcode's own attributes. The required ones are required as the parser writes them; some
 * only in one form, by the first operand's shape (`broadcast`'s `dimensions` not for a scalar
 * operand; a `conditional` takes `true_computation` and `false_computation` or
 * `branch_computations`), marked optional here: {@link BROADCAST_RULES}, {@link conditionalRules}.
 */
const OWN: Readonly<Record<string, readonly Row[]>> = {
  acos: [['result_accuracy', 'ResultAccuracy']],
  acosh: [['result_accuracy', 'ResultAccuracy']],
  'all-gather': [
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
    ['dimensions', 'BracedInt64List', R],
    ['constrain_layout', 'Bool'],
    ['use_global_device_ids', 'Bool'],
  ],
  'all-gather-start': [
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
    ['dimensions', 'BracedInt64List', R],
    ['constrain_layout', 'Bool'],
    ['use_global_device_ids', 'Bool'],
  ],
  'all-reduce': [
    ['to_apply', 'HloComputation', R],
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
    ['constrain_layout', 'Bool'],
    ['use_global_device_ids', 'Bool'],
    ['mode', 'Mode'],
  ],
  'all-reduce-start': [
    ['to_apply', 'HloComputation', R],
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
    ['constrain_layout', 'Bool'],
    ['use_global_device_ids', 'Bool'],
    ['mode', 'Mode'],
  ],
  'all-to-all': [
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
    ['dimensions', 'BracedInt64List'],
    ['constrain_layout', 'Bool'],
  ],
  asin: [['result_accuracy', 'ResultAccuracy']],
  asinh: [['result_accuracy', 'ResultAccuracy']],
  'async-done': [
    ['async_execution_thread', 'String'],
    ['calls', 'HloComputation'],
  ],
  'async-start': [
    ['async_execution_thread', 'String'],
    ['output_to_operand_aliasing', 'InstructionAliasing'],
    ['calls', 'HloComputation', R],
  ],
  'async-update': [
    ['async_execution_thread', 'String'],
    ['calls', 'HloComputation'],
  ],
  atanh: [['result_accuracy', 'ResultAccuracy']],
  'batch-norm-grad': [
    ['epsilon', 'Float', R],
    ['feature_index', 'Int64', R],
  ],
  'batch-norm-inference': [
    ['epsilon', 'Float', R],
    ['feature_index', 'Int64', R],
  ],
  'batch-norm-training': [
    ['epsilon', 'Float', R],
    ['feature_index', 'Int64', R],
  ],
  broadcast: [['dimensions', 'BracedInt64List', R]],
  call: [
    ['to_apply', 'HloComputation', R],
    ['is_composite', 'Bool'],
  ],
  cbrt: [['result_accuracy', 'ResultAccuracy']],
  cholesky: [['lower', 'Bool']],
  'collective-broadcast': [
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
  ],
  'collective-permute': [
    ['source_target_pairs', 'BracedInt64ListList', R],
    ['channel_id', 'Int64'],
    ['slice_sizes', 'BracedInt64ListList'],
  ],
  'collective-permute-start': [
    ['source_target_pairs', 'BracedInt64ListList', R],
    ['channel_id', 'Int64'],
    ['slice_sizes', 'BracedInt64ListList'],
  ],
  compare: [
    ['direction', 'ComparisonDirection', R],
    ['type', 'ComparisonType'],
  ],
  concatenate: [['dimensions', 'BracedInt64List', R]],
  conditional: [
    ['true_computation', 'HloComputation'],
    ['false_computation', 'HloComputation'],
    ['branch_computations', 'BracedHloComputationList'],
  ],
  convolution: [
    ['window', 'Window'],
    ['dim_labels', 'ConvolutionDimensionNumbers', R],
    ['feature_group_count', 'Int64'],
    ['batch_group_count', 'Int64'],
    ['convolution_kind', 'ConvKind'],
    ['operand_precision', 'PrecisionList'],
    ['sparsity_config', 'SparsityConfig'],
  ],
  'copy-start': [['cross_program_prefetch_index', 'Int32']],
  cosine: [['result_accuracy', 'ResultAccuracy']],
  cosh: [['result_accuracy', 'ResultAccuracy']],
  'custom-call': [
    ['custom_call_target', 'String', R],
    ['window', 'Window'],
    ['dim_labels', 'ConvolutionDimensionNumbers'],
    ['feature_group_count', 'Int64'],
    ['batch_group_count', 'Int64'],
    ['operand_layout_constraints', 'ShapeList'],
    ['custom_call_has_side_effect', 'Bool'],
    ['to_apply', 'HloComputation'],
    ['called_computations', 'BracedHloComputationList'],
    ['output_to_operand_aliasing', 'InstructionAliasing'],
    ['padding_type', 'PaddingType'],
    ['literal', 'Literal'],
    ['operand_precision', 'PrecisionList'],
    ['schedule', 'CustomCallSchedule'],
    ['api_version', 'CustomCallApiVersion'],
  ],
  domain: [['domain', 'Domain', R]],
  dot: [
    ['lhs_contracting_dims', 'BracedInt64List'],
    ['rhs_contracting_dims', 'BracedInt64List'],
    ['lhs_batch_dims', 'BracedInt64List'],
    ['rhs_batch_dims', 'BracedInt64List'],
    ['operand_precision', 'PrecisionList'],
    ['algorithm', 'PrecisionAlgorithm'],
  ],
  'dynamic-slice': [['dynamic_slice_sizes', 'BracedInt64List', R]],
  erf: [['result_accuracy', 'ResultAccuracy']],
  exponential: [['result_accuracy', 'ResultAccuracy']],
  'exponential-minus-one': [['result_accuracy', 'ResultAccuracy']],
  fft: [
    ['fft_type', 'FftType', R],
    ['fft_length', 'BracedInt64List', R],
  ],
  fusion: [
    ['calls', 'HloComputation', R],
    ['kind', 'FusionKind', R],
    ['output_to_operand_aliasing', 'InstructionAliasing'],
  ],
  gather: [
    ['offset_dims', 'BracedInt64List', R],
    ['collapsed_slice_dims', 'BracedInt64List', R],
    ['start_index_map', 'BracedInt64List', R],
    ['index_vector_dim', 'Int64', R],
    ['slice_sizes', 'BracedInt64List', R],
    ['indices_are_sorted', 'Bool'],
    ['operand_batching_dims', 'BracedInt64List'],
    ['start_indices_batching_dims', 'BracedInt64List'],
  ],
  'get-dimension-size': [['dimensions', 'BracedInt64List', R]],
  'get-tuple-element': [['index', 'Int64', R]],
  infeed: [['infeed_config', 'String']],
  iota: [['iota_dimension', 'Int64', R]],
  log: [['result_accuracy', 'ResultAccuracy']],
  'log-plus-one': [['result_accuracy', 'ResultAccuracy']],
  logistic: [['result_accuracy', 'ResultAccuracy']],
  map: [
    ['to_apply', 'HloComputation', R],
    ['dimensions', 'BracedInt64List'],
  ],
  outfeed: [
    ['outfeed_config', 'String'],
    ['outfeed_shape', 'Shape'],
  ],
  pad: [['padding', 'PaddingConfig', R]],
  'ragged-all-to-all': [
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
    ['dimensions', 'BracedInt64List'],
  ],
  'ragged-dot': [
    ['lhs_contracting_dims', 'BracedInt64List'],
    ['rhs_contracting_dims', 'BracedInt64List'],
    ['lhs_batch_dims', 'BracedInt64List'],
    ['rhs_batch_dims', 'BracedInt64List'],
    ['lhs_ragged_dims', 'BracedInt64List'],
    ['rhs_group_dims', 'BracedInt64List'],
    ['operand_precision', 'PrecisionList'],
  ],
  recv: [
    ['channel_id', 'Int64'],
    ['is_host_transfer', 'Bool'],
  ],
  'recv-done': [
    ['channel_id', 'Int64'],
    ['is_host_transfer', 'Bool'],
  ],
  reduce: [
    ['to_apply', 'HloComputation', R],
    ['dimensions', 'BracedInt64List', R],
  ],
  'reduce-precision': [
    ['exponent_bits', 'Int64', R],
    ['mantissa_bits', 'Int64', R],
  ],
  'reduce-scatter': [
    ['to_apply', 'HloComputation', R],
    ['replica_groups', 'CollectiveDeviceListBase'],
    ['channel_id', 'Int64'],
    ['constrain_layout', 'Bool'],
    ['use_global_device_ids', 'Bool'],
    ['mode', 'Mode'],
    ['dimensions', 'BracedInt64List', R],
  ],
  'reduce-window': [
    ['window', 'Window'],
    ['to_apply', 'HloComputation', R],
  ],
  reshape: [['inferred_dimension', 'Int64']],
  reverse: [['dimensions', 'BracedInt64List', R]],
  rng: [['distribution', 'Distribution', R]],
  'rng-bit-generator': [['algorithm', 'RandomAlgorithm', R]],
  'rng-get-and-update-state': [['delta', 'Int64', R]],
  rsqrt: [['result_accuracy', 'ResultAccuracy']],
  'scaled-dot': [
    ['lhs_contracting_dims', 'BracedInt64List'],
    ['rhs_contracting_dims', 'BracedInt64List'],
    ['lhs_batch_dims', 'BracedInt64List'],
    ['rhs_batch_dims', 'BracedInt64List'],
    ['operand_precision', 'PrecisionList'],
    ['algorithm', 'PrecisionAlgorithm'],
  ],
  scan: [
    ['to_apply', 'HloComputation', R],
    ['dimensions', 'BracedInt64List', R],
    ['num_carries', 'Int64', R],
    ['is_reverse', 'Bool'],
    ['is_associative', 'Bool'],
  ],
  scatter: [
    ['update_window_dims', 'BracedInt64List', R],
    ['inserted_window_dims', 'BracedInt64List', R],
    ['scatter_dims_to_operand_dims', 'BracedInt64List', R],
    ['index_vector_dim', 'Int64', R],
    ['to_apply', 'HloComputation', R],
    ['indices_are_sorted', 'Bool'],
    ['unique_indices', 'Bool'],
    ['input_batching_dims', 'BracedInt64List'],
    ['scatter_indices_batching_dims', 'BracedInt64List'],
  ],
  'select-and-scatter': [
    ['select', 'HloComputation', R],
    ['scatter', 'HloComputation', R],
    ['window', 'Window'],
  ],
  send: [
    ['channel_id', 'Int64'],
    ['is_host_transfer', 'Bool'],
  ],
  'send-done': [
    ['channel_id', 'Int64'],
    ['is_host_transfer', 'Bool'],
  ],
  'set-dimension-size': [['dimensions', 'BracedInt64List', R]],
  sine: [['result_accuracy', 'ResultAccuracy']],
  sinh: [['result_accuracy', 'ResultAccuracy']],
  slice: [['slice', 'SliceRanges', R]],
  sort: [
    ['dimensions', 'BracedInt64List', R],
    ['is_stable', 'Bool'],
    ['to_apply', 'HloComputation', R],
  ],
  sqrt: [['result_accuracy', 'ResultAccuracy']],
  tan: [['result_accuracy', 'ResultAccuracy']],
  tanh: [['result_accuracy', 'ResultAccuracy']],
  topk: [
    ['k', 'Int64', R],
    ['largest', 'Bool'],
  ],
  transpose: [['dimensions', 'BracedInt64List', R]],
  'triangular-solve': [
    ['left_side', 'Bool'],
    ['lower', 'Bool'],
    ['unit_diagonal', 'Bool'],
    ['transpose_a', 'Enum'],
  ],
  while: [
    ['condition', 'HloComputation', R],
    ['body', 'HloComputation', R],
  ],
};

/** How each kind of value is written, for completion details (XLA's printer's forms). */
export const ATTRIBUTE_VALUE_FORMS: Readonly<Record<AttributeValueKind, string>> = {
  Aliasing: '{ {0}: (0, {}, may-alias) }: output index to parameter and index',
  Bool: 'true or false',
  BracedBoolListOrBool: 'true, false or {true, false}: per parameter or output',
  BufferDonor: '{ (0, {}) }: parameters whose buffers may be reused',
  ComputationLayout: '{(f32[8]{0}, ...)->f32[8]{0}}: the ENTRY layouts',
  BracedHloComputationList: '{%a, %b}: computations',
  BracedInt64List: '{0,1}: integers',
  BracedInt64ListList: '{{0,1},{1,0}}: lists of integers',
  CollectiveDeviceListBase: '{{0,1},{2,3}} or [2,2]<=[4]: replica groups',
  ComparisonDirection: 'EQ, NE, GE, GT, LE or LT',
  ComparisonType: 'FLOAT, TOTALORDER, SIGNED or UNSIGNED',
  ConvKind: 'a convolution kind',
  ConvolutionDimensionNumbers: 'b01f_01io->b01f: dimension labels',
  CustomCallApiVersion: 'API_VERSION_...',
  CustomCallSchedule: 'SCHEDULE_...',
  Distribution: 'rng_uniform or rng_normal',
  Domain: '{kind="sharding", entry=..., exit=...}',
  Enum: 'an enumerator name',
  FftType: 'FFT, IFFT, RFFT or IRFFT',
  Float: 'a number',
  FrontendAttributes: '{key="value", ...}',
  FusionKind: 'kLoop, kInput, kOutput or kCustom',
  HloComputation: 'a computation name',
  InstructionAliasing: '{{output index}: (operand, {operand index})}',
  InstructionList: '{%a, %b}: instructions',
  Int32: 'an integer',
  Int64: 'an integer',
  Literal: 'a literal',
  Metadata: '{op_name="..." source_file="..." source_line=N}',
  Mode: 'read and ignored by the parser',
  OriginalValue: 'the original value',
  OriginalValueRecoveryTable: 'a recovery table of original values',
  PaddingConfig: '0_0x1_1: low_high[_interior] per dimension',
  PaddingType: 'a padding type',
  ParameterReplication: '{true, false}: per tuple leaf',
  PrecisionAlgorithm: 'a dot algorithm',
  PrecisionList: '{default, high, highest}: per operand',
  RandomAlgorithm: 'rng_default, rng_three_fry or rng_philox',
  ResultAccuracy: '{mode=highest} or {tolerance={...}}',
  Shape: 'a shape',
  ShapeList: '{f32[2]{0}, ...}: shapes with layouts',
  Sharding: '{replicated}, {maximal device=0}, {devices=[2,1]0,1}',
  SliceRanges: '{[0:4], [0:8:2]}: start:limit[:stride] per dimension',
  SparsityConfig: 'a sparsity configuration',
  StatisticsViz: 'statistics',
  String: '"text"',
  StringOrJsonDict: '"..." or {...}',
  Window: '{size=3x3 stride=1x1 pad=1_1x1_1}',
};

/** In the `HloModule` line (all optional). */
const MODULE: readonly Row[] = [
  ['is_scheduled', 'Bool'],
  ['replica_count', 'Int64'],
  ['num_partitions', 'Int64'],
  ['input_output_alias', 'Aliasing'],
  ['buffer_donor', 'BufferDonor'],
  ['alias_passthrough_params', 'Bool'],
  ['entry_computation_layout', 'ComputationLayout'],
  ['frontend_attributes', 'FrontendAttributes'],
  ['allow_spmd_sharding_propagation_to_parameters', 'BracedBoolListOrBool'],
  ['allow_spmd_sharding_propagation_to_output', 'BracedBoolListOrBool'],
  ['origin_recovery_table', 'OriginalValueRecoveryTable'],
];

/**
 * Attributes whose value names computations (a name, a computation written in place, or a `{a, b}`
 * list of them): every key the table gives an `HloComputation` or `BracedHloComputationList` value.
 */
export const COMPUTATION_ATTRIBUTES: ReadonlySet<string> = new Set(
  Object.values(OWN)
    .flat()
    .filter(([, value]) => value === 'HloComputation' || value === 'BracedHloComputationList')
    .map(([name]) => name),
);

const info = ([name, value, required]: Row): HloAttributeInfo => ({
  name,
  value,
  required: required === true,
});

/** What the `-start` form of any opcode adds (XLA's parser reads `fusion-start` as an `async-start` wrapping a fusion). */
const ASYNC_START: readonly Row[] = [
  ['async_execution_thread', 'String'],
  ['output_to_operand_aliasing', 'InstructionAliasing'],
];

/**
 * The attributes an instruction with `opcode` takes: its own (the required ones first), then those
 * of every instruction. An opcode with `-start` that is not one itself (`call-start`) takes the
 * wrapped opcode's and the async ones; with `-update` or `-done`, only the execution thread. An
 * unknown opcode gets those of every instruction.
 */
export function attributesOf(opcode: string): readonly HloAttributeInfo[] {
  const async = asyncFormOf(opcode);
  const rows = async
    ? async.step === 'start'
      ? [...(OWN[async.wrapped.name] ?? []), ...ASYNC_START]
      : [ASYNC_START[0]]
    : (OWN[opcode] ?? []);
  return [...rows.filter((r) => r[2]), ...rows.filter((r) => !r[2]), ...COMMON].map(info);
}

/** The attributes of the `HloModule` line. */
function moduleAttributes(): readonly HloAttributeInfo[] {
  return MODULE.map(info);
}

/** The attributes XLA's parser accepts on statement `st`: an instruction's (by its opcode) or the `HloModule` line's; undefined for other statements. */
export function attributesAccepted(st: HloStatement): readonly HloAttributeInfo[] | undefined {
  if (st.kind === 'module') return moduleAttributes();
  return st.kind === 'instruction' && st.opcode ? attributesOf(st.opcode.name) : undefined;
}

/** What XLA's parser holds an instruction's (or the `HloModule` line's) `key=value` list to. */
export interface AttributeRules {
  /** Every attribute it takes. */
  readonly allowed: ReadonlySet<string>;
  /** Those it must have, alphabetically: the order in which XLA reports the first one missing. */
  readonly required: readonly string[];
  /** XLA's list of them, as its unknown-attribute error writes it (sorted, `, ` between). */
  readonly listed: string;
  /**
   * For reading keys in place ({@link attributeIndexAt}): the allowed names by length and first
   * character, as indices into `names`, and the bits of the required ones' indices.
   */
  readonly names: readonly string[];
  readonly buckets: ReadonlyMap<number, readonly number[]>;
  readonly requiredBits: number;
  /** The bits of the indices of those whose value names one computation, and a list of them. */
  readonly computationBits: number;
  readonly computationListBits: number;
}

/**
 * Opcodes whose attributes are not checked by the statement alone: a `conditional` takes
 * `true_computation=` and `false_computation=` or `branch_computations=` by its first operand's
 * type, which only the instruction defining the operand shows (operand-attributes.ts checks it
 * there); jaxlib 0.10.2 knows no `atan`, `collective-reduce` or `shuffle`.
 */
const UNCHECKED: ReadonlySet<string> = new Set(['conditional', 'atan', 'collective-reduce', 'shuffle']);

function rulesOf(list: readonly HloAttributeInfo[], required: boolean): AttributeRules {
  const names = list.map((a) => a.name).sort();
  const need = required
    ? list
        .filter((a) => a.required)
        .map((a) => a.name)
        .sort()
    : [];
  const buckets = new Map<number, number[]>();
  names.forEach((name, i) => {
    const key = name.length * 128 + name.charCodeAt(0);
    buckets.set(key, [...(buckets.get(key) ?? []), i]);
  });
  return {
    allowed: new Set(names),
    required: need,
    listed: names.join(', '),
    names,
    buckets,
    // Bit i stands for names[i]; no opcode takes more than 31 attributes.
    requiredBits: need.reduce((bits, name) => bits | (1 << names.indexOf(name)), 0),
    computationBits: bitsOf(names, list, 'HloComputation'),
    computationListBits: bitsOf(names, list, 'BracedHloComputationList'),
  };
}

/** The bits of the indices in `names` of the attributes of `list` whose value is `kind`. */
function bitsOf(
  names: readonly string[],
  list: readonly HloAttributeInfo[],
  kind: AttributeValueKind,
): number {
  return list.reduce((bits, a) => (a.value === kind ? bits | (1 << names.indexOf(a.name)) : bits), 0);
}

/** Whether `text` holds `word` at `start` (compared by hand: `startsWith` on a large text costs more). */
function sameAt(text: string, start: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (text.charCodeAt(start + i) !== word.charCodeAt(i)) return false;
  return true;
}

/** The index in `rules.names` of the key `text[start, end)`, read in place; -1 when it is not one. */
export function attributeIndexAt(rules: AttributeRules, text: string, start: number, end: number): number {
  const bucket = rules.buckets.get((end - start) * 128 + text.charCodeAt(start));
  if (bucket !== undefined) for (const i of bucket) if (sameAt(text, start, rules.names[i])) return i;
  return -1;
}

/** The rules of each opcode asked for, null for one not checked (opcodes XLA knows only: it stays small). */
const RULES_CACHE = new Map<string, AttributeRules | null>();

/**
 * The rules XLA's parser holds an instruction with `opcode` to, or undefined for an opcode it does
 * not check here ({@link UNCHECKED}, or no opcode XLA knows, plain or with `-start`, `-update` or
 * `-done`). A `broadcast` requires `dimensions=` only of an operand that is no scalar, which the
 * statement may not show: none is required of it here ({@link BROADCAST_RULES}).
 */
export function attributeRules(opcode: string): AttributeRules | undefined {
  const cached = RULES_CACHE.get(opcode);
  if (cached !== undefined) return cached ?? undefined;
  if (!isOpcode(opcode)) return undefined;
  const async = asyncFormOf(opcode);
  const rules = UNCHECKED.has(async ? async.wrapped.name : opcode)
    ? null
    : rulesOf(attributesOf(opcode), opcode !== 'broadcast');
  RULES_CACHE.set(opcode, rules);
  return rules ?? undefined;
}

/** The rules of a `broadcast` whose operand is no scalar: `dimensions=` is required. */
export const BROADCAST_RULES: AttributeRules = rulesOf(attributesOf('broadcast'), true);

/**
 * The rules of a `conditional` whose first operand is a pred[] (`true_computation=` and
 * `false_computation=`, both required) or an s32[] (`branch_computations=`, required).
 */
export function conditionalRules(pred: boolean): AttributeRules {
  const own = pred ? ['true_computation', 'false_computation'] : ['branch_computations'];
  const list = attributesOf('conditional')
    .filter((a) => COMMON_ATTRIBUTE_NAMES.has(a.name) || own.includes(a.name))
    .map((a) => (own.includes(a.name) ? { ...a, required: true } : a));
  return rulesOf(list, true);
}

/** The rules of the `HloModule` line's attributes (none required). */
export const MODULE_ATTRIBUTE_RULES: AttributeRules = rulesOf(moduleAttributes(), false);
