/**
 * Reads an instruction after its `name =`: the result shape (or its absence), the opcode, operands
 * (with instructions written in their place), a parameter's number, a constant's range, attributes
 * and a second instruction on the same line.
 */
import type { ShapeNode } from '../ast';
import { addAttributeListError, attributeListError } from './attribute-checks';
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import type { ScanState } from '../parse';
import { renamedInstruction, spansLines } from './instruction-start';
import { typeAt } from '../parse/type-names';
import { leftoverAt } from './leftover';
import { computationValueError } from './computation-values';
import { constantLiteralError } from './constant-literal';
import { layoutConstraintsDiagnostic, operandCount, operandCountDiagnostic } from './operand-counts';
import { isOpcode, LITERAL_OPCODES, opcodeGuesses } from './opcodes';
import { charAt, readName, skipBalanced, skipTrivia, skipValue, trimmedEnd } from './lex';
import { isIdentifierStart } from './split-statements';
import { startIndicesOf } from './start-indices';
import { inlineOpening, readAttributes } from './statement-attributes';
import { looksLikeShape, named, Shapes, shapeOmitted } from './statement-shapes';
import type {
  CalledComputationRef,
  HloAttribute,
  HloMetadata,
  HloName,
  HloStatement,
  InstructionStatement,
  OperandRef,
  ParameterNumber,
  Writable,
} from './types';

export function parseInstruction(
  text: string,
  range: TextRange,
  rootKeyword: TextRange | undefined,
  name: HloName,
  pos: number,
  scan: ScanState,
): { statement: HloStatement; rest: number } {
  const { end } = range;
  const shapes = new Shapes(text, scan);
  const operands: OperandRef[] = [];
  const calledComputations: CalledComputationRef[] = [];
  const controlPredecessors: HloName[] = [];
  const attributes: HloAttribute[] = [];
  let metadata: HloMetadata | undefined;
  let opcode: HloName | undefined;
  let parameter: ParameterNumber | undefined;
  let rest = -1;
  const at = skipTrivia(text, pos, end);
  const r = shapeOmitted(text, at, end)
    ? { shape: undefined, end: at, failed: false }
    : shapes.parseAt(at, end);
  const p = skipTrivia(text, r.end, end);
  const op = readName(text, p, end);
  // XLA's lexer skips blanks, line breaks and comments between the opcode and its `(`.
  const paren = op ? skipTrivia(text, op.end, end) : -1;
  if (op && charAt(text, paren, end) === 40 && charAt(text, p, end) !== 37) {
    opcode = op.name;
    // Without a result shape the word after `=` must be an opcode: `bb(f32[2])` is no shape then.
    // After a shape, an unknown word one edit from an opcode is a typo; any other may be an opcode
    // of another XLA version, and is left to XLA.
    const name = op.name.name;
    if (!isOpcode(name)) {
      const guesses = opcodeGuesses(name);
      if (!r.shape || guesses.length > 0)
        shapes.report(
          'unknown-opcode',
          `expects opcode but sees: ${name}, error: Unknown opcode: ${name}`,
          op.name.range,
          guesses.length > 0
            ? `unknown opcode \`${name}\`; did you mean ${guesses.map((g) => `\`${g}\``).join(' or ')}?`
            : `\`${name}\` is no opcode, and no shape stands before it`,
        );
    }
    const close = skipBalanced(text, paren, end);
    if (!LITERAL_OPCODES.has(op.name.name)) readOperands(text, paren + 1, close, shapes, operands);
    else if (op.name.name === 'parameter') parameter = parameterNumber(text, paren + 1, close);
    else if (op.name.name === 'constant' && !r.failed) {
      const literal = constantLiteralError(text, r.shape, op.name.range, paren + 1, end);
      if (literal) shapes.diagnostics.push(literal);
    }
    // XLA counts the operands once it has read them all: an error among them, or before, comes first.
    const count =
      charAt(text, close - 1, end) === 41 && !hasError(shapes)
        ? operandCount(text, paren, close - 1)
        : undefined;
    const a = readAttributes(text, close, end, attributes, calledComputations, controlPredecessors, shapes);
    metadata = a.metadata;
    const counted =
      count === undefined
        ? undefined
        : (operandCountDiagnostic(op.name.name, count, { start: paren, end: close }, r.shape, attributes) ??
          afterAttributes(startIndicesOf(text, op.name.name, paren, close, end, shapes.found)) ??
          afterAttributes(layoutConstraintsDiagnostic(text, op.name.name, count, attributes)));
    // A count XLA checks before the attributes stops it there, before any error in them.
    if (counted && !counted.afterAttributes) shapes.diagnostics.push(counted.diagnostic);
    // XLA reads instructions one after another, line breaks or not: a name or `}` after the
    // attribute list on the line starts the next statement (a second instruction, the `}` closing
    // the computation, or a word XLA then fails on), as on a line of its own.
    const next = skipTrivia(text, a.end, end);
    const after = charAt(text, next, end);
    const second = next < end && (isIdentifierStart(after) || after === 37 || after === 125);
    if (second) rest = next;
    // Anything else left over in an instruction that spans lines (the splitter continued it with a
    // line no statement starts with) is XLA's next token: an error there unless it may start what
    // XLA reads next. On one line it is left unread but a `;` or an attribute XLA cannot read.
    const leftover =
      !second &&
      next < end &&
      (spansLines(text, range.start, end) || spacedAttribute(text, next, end) || text.charCodeAt(next) === 59)
        ? leftoverAt(text, next, end)
        : [];
    // XLA's list ends at anything but a comma, and it looks for the missing keys there, before
    // reading on; past a comma, the leftover is an attribute it fails to read.
    const listEnded = leftover.length === 0 || charAt(text, next, end) !== 44;
    const listError = attributeListError(text, op.name.name, attributes, close, end, listEnded);
    addAttributeListError(shapes.diagnostics, listError);
    addAttributeListError(shapes.diagnostics, computationValueError(text, op.name.name, attributes, end));
    if (leftover.length > 0 && shapes.diagnostics.length === 0) shapes.diagnostics.push(...leftover);
    if (counted?.afterAttributes && !hasError(shapes)) shapes.diagnostics.unshift(counted.diagnostic);
  } else if (!r.failed && (!op || charAt(text, p, end) === 37)) {
    shapes.reportAt('extra-content', p, end, afterResultWords(text, p, end, r.shape), 'expects opcode');
  }
  const statementEnd = rest >= 0 ? trimmedEnd(text, range.start, rest) : end;
  const inlineComputation = inlineOpening(text, statementEnd, attributes);
  const statementRange = { start: range.start, end: statementEnd };
  // Built field by field, optional ones only when present: spreading `...(x ? { x } : {})` into
  // a literal is a runtime call per field, and a dump has an instruction per line.
  const statement: Writable<InstructionStatement> = {
    kind: 'instruction',
    range: statementRange,
    root: rootKeyword !== undefined,
  } as InstructionStatement;
  if (rootKeyword) statement.rootKeyword = rootKeyword;
  statement.name = name;
  if (r.shape) statement.shape = r.shape;
  if (opcode) statement.opcode = opcode;
  if (parameter) statement.parameter = parameter;
  statement.operands = operands;
  statement.calledComputations = calledComputations;
  statement.controlPredecessors = controlPredecessors;
  statement.attributes = attributes;
  if (metadata) statement.metadata = metadata;
  if (inlineComputation) statement.inlineComputation = inlineComputation;
  statement.shapes = shapes.scanRest(statementRange);
  statement.diagnostics = shapes.diagnostics;
  const renamed = renamedError(text, name, statement);
  if (renamed) statement.diagnostics = [renamed, ...statement.diagnostics];
  return { statement, rest };
}

/**
 * XLA's error on an instruction name it would rename (`%f32`: a primitive type's name; `%__a`),
 * which it raises once the instruction is read, so only when nothing before failed; without a `%`,
 * an element type's name is no name at all to its lexer, which fails on it first.
 */
function renamedError(
  text: string,
  name: HloName,
  statement: InstructionStatement,
): LayoutDiagnostic | undefined {
  const { start, end } = name.range;
  const sigil = start > statement.range.start && text.charCodeAt(start - 1) === 37;
  if (!sigil) {
    if (typeAt(text, start, end) === undefined) return undefined;
    return diagnostic(
      'invalid-name',
      'expects name',
      name.range,
      `\`${name.name}\` is an element type, which cannot name an instruction: rename it (\`${name.name}_\`)`,
    );
  }
  const renamed = renamedInstruction(text, start, end);
  const failed = (d: LayoutDiagnostic) => d.severity === 'error';
  if (
    renamed === undefined ||
    statement.diagnostics.some(failed) ||
    statement.shapes.some((f) => f.diagnostics.some(failed))
  )
    return undefined;
  const why =
    renamed.endsWith('_') && renamed.length === name.name.length + 1
      ? 'an element type, a keyword of the HLO text,'
      : 'a name starting with `__` (kept for XLA itself, unless `__xla_`),';
  return diagnostic(
    'invalid-name',
    `illegal instruction name: ${name.name}; suggest renaming to: ${renamed}`,
    { start: start - 1, end },
    `\`%${name.name}\` is ${why} which XLA does not take as an instruction name: rename it to %${renamed}`,
  );
}

/**
 * `d`, a rule XLA checks after the attributes (a dynamic-slice's start indices against the shapes
 * written in the statement, a custom-call's operand layout constraints), as the count rules give it.
 */
function afterAttributes(
  d: LayoutDiagnostic | undefined,
): { readonly diagnostic: LayoutDiagnostic; readonly afterAttributes: boolean } | undefined {
  return d && { diagnostic: d, afterAttributes: true };
}

/** Whether the statement read so far holds an error, its own or one of its shapes'. */
function hasError(shapes: Shapes): boolean {
  const error = (d: LayoutDiagnostic) => d.severity === 'error';
  return shapes.diagnostics.some(error) || shapes.found.some((f) => f.diagnostics.some(error));
}

/** What is wrong where XLA expects the opcode after the result shape `shape`, in plain words. */
/** Whether `text[pos, end)` is `, name =` with trivia before the `=`: an attribute XLA cannot read. */
function spacedAttribute(text: string, pos: number, end: number): boolean {
  if (charAt(text, pos, end) !== 44) return false;
  const key = readName(text, skipTrivia(text, pos + 1, end), end);
  return key !== undefined && charAt(text, skipTrivia(text, key.end, end), end) === 61;
}

function afterResultWords(text: string, p: number, end: number, shape: ShapeNode | undefined): string {
  if (p >= end) return 'the instruction ends after its shape, without an opcode';
  if (
    charAt(text, p, end) === 123 &&
    shape?.kind === 'array' &&
    charAt(text, skipTrivia(text, p + 1, end), end) === 125
  )
    return '`{}` after the shape is no layout (a layout holds the dimension order or starts with `:`, as in `{0}` or `{:T(128)}`); remove it';
  return 'expected the opcode after the result shape';
}

/** The number in `parameter(N)`, between `(` at `start - 1` and `close`: digits only, as XLA's parser reads it. */
export function parameterNumber(text: string, start: number, close: number): ParameterNumber | undefined {
  const end = charAt(text, close - 1, close) === 41 ? close - 1 : close;
  const from = skipTrivia(text, start, end);
  let to = from;
  while (to < end && text.charCodeAt(to) >= 48 && text.charCodeAt(to) <= 57) to++;
  if (to === from || to - from > 15 || skipTrivia(text, to, end) !== end) return undefined;
  return { value: Number(text.slice(from, to)), range: { start: from, end: to } };
}

/**
 * How deep instructions written in place of operands are read for names (`add(%a, negate(negate(%b)))`):
 * deeper ones, which nobody writes by hand, are skipped unread rather than risk the stack.
 */
const MAX_NESTED_OPERANDS = 16;

/**
 * Operands between `(` and the matching `)`: `[shape] name` separated by commas. An instruction
 * written in place of an operand (`[shape] opcode(operands)`, which XLA's parser adds to the same
 * computation) contributes the names of its own operands, looked up in the same scope.
 */
export function readOperands(
  text: string,
  start: number,
  close: number,
  shapes: Shapes,
  out: OperandRef[],
  depth = 0,
): void {
  const end = Math.max(start, charAt(text, close - 1, close) === 41 ? close - 1 : close);
  let p = start;
  while (p < end) {
    p = skipTrivia(text, p, end);
    if (p >= end) break;
    if (charAt(text, p, end) === 44) {
      p++;
      continue;
    }
    const segment = p;
    if (charAt(text, p, end) === 37 && !isIdentifierStart(charAt(text, p + 1, end))) {
      // `%` opens a name only before a letter or `_`: `%0x` is no name to XLA's lexer.
      const stop = skipValue(text, p, end);
      shapes.report(
        'invalid-name',
        'cannot parse as an instruction name or as a nested instruction',
        { start: p, end: Math.max(stop, p + 1) },
        `\`${text.slice(p, stop)}\` is no name: a name starts with a letter or _`,
      );
      p = Math.max(stop, p + 1);
      continue;
    }
    let shape: ShapeNode | undefined;
    if (looksLikeShape(text, p, end)) {
      const s = shapes.parseAt(p, end);
      shape = s.shape;
      p = skipTrivia(text, s.end, end);
    }
    const n = readName(text, p, end);
    if (n) {
      const open = skipTrivia(text, n.end, end);
      if (charAt(text, open, end) !== 40) {
        out.push(named(n.name, shape));
        p = n.end;
      } else if (depth < MAX_NESTED_OPERANDS && !LITERAL_OPCODES.has(n.name.name)) {
        const nestedClose = skipBalanced(text, open, end);
        readOperands(text, open + 1, nestedClose, shapes, out, depth + 1);
        nestedCountError(text, n.name.name, segment, open, nestedClose, shape, shapes);
        p = nestedClose;
      }
    }
    // Skip whatever else the operand holds, up to the next top-level comma.
    p = skipValue(text, p, end);
    if (p === segment) p++;
  }
}

/**
 * Reports a wrong operand count of the instruction written in place of an operand at `start`, its
 * operands between `(` at `open` and `close`, unless an error came before. XLA reads it without
 * attributes: only the counts it checks before them apply. Its first message names the operand
 * (`cannot parse as an instruction name or as a nested instruction`), the count's comes next.
 */
function nestedCountError(
  text: string,
  opcode: string,
  start: number,
  open: number,
  close: number,
  shape: ShapeNode | undefined,
  shapes: Shapes,
): void {
  if (charAt(text, close - 1, close) !== 41 || hasError(shapes)) return;
  const count = operandCount(text, open, close - 1);
  const counted =
    count === undefined ? undefined : operandCountDiagnostic(opcode, count, { start, end: close }, shape, []);
  if (counted && !counted.afterAttributes) shapes.diagnostics.push(counted.diagnostic);
}
