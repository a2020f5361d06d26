/**
 * The HLO module model: what one statement of HLO text says, and what a whole text (one or more
 * `HloModule`s) defines and references. Every range is absolute in the text that was parsed
 * (half-open UTF-16 offsets), so a language server can map them straight to positions.
 */
import type { ShapeNode } from '../ast';
import type { LayoutDiagnostic, TextRange } from '../diagnostics';

/** A shape found in the text, with the parser's diagnostics for it (the scanner's `FoundShape`). */
export interface StatementShape {
  readonly shape: ShapeNode;
  readonly diagnostics: readonly LayoutDiagnostic[];
}

/** A name as written. `name` never includes the `%` sigil; `range` covers the identifier without `%`. */
export interface HloName {
  readonly name: string;
  readonly range: TextRange;
}

/** `key=value` after an instruction or in the module header; the value is kept as a range. */
export interface HloAttribute {
  readonly key: HloName;
  readonly valueRange: TextRange;
}

/** An operand reference inside `opcode(...)`, with its optional annotated shape `f32[2]{0} %x`. */
export interface OperandRef extends HloName {
  readonly shape?: ShapeNode;
}

/** Which attribute named the computation: `calls`, `to_apply`, `condition`, `body`, … */
export interface CalledComputationRef extends HloName {
  readonly attribute: string;
}

/** `metadata={op_name="..." source_file="..." source_line=N stack_frame_id=N}`; strings are unescaped. */
export interface HloMetadata {
  readonly range: TextRange;
  readonly opName?: string;
  readonly opType?: string;
  readonly sourceFile?: string;
  readonly sourceLine?: number;
  /** The `source_file` value as written (with its quotes): where "go to source" is offered. */
  readonly sourceFileRange?: TextRange;
  /** The `source_line` value as written. */
  readonly sourceLineRange?: TextRange;
  /** `stack_frame_id=N`: the frame of the module's stack-frame tables (hlo/stack-frames.ts) it comes from. */
  readonly stackFrameId?: number;
  /** The `stack_frame_id` value as written. */
  readonly stackFrameIdRange?: TextRange;
}

/** `entry_computation_layout={(p0, p1, ...)->result}` in the module header. */
export interface EntryComputationLayout {
  /** From `{` to `}` inclusive. */
  readonly range: TextRange;
  readonly parameters: readonly ShapeNode[];
  readonly result?: ShapeNode;
}

interface StatementBase {
  /** The whole statement, possibly several lines, without the final line break. */
  readonly range: TextRange;
  /** Every shape in the statement (result, operands, parameters, attributes), in text order. */
  readonly shapes: readonly StatementShape[];
  /**
   * Diagnostics of the statement itself: shapes that produced no tree at all (shapes carry their
   * own), and what XLA's parser expects between them (an opcode after the result shape, a
   * bracket of the signature, a name).
   */
  readonly diagnostics: readonly LayoutDiagnostic[];
  /** Where another statement starts on this statement's line (XLA reads one after another). */
  readonly following?: number;
}

/** `HloModule name, attr=value, ...`. */
export interface ModuleHeaderStatement extends StatementBase {
  readonly kind: 'module';
  readonly name?: HloName;
  readonly attributes: readonly HloAttribute[];
  readonly entryComputationLayout?: EntryComputationLayout;
}

/** One `name: shape` of a computation signature. */
export interface ComputationParameter extends HloName {
  readonly shape?: ShapeNode;
}

/** `[ENTRY] %name (p: shape, ...) -> shape {` (signature optional: `%name {`). */
export interface ComputationHeaderStatement extends StatementBase {
  readonly kind: 'computation';
  readonly entry: boolean;
  /** The `ENTRY` keyword, when {@link entry}. */
  readonly entryKeyword?: TextRange;
  readonly name?: HloName;
  readonly parameters: readonly ComputationParameter[];
  readonly result?: ShapeNode;
}

/**
 * A computation written in place as an attribute's value, `calls=\n{` with its instructions on the
 * lines that follow, up to the matching `}`. XLA's parser accepts it (its own tests write fusions and
 * reducers so); XLA's printer always names computations instead.
 */
export interface InlineComputationOpening {
  /** `calls`, `to_apply`, … */
  readonly attribute: HloName;
  /** The `{` that the `}` of a later statement closes. */
  readonly brace: TextRange;
}

/** The `N` of `parameter(N)`. */
export interface ParameterNumber {
  readonly value: number;
  readonly range: TextRange;
}

/** `[ROOT] %name = shape opcode(operands), attr=value, ...`. */
export interface InstructionStatement extends StatementBase {
  readonly kind: 'instruction';
  readonly root: boolean;
  /** The `ROOT` keyword, when {@link root}. */
  readonly rootKeyword?: TextRange;
  readonly name: HloName;
  /** The result shape; undefined when it could not be parsed (then see `diagnostics`). */
  readonly shape?: ShapeNode;
  readonly opcode?: HloName;
  /** For `parameter(N)` with a plain number N. */
  readonly parameter?: ParameterNumber;
  readonly operands: readonly OperandRef[];
  readonly calledComputations: readonly CalledComputationRef[];
  /** `control-predecessors={%a, %b}`: instructions that must run before this one (references, like operands). */
  readonly controlPredecessors: readonly HloName[];
  readonly attributes: readonly HloAttribute[];
  readonly metadata?: HloMetadata;
  /** Present when the statement ends by opening a computation written in place (its instructions follow). */
  readonly inlineComputation?: InlineComputationOpening;
}

/** The `}` that closes a computation. */
export interface CloseStatement extends StatementBase {
  readonly kind: 'close';
  /** `}, condition={`: the instruction's next computation written in place opens on this line. */
  readonly inlineComputation?: InlineComputationOpening;
}

/**
 * Only comments or only whitespace. Comments with a `// -----` line are a `separator`: XLA's tests
 * run with `--split-input-file` make each part of such a file a module of its own.
 */
export interface TriviaStatement extends StatementBase {
  readonly kind: 'comment' | 'separator' | 'blank';
}

/** Anything else; its shapes are still found and checked. */
export interface UnknownStatement extends StatementBase {
  readonly kind: 'unknown';
}

export type HloStatement =
  | ModuleHeaderStatement
  | ComputationHeaderStatement
  | InstructionStatement
  | CloseStatement
  | TriviaStatement
  | UnknownStatement;

/** `T` with its fields assignable: for building a statement or computation field by field. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
