/**
 * The names of a module as XLA's text parser checks them. `hlo_parser.cc` reads a module in one
 * pass and looks every name up as it goes: an operand must name an instruction defined above it in
 * its own computation (a computation written in place sees none of the names around it), and a
 * called computation one whose closing `}` comes before the call. Messages are the parser's, with
 * plain words before them: why a name that does exist is not known there, or one spelt alike.
 */
import {
  RULES,
  type LayoutDiagnostic,
  type RelatedPlace,
  type RuleCode,
  type TextRange,
} from '../diagnostics';
import type { HloComputation, HloComputations } from './build-module';
import { PlainInstruction } from './plain-instruction';
import type { ShapeNode } from '../ast';
import type {
  EntryComputationLayout,
  HloName,
  HloStatement,
  InstructionStatement,
  OperandRef,
} from './types';
import { printShape } from '../print';
import { counted } from '../format';
import { closestName } from '../parse/spelling';
import { sourceTableErrors } from './source-tables';
import { operandAttributeError } from './operand-attributes';
import { countAfterAttributes } from './operand-counts';
import { startIndicesOfStatement, takesStartIndices } from './start-indices';
import {
  emptyComputations,
  moduleWithoutComputation,
  outsideComputation,
  secondModules,
  unclosedComputation,
} from './structure-checks';

/**
 * Texts longer than this (UTF-16 units) get no name checks in the editor or the CLI: HLO written by
 * hand (XLA's tests) is small, what XLA prints defines every name before its use, and the full
 * parse the checks need costs several times the layout analysis (docs/performance.md).
 */
export const NAME_CHECK_MAX_CHARS = 1_000_000;

function diagnostic(
  code: RuleCode,
  range: TextRange,
  message: string,
  related?: RelatedPlace,
  plain?: string,
): LayoutDiagnostic {
  return {
    code,
    severity: RULES[code].severity,
    message,
    ...(plain === undefined ? {} : { plain }),
    range,
    ...(related ? { related: [related] } : {}),
  };
}

/** A name as dumps write it, for messages: `%add.1`. */
function quoted(name: string): string {
  return `\`%${name}\``;
}

/** Suggestions of names spelt alike cost an edit distance per name above: this many per module at most. */
const MAX_RESPELLINGS = 100;

/**
 * Plain words for a name XLA's parser does not know at `use` (instruction `index` of `c`): why it
 * exists all the same, or that it is not defined, with the name above it spelt most like it.
 */
function undefinedInstructionWords(
  name: string,
  index: number,
  c: HloComputation,
  everywhere: ReadonlyMap<string, InstructionStatement>,
  aroundNames: () => ReadonlySet<string>,
  respell: (name: string, above: () => Iterable<string>) => string | undefined,
): string {
  const definition = everywhere.get(name);
  if (definition === c.instructions[index])
    return `${quoted(name)} names the instruction itself: an instruction cannot be its own operand`;
  if (definition)
    return `${quoted(name)} is defined further down: XLA's parser knows only the instructions above a use, so move its definition up`;
  const parameter = c.parameters.findIndex((p) => p.name === name);
  if (parameter >= 0) {
    const shape = c.parameters[parameter]?.shape;
    const example = shape
      ? `\`%${name} = ${printShape(shape)} parameter(${parameter})\``
      : `a parameter(${parameter}) instruction named ${name}`;
    return `${quoted(name)} is named only in the computation's signature, which XLA reads for its shape: define it with an instruction, ${example}`;
  }
  if (aroundNames().has(name))
    return `${quoted(name)} belongs to the computation around this one, whose names a computation written in place does not see`;
  const guess = respell(name, function* () {
    for (let i = index - 1; i >= 0; i--) yield c.instructions[i].name.name;
  });
  return `${quoted(name)} is not defined in this computation${guess === undefined ? '' : `; did you mean ${quoted(guess)}?`}`;
}

/**
 * Adds to `out` the diagnostics on the instruction names of computation `c`: operands and
 * `control-predecessors` naming no instruction defined above them, names defined twice, a second
 * `ROOT`, parameter numbers taken twice or outside 0..N-1. `outer` is the computation a
 * computation written in place sits in (for the hint of its messages). Pushes one by one: a
 * computation can have more diagnostics than a call takes arguments.
 */
function checkScope(
  text: string,
  c: HloComputation,
  outer: HloComputation | undefined,
  out: LayoutDiagnostic[],
  respell: (name: string, above: () => Iterable<string>) => string | undefined,
  stopped = false,
): void {
  const everywhere = new Map<string, InstructionStatement>();
  for (const ins of c.instructions) if (!everywhere.has(ins.name.name)) everywhere.set(ins.name.name, ins);
  const known = new Map<string, InstructionStatement>();
  let around: ReadonlySet<string> | undefined;
  const aroundNames = () => (around ??= new Set(outer?.instructions.map((i) => i.name.name)));
  let root: InstructionStatement | undefined;
  const parameters = new Map<number, TextRange>();
  let numbered = true;
  let duplicateNumber = false;
  const words = (name: string, index: number) =>
    undefinedInstructionWords(name, index, c, everywhere, aroundNames, respell);
  for (let index = 0; index < c.instructions.length; index++) {
    const ins = c.instructions[index];
    // Whether XLA meets an error in the instruction's names (it stops there, before later rules).
    let named = false;
    for (const o of ins.operands) {
      const definition = known.get(o.name);
      const d = definition
        ? declaredShapeError(ins, o, definition)
        : diagnostic(
            'instruction-undefined',
            o.range,
            `instruction does not exist: ${o.name}`,
            undefined,
            words(o.name, index),
          );
      if (d) named = pushFirst(out, text, ins, d);
    }
    for (const p of ins.controlPredecessors) {
      if (!known.has(p.name))
        named = pushFirst(
          out,
          text,
          ins,
          diagnostic(
            'instruction-undefined',
            p.range,
            `instruction '${p.name}' is not defined`,
            undefined,
            words(p.name, index),
          ),
        );
    }
    if (ins.rootKeyword) {
      if (root?.rootKeyword)
        out.push(
          diagnostic(
            'root-duplicate',
            ins.rootKeyword,
            'one computation should have only one ROOT',
            { range: root.rootKeyword, message: 'the first ROOT' },
            `this computation already has a ROOT, ${quoted(root.name.name)}: keep one of the two`,
          ),
        );
      else root = ins;
    }
    if (ins.parameter) {
      const { value, range } = ins.parameter;
      const earlier = parameters.get(value);
      duplicateNumber ||= earlier !== undefined;
      if (earlier)
        out.push(
          diagnostic(
            'parameter-duplicate',
            range,
            `Duplicate parameter number ${value}`,
            { range: earlier, message: `the first parameter(${value})` },
            `parameter(${value}) is already taken in this computation: each parameter has its own number, 0 to N-1`,
          ),
        );
      else parameters.set(value, range);
    } else if (ins.opcode === undefined || ins.opcode.name === 'parameter') {
      // A parameter whose number XLA's parser would have read, or an instruction it stopped at
      // before its opcode: the numbers known are not all there are.
      numbered = false;
    }
    checkReshape(ins, known, out);
    if (!named && takesStartIndices(ins.opcode?.name ?? '') && !refused(ins)) {
      // A plain instruction has no shapes written among its operands (and would parse them again).
      const written = ins instanceof PlainInstruction ? [] : ins.shapes;
      const d = startIndicesOfStatement(text, ins, written, (name) => {
        const definition = known.get(name);
        return definition?.shape && clean(definition, definition.shape) ? definition.shape : undefined;
      });
      if (d) out.push(d);
    }
    const operand = ins.operands.length > 0 ? known.get(ins.operands[0].name) : undefined;
    if (operand?.shape && clean(operand, operand.shape) && !refused(ins)) {
      const d = operandAttributeError(text, ins, operand);
      if (d) out.push(d);
    }
    const first = known.get(ins.name.name);
    if (first)
      out.push(
        diagnostic(
          'instruction-duplicate',
          ins.name.range,
          `instruction already exists: ${ins.name.name}`,
          { range: first.name.range, message: 'instruction previously defined here' },
          `${quoted(ins.name.name)} is already defined above in this computation: rename one of the two`,
        ),
      );
    else known.set(ins.name.name, ins);
  }
  // A duplicate stops XLA's parser first; a number it could not read leaves the count unknown.
  // The computation checks its numbers when it is built, at its `}`: an unclosed one never is.
  if (numbered && !duplicateNumber && c.closed) checkParameterNumbers(parameters, out);
  // XLA compares the root at the computation's `}`: a statement it refuses before stops it first.
  if (!stopped) checkRootShape(c, out);
}

/**
 * Adds `d`, an error the name checks found in the instruction `ins` of `text`, to `out` when XLA
 * reports it (returns true, for the caller's flag): XLA stops at the first error of an
 * instruction, and an operand count it checks at the `)` of the operands (or of an instruction
 * written in place of one) comes before what follows it, one it checks after the attributes after
 * them all. When `d` comes first, it replaces the count's diagnostic.
 */
function pushFirst(
  out: LayoutDiagnostic[],
  text: string,
  ins: InstructionStatement,
  d: LayoutDiagnostic,
): true {
  // A plain instruction the check found nothing wrong in has no count error (nor anything parsed).
  const count =
    ins instanceof PlainInstruction
      ? undefined
      : ins.diagnostics.find((c) => c.code === 'operand-count' || c.code === 'operand-count-crash');
  if (!count) out.push(d);
  else if (count.range.end > d.range.start || countAfterAttributes(text, ins, count.range))
    out.push({ ...d, replaces: count.range });
  return true;
}

/** Whether `d` is an error of XLA's text parser, which stops it there. */
function parserError(d: LayoutDiagnostic): boolean {
  return d.severity === 'error' && RULES[d.code].stage === 'parser';
}

/**
 * Whether XLA's text parser refuses `s` (its own errors or its shapes'). A plain instruction the
 * check found nothing wrong in has no error (and its shapes are parsed only when asked for).
 */
function refused(s: HloStatement): boolean {
  if (s instanceof PlainInstruction) return false;
  return s.diagnostics.some(parserError) || s.shapes.some((f) => f.diagnostics.some(parserError));
}

/** Whether a statement of `statements` holds an error of XLA's text parser. */
function hasParserError(statements: readonly HloStatement[]): boolean {
  return statements.some(refused);
}

/** The computations of `model` that hold a statement XLA's parser refuses. */
function stoppedIn(model: HloComputations): Set<number> {
  const out = new Set<number>();
  for (const s of model.statements) {
    if (!refused(s)) continue;
    for (const c of model.computations)
      if (c.range.start <= s.range.start && s.range.start < c.range.end) out.add(c.index);
  }
  return out;
}

/** Whether the statement's shape `shape` was read without an error (its own or the statement's). */
function clean(statement: HloStatement, shape: ShapeNode): boolean {
  if (statement instanceof PlainInstruction) return shape === statement.shape;
  if (statement.diagnostics.some((d) => d.severity === 'error')) return false;
  const found = statement.shapes.find((f) => f.shape === shape);
  return found !== undefined && !found.diagnostics.some((d) => d.severity === 'error');
}

/**
 * `ShapeUtil::Compatible`, what XLA's parser asks of a computation's declared result and its ROOT:
 * the same element types and dimensions, layouts aside, a `?` dimension matching any size.
 */
function compatible(a: ShapeNode, b: ShapeNode): boolean {
  if (a.kind === 'tuple' || b.kind === 'tuple') {
    if (a.kind !== 'tuple' || b.kind !== 'tuple' || a.elements.length !== b.elements.length) return false;
    return a.elements.every((e, i) => compatible(e, b.elements[i]));
  }
  if (a.kind === 'buffer' || b.kind === 'buffer')
    return a.kind === 'buffer' && b.kind === 'buffer' && compatible(a.element, b.element);
  if (a.elementType !== b.elementType || a.dims.length !== b.dims.length) return false;
  return a.dims.every((d, i) => {
    const e = b.dims[i];
    return d.kind === 'unbounded' || e.kind === 'unbounded' || d.value === e.value;
  });
}

/**
 * XLA's parser compares the shape written before an operand's name (`f32[2]{0} %x`) with the shape
 * of the instruction it names, as `ShapeUtil::Compatible` (layouts aside), and refuses a mismatch
 * at the operand. Skipped where either shape is not clean.
 */
function declaredShapeError(
  ins: InstructionStatement,
  operand: OperandRef,
  definition: InstructionStatement,
): LayoutDiagnostic | undefined {
  const declared = operand.shape;
  const defined = definition.shape;
  if (!declared || !defined || !clean(definition, defined) || compatible(declared, defined)) return undefined;
  const found = ins.shapes.find((f) => f.shape === declared);
  if (!found || found.diagnostics.some((d) => d.severity === 'error')) return undefined;
  const mine = printShape(declared);
  const theirs = printShape(defined);
  return diagnostic(
    'operand-shape-mismatch',
    { start: declared.range.start, end: operand.range.end },
    `The declared operand shape ${mine} is not compatible with the shape of the operand instruction ${theirs}.`,
    { range: defined.range, message: `the shape of ${definition.name.name}` },
    `${quoted(operand.name)} is written here as ${printShape(declared, { layout: false })}, but its definition makes it ${printShape(defined, { layout: false })}: write the shape it has, or leave the annotation out`,
  );
}

/**
 * XLA's parser checks that a computation's signature declares the shape its ROOT (or, with none
 * marked, its last instruction) has: "Shape of computation c, f32[8], is not compatible with that
 * of its root instruction r, f32[4]". Skipped where either shape is not written or not clean.
 */
function checkRootShape(c: HloComputation, out: LayoutDiagnostic[]): void {
  const declared = c.header?.result;
  const root = c.root;
  // XLA's parser stops at the end of an unclosed computation before it compares.
  if (!c.closed) return;
  if (!declared || !c.header || !root?.shape || !clean(c.header, declared) || !clean(root, root.shape))
    return;
  if (compatible(declared, root.shape)) return;
  const name = c.name?.name ?? '';
  const mine = printShape(declared, { layout: false });
  const theirs = printShape(root.shape, { layout: false });
  out.push(
    diagnostic(
      'root-shape-mismatch',
      declared.range,
      `Shape of computation ${name}, ${mine}, is not compatible with that of its root instruction ${root.name.name}, ${theirs}`,
      { range: root.shape.range, message: `the shape of ${root.name.name}` },
      `the computation is declared to return ${mine}, but its ROOT ${root.name.name} is ${theirs}`,
    ),
  );
}

/** The element count of an array shape (a `<=N` dimension counts N), or undefined when it has a `?` or is no array. */
function staticElements(shape: ShapeNode): bigint | undefined {
  if (shape.kind !== 'array') return undefined;
  let n = 1n;
  for (const d of shape.dims) {
    if (d.kind === 'unbounded') return undefined;
    n *= d.value;
  }
  return n;
}

/**
 * `HloInstruction::CreateReshape`, which XLA's parser calls for `reshape`, CHECK-fails (the process
 * aborts) unless the result has as many elements as the operand.
 */
function checkReshape(
  ins: InstructionStatement,
  known: ReadonlyMap<string, InstructionStatement>,
  out: LayoutDiagnostic[],
): void {
  if (ins.opcode?.name !== 'reshape' || ins.operands.length !== 1 || !ins.shape) return;
  const operand = known.get(ins.operands[0].name);
  if (!operand?.shape || !clean(ins, ins.shape) || !clean(operand, operand.shape)) return;
  const mine = staticElements(ins.shape);
  const theirs = staticElements(operand.shape);
  if (mine === undefined || theirs === undefined || mine === theirs) return;
  out.push(
    diagnostic(
      'reshape-element-count',
      ins.shape.range,
      `reshape to ${printShape(ins.shape, { layout: false })} (${mine} elements) from ${operand.name.name}, ${printShape(operand.shape, { layout: false })} (${theirs} elements): XLA aborts on it (CHECK failure in HloInstruction::CreateReshape: the element counts must be equal)`,
      { range: operand.shape.range, message: `the shape of ${operand.name.name}` },
    ),
  );
}

/**
 * XLA's parser hands a computation's instructions to `HloComputation`, whose constructor
 * CHECK-fails unless the N parameters are numbered 0..N-1: a gap aborts the process.
 */
function checkParameterNumbers(parameters: ReadonlyMap<number, TextRange>, out: LayoutDiagnostic[]): void {
  const count = parameters.size;
  const missing: number[] = [];
  for (let n = 0; n < count; n++) if (!parameters.has(n)) missing.push(n);
  if (missing.length === 0) return;
  const absent =
    missing
      .slice(0, 3)
      .map((n) => `parameter(${n})`)
      .join(', ') + (missing.length > 3 ? ', ...' : '');
  for (const [value, range] of parameters) {
    if (value < count) continue;
    const plain =
      count === 1
        ? `the computation's one parameter must be parameter(0), not parameter(${value}): XLA aborts on this CHECK`
        : `the computation's ${count} parameters must be numbered 0 to ${count - 1}, and ${absent} ${missing.length === 1 ? 'is' : 'are'} missing: XLA aborts on this CHECK`;
    out.push(
      diagnostic(
        'parameter-number',
        range,
        `invalid parameter number. Expected [0, ${count}), got ${value}`,
        undefined,
        plain,
      ),
    );
  }
}

/**
 * The diagnostics on instruction names of every computation of `model` (parsed from `text`), each
 * scoped as XLA's parser scopes it, and on the attributes that depend on an operand's shape.
 */
export function checkInstructionNames(model: HloComputations, text: string): LayoutDiagnostic[] {
  const out: LayoutDiagnostic[] = [];
  const stopped = stoppedIn(model);
  let respellings = 0;
  const respell = (name: string, above: () => Iterable<string>) =>
    respellings++ < MAX_RESPELLINGS ? closestName(name, above()) : undefined;
  for (const c of model.computations)
    checkScope(
      text,
      c,
      c.inline ? model.computations[c.inline.computation] : undefined,
      out,
      respell,
      stopped.has(c.index),
    );
  return out;
}

/** A computation as the module-wide checks see it. */
export interface DeclaredComputation {
  readonly name?: HloName;
  readonly entryKeyword?: TextRange;
  /** Where it ends: XLA's parser knows it from there on. */
  readonly end: number;
  /**
   * How many arrays (tuples flattened, as XLA's import to MLIR flattens them) its `parameter`
   * instructions and its ROOT hold; absent when a shape is missing or not clean.
   */
  readonly arity?: { readonly parameters: number; readonly results: number };
}

/** A reference to a computation; `asyncStart` when it is the `calls=` of an `async-start`. */
export interface ComputationCall extends HloName {
  readonly asyncStart?: true;
}

/**
 * Diagnostics on the computation names of one module: computations (in text order) defined twice
 * or marked ENTRY a second time, `calls`-style references (in any order) to a computation not
 * complete before them, a computation wrapped by two `async-start`s, and an
 * `entry_computation_layout` whose counts differ from the entry computation's.
 */
export function checkComputationNames(
  computations: readonly DeclaredComputation[],
  calls: readonly ComputationCall[],
  entryLayout?: EntryComputationLayout,
): LayoutDiagnostic[] {
  const out: LayoutDiagnostic[] = [];
  const byName = new Map<string, DeclaredComputation>();
  let entry: DeclaredComputation | undefined;
  for (const c of computations) {
    if (c.entryKeyword) {
      if (entry?.entryKeyword)
        out.push(
          diagnostic(
            'entry-duplicate',
            c.entryKeyword,
            'expects only one ENTRY',
            { range: entry.entryKeyword, message: 'the first ENTRY' },
            'this module already has an ENTRY computation: keep the keyword on one of the two',
          ),
        );
      else entry = c;
    }
    if (!c.name) continue;
    const first = byName.get(c.name.name);
    if (first?.name)
      out.push(
        diagnostic(
          'computation-duplicate',
          c.name.range,
          `computation already exists: ${c.name.name}`,
          { range: first.name.range, message: 'computation previously defined here' },
          `${quoted(c.name.name)} is already defined above in this module: rename one of the two`,
        ),
      );
    else byName.set(c.name.name, c);
  }
  let respellings = 0;
  for (const call of calls) {
    const c = byName.get(call.name);
    if (c && c.end <= call.range.start) continue;
    const plain = c
      ? `${quoted(call.name)} is defined further down: XLA's parser knows a computation only after its closing \`}\`, so move it above this use`
      : notDefinedInModule(call, respellings++ < MAX_RESPELLINGS ? computations : []);
    out.push(
      diagnostic(
        'computation-undefined',
        call.range,
        `computation does not exist: ${call.name}`,
        undefined,
        plain,
      ),
    );
  }
  checkAsyncCallers(calls, out);
  const main = entry ?? computations[computations.length - 1];
  if (entryLayout && main) checkEntryLayout(entryLayout, main, out);
  return out;
}

/**
 * Plain words for a call naming no computation of the module, with the name of one complete before
 * it spelt most like it (nearest first).
 */
function notDefinedInModule(call: ComputationCall, computations: readonly DeclaredComputation[]): string {
  const guess = closestName(
    call.name,
    (function* () {
      for (let k = computations.length - 1; k >= 0; k--) {
        const c = computations[k];
        if (c.name && c.end <= call.range.start) yield c.name.name;
      }
    })(),
  );
  return `${quoted(call.name)} is not defined in this module${guess === undefined ? '' : `; did you mean ${quoted(guess)}?`}`;
}

/** The `entry_computation_layout` of module `header`, when the header has no error (XLA stops on one first). */
export function cleanEntryLayout(header: HloStatement | undefined): EntryComputationLayout | undefined {
  if (header?.kind !== 'module' || header.diagnostics.some((d) => d.severity === 'error')) return undefined;
  return header.entryComputationLayout;
}

/**
 * How many arrays `shape` holds with its tuples flattened (`()` none, a token one). Without
 * recursion: XLA reads tuples nested 8,192 deep.
 */
function leaves(shape: ShapeNode): number {
  let n = 0;
  const stack = [shape];
  for (let s = stack.pop(); s; s = stack.pop()) {
    if (s.kind === 'tuple') for (const e of s.elements) stack.push(e);
    else n++;
  }
  return n;
}

/**
 * XLA's parser accepts an `entry_computation_layout` with more or fewer parameters or results than
 * the entry computation has, but importing the module (to MLIR, as jax and XLA's tools do) aborts
 * on a CHECK. Both sides are counted with tuples flattened: `((f32[2], f32[2]))` is two.
 */
function checkEntryLayout(
  layout: EntryComputationLayout,
  main: DeclaredComputation,
  out: LayoutDiagnostic[],
): void {
  const arity = main.arity;
  if (!arity) return;
  const related = main.name
    ? { range: main.name.range, message: `the entry computation ${main.name.name}` }
    : undefined;
  const name = main.name ? `${main.name.name} ` : '';
  let given = 0;
  for (const p of layout.parameters) given += leaves(p);
  if (given !== arity.parameters) {
    const first = layout.parameters[0];
    const last = layout.parameters[layout.parameters.length - 1];
    out.push(
      diagnostic(
        'entry-layout-count',
        first && last ? { start: first.range.start, end: last.range.end } : layout.range,
        `Check failed: parameter_shapes.size() == main.getNumArguments() (${given} vs. ${arity.parameters})`,
        related,
        `entry_computation_layout lists ${counted(given, 'parameter array')}, but the entry computation ${name}takes ${arity.parameters}: XLA aborts on the mismatch (tuples count by their elements)`,
      ),
    );
  }
  if (layout.result && leaves(layout.result) !== arity.results) {
    const given = leaves(layout.result);
    out.push(
      diagnostic(
        'entry-layout-count',
        layout.result.range,
        `Check failed: result_shapes.size() == main.getNumResults() (${given} vs. ${arity.results})`,
        related,
        `entry_computation_layout's result holds ${counted(given, 'array')}, but the ROOT of the entry computation ${name}holds ${arity.results}: XLA aborts on the mismatch (tuples count by their elements)`,
      ),
    );
  }
}

/**
 * Once the module is read, XLA's parser wants each async computation wrapped by one `async-start`
 * (the `-update` and `-done` ops that name it too are its own). The first start in text order is
 * the related place of the others.
 */
function checkAsyncCallers(calls: readonly ComputationCall[], out: LayoutDiagnostic[]): void {
  const starts = calls.filter((c) => c.asyncStart).sort((a, b) => a.range.start - b.range.start);
  const first = new Map<string, ComputationCall>();
  for (const call of starts) {
    const earlier = first.get(call.name);
    if (earlier)
      out.push(
        diagnostic(
          'async-computation-shared',
          call.range,
          `Computation ${call.name} is called by more than one async op.`,
          { range: earlier.range, message: 'the first async-start that calls it' },
          `${quoted(call.name)} is already wrapped by an async-start above: each async computation has exactly one; give this one a copy of its own`,
        ),
      );
    else first.set(call.name, call);
  }
}

/** Every computation reference (`calls=`, `to_apply=`, `branch_computations={...}`, ...) of `computations`' instructions. */
export function computationCalls(computations: readonly HloComputation[]): ComputationCall[] {
  const calls: ComputationCall[] = [];
  for (const c of computations) {
    for (const ins of c.instructions) {
      const asyncStart = ins.opcode?.name === 'async-start';
      for (const { name, range, attribute } of ins.calledComputations)
        calls.push(asyncStart && attribute === 'calls' ? { name, range, asyncStart } : { name, range });
    }
  }
  return calls;
}

/** What {@link DeclaredComputation.arity} says of `c`, or undefined when a shape it needs is missing or not clean. */
function arityOf(c: HloComputation): DeclaredComputation['arity'] {
  const root = c.root;
  if (!c.closed) return undefined;
  if (!root?.shape || !clean(root, root.shape)) return undefined;
  let parameters = 0;
  for (const ins of c.instructions) {
    if (ins.opcode?.name !== 'parameter') continue;
    if (!ins.shape || !clean(ins, ins.shape)) return undefined;
    parameters += leaves(ins.shape);
  }
  return { parameters, results: leaves(root.shape) };
}

/** The module-wide view of a computation: computations written in place have no name and are never called by one. */
export function declared(c: HloComputation): DeclaredComputation {
  const arity = arityOf(c);
  return {
    ...(c.name ? { name: c.name } : {}),
    ...(c.header?.entryKeyword ? { entryKeyword: c.header.entryKeyword } : {}),
    end: c.range.end,
    ...(arity ? { arity } : {}),
  };
}

/**
 * The structure errors of `model` (of `text`): computations never closed, statements outside any
 * computation (see structure-checks.ts), source tables XLA does not read (source-tables.ts).
 */
function checkStructure(model: HloComputations, text: string, out: LayoutDiagnostic[]): void {
  const statements = model.statements;
  let i = 0;
  for (const c of model.computations) {
    if (c.closed || c.inline || !c.header) continue;
    while (i < statements.length && statements[i].range.start < c.range.end) i++;
    let next = i;
    while (
      next < statements.length &&
      (statements[next].kind === 'blank' || statements[next].kind === 'comment')
    )
      next++;
    out.push(unclosedComputation(text, c.header, statements[next]));
  }
  for (const s of model.strays) {
    const d = outsideComputation(text, s);
    if (d) out.push(d);
  }
  for (const d of sourceTableErrors(text, statements)) out.push(d);
  const outlines = statements.map((s) => ({
    kind: s.kind,
    range: s.range,
    opens: 'inlineComputation' in s && s.inlineComputation !== undefined,
  }));
  const joined = secondModules(text, outlines);
  for (const d of [...joined, ...emptyComputations(text, outlines)])
    if (!out.some((o) => o.range.start === d.range.start)) out.push(d);
  // A module that only ends too early: after a statement XLA refuses, it stops there first.
  const last = model.modules[model.modules.length - 1];
  const header = last?.header;
  if (
    header &&
    joined.length === 0 &&
    last.computations.length === 0 &&
    !statements.some(
      (s) => s.range.start >= header.range.start && s.diagnostics.some((d) => d.severity === 'error'),
    )
  )
    out.push(moduleWithoutComputation(text, header));
}

/** Every name and structure diagnostic of `model` (parsed from `text`), in no particular order. */
export function checkNames(model: HloComputations, text: string): LayoutDiagnostic[] {
  const out: LayoutDiagnostic[] = [];
  checkStructure(model, text, out);
  // XLA's parser stops on those, and on any statement it refuses, before the import that compares
  // the entry computation's layout.
  const parsed = out.length === 0 && !hasParserError(model.statements);
  for (const d of checkInstructionNames(model, text)) out.push(d);
  for (const m of model.modules) {
    const computations = m.computations
      .map((i) => model.computations[i])
      .filter((c): c is HloComputation => c !== undefined);
    const named = computations
      .filter((c) => c.inline === undefined)
      .sort((a, b) => a.range.start - b.range.start);
    const layout = parsed ? cleanEntryLayout(m.header) : undefined;
    for (const d of checkComputationNames(named.map(declared), computationCalls(computations), layout))
      out.push(d);
  }
  return out;
}
