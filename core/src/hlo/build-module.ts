/**
 * Assembles parsed statements into modules, computations and a symbol table. Statements stay
 * independent (each is parsed on its own), so a language server can re-parse only the statements
 * an edit touched and rebuild this cheap index over all of them.
 */
import type { TextRange } from '../diagnostics';
import type {
  ComputationHeaderStatement,
  ComputationParameter,
  HloName,
  HloStatement,
  InstructionStatement,
  ModuleHeaderStatement,
  Writable,
} from './types';

/**
 * One computation: from its header to its closing `}`, or one written in place as an attribute's
 * value (`calls=\n{ ... }`, see {@link InlineComputationOpening}), whose instructions are scoped to
 * it and not to the computation around it, as in XLA's parser.
 */
export interface HloComputation {
  readonly index: number;
  /** Index into {@link HloModel.modules}. */
  readonly module: number;
  /** The header; absent for a computation written in place, which has none. */
  readonly header?: ComputationHeaderStatement;
  /** For a computation written in place: the computation and instruction whose attribute holds it. */
  readonly inline?: { readonly computation: number; readonly instruction: InstructionStatement };
  readonly name?: HloName;
  readonly entry: boolean;
  /** Header start (or the inline `{`) to the end of the closing `}` (or of the last statement when it is missing). */
  readonly range: TextRange;
  readonly parameters: readonly ComputationParameter[];
  readonly instructions: readonly InstructionStatement[];
  /** The `ROOT` instruction, or the last one when none is marked (as XLA does). */
  readonly root?: InstructionStatement;
  /** Whether the closing `}` was found. */
  readonly closed: boolean;
}

/**
 * One `HloModule`, or one part of a file split by `// -----` lines (XLA's `--split-input-file`
 * tests; each part is a module, with or without an `HloModule` line).
 */
export interface HloModuleInfo {
  readonly index: number;
  /** Absent for computations that appear before any `HloModule` line. */
  readonly header?: ModuleHeaderStatement;
  readonly name?: HloName;
  readonly range: TextRange;
  /** Indices into {@link HloModel.computations}. */
  readonly computations: readonly number[];
  /** Index of the ENTRY computation, if any. */
  readonly entry?: number;
}

/** A computation (scoped per module) or an instruction (scoped per computation). */
export interface HloSymbol {
  readonly index: number;
  readonly kind: 'computation' | 'instruction';
  readonly name: string;
  readonly module: number;
  /** The computation an instruction belongs to. */
  readonly computation?: number;
  /** Where it is defined; undefined for a name referenced but never defined. */
  readonly definition?: TextRange;
  /** The defining instruction, for instructions. */
  readonly instruction?: InstructionStatement;
  /** Every other occurrence: operands, `control-predecessors`, `calls=`-style attributes, signature parameter names. */
  readonly references: readonly TextRange[];
}

/** One occurrence of a symbol in the text. */
export interface SymbolOccurrence {
  readonly range: TextRange;
  readonly symbol: number;
  readonly isDefinition: boolean;
}

/** The modules and computations of parsed statements, without the symbol table (see {@link buildComputations}). */
export interface HloComputations {
  readonly statements: readonly HloStatement[];
  readonly modules: readonly HloModuleInfo[];
  readonly computations: readonly HloComputation[];
  /** Instructions, `}` and other statements outside any computation once one was read, in text order. */
  readonly strays: readonly HloStatement[];
}

export interface HloModel extends HloComputations {
  readonly symbols: readonly HloSymbol[];
  /** All occurrences, sorted by start offset (see {@link symbolAt}). */
  readonly occurrences: readonly SymbolOccurrence[];
}

interface MutableSymbol {
  index: number;
  kind: 'computation' | 'instruction';
  name: string;
  module: number;
  computation?: number;
  definition?: TextRange;
  instruction?: InstructionStatement;
  references: TextRange[];
}

interface OpenComputation {
  index: number;
  module: number;
  header?: ComputationHeaderStatement;
  inline?: { computation: number; instruction: InstructionStatement };
  start: number;
  instructions: InstructionStatement[];
  end: number;
  closed: boolean;
}

/** Builds the module model from statements in text order (normally `parseStatement` of each split range). */
export function buildModule(statements: readonly HloStatement[]): HloModel {
  const built = buildComputations(statements);
  return { ...built, ...buildSymbols(built.modules, built.computations) };
}

/**
 * {@link buildModule} without the symbol table, which the name checks do not need and which takes
 * most of the building's time.
 */
export function buildComputations(statements: readonly HloStatement[]): HloComputations {
  const modules: {
    header?: ModuleHeaderStatement;
    start: number;
    end: number;
    computations: number[];
    entry?: number;
  }[] = [];
  // In header order (an inline computation after the one holding it); filled as each is finished.
  const computations: HloComputation[] = [];
  // The computations not closed yet, innermost last: more than one only inside inline computations.
  const open: OpenComputation[] = [];
  // After a `// -----` line the next computation starts a module of its own, unless a header does.
  let split = false;
  const strays: HloStatement[] = [];

  const currentModule = (at: number): number => {
    if (modules.length === 0 || split) modules.push({ start: at, end: at, computations: [] });
    split = false;
    return modules.length - 1;
  };
  const begin = (c: Omit<OpenComputation, 'index' | 'instructions' | 'closed'>): void => {
    const index = computations.length;
    computations.push(undefined as unknown as HloComputation); // its slot, in header order
    open.push({
      index,
      module: c.module,
      header: c.header,
      inline: c.inline,
      start: c.start,
      instructions: [],
      end: c.end,
      closed: false,
    });
    modules[c.module]?.computations.push(index);
  };
  const finish = (): void => {
    const c = open.pop();
    if (!c) return;
    const marked = c.instructions.find((i) => i.root);
    const root = marked ?? c.instructions[c.instructions.length - 1];
    const name = c.header?.name;
    const entry = c.header?.entry ?? false;
    // Field by field, optional ones only when present (spreading them in is a runtime call each).
    const built: Writable<HloComputation> = { index: c.index, module: c.module } as HloComputation;
    if (c.header) built.header = c.header;
    if (c.inline) built.inline = c.inline;
    if (name) built.name = name;
    built.entry = entry;
    built.range = { start: c.start, end: c.end };
    built.parameters = c.header?.parameters ?? [];
    built.instructions = c.instructions;
    if (root) built.root = root;
    built.closed = c.closed;
    computations[c.index] = built;
    const m = modules[c.module];
    if (m) {
      if (entry && m.entry === undefined) m.entry = c.index;
      m.end = Math.max(m.end, c.end);
    }
    // The computation around an inline one runs on at least to its end.
    const outer = open[open.length - 1];
    if (outer) outer.end = Math.max(outer.end, c.end);
  };
  const finishAll = (): void => {
    while (open.length > 0) finish();
  };

  for (const s of statements) {
    const inner = open[open.length - 1];
    switch (s.kind) {
      case 'module':
        finishAll();
        split = false;
        modules.push({ header: s, start: s.range.start, end: s.range.end, computations: [] });
        break;
      case 'separator':
        finishAll();
        split = true;
        break;
      case 'computation':
        finishAll();
        begin({ module: currentModule(s.range.start), header: s, start: s.range.start, end: s.range.end });
        break;
      case 'instruction':
        if (inner) {
          inner.instructions.push(s);
          inner.end = s.range.end;
          if (s.inlineComputation) {
            begin({
              module: inner.module,
              inline: { computation: inner.index, instruction: s },
              start: s.inlineComputation.brace.start,
              end: s.range.end,
            });
          }
        } else strays.push(s);
        break;
      case 'close':
        if (inner) {
          inner.end = s.range.end;
          inner.closed = true;
          finish();
          // `}, condition={`: the same instruction's next computation written in place.
          if (inner.inline && s.inlineComputation) {
            begin({
              module: inner.module,
              inline: inner.inline,
              start: s.inlineComputation.brace.start,
              end: s.range.end,
            });
          }
        } else strays.push(s);
        break;
      case 'unknown':
        // After a module's computations, between them: XLA expects another computation there.
        if (!inner && !split && (modules[modules.length - 1]?.computations.length ?? 0) > 0) strays.push(s);
        break;
      default:
        break;
    }
    const last = modules[modules.length - 1];
    if (last && !split && s.kind !== 'blank' && s.kind !== 'comment' && s.kind !== 'separator')
      last.end = Math.max(last.end, s.range.end);
  }
  finishAll();

  const moduleInfos: HloModuleInfo[] = modules.map((m, index) => ({
    index,
    ...(m.header ? { header: m.header } : {}),
    ...(m.header?.name ? { name: m.header.name } : {}),
    range: { start: m.start, end: m.end },
    computations: m.computations,
    ...(m.entry !== undefined ? { entry: m.entry } : {}),
  }));
  return { statements, modules: moduleInfos, computations, strays };
}

function buildSymbols(
  modules: readonly HloModuleInfo[],
  computations: readonly HloComputation[],
): { symbols: HloSymbol[]; occurrences: SymbolOccurrence[] } {
  const symbols: MutableSymbol[] = [];
  const occurrences: SymbolOccurrence[] = [];
  const add = (s: Omit<MutableSymbol, 'index' | 'references'>): MutableSymbol => {
    const sym: MutableSymbol = { ...s, index: symbols.length, references: [] };
    symbols.push(sym);
    if (sym.definition) occurrences.push({ range: sym.definition, symbol: sym.index, isDefinition: true });
    return sym;
  };
  const reference = (sym: MutableSymbol, range: TextRange): void => {
    sym.references.push(range);
    occurrences.push({ range, symbol: sym.index, isDefinition: false });
  };

  for (const m of modules) {
    // Computations first, so calls= may name a computation defined later in the file.
    const byName = new Map<string, MutableSymbol>();
    for (const ci of m.computations) {
      const c = computations[ci];
      if (!c?.name || byName.has(c.name.name)) continue;
      byName.set(
        c.name.name,
        add({ kind: 'computation', name: c.name.name, module: m.index, definition: c.name.range }),
      );
    }
    const computationRef = (name: HloName): void => {
      let sym = byName.get(name.name);
      if (!sym) {
        sym = add({ kind: 'computation', name: name.name, module: m.index });
        byName.set(name.name, sym);
      }
      reference(sym, name.range);
    };
    for (const ci of m.computations) {
      const c = computations[ci];
      if (!c) continue;
      const local = new Map<string, MutableSymbol>();
      for (const ins of c.instructions) {
        if (local.has(ins.name.name)) continue;
        local.set(
          ins.name.name,
          add({
            kind: 'instruction',
            name: ins.name.name,
            module: m.index,
            computation: ci,
            definition: ins.name.range,
            instruction: ins,
          }),
        );
      }
      const instructionRef = (name: HloName): void => {
        let sym = local.get(name.name);
        if (!sym) {
          sym = add({ kind: 'instruction', name: name.name, module: m.index, computation: ci });
          local.set(name.name, sym);
        }
        reference(sym, name.range);
      };
      // A signature parameter names the parameter instruction of the same name when there is one.
      for (const p of c.parameters) {
        const sym = local.get(p.name);
        if (sym) reference(sym, p.range);
        else
          local.set(
            p.name,
            add({ kind: 'instruction', name: p.name, module: m.index, computation: ci, definition: p.range }),
          );
      }
      for (const ins of c.instructions) {
        for (const o of ins.operands) instructionRef(o);
        for (const c of ins.controlPredecessors) instructionRef(c);
        for (const called of ins.calledComputations) computationRef(called);
      }
    }
  }
  occurrences.sort((a, b) => a.range.start - b.range.start);
  return { symbols, occurrences };
}

/** The symbol occurrence whose range contains `offset` (end inclusive, so a cursor right after a name counts). */
export function symbolAt(
  model: HloModel,
  offset: number,
): { symbol: HloSymbol; occurrence: SymbolOccurrence } | undefined {
  const occ = model.occurrences;
  let lo = 0;
  let hi = occ.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const o = occ[mid];
    if (!o) break;
    if (o.range.end < offset) lo = mid + 1;
    else if (o.range.start > offset) hi = mid - 1;
    else {
      const symbol = model.symbols[o.symbol];
      return symbol ? { symbol, occurrence: o } : undefined;
    }
  }
  return undefined;
}

/** The innermost computation whose range contains `offset` (computations are in header order, so the last). */
export function computationAt(model: HloModel, offset: number): HloComputation | undefined {
  for (let i = model.computations.length - 1; i >= 0; i--) {
    const c = model.computations[i];
    if (c && c.range.start <= offset && offset <= c.range.end) return c;
  }
  return undefined;
}
