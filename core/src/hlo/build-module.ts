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
} from './types';

/** One computation: from its header to its closing `}`. */
export interface HloComputation {
  readonly index: number;
  /** Index into {@link HloModel.modules}. */
  readonly module: number;
  readonly header: ComputationHeaderStatement;
  readonly name?: HloName;
  readonly entry: boolean;
  /** Header start to the end of the closing `}` (or of the last statement when it is missing). */
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

export interface HloModel {
  readonly statements: readonly HloStatement[];
  readonly modules: readonly HloModuleInfo[];
  readonly computations: readonly HloComputation[];
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
  module: number;
  header: ComputationHeaderStatement;
  instructions: InstructionStatement[];
  end: number;
  closed: boolean;
}

/** Builds the module model from statements in text order (normally `parseStatement` of each split range). */
export function buildModule(statements: readonly HloStatement[]): HloModel {
  const modules: { header?: ModuleHeaderStatement; start: number; end: number; computations: number[]; entry?: number }[] = [];
  const computations: HloComputation[] = [];
  let open: OpenComputation | undefined;
  // After a `// -----` line the next computation starts a module of its own, unless a header does.
  let split = false;

  const currentModule = (at: number): number => {
    if (modules.length === 0 || split) modules.push({ start: at, end: at, computations: [] });
    split = false;
    return modules.length - 1;
  };
  const finish = (): void => {
    if (!open) return;
    const c = open;
    const index = computations.length;
    const marked = c.instructions.find((i) => i.root);
    const root = marked ?? c.instructions[c.instructions.length - 1];
    computations.push({
      index,
      module: c.module,
      header: c.header,
      ...(c.header.name ? { name: c.header.name } : {}),
      entry: c.header.entry,
      range: { start: c.header.range.start, end: c.end },
      parameters: c.header.parameters,
      instructions: c.instructions,
      ...(root ? { root } : {}),
      closed: c.closed,
    });
    const m = modules[c.module];
    if (m) {
      m.computations.push(index);
      if (c.header.entry && m.entry === undefined) m.entry = index;
      m.end = Math.max(m.end, c.end);
    }
    open = undefined;
  };

  for (const s of statements) {
    switch (s.kind) {
      case 'module':
        finish();
        split = false;
        modules.push({ header: s, start: s.range.start, end: s.range.end, computations: [] });
        break;
      case 'separator':
        finish();
        split = true;
        break;
      case 'computation':
        finish();
        open = { module: currentModule(s.range.start), header: s, instructions: [], end: s.range.end, closed: false };
        break;
      case 'instruction':
        if (open) {
          open.instructions.push(s);
          open.end = s.range.end;
        }
        break;
      case 'close':
        if (open) {
          open.end = s.range.end;
          open.closed = true;
          finish();
        }
        break;
      default:
        break;
    }
    const last = modules[modules.length - 1];
    if (last && !split && s.kind !== 'blank' && s.kind !== 'comment' && s.kind !== 'separator') last.end = Math.max(last.end, s.range.end);
  }
  finish();

  const moduleInfos: HloModuleInfo[] = modules.map((m, index) => ({
    index,
    ...(m.header ? { header: m.header } : {}),
    ...(m.header?.name ? { name: m.header.name } : {}),
    range: { start: m.start, end: m.end },
    computations: m.computations,
    ...(m.entry !== undefined ? { entry: m.entry } : {}),
  }));
  const { symbols, occurrences } = buildSymbols(moduleInfos, computations);
  return { statements, modules: moduleInfos, computations, symbols, occurrences };
}

function buildSymbols(modules: readonly HloModuleInfo[], computations: readonly HloComputation[]): { symbols: HloSymbol[]; occurrences: SymbolOccurrence[] } {
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
      byName.set(c.name.name, add({ kind: 'computation', name: c.name.name, module: m.index, definition: c.name.range }));
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
        local.set(ins.name.name, add({ kind: 'instruction', name: ins.name.name, module: m.index, computation: ci, definition: ins.name.range, instruction: ins }));
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
        else local.set(p.name, add({ kind: 'instruction', name: p.name, module: m.index, computation: ci, definition: p.range }));
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
export function symbolAt(model: HloModel, offset: number): { symbol: HloSymbol; occurrence: SymbolOccurrence } | undefined {
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

/** The innermost computation whose range contains `offset`. */
export function computationAt(model: HloModel, offset: number): HloComputation | undefined {
  return model.computations.find((c) => c.range.start <= offset && offset <= c.range.end);
}
