/**
 * The padding-overhead warnings of a stream of HLO statements, where the editor gives them: on
 * the array values XLA allocates (memory/allocation-sites.ts). A statement's result is sized once
 * per distinct shape text (only its arrays' logical and physical bytes; the sentence only for
 * arrays that warn); whether a warning holds depends on the computation it is in, which calls
 * further down decide (XLA writes callees first), so warnings wait in a {@link PaddingCollector}
 * until their module ends. Statements become {@link PaddingEvent}s first, so that `check`'s
 * worker threads can hand them to the thread that prints.
 */
import type { ArrayShapeNode, ShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { nameEnd, resultShapeStart, skipBlanks } from '../hlo/instruction-start';
import { calledAfter, opcodeAfter, takesComputations } from '../hlo/instruction-calls';
import { lastNonBlank } from '../hlo/lex';
import { isLayoutError, physicalSizes, planTiling } from '../layout';
import { allocatesIn, definesNothing, definesValue, placement } from '../memory/allocation-sites';
import { parseShape } from '../parse';
import { ScanState } from '../parse/scan-state';
import { shapeKeyEnd } from '../parse/shape-key';
import { primitiveType } from '../primitive-types';
import { toArrayShape } from '../to-model';
import { RegionCache } from '../validate/region-cache';
import {
  paddingCause,
  paddingFix,
  paddingWarningText,
  paddingWarns,
  type PaddingThresholds,
} from './padding-warning';

/** What the statements of a stream say about allocation; `T` is a located warning. */
export type PaddingEvent<T> =
  | { readonly kind: 'module' }
  | { readonly kind: 'computation'; readonly name: string; readonly entry: boolean }
  | { readonly kind: 'calls'; readonly opcode: string; readonly callees: readonly string[] }
  | { readonly kind: 'warning'; readonly parameter: boolean; readonly warning: T };

/** An array of a result shape that crosses the thresholds, relative to the shape's start. */
interface WarnedLeaf {
  readonly layoutStart: number;
  readonly layoutEnd: number;
  /** Its tuple index in the result. */
  readonly index: readonly number[];
  readonly message: string;
}

/** What is kept per distinct result shape text. */
interface ResultEntry {
  /** Where the shape ends, relative to its start (-1: it does not parse). */
  readonly end: number;
  readonly warned: readonly WarnedLeaf[];
}

const NONE: readonly WarnedLeaf[] = [];

/** Turns statements into {@link PaddingEvent}s; warnings are diagnostics with ranges absolute in the text. */
export class PaddingScanner {
  private readonly results: RegionCache<ResultEntry>;
  private readonly scan = new ScanState();

  constructor(
    private readonly thresholds: PaddingThresholds,
    maxEntries = 50_000,
  ) {
    this.results = new RegionCache(maxEntries);
  }

  /** The events of the statement `text[start, end)`, handed to `emit`. */
  statement(
    text: string,
    start: number,
    end: number,
    emit: (e: PaddingEvent<LayoutDiagnostic>) => void,
  ): void {
    const result = resultShapeStart(text, start, end);
    if (result < 0) return this.header(text, start, end, emit);
    const entry = this.resultAt(text, result, end);
    if (entry.end < 0) return;
    const op = opcodeAfter(text, result + entry.end, end);
    if (!op) return;
    const opcode = text.slice(op.start, op.end);
    if (takesComputations(opcode)) {
      const callees = calledAfter(text, op.end, end);
      if (callees.length > 0) emit({ kind: 'calls', opcode, callees });
    }
    if (entry.warned.length === 0 || definesNothing(opcode)) return;
    for (const leaf of entry.warned) {
      if (!definesValue(opcode, leaf.index, false)) continue;
      const range = { start: result + leaf.layoutStart, end: result + leaf.layoutEnd };
      emit({
        kind: 'warning',
        parameter: opcode === 'parameter',
        warning: diagnostic('padding-overhead', leaf.message, range),
      });
    }
  }

  /** A computation header (`[ENTRY] %name (...) -> ... {`) or an `HloModule` line. */
  private header(
    text: string,
    start: number,
    end: number,
    emit: (e: PaddingEvent<LayoutDiagnostic>) => void,
  ): void {
    let p = skipBlanks(text, start, end);
    let e = nameEnd(text, p, end);
    if (e < 0) return;
    if (text.startsWith('HloModule', p) && e - p === 9) return emit({ kind: 'module' });
    if (lastNonBlank(text, start, end) !== 123) return;
    const entry = e - p === 5 && text.startsWith('ENTRY', p);
    if (entry) {
      p = skipBlanks(text, e, end);
      e = nameEnd(text, p, end);
      if (e < 0) return;
    }
    if (skipBlanks(text, e, end) >= end || text.charCodeAt(skipBlanks(text, e, end)) !== 40) return;
    emit({ kind: 'computation', name: text.slice(text.charCodeAt(p) === 37 ? p + 1 : p, e), entry });
  }

  /** The result shape at `pos`, sized once per distinct text. */
  private resultAt(text: string, pos: number, end: number): ResultEntry {
    let typeEnd = -1;
    if (text.charCodeAt(pos) !== 40) {
      typeEnd = nameEnd(text, pos, end);
      if (typeEnd < 0 || text.charCodeAt(typeEnd) !== 91) return { end: -1, warned: NONE };
    }
    const keyEnd = shapeKeyEnd(this.scan, text, pos, end, typeEnd);
    if (keyEnd < 0) return this.sized(text, pos, end);
    const hash = this.scan.keyHash;
    let entry = this.results.get(text, pos, keyEnd, hash);
    if (entry === undefined) {
      entry = this.sized(text, pos, end);
      this.results.set(text, pos, keyEnd, hash, entry);
    }
    return entry;
  }

  /** Parses and sizes the result shape at `pos`. */
  private sized(text: string, pos: number, end: number): ResultEntry {
    const node = parseShape(text, pos, { end }).shape;
    if (!node || node.range.start !== pos) return { end: -1, warned: NONE };
    const warned: WarnedLeaf[] = [];
    visitArrays(node, (leaf, index) => {
      const message = this.warning(text, leaf);
      if (message === undefined) return;
      const layout = leaf.layout?.range ?? leaf.range;
      warned.push({ layoutStart: layout.start - pos, layoutEnd: layout.end - pos, index, message });
    });
    return { end: node.range.end - pos, warned: warned.length === 0 ? NONE : warned };
  }

  /** The warning's sentence for `leaf`, when its padding crosses the thresholds. */
  private warning(text: string, leaf: ArrayShapeNode): string | undefined {
    if (!primitiveType(leaf.elementType)?.isArray) return undefined;
    const shape = toArrayShape(leaf);
    if (!shape) return undefined;
    const sz = physicalSizes(shape);
    if (isLayoutError(sz)) return undefined;
    const expansion = sz.expansion ?? 0;
    if (!paddingWarns(sz.logicalBytes, sz.physicalBytes, expansion, this.thresholds)) return undefined;
    // The cause is read from the leaf's own text, as the editor reads it.
    const own = parseShape(text.slice(leaf.range.start, leaf.range.end), 0).shape;
    const model = own?.kind === 'array' ? toArrayShape(own) : undefined;
    const plan = model ? planTiling(model) : undefined;
    const cause = model && plan && !isLayoutError(plan) ? paddingCause(model, plan) : undefined;
    return paddingWarningText({
      logicalBytes: sz.logicalBytes,
      physicalBytes: sz.physicalBytes,
      expansion,
      cause,
      fix: model ? paddingFix(model) : undefined,
    });
  }
}

/** Visits the arrays of a shape with their tuple index, without recursion (tuples nest deeply). */
function visitArrays(node: ShapeNode, f: (leaf: ArrayShapeNode, index: readonly number[]) => void): void {
  const stack: { node: ShapeNode; index: readonly number[] }[] = [{ node, index: [] }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const n = top.node;
    if (n.kind === 'array') f(n, top.index);
    else if (n.kind === 'tuple')
      for (let i = n.elements.length - 1; i >= 0; i--)
        stack.push({ node: n.elements[i], index: [...top.index, i] });
  }
}

/** A computation of the module being read. */
interface Read {
  readonly name: string;
  readonly entry: boolean;
  readonly calls: Map<string, string>;
}

/**
 * Takes the events of one stream in order and gives out, at the end of each module, the warnings
 * on values that get memory of their own (core's allocatesIn), in the order they came.
 */
export class PaddingCollector<T> {
  private computations: Read[] = [];
  private current: Read | undefined;
  private pending: { computation: Read | undefined; parameter: boolean; warning: T }[] = [];

  constructor(private readonly emit: (warning: T) => void) {}

  add(e: PaddingEvent<T>): void {
    switch (e.kind) {
      case 'module':
        this.flush();
        break;
      case 'computation':
        this.current = { name: e.name, entry: e.entry, calls: new Map() };
        this.computations.push(this.current);
        break;
      case 'calls':
        if (this.current)
          for (const callee of e.callees)
            if (this.current.calls.get(callee) !== 'fusion') this.current.calls.set(callee, e.opcode);
        break;
      case 'warning':
        this.pending.push({ computation: this.current, parameter: e.parameter, warning: e.warning });
        break;
    }
  }

  /** Ends the module: gives out its warnings that hold. */
  flush(): void {
    const placed = placement(this.computations);
    for (const p of this.pending)
      if (!p.computation || allocatesIn(placed, p.computation.name, p.parameter ? 'parameter' : ''))
        this.emit(p.warning);
    this.computations = [];
    this.current = undefined;
    this.pending = [];
  }
}
