/**
 * Diagnostics are data: every problem the core finds is a {@link LayoutDiagnostic} with a stable
 * code from {@link RULES} and the exact character range it is about. Nothing in the core throws
 * for bad input.
 */

/** A half-open range [start, end) of UTF-16 offsets into the text that was parsed. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

export type Severity = 'error' | 'warning' | 'information';

/**
 * Where XLA itself would stop on this problem: its text parser, its layout validator, a crash
 * (CHECK/LOG(FATAL)) instead of an error, or nowhere (advice from this tool).
 */
export type Stage = 'parser' | 'validator' | 'crash' | 'advice';

export interface LayoutDiagnostic {
  readonly code: RuleCode;
  readonly severity: Severity;
  /**
   * XLA's own wording where XLA has one (exact, so it can be compared with XLA's and searched for;
   * it may name parser tokens such as `kRparen`); otherwise a sentence that says what and why.
   * People read {@link readableMessage}, never this alone.
   */
  readonly message: string;
  /** Plain words saying what is wrong and what to write, when `message` is XLA's wording. */
  readonly plain?: string;
  /** For 'expected-token': the character XLA's parser expected where the diagnostic stands. */
  readonly expected?: string;
  readonly range: TextRange;
  /** Other places the diagnostic speaks of ("previously defined here"), ranges as absolute as `range`. */
  readonly related?: readonly RelatedPlace[];
  /**
   * XLA reports it at the first token after its statement, which a statement read alone does not
   * see: `range` is the statement's last character until a reader of the statements in turn (the
   * check stream, the language server) moves it there ({@link atNextToken}).
   */
  readonly atNextToken?: true;
  /**
   * The range of an operand-count error of the same instruction that XLA never reaches, as it stops
   * at this one first (the name checks' errors on operands): whoever shows the statement's
   * diagnostics with this one leaves that one out.
   */
  readonly replaces?: TextRange;
}

export interface RelatedPlace {
  readonly range: TextRange;
  readonly message: string;
}

export interface Rule {
  readonly stage: Stage;
  readonly severity: Severity;
  /** One line for rule documentation and hovers. */
  readonly title: string;
}

/**
 * Every rule the core reports, keyed by its stable code. Codes never change meaning; new rules get
 * new codes. `docs/rules.md` has one section per code.
 */
export const RULES = {
  // XLA's text parser (spec §1.3, §1.7).
  'expected-primitive-type': {
    stage: 'parser',
    severity: 'error',
    title: 'A shape must start with a primitive type such as f32, or with ( or b(.',
  },
  'unknown-element-type': {
    stage: 'parser',
    severity: 'error',
    title: 'The element type is not one XLA knows; type names are lower case (f32, bf16, s8, pred).',
  },
  'expected-token': {
    stage: 'parser',
    severity: 'error',
    title: 'A bracket, parenthesis or separator is missing.',
  },
  'expected-integer': { stage: 'parser', severity: 'error', title: 'An integer is required here.' },
  'integer-too-large': { stage: 'parser', severity: 'error', title: 'The integer does not fit in 64 bits.' },
  'layout-attribute-order': {
    stage: 'parser',
    severity: 'error',
    title: 'Layout attributes must appear at most once, in the order D T L # * E S SC P M.',
  },
  'rank-mismatch': {
    stage: 'parser',
    severity: 'error',
    title: 'minor_to_major must list one entry per dimension.',
  },
  'physical-shape-dense': {
    stage: 'parser',
    severity: 'error',
    title: 'P(...) is only for sparse arrays, which XLA no longer has.',
  },
  'dim-level-type': {
    stage: 'parser',
    severity: 'error',
    title: 'D(...) accepts only the letters D, C, S and H.',
  },
  'invalid-dimension-size': {
    stage: 'parser',
    severity: 'error',
    title: 'A dimension size must be >= 0 (only ? is unbounded).',
  },
  'extra-content': { stage: 'parser', severity: 'error', title: 'Text after a complete shape.' },
  'invalid-name': {
    stage: 'parser',
    severity: 'error',
    title: 'A name must start with a letter or _ (after an optional %).',
  },
  'invalid-character': {
    stage: 'parser',
    severity: 'error',
    title:
      'XLA skips only spaces, tabs and line breaks between tokens: a no-break space or form feed is an error.',
  },
  'unterminated-comment': {
    stage: 'parser',
    severity: 'error',
    title: 'A /* comment is never closed.',
  },
  'recursion-depth': {
    stage: 'parser',
    severity: 'error',
    title: 'Tuples nest deeper than XLA parses (8192).',
  },
  'buffer-element': {
    stage: 'parser',
    severity: 'error',
    title: 'b(...) must hold exactly one array shape.',
  },
  // XLA's text parser on the names of a module (hlo_parser.cc reads a module in one pass).
  'instruction-undefined': {
    stage: 'parser',
    severity: 'error',
    title: 'An operand or control predecessor must name an instruction defined before it in its computation.',
  },
  'instruction-duplicate': {
    stage: 'parser',
    severity: 'error',
    title: 'An instruction name is defined twice in one computation.',
  },
  'root-duplicate': {
    stage: 'parser',
    severity: 'error',
    title: 'A computation has more than one ROOT instruction.',
  },
  'parameter-duplicate': {
    stage: 'parser',
    severity: 'error',
    title: 'Two parameter instructions of a computation have the same number.',
  },
  'attribute-list': {
    stage: 'parser',
    severity: 'error',
    title:
      'An instruction takes each attribute once, only those of its opcode, and every one its opcode requires.',
  },
  'computation-unclosed': {
    stage: 'parser',
    severity: 'error',
    title: "A computation's instructions end with its closing }.",
  },
  'source-tables': {
    stage: 'parser',
    severity: 'error',
    title:
      'The source tables come all four or none, in the order FileNames, FunctionNames, FileLocations, StackFrames, before the computations.',
  },
  'outside-computation': {
    stage: 'parser',
    severity: 'error',
    title: 'Every instruction and } belongs to a computation.',
  },
  'computation-undefined': {
    stage: 'parser',
    severity: 'error',
    title: 'A called computation must be defined before the instruction that calls it.',
  },
  'computation-duplicate': {
    stage: 'parser',
    severity: 'error',
    title: 'A computation name is defined twice in one module.',
  },
  'async-computation-shared': {
    stage: 'parser',
    severity: 'error',
    title: 'Two async-start instructions wrap the same computation.',
  },
  'unknown-opcode': {
    stage: 'parser',
    severity: 'error',
    title: 'The word after `=` is neither a shape nor an opcode XLA knows.',
  },
  'literal-out-of-range': {
    stage: 'parser',
    severity: 'error',
    title: "A constant's value must fit its element type (s8 holds -128 to 127, f16 -65504 to 65504).",
  },
  'literal-shape-mismatch': {
    stage: 'parser',
    severity: 'error',
    title: "A constant's literal must hold as many values, nested as deep, as its shape says.",
  },
  'literal-syntax': {
    stage: 'parser',
    severity: 'error',
    title: "A constant's literal holds something XLA does not read as a value of its type.",
  },
  'root-shape-mismatch': {
    stage: 'parser',
    severity: 'error',
    title: "A computation's declared result shape must match its ROOT's shape (layouts aside).",
  },
  'operand-count': {
    stage: 'parser',
    severity: 'error',
    title: 'An instruction takes as many operands as its opcode does (`add` two, `reduce` an even number).',
  },
  'operand-shape-mismatch': {
    stage: 'parser',
    severity: 'error',
    title:
      "A shape written before an operand's name must be the shape of the instruction it names (layouts aside).",
  },
  'entry-duplicate': {
    stage: 'parser',
    severity: 'error',
    title: 'A module has more than one ENTRY computation.',
  },
  // XLA's validator (spec §2.2, §2.3).
  'minor-to-major-out-of-bounds': {
    stage: 'validator',
    severity: 'error',
    title: 'minor_to_major entries must be dimension numbers 0..rank-1.',
  },
  'minor-to-major-duplicate': {
    stage: 'validator',
    severity: 'error',
    title: 'minor_to_major must name each dimension once.',
  },
  'index-type-dense': { stage: 'validator', severity: 'error', title: '#(...) is only for sparse arrays.' },
  'pointer-type-dense': { stage: 'validator', severity: 'error', title: '*(...) is only for sparse arrays.' },
  'tile-empty': { stage: 'validator', severity: 'error', title: 'A tile must have at least one dimension.' },
  'tile-dimension-invalid': {
    stage: 'validator',
    severity: 'error',
    title: 'A tile dimension must be positive or * (combine).',
  },
  'element-size-negative': { stage: 'validator', severity: 'error', title: 'E(n) must not be negative.' },
  'split-config-dimension': {
    stage: 'validator',
    severity: 'error',
    title: 'A split config names a physical dimension 0..rank-1, once.',
  },
  'split-config-indices': {
    stage: 'validator',
    severity: 'error',
    title: 'Split indices must be positive, strictly increasing and inside the dimension.',
  },
  'dimensions-overflow': {
    stage: 'validator',
    severity: 'error',
    title: 'The element count or byte size overflows int64.',
  },
  // What XLA crashes on instead of reporting (spec §1.3).
  'tile-negative': {
    stage: 'crash',
    severity: 'error',
    title: 'A negative tile entry crashes XLA; * is the combine marker.',
  },
  'tail-alignment-invalid': { stage: 'crash', severity: 'error', title: 'L(n) with n < 1 crashes XLA.' },
  'token-dimensions': {
    stage: 'crash',
    severity: 'error',
    title: 'token and opaque shapes take no dimensions.',
  },
  'token-layout': {
    stage: 'crash',
    severity: 'error',
    title: 'token and opaque shapes take no layout: XLA aborts on one.',
  },
  'reshape-element-count': {
    stage: 'crash',
    severity: 'error',
    title: 'A reshape must keep the number of elements: XLA aborts on one that does not.',
  },
  'entry-layout-count': {
    stage: 'crash',
    severity: 'error',
    title: 'entry_computation_layout must list as many parameters and results as the entry computation has.',
  },
  'literal-crash': {
    stage: 'crash',
    severity: 'error',
    title: 'true or false in a constant that is not pred, or a token or opaque constant: XLA aborts.',
  },
  'replica-groups-count': {
    stage: 'crash',
    severity: 'error',
    title:
      'An iota replica_groups=[G,N]<=[D] must hold as many devices as the iota lists: XLA aborts otherwise.',
  },
  'operand-count-crash': {
    stage: 'crash',
    severity: 'error',
    title:
      'An operand count XLA crashes on instead of reporting it (`dot` with one operand, `tuple` with an array shape).',
  },
  'parameter-number': {
    stage: 'crash',
    severity: 'error',
    title: "A computation's N parameters must be numbered 0 to N-1 without gaps.",
  },
  // Legal but suspicious (spec §7), and padding advice.
  'combine-without-minor': {
    stage: 'advice',
    severity: 'warning',
    title: '* merges a dimension into the next more-minor one, and there is none.',
  },
  'tile-rank-exceeds-shape': {
    stage: 'advice',
    severity: 'warning',
    title: 'The tile has more dimensions than the shape; XLA pads the shape with leading 1s.',
  },
  'tile-not-dividing': {
    stage: 'advice',
    severity: 'warning',
    title: "A later tile does not divide the earlier tile: padding beyond XLA's ArraySize.",
  },
  'element-size-unusual': {
    stage: 'advice',
    severity: 'warning',
    title: "E(n) differs from the element type's width.",
  },
  'memory-space-range': {
    stage: 'advice',
    severity: 'warning',
    title: 'S(n) is stored in an int8 and wraps outside -128..127.',
  },
  'legacy-dim-level-types': {
    stage: 'advice',
    severity: 'information',
    title: 'D(...) is parsed and ignored by XLA since 2025-05.',
  },
  'padding-overhead': {
    stage: 'advice',
    severity: 'warning',
    title: 'Tiling pads this array well beyond its logical size.',
  },
} as const satisfies Record<string, Rule>;

export type RuleCode = keyof typeof RULES;

/** Builds a diagnostic with the rule's default severity; `plain`: plain words when `message` is XLA's. */
export function diagnostic(
  code: RuleCode,
  message: string,
  range: TextRange,
  plain?: string,
): LayoutDiagnostic {
  return plain === undefined
    ? { code, severity: RULES[code].severity, message, range }
    : { code, severity: RULES[code].severity, message, plain, range };
}

/**
 * A copy of `d` at `range`, with `message` and `plain` replaced when given; with `waiting` false,
 * no longer waiting for the next token (it stands there now). Written out rather than spread: V8 gives each `{ ...d }` copy a hidden class of its own, about 250 bytes for every
 * diagnostic a server keeps.
 */
export function copyDiagnostic(
  d: LayoutDiagnostic,
  range: TextRange,
  message = d.message,
  plain = d.plain,
  waiting = true,
): LayoutDiagnostic {
  const out: WritableDiagnostic = { code: d.code, severity: d.severity, message, range };
  if (plain !== undefined) out.plain = plain;
  if (d.expected !== undefined) out.expected = d.expected;
  if (d.related !== undefined) out.related = d.related;
  if (waiting && d.atNextToken !== undefined) out.atNextToken = d.atNextToken;
  if (d.replaces !== undefined) out.replaces = d.replaces;
  return out;
}

type WritableDiagnostic = { -readonly [K in keyof LayoutDiagnostic]: LayoutDiagnostic[K] };

function movedRange(r: TextRange, by: number): TextRange {
  return { start: r.start + by, end: r.end + by };
}

/**
 * A copy of `d` (see {@link copyDiagnostic}) `by` characters further on, its related places with
 * it: diagnostics computed on a piece of a text, re-based to where the piece lies.
 */
export function movedDiagnostic(d: LayoutDiagnostic, by: number): LayoutDiagnostic {
  // A fresh copy: changing it changes nothing else.
  const out: WritableDiagnostic = copyDiagnostic(d, movedRange(d.range, by));
  if (d.related !== undefined)
    out.related = d.related.map((p) => ({ range: movedRange(p.range, by), message: p.message }));
  if (d.replaces !== undefined) out.replaces = movedRange(d.replaces, by);
  return out;
}

/**
 * `d`, which waits for the first token after its statement ({@link LayoutDiagnostic.atNextToken}),
 * at `at`: that token's offset, or the end of the text when none follows.
 */
export function atNextToken(d: LayoutDiagnostic, at: number, textLength: number): LayoutDiagnostic {
  return copyDiagnostic(d, { start: at, end: Math.min(at + 1, textLength) }, d.message, d.plain, false);
}

/** What XLA's `TokKindToString` names stand for, in the words people read. */
const TOKEN_WORDS: ReadonlyMap<string, string> = new Map([
  ['kEqual', '`=`'],
  ['kComma', '`,`'],
  ['kColon', '`:`'],
  ['kAsterisk', '`*`'],
  ['kOctothorp', '`#`'],
  ['kPlus', '`+`'],
  ['kTilde', '`~`'],
  ['kLsquare', '`[`'],
  ['kRsquare', '`]`'],
  ['kLbrace', '`{`'],
  ['kRbrace', '`}`'],
  ['kLparen', '`(`'],
  ['kRparen', '`)`'],
  ['kQuestionMark', '`?`'],
  ['kArrow', '`->`'],
  ['kLeq', '`<=`'],
  ['kDots', '`...`'],
  ['kEof', 'the end of the text'],
  ['kIdent', 'a word'],
  ['kName', 'a name'],
  ['kAttributeName', 'an attribute name'],
  ['kPrimitiveType', 'an element type'],
  ['kInt', 'an integer'],
  ['kDecimal', 'a decimal number'],
  ['kDxD', 'a window size such as 2x2'],
  ['kPad', 'a padding spec'],
  ['kString', 'a string'],
  ['kError', 'a character XLA cannot read'],
  ['kw_true', '`true`'],
  ['kw_false', '`false`'],
  ['kw_inf', '`inf`'],
  ['kw_nan', '`nan`'],
  ['kw_ROOT', '`ROOT`'],
  ['kw_ENTRY', '`ENTRY`'],
  ['kw_HloModule', '`HloModule`'],
]);

/** `text` with XLA's parser token names (`kRparen`, `kIdent`, …) written as what they stand for. */
export function withoutTokenNames(text: string): string {
  return text.replace(/\b(k[A-Z][A-Za-z]*|kw_[A-Za-z]+)\b/g, (name) => TOKEN_WORDS.get(name) ?? name);
}

/**
 * The message people read, everywhere (editor, CLI, input boxes, visualizer): plain words first,
 * then XLA's own wording after "XLA:" so it can still be searched for, with parser token names
 * written as the characters they stand for.
 */
export function readableMessage(d: Pick<LayoutDiagnostic, 'message' | 'plain'>): string {
  const xla = withoutTokenNames(d.message);
  return d.plain === undefined ? xla : `${d.plain} — XLA: ${xla}`;
}
