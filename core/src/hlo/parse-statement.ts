/**
 * Reads one HLO statement (a range from `splitStatements`) into a {@link HloStatement}. Shapes at
 * known positions (result, operand annotations, signature parameters, entry_computation_layout)
 * go through the shape parser; the shape finder covers whatever text is left between them
 * (attribute values such as `outfeed_shape=`), so every shape of the statement is reported once.
 * Never throws: what it cannot read becomes an `unknown` statement or an absent field.
 */
import type { ShapeNode } from '../ast';
import type { LayoutDiagnostic, TextRange } from '../diagnostics';
import { parseShape, scanShapes, ScanState } from '../parse';
import { primitiveType } from '../primitive-types';
import { COMPUTATION_ATTRIBUTES } from './attribute-table';
import { charAt, readName, readString, skipBalanced, skipString, skipTrivia, skipValue } from './lex';
import { isIdentifierChar } from './split-statements';
import type {
  CalledComputationRef,
  ComputationParameter,
  EntryComputationLayout,
  HloAttribute,
  HloMetadata,
  HloName,
  HloStatement,
  InlineComputationOpening,
  OperandRef,
  ParameterNumber,
  StatementShape,
} from './types';

/** A line that is `// -----` and nothing else: the split marker of XLA's `--split-input-file` tests. */
const SEPARATOR_LINE = /^[ \t]*\/\/ -----[ \t]*\r?$/m;

/** Opcodes whose parentheses hold literals, not operand names. */
export const LITERAL_OPCODES: ReadonlySet<string> = new Set(['constant', 'parameter', 'iota']);

/** Collects the shapes of one statement and the text ranges already read structurally. */
class Shapes {
  readonly found: StatementShape[] = [];
  readonly diagnostics: LayoutDiagnostic[] = [];
  private readonly covered: TextRange[] = [];
  /** One for the statement: its parses and scans share the finder's memos. */
  private readonly scanState = new ScanState();

  constructor(private readonly text: string) {}

  /** Parses the shape at `pos`; returns it (or undefined) and where parsing stopped. */
  parseAt(pos: number, end: number): { shape: ShapeNode | undefined; end: number } {
    const r = parseShape(this.text, pos, { end, scan: this.scanState });
    const stop = Math.max(pos, Math.min(r.end, end));
    if (r.shape) this.found.push({ shape: r.shape, diagnostics: r.diagnostics });
    else this.diagnostics.push(...r.diagnostics);
    this.covered.push({ start: pos, end: stop });
    return { shape: r.shape, end: stop };
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

/** Does an operand start with a shape annotation: `(`, `b(` or `type[`? */
function looksLikeShape(text: string, pos: number, end: number): boolean {
  const c = charAt(text, pos, end);
  if (c === 40) return true;
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  if (i === pos) return false;
  const n = charAt(text, i, end);
  if (n === 40) return i === pos + 1 && c === 98;
  return n === 91 && primitiveType(text.slice(pos, i)) !== undefined;
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

/** `{op_name="..." source_file="..." source_line=12 ...}` (keys separated by spaces). */
function readMetadata(text: string, start: number, end: number): HloMetadata {
  const fields: { -readonly [K in keyof HloMetadata]?: HloMetadata[K] } = {};
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
      while (p < end && !/[\s,}]/.test(text[p] ?? '')) p++;
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
  return { ...fields, range: { start, end } };
}

/** Where a plain attribute value starting at `vs` ends: a string, or a balanced value. */
function valueEnd(text: string, vs: number, end: number): number {
  return charAt(text, vs, end) === 34 ? skipString(text, vs, end) : skipValue(text, vs, end);
}

/**
 * Reads `, key=value` pairs from `pos` on into `attributes`; `readValue` reads each value (it may
 * parse it) and returns where it ends. Returns where the list stopped.
 */
function readKeyValues(
  text: string,
  pos: number,
  end: number,
  attributes: HloAttribute[],
  readValue: (key: HloName, valueStart: number) => number,
): number {
  let p = pos;
  while (p < end) {
    p = skipTrivia(text, p, end);
    if (charAt(text, p, end) === 44) {
      p++;
      continue;
    }
    const key = readName(text, p, end);
    if (!key) break;
    const eq = skipTrivia(text, key.end, end);
    if (charAt(text, eq, end) !== 61) break;
    const vs = skipTrivia(text, eq + 1, end);
    const ve = readValue(key.name, vs);
    attributes.push({ key: key.name, valueRange: { start: vs, end: ve } });
    p = Math.max(ve, eq + 1);
  }
  return p;
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
      readNameList(text, vs, ve, (n) => calls.push({ ...n, attribute: key.name }));
    else if (key.name === 'control-predecessors') readNameList(text, vs, ve, (n) => controls.push(n));
    else if (key.name === 'metadata') metadata = readMetadata(text, vs, ve);
    return ve;
  });
  return { metadata, end: p };
}

/** `{(p0, p1, ...)->result}` at `pos` (the `{`). */
function readEntryLayout(text: string, pos: number, end: number, shapes: Shapes): EntryComputationLayout {
  const valueEnd = skipValue(text, pos, end);
  const parameters: ShapeNode[] = [];
  let result: ShapeNode | undefined;
  let p = skipTrivia(text, pos + 1, valueEnd);
  if (charAt(text, p, valueEnd) === 40) {
    p++;
    while (p < valueEnd) {
      p = skipTrivia(text, p, valueEnd);
      if (charAt(text, p, valueEnd) === 41) {
        p++;
        break;
      }
      const r = shapes.parseAt(p, valueEnd);
      if (!r.shape) break;
      parameters.push(r.shape);
      p = skipTrivia(text, r.end, valueEnd);
      if (charAt(text, p, valueEnd) === 44) p++;
      else if (charAt(text, p, valueEnd) === 41) {
        p++;
        break;
      } else break;
    }
    p = skipTrivia(text, p, valueEnd);
    if (text.startsWith('->', p)) result = shapes.parseAt(skipTrivia(text, p + 2, valueEnd), valueEnd).shape;
  }
  return { range: { start: pos, end: valueEnd }, parameters, ...(result ? { result } : {}) };
}

function parseModuleHeader(text: string, range: TextRange, pos: number): HloStatement {
  const { end } = range;
  const shapes = new Shapes(text);
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
): HloStatement {
  const { end } = range;
  const shapes = new Shapes(text);
  const parameters: ComputationParameter[] = [];
  let result: ShapeNode | undefined;
  let p = skipTrivia(text, pos, end);
  if (charAt(text, p, end) === 40) {
    p++;
    while (p < end) {
      p = skipTrivia(text, p, end);
      if (charAt(text, p, end) === 41) {
        p++;
        break;
      }
      const n = readName(text, p, end);
      if (!n) break;
      p = skipTrivia(text, n.end, end);
      if (charAt(text, p, end) !== 58) break;
      const r = shapes.parseAt(skipTrivia(text, p + 1, end), end);
      parameters.push({ ...n.name, ...(r.shape ? { shape: r.shape } : {}) });
      p = skipTrivia(text, r.end, end);
      if (charAt(text, p, end) === 44) p++;
      else if (charAt(text, p, end) === 41) {
        p++;
        break;
      } else break;
    }
    p = skipTrivia(text, p, end);
  }
  if (text.startsWith('->', p)) result = shapes.parseAt(skipTrivia(text, p + 2, end), end).shape;
  return {
    kind: 'computation',
    range,
    entry: entryKeyword !== undefined,
    ...(entryKeyword ? { entryKeyword } : {}),
    ...(name ? { name } : {}),
    parameters,
    ...(result ? { result } : {}),
    shapes: shapes.scanRest(range),
    diagnostics: shapes.diagnostics,
  };
}

function parseInstruction(
  text: string,
  range: TextRange,
  rootKeyword: TextRange | undefined,
  name: HloName,
  pos: number,
): HloStatement {
  const { end } = range;
  const shapes = new Shapes(text);
  const operands: OperandRef[] = [];
  const calledComputations: CalledComputationRef[] = [];
  const controlPredecessors: HloName[] = [];
  const attributes: HloAttribute[] = [];
  let metadata: HloMetadata | undefined;
  let opcode: HloName | undefined;
  let parameter: ParameterNumber | undefined;
  const r = shapes.parseAt(skipTrivia(text, pos, end), end);
  const p = skipTrivia(text, r.end, end);
  const op = readName(text, p, end);
  if (op && charAt(text, op.end, end) === 40 && charAt(text, p, end) !== 37) {
    opcode = op.name;
    const close = skipBalanced(text, op.end, end);
    if (!LITERAL_OPCODES.has(op.name.name)) readOperands(text, op.end + 1, close, shapes, operands);
    else if (op.name.name === 'parameter') parameter = parameterNumber(text, op.end + 1, close);
    const a = readAttributes(text, close, end, attributes, calledComputations, controlPredecessors);
    metadata = a.metadata;
  }
  const inlineComputation = inlineOpening(text, end, attributes);
  return {
    kind: 'instruction',
    range,
    root: rootKeyword !== undefined,
    ...(rootKeyword ? { rootKeyword } : {}),
    name,
    ...(r.shape ? { shape: r.shape } : {}),
    ...(opcode ? { opcode } : {}),
    ...(parameter ? { parameter } : {}),
    operands,
    calledComputations,
    controlPredecessors,
    attributes,
    ...(metadata ? { metadata } : {}),
    ...(inlineComputation ? { inlineComputation } : {}),
    shapes: shapes.scanRest(range),
    diagnostics: shapes.diagnostics,
  };
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
        out.push({ ...n.name, ...(shape ? { shape } : {}) });
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
 * ranges in the result are absolute offsets into `text`.
 */
export function parseStatement(text: string, range: TextRange): HloStatement {
  const start = Math.max(0, Math.min(range.start, text.length));
  const end = Math.max(start, Math.min(range.end, text.length));
  const r: TextRange = { start, end };
  const p = skipTrivia(text, start, end);
  if (p >= end) {
    // Only whitespace and comments.
    const trivia = text.slice(start, end);
    const kind = SEPARATOR_LINE.test(trivia) ? 'separator' : /\S/.test(trivia) ? 'comment' : 'blank';
    return { kind, range: r, shapes: [], diagnostics: [] };
  }
  if (charAt(text, p, end) === 125) return { kind: 'close', range: r, shapes: [], diagnostics: [] };
  const first = readName(text, p, end);
  if (first?.name.name === 'HloModule' && charAt(text, p, end) !== 37)
    return parseModuleHeader(text, r, first.end);
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
    return parseInstruction(text, r, root ? keyword : undefined, name.name, after + 1);
  if (!root && (c === 40 || c === 123 || text.startsWith('->', after)))
    return parseComputationHeader(text, r, entry ? keyword : undefined, name?.name, after);
  const shapes = new Shapes(text);
  return { kind: 'unknown', range: r, shapes: shapes.scanRest(r), diagnostics: [] };
}
