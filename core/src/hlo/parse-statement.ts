/**
 * Reads one HLO statement (a range from `splitStatements`) into a {@link HloStatement}. Shapes at
 * known positions (result, operand annotations, signature parameters, entry_computation_layout)
 * go through the shape parser; the shape finder covers whatever text is left between them
 * (attribute values such as `outfeed_shape=`), so every shape of the statement is reported once.
 * Never throws: what it cannot read becomes an `unknown` statement or an absent field.
 */
import type { ShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type RuleCode, type TextRange } from '../diagnostics';
import { parseShape, scanShapes, ScanState } from '../parse';
import { unterminatedComment } from '../parse/lexical-lines';
import { tokenAt } from '../parse/tokens';
import { primitiveType } from '../primitive-types';
import { hasBadSigil, instructionEquals } from './instruction-start';
import { literalOutOfRange } from './literal-range';
import { asyncFormOf, hloOpcode } from './opcodes';
import { COMPUTATION_ATTRIBUTES } from './attribute-table';
import {
  charAt,
  lastNonBlank,
  readName,
  readString,
  skipBalanced,
  skipString,
  skipTrivia,
  skipValue,
} from './lex';
import { isIdentifierChar, isIdentifierStart } from './split-statements';
import type {
  CalledComputationRef,
  ComputationParameter,
  EntryComputationLayout,
  HloAttribute,
  HloMetadata,
  HloName,
  HloStatement,
  InlineComputationOpening,
  InstructionStatement,
  OperandRef,
  ParameterNumber,
  StatementShape,
  Writable,
} from './types';

/** A line that is `// -----` and nothing else: the split marker of XLA's `--split-input-file` tests. */
const SEPARATOR_LINE = /^[ \t]*\/\/ -----[ \t]*\r?$/m;

/** Opcodes whose parentheses hold literals, not operand names. */
export const LITERAL_OPCODES: ReadonlySet<string> = new Set(['constant', 'parameter', 'iota']);

/** `name` with its `shape` when there is one (an operand's annotation, a parameter's shape). */
function named(name: HloName, shape: ShapeNode | undefined): OperandRef {
  return shape ? { name: name.name, range: name.range, shape } : { name: name.name, range: name.range };
}

/** Collects the shapes of one statement and the text ranges already read structurally. */
class Shapes {
  readonly found: StatementShape[] = [];
  readonly diagnostics: LayoutDiagnostic[] = [];
  private readonly covered: TextRange[] = [];
  /**
   * The finder's memos, shared by the statement's parses and scans, and by the statements of one
   * text when the caller passes one state for all of them (see {@link parseStatements}).
   */
  constructor(
    private readonly text: string,
    private readonly scanState: ScanState,
  ) {}

  /** Parses the shape at `pos`; returns it (or undefined), where parsing stopped and whether an error stopped it. */
  parseAt(pos: number, end: number): { shape: ShapeNode | undefined; end: number; failed: boolean } {
    const r = parseShape(this.text, pos, { end, scan: this.scanState });
    const stop = Math.max(pos, Math.min(r.end, end));
    if (r.shape) this.found.push({ shape: r.shape, diagnostics: r.diagnostics });
    else this.diagnostics.push(...r.diagnostics);
    this.covered.push({ start: pos, end: stop });
    return { shape: r.shape, end: stop, failed: r.failed };
  }

  /** Records an error of the statement itself (not of one of its shapes): XLA's `message`, `plain` words. */
  report(code: RuleCode, message: string, range: TextRange, plain?: string): void {
    this.diagnostics.push(diagnostic(code, message, range, plain));
  }

  /** Records XLA's `xla` with plain `words` (if any) on the token at `pos`, or on `pos` itself at the end. */
  reportAt(code: RuleCode, pos: number, end: number, words: string, xla: string): void {
    const t = tokenAt(this.text, pos, end);
    this.report(code, xla, { start: t.start, end: t.end }, words || undefined);
  }

  /** Runs the shape finder over every part of `range` the structured reading did not cover. */
  scanRest(range: TextRange): StatementShape[] {
    const covered = this.covered.sort((a, b) => a.start - b.start);
    let pos = range.start;
    for (const c of covered) {
      if (c.start > pos) this.scan(pos, c.start);
      pos = Math.max(pos, c.end);
    }
    if (pos < range.end) this.scan(pos, range.end);
    return this.found.sort((a, b) => a.shape.range.start - b.shape.range.start);
  }

  private scan(start: number, end: number): void {
    for (const f of scanShapes(this.text, start, end, this.scanState))
      this.found.push({ shape: f.shape, diagnostics: f.diagnostics });
  }
}

/**
 * Does an operand start with a shape annotation: `(`, `b(`, an element type, or any other word
 * before `[` (an element type XLA does not know, reported as such, never taken for a name)?
 */
function looksLikeShape(text: string, pos: number, end: number): boolean {
  const c = charAt(text, pos, end);
  if (c === 40) return true;
  if (c === 37) return false;
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  if (i === pos) return false;
  const n = charAt(text, i, end);
  if (n === 40) return i === pos + 1 && c === 98;
  return (
    primitiveType(text.slice(pos, i)) !== undefined || charAt(text, skipTrivia(text, i, end), end) === 91
  );
}

/**
 * Whether the instruction's result shape is left out (XLA infers it): an opcode, a word other than
 * an element type, followed by `(` (`%y = negate(%x)`), rather than a shape (`b(...)` is one).
 */
function shapeOmitted(text: string, pos: number, end: number): boolean {
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  if (i === pos || (i === pos + 1 && charAt(text, pos, end) === 98)) return false;
  if (primitiveType(text.slice(pos, i)) !== undefined) return false;
  return charAt(text, skipTrivia(text, i, end), end) === 40;
}

/** Names in a `calls=` or `control-predecessors=` style value: `%a` or `{%a, %b}`. */
function readNameList(text: string, start: number, end: number, push: (name: HloName) => void): void {
  let p = skipTrivia(text, start, end);
  if (charAt(text, p, end) !== 123) {
    const n = readName(text, p, end);
    if (n) push(n.name);
    return;
  }
  p++;
  while (p < end) {
    p = skipTrivia(text, p, end);
    const n = readName(text, p, end);
    if (!n) break;
    push(n.name);
    p = skipTrivia(text, n.end, end);
    if (charAt(text, p, end) !== 44) break;
    p++;
  }
}

/** Whether `c` ends a metadata value written without quotes: white space (`\s`), `,` or `}`. */
function endsBareValue(c: number): boolean {
  if (c === 44 || c === 125 || c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && /\s/.test(String.fromCharCode(c));
}

/** `{op_name="..." source_file="..." source_line=12 ...}` (keys separated by spaces). */
function readMetadata(text: string, start: number, end: number): HloMetadata {
  const fields: Writable<Partial<HloMetadata>> = {};
  let p = charAt(text, start, end) === 123 ? start + 1 : start;
  while (p < end) {
    p = skipTrivia(text, p, end);
    const key = readName(text, p, end);
    if (!key || charAt(text, key.end, end) !== 61) break;
    p = key.end + 1;
    const valueStart = p;
    let value: string;
    if (charAt(text, p, end) === 34) {
      const s = readString(text, p, end);
      value = s.value;
      p = s.end;
    } else {
      const s = p;
      while (p < end && !endsBareValue(text.charCodeAt(p))) p++;
      value = text.slice(s, p);
    }
    switch (key.name.name) {
      case 'op_name':
        fields.opName = value;
        break;
      case 'op_type':
        fields.opType = value;
        break;
      case 'source_file':
        fields.sourceFile = value;
        fields.sourceFileRange = { start: valueStart, end: p };
        break;
      case 'source_line': {
        const n = Number(value);
        if (Number.isSafeInteger(n)) {
          fields.sourceLine = n;
          fields.sourceLineRange = { start: valueStart, end: p };
        }
        break;
      }
    }
    if (charAt(text, p, end) === 44) p++;
  }
  fields.range = { start, end };
  return fields as HloMetadata;
}

/** Where a plain attribute value starting at `vs` ends: a string, or a balanced value. */
function valueEnd(text: string, vs: number, end: number): number {
  return charAt(text, vs, end) === 34 ? skipString(text, vs, end) : skipValue(text, vs, end);
}

/**
 * Reads `, key=value` pairs from `pos` on into `attributes`; `readValue` reads each value (it may
 * parse it) and returns where it ends. Returns where the list stopped, as XLA's parser stops.
 * Past a stray comma (`, , key=...`, mid-typing) the pairs after it are still read, for the
 * editor's sake (completion skips keys present, navigation follows `to_apply=`), but the list
 * still stops at that comma.
 */
function readKeyValues(
  text: string,
  pos: number,
  end: number,
  attributes: HloAttribute[],
  readValue: (key: HloName, valueStart: number) => number,
): number {
  let p = pos;
  let stop = -1;
  for (;;) {
    // Each attribute follows a comma, and `key=` is one token to XLA's lexer: anything else ends
    // the list (and may be the next statement on the line).
    p = skipTrivia(text, p, end);
    if (charAt(text, p, end) !== 44) break;
    let at = skipTrivia(text, p + 1, end);
    if (charAt(text, at, end) === 44) {
      if (stop < 0) stop = p;
      while (charAt(text, at, end) === 44) at = skipTrivia(text, at + 1, end);
    }
    const key = readName(text, at, end);
    if (!key || charAt(text, key.end, end) !== 61) break;
    const vs = skipTrivia(text, key.end + 1, end);
    const ve = readValue(key.name, vs);
    attributes.push({ key: key.name, valueRange: { start: vs, end: ve } });
    p = Math.max(ve, key.end + 1);
  }
  return stop < 0 ? p : stop;
}

/** An instruction's `, key=value` pairs from `pos` on; fills the attribute, call, control and metadata lists. */
function readAttributes(
  text: string,
  pos: number,
  end: number,
  attributes: HloAttribute[],
  calls: CalledComputationRef[],
  controls: HloName[],
): { metadata?: HloMetadata; end: number } {
  let metadata: HloMetadata | undefined;
  const p = readKeyValues(text, pos, end, attributes, (key, vs) => {
    const ve = valueEnd(text, vs, end);
    if (COMPUTATION_ATTRIBUTES.has(key.name))
      readNameList(text, vs, ve, (n) => calls.push({ name: n.name, range: n.range, attribute: key.name }));
    else if (key.name === 'control-predecessors') readNameList(text, vs, ve, (n) => controls.push(n));
    else if (key.name === 'metadata') metadata = readMetadata(text, vs, ve);
    return ve;
  });
  return { metadata, end: p };
}

/**
 * `{(p0, p1, ...)->result}` at `pos` (the `{`), with XLA's messages (ParseComputationLayout) for a
 * bracket or arrow missing; the first error ends the reading, as it ends XLA's.
 */
function readEntryLayout(text: string, pos: number, end: number, shapes: Shapes): EntryComputationLayout {
  const valueEnd = skipValue(text, pos, end);
  const parameters: ShapeNode[] = [];
  const layout = (result?: ShapeNode): EntryComputationLayout => ({
    range: { start: pos, end: valueEnd },
    parameters,
    ...(result ? { result } : {}),
  });
  const expected = (at: number, xla: string): EntryComputationLayout => {
    shapes.reportAt('expected-token', at, end, '', xla);
    return layout();
  };
  let p = skipTrivia(text, pos + 1, valueEnd);
  if (charAt(text, p, valueEnd) !== 40) return expected(p, 'Expects ( before parameter shape list');
  p = skipTrivia(text, p + 1, valueEnd);
  while (charAt(text, p, valueEnd) !== 41) {
    const r = shapes.parseAt(p, valueEnd);
    if (!r.shape || r.failed) return layout();
    parameters.push(r.shape);
    p = skipTrivia(text, r.end, valueEnd);
    const c = charAt(text, p, valueEnd);
    if (c === 41) break;
    if (c !== 44) return expected(p, 'Expects , between parameter shapes');
    p = skipTrivia(text, p + 1, valueEnd);
  }
  p = skipTrivia(text, p + 1, valueEnd);
  if (!text.startsWith('->', p) || p + 2 > valueEnd) return expected(p, 'Expects -> before result shape');
  const r = shapes.parseAt(skipTrivia(text, p + 2, valueEnd), valueEnd);
  if (!r.shape || r.failed) return layout();
  p = skipTrivia(text, r.end, end);
  if (charAt(text, p, end) !== 125)
    shapes.reportAt('expected-token', p, end, '', "Expects '}' at the end of computation layouts");
  return layout(r.shape);
}

function parseModuleHeader(text: string, range: TextRange, pos: number, scan: ScanState): HloStatement {
  const { end } = range;
  const shapes = new Shapes(text, scan);
  const attributes: HloAttribute[] = [];
  let entryComputationLayout: EntryComputationLayout | undefined;
  let p = skipTrivia(text, pos, end);
  const name = readName(text, p, end);
  if (name) p = name.end;
  readKeyValues(text, p, end, attributes, (key, vs) => {
    if (key.name === 'entry_computation_layout' && charAt(text, vs, end) === 123) {
      entryComputationLayout = readEntryLayout(text, vs, end, shapes);
      return entryComputationLayout.range.end;
    }
    return valueEnd(text, vs, end);
  });
  return {
    kind: 'module',
    range,
    ...(name ? { name: name.name } : {}),
    attributes,
    ...(entryComputationLayout ? { entryComputationLayout } : {}),
    shapes: shapes.scanRest(range),
    diagnostics: shapes.diagnostics,
  };
}

function parseComputationHeader(
  text: string,
  range: TextRange,
  entryKeyword: TextRange | undefined,
  name: HloName | undefined,
  pos: number,
  scan: ScanState,
): { statement: HloStatement; rest: number } {
  const { end } = range;
  const shapes = new Shapes(text, scan);
  const parameters: ComputationParameter[] = [];
  let result: ShapeNode | undefined;
  let rest = -1;
  // XLA's parser stops at its first error: so does this reading, leaving the rest unjudged.
  let ok = true;
  let p = skipTrivia(text, pos, end);
  if (charAt(text, p, end) === 40) {
    p = skipTrivia(text, p + 1, end);
    if (charAt(text, p, end) === 41) p++;
    else
      for (;;) {
        // `name:` is one token to XLA's lexer: no `%`, nothing between the name and the colon.
        const n = readName(text, p, end);
        if (!n || charAt(text, p, end) === 37 || charAt(text, n.end, end) !== 58) {
          const sigil = n && charAt(text, p, end) === 37;
          shapes.reportAt(
            'invalid-name',
            sigil ? n.end : p,
            end,
            sigil ? 'a parameter is written `name: shape`, without %' : 'expected a parameter `name: shape`',
            sigil ? 'expected primitive type, saw kColon' : 'expects name',
          );
          ok = false;
          break;
        }
        const r = shapes.parseAt(skipTrivia(text, n.end + 1, end), end);
        parameters.push(named(n.name, r.shape));
        if (r.failed || !r.shape) {
          ok = false;
          break;
        }
        p = skipTrivia(text, r.end, end);
        const c = charAt(text, p, end);
        if (c === 44) {
          p = skipTrivia(text, p + 1, end);
          continue;
        }
        if (c !== 41) {
          shapes.reportAt('expected-token', p, end, '', "expects ')' at the end of param list");
          ok = false;
        }
        p++;
        break;
      }
    p = skipTrivia(text, p, end);
    if (ok && !text.startsWith('->', p)) {
      shapes.reportAt(
        'expected-token',
        p,
        end,
        'expected `->` and the result shape after the parameters',
        "expects '->'",
      );
      ok = false;
    }
  }
  if (ok && text.startsWith('->', p)) {
    const r = shapes.parseAt(skipTrivia(text, p + 2, end), end);
    result = r.shape;
    ok = !r.failed && r.shape !== undefined;
    p = skipTrivia(text, r.end, end);
  }
  if (ok) {
    if (charAt(text, p, end) !== 123) {
      const words =
        p === skipTrivia(text, pos, end)
          ? "expected `(` and the parameters, or `{`, after the computation's name"
          : "expected `{` to open the computation's body";
      shapes.reportAt('expected-token', p, end, words, "expects '{' at the beginning of instruction list.");
    } else {
      const next = skipTrivia(text, p + 1, end);
      if (next < end && instructionEquals(text, next, end) >= 0) rest = next;
    }
  }
  const statementRange = rest >= 0 ? { start: range.start, end: trimmedEnd(text, range.start, rest) } : range;
  return {
    statement: {
      kind: 'computation',
      range: statementRange,
      entry: entryKeyword !== undefined,
      ...(entryKeyword ? { entryKeyword } : {}),
      ...(name ? { name } : {}),
      parameters,
      ...(result ? { result } : {}),
      shapes: shapes.scanRest(statementRange),
      diagnostics: shapes.diagnostics,
    },
    rest,
  };
}

function parseInstruction(
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
  if (op && charAt(text, op.end, end) === 40 && charAt(text, p, end) !== 37) {
    opcode = op.name;
    // Without a result shape the word after `=` must be an opcode: `bb(f32[2])` is no shape then.
    if (!r.shape && hloOpcode(op.name.name) === undefined && asyncFormOf(op.name.name) === undefined)
      shapes.report(
        'unknown-opcode',
        `expects opcode but sees: ${op.name.name}, error: Unknown opcode: ${op.name.name}`,
        op.name.range,
        `\`${op.name.name}\` is no opcode, and no shape stands before it`,
      );
    const close = skipBalanced(text, op.end, end);
    if (!LITERAL_OPCODES.has(op.name.name)) readOperands(text, op.end + 1, close, shapes, operands);
    else if (op.name.name === 'parameter') parameter = parameterNumber(text, op.end + 1, close);
    else if (op.name.name === 'constant') {
      const outOfRange = literalOutOfRange(text, op.end + 1, close, r.shape);
      if (outOfRange) shapes.diagnostics.push(outOfRange);
    }
    const a = readAttributes(text, close, end, attributes, calledComputations, controlPredecessors);
    metadata = a.metadata;
    // XLA reads instructions one after another, line breaks or not: a second one on the line.
    const next = skipTrivia(text, a.end, end);
    if (next < end && instructionEquals(text, next, end) >= 0) rest = next;
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
  return { statement, rest };
}

/** What is wrong where XLA expects the opcode after the result shape `shape`, in plain words. */
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

/** `pos` moved back over blanks to the end of the text before it (not before `start`). */
function trimmedEnd(text: string, start: number, pos: number): number {
  while (pos > start && /\s/.test(text[pos - 1] ?? '')) pos--;
  return pos;
}

/**
 * The last attribute when it names computations and its value is a `{` with nothing but trivia
 * after it in the statement: the opening of a computation written in place, whose instructions the
 * statement splitter leaves to the statements that follow.
 */
function inlineOpening(
  text: string,
  end: number,
  attributes: readonly HloAttribute[],
): InlineComputationOpening | undefined {
  const last = attributes[attributes.length - 1];
  if (!last || !COMPUTATION_ATTRIBUTES.has(last.key.name)) return undefined;
  const brace = last.valueRange.start;
  if (charAt(text, brace, end) !== 123 || skipTrivia(text, brace + 1, end) < end) return undefined;
  return { attribute: last.key, brace: { start: brace, end: brace + 1 } };
}

/** The number in `parameter(N)`, between `(` at `start - 1` and `close`: digits only, as XLA's parser reads it. */
function parameterNumber(text: string, start: number, close: number): ParameterNumber | undefined {
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
function readOperands(
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
        p = nestedClose;
      }
    }
    // Skip whatever else the operand holds, up to the next top-level comma.
    p = skipValue(text, p, end);
    if (p === segment) p++;
  }
}

/**
 * Parses the statement at `range` of `text` (normally one range from `splitStatements`). All
 * ranges in the result are absolute offsets into `text`. When another statement starts on the
 * same line (`a = f32[2] parameter(0) b = f32[2] negate(a)`, which XLA reads as two), the result
 * covers the first and `following` says where the next begins; {@link parseStatements} goes on
 * from there. A caller parsing many statements of one text passes one `scan` for all of them:
 * the finder then searches each stretch of the text once, not once per statement.
 */
export function parseStatement(
  text: string,
  range: TextRange,
  scan: ScanState = new ScanState(),
): HloStatement {
  const start = Math.max(0, Math.min(range.start, text.length));
  const end = Math.max(start, Math.min(range.end, text.length));
  const statement = withStraySigil(text, parseBounded(text, { start, end }, scan));
  // A `/*` never closed: XLA's lexer fails there, and the rest of the text is the comment's.
  const open = unterminatedComment(text, statement.range.start, statement.range.end);
  if (open < 0) return statement;
  const unterminated = diagnostic(
    'unterminated-comment',
    "this /* comment is never closed, so all that follows is part of it, and XLA's lexer fails here",
    { start: open, end: open + 2 },
  );
  // What the statement lacks after it is the comment's doing.
  const before = statement.diagnostics.filter((d) => d.range.start < open);
  return { ...statement, diagnostics: [...before, unterminated] };
}

/**
 * The statement with an error on its first `%` that opens no name (`%0x`, `%.a`: XLA's lexer
 * reads no name there, "expects name"), outside strings and comments, unless it has one there.
 */
function withStraySigil(text: string, statement: HloStatement): HloStatement {
  const { start, end } = statement.range;
  if (!hasBadSigil(text, start, end)) return statement;
  const at = straySigil(text, start, end);
  if (at < 0 || statement.diagnostics.some((d) => d.range.start === at)) return statement;
  let stop = at + 1;
  while (stop < end && isIdentifierChar(text.charCodeAt(stop))) stop++;
  const stray = diagnostic(
    'invalid-name',
    'expects name',
    { start: at, end: Math.max(at + 1, stop) },
    `\`${text.slice(at, stop)}\` is no name: a name starts with a letter or _`,
  );
  const diagnostics = [...statement.diagnostics, stray].sort((a, b) => a.range.start - b.range.start);
  return { ...statement, diagnostics };
}

/** Offset of the first `%` in `text[start, end)`, outside strings and comments, not followed by a letter or `_`; -1. */
function straySigil(text: string, start: number, end: number): number {
  for (let i = skipTrivia(text, start, end); i < end; i = skipTrivia(text, i, end)) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) i = skipString(text, i, end);
    else if (c === 37 && !isIdentifierStart(charAt(text, i + 1, end))) return i;
    else i++;
  }
  return -1;
}

/** The statements of `ranges` (from `splitStatements`), two or more where XLA reads more on one line. */
export function parseStatements(text: string, ranges: readonly TextRange[]): HloStatement[] {
  const out: HloStatement[] = [];
  const scan = new ScanState();
  for (const range of ranges) {
    let r = range;
    for (;;) {
      const st = parseStatement(text, r, scan);
      out.push(st);
      if (st.following === undefined) break;
      r = { start: st.following, end: r.end };
    }
  }
  return out;
}

function parseBounded(text: string, r: TextRange, scan: ScanState): HloStatement {
  const { start, end } = r;
  const p = skipTrivia(text, start, end);
  if (p >= end) {
    // Only whitespace and comments.
    const trivia = text.slice(start, end);
    const kind = SEPARATOR_LINE.test(trivia) ? 'separator' : /\S/.test(trivia) ? 'comment' : 'blank';
    return { kind, range: r, shapes: [], diagnostics: [] };
  }
  if (charAt(text, p, end) === 125) return parseClose(text, r, p);
  const first = readName(text, p, end);
  if (first?.name.name === 'HloModule' && charAt(text, p, end) !== 37)
    return parseModuleHeader(text, r, first.end, scan);
  let keyword: TextRange | undefined;
  let q = p;
  if (first && charAt(text, p, end) !== 37 && (first.name.name === 'ENTRY' || first.name.name === 'ROOT')) {
    keyword = first.name.range;
    q = skipTrivia(text, first.end, end);
  }
  const entry = keyword !== undefined && first?.name.name === 'ENTRY';
  const root = keyword !== undefined && !entry;
  const name = readName(text, q, end);
  const after = name ? skipTrivia(text, name.end, end) : q;
  const c = charAt(text, after, end);
  if (name && !entry && c === 61)
    return withFollowing(parseInstruction(text, r, root ? keyword : undefined, name.name, after + 1, scan));
  // A header is `[ENTRY] name (...) -> shape {` or `name {`; a line that names something, is no
  // instruction and ends in `{` is one too, with something XLA does not expect after its name.
  if (
    !root &&
    (c === 40 ||
      c === 123 ||
      text.startsWith('->', after) ||
      (name && lastNonBlank(text, after, end) === 123))
  )
    return withFollowing(
      parseComputationHeader(text, r, entry ? keyword : undefined, name?.name, after, scan),
    );
  const shapes = new Shapes(text, scan);
  return { kind: 'unknown', range: r, shapes: shapes.scanRest(r), diagnostics: [] };
}

function withFollowing({ statement, rest }: { statement: HloStatement; rest: number }): HloStatement {
  return rest >= 0 ? { ...statement, following: rest } : statement;
}

/**
 * `}` closing a computation, and what may follow it on its line: `, execution_thread="..."`, or
 * the next computation written in place by the same instruction (`}, condition={`).
 */
function parseClose(text: string, r: TextRange, brace: number): HloStatement {
  const attributes: HloAttribute[] = [];
  readKeyValues(text, brace + 1, r.end, attributes, (_key, vs) => valueEnd(text, vs, r.end));
  const inlineComputation = inlineOpening(text, r.end, attributes);
  return {
    kind: 'close',
    range: r,
    shapes: [],
    diagnostics: [],
    ...(inlineComputation ? { inlineComputation } : {}),
  };
}
