/**
 * An instruction in its plain form that the memoised check found nothing wrong in, read for what
 * the name checks look at in every instruction (its name, `ROOT`, opcode, operands, parameter
 * number, attributes and the computations and instructions they name). The name checks want the
 * result shape of few instructions (roots, parameters, reshapes), and parsing every shape again
 * after the check had walked them took most of their time: the result shape is parsed when first
 * asked for, and the rest (shapes, metadata, diagnostics) is the statement parser's reading, made
 * then too.
 */
import type { ShapeNode } from '../ast';
import type { LayoutDiagnostic, TextRange } from '../diagnostics';
import { parseShape, type ScanState } from '../parse';
import { instructionEquals } from './instruction-start';
import { charAt, readName, skipBalanced, skipTrivia } from './lex';
import { LITERAL_OPCODES } from './opcodes';
import { parameterNumber, readOperands } from './parse-instruction';
import { parseStatement } from './parse-statement';
import { inlineOpening, readReferences } from './statement-attributes';
import { Shapes } from './statement-shapes';
import type {
  CalledComputationRef,
  HloAttribute,
  HloMetadata,
  HloName,
  HloStatement,
  InlineComputationOpening,
  InstructionStatement,
  OperandRef,
  ParameterNumber,
  StatementShape,
} from './types';

/** What {@link plainInstruction} reads in place; the rest is parsed when asked for. */
type PlainParts = Pick<
  PlainInstruction,
  | 'rootKeyword'
  | 'name'
  | 'opcode'
  | 'parameter'
  | 'operands'
  | 'calledComputations'
  | 'controlPredecessors'
  | 'attributes'
  | 'inlineComputation'
>;

/**
 * A statement `parseStatement` reads as this instruction; its shapes, metadata and diagnostics are
 * that reading's, made the first time one is asked for.
 */
export class PlainInstruction implements InstructionStatement {
  readonly kind = 'instruction';
  readonly root: boolean;
  readonly rootKeyword: TextRange | undefined;
  readonly name: HloName;
  readonly opcode: HloName;
  readonly parameter: ParameterNumber | undefined;
  readonly operands: readonly OperandRef[];
  readonly calledComputations: readonly CalledComputationRef[];
  readonly controlPredecessors: readonly HloName[];
  readonly attributes: readonly HloAttribute[];
  readonly inlineComputation: InlineComputationOpening | undefined;
  private parsed: HloStatement | undefined;
  private parsedShape: ShapeNode | undefined | null = null;

  constructor(
    private readonly text: string,
    readonly range: TextRange,
    /** Where the result shape starts. */
    private readonly resultAt: number,
    parts: PlainParts,
    private readonly scan: ScanState,
  ) {
    this.root = parts.rootKeyword !== undefined;
    this.rootKeyword = parts.rootKeyword;
    this.name = parts.name;
    this.opcode = parts.opcode;
    this.parameter = parts.parameter;
    this.operands = parts.operands;
    this.calledComputations = parts.calledComputations;
    this.controlPredecessors = parts.controlPredecessors;
    this.attributes = parts.attributes;
    this.inlineComputation = parts.inlineComputation;
  }

  private full(): HloStatement {
    this.parsed ??= parseStatement(this.text, this.range, this.scan);
    return this.parsed;
  }

  /** The result shape, parsed alone as the statement parser parses it. */
  get shape(): ShapeNode | undefined {
    if (this.parsedShape === null)
      this.parsedShape = parseShape(this.text, this.resultAt, { end: this.range.end, scan: this.scan }).shape;
    return this.parsedShape;
  }

  get metadata(): HloMetadata | undefined {
    const s = this.full();
    return s.kind === 'instruction' ? s.metadata : undefined;
  }

  get shapes(): readonly StatementShape[] {
    return this.full().shapes;
  }

  get diagnostics(): readonly LayoutDiagnostic[] {
    return this.full().diagnostics;
  }
}

/**
 * The instruction `text[range]` (a range from `splitStatements`), which `ShapeChecker.checkStatement`
 * found in its plain form with no diagnostic, its result shape ending at `resultEnd`; read as
 * `parseStatement` reads it. Undefined when it holds what only the statement parser reads
 * (operands with shapes, a second instruction on its line): the caller parses it then. `scan` is
 * the finder's state for the parses made on demand (one for all statements of `text`).
 */
export function plainInstruction(
  text: string,
  range: TextRange,
  resultEnd: number,
  scan: ScanState,
): PlainInstruction | undefined {
  const { start, end } = range;
  const p = skipTrivia(text, start, end);
  const first = readName(text, p, end);
  if (!first) return undefined;
  let rootKeyword: TextRange | undefined;
  let name = first;
  if (charAt(text, p, end) !== 37) {
    const word = first.name.name;
    if (word === 'HloModule' || word === 'ENTRY') return undefined;
    if (word === 'ROOT') {
      rootKeyword = first.name.range;
      const n = readName(text, skipTrivia(text, first.end, end), end);
      if (!n) return undefined;
      name = n;
    }
  }
  const equals = skipTrivia(text, name.end, end);
  if (charAt(text, equals, end) !== 61) return undefined;
  const op = skipTrivia(text, resultEnd, end);
  const opcode = readName(text, op, end);
  if (!opcode || charAt(text, op, end) === 37) return undefined;
  const paren = skipTrivia(text, opcode.end, end);
  if (charAt(text, paren, end) !== 40) return undefined;
  // Nothing is parsed into `shapes`: anything it would take leaves the statement to the parser.
  const shapes = new Shapes(text, scan);
  const close = skipBalanced(text, paren, end);
  const operands: OperandRef[] = [];
  let parameter: ParameterNumber | undefined;
  const word = opcode.name.name;
  if (!LITERAL_OPCODES.has(word)) readOperands(text, paren + 1, close, shapes, operands);
  else if (word === 'parameter') parameter = parameterNumber(text, paren + 1, close);
  const attributes: HloAttribute[] = [];
  const calledComputations: CalledComputationRef[] = [];
  const controlPredecessors: HloName[] = [];
  if (shapes.found.length > 0 || shapes.diagnostics.length > 0) return undefined;
  const stop = readReferences(text, close, end, attributes, calledComputations, controlPredecessors);
  // `, %key=` is no attribute to XLA, which the check does not look for: the parser reports it.
  for (const a of attributes) if (text.charCodeAt(a.key.range.start - 1) === 37) return undefined;
  const next = skipTrivia(text, stop, end);
  if (next < end && (instructionEquals(text, next, end) >= 0 || text.charCodeAt(next) === 125))
    return undefined;
  const parts: PlainParts = {
    rootKeyword,
    name: name.name,
    opcode: opcode.name,
    parameter,
    operands,
    calledComputations,
    controlPredecessors,
    attributes,
    inlineComputation: inlineOpening(text, end, attributes),
  };
  return new PlainInstruction(text, { start, end }, skipTrivia(text, equals + 1, end), parts, scan);
}
