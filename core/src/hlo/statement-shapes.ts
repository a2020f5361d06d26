/**
 * What the statement parser keeps while it reads one statement: the shapes found, the errors of the
 * statement itself and the text already read structurally (the shape finder covers the rest); and
 * how an operand or result tells a shape from a name.
 */
import type { ShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type RuleCode, type TextRange } from '../diagnostics';
import { parseShape, scanShapes, type ScanState } from '../parse';
import { tokenAt } from '../parse/tokens';
import { primitiveType } from '../primitive-types';
import { charAt, skipTrivia } from './lex';
import { isIdentifierChar } from './split-statements';
import type { HloName, OperandRef, StatementShape } from './types';

/** `name` with its `shape` when there is one (an operand's annotation, a parameter's shape). */
export function named(name: HloName, shape: ShapeNode | undefined): OperandRef {
  return shape ? { name: name.name, range: name.range, shape } : { name: name.name, range: name.range };
}

/** Collects the shapes of one statement and the text ranges already read structurally. */
export class Shapes {
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
export function looksLikeShape(text: string, pos: number, end: number): boolean {
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
export function shapeOmitted(text: string, pos: number, end: number): boolean {
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  if (i === pos || (i === pos + 1 && charAt(text, pos, end) === 98)) return false;
  if (primitiveType(text.slice(pos, i)) !== undefined) return false;
  return charAt(text, skipTrivia(text, i, end), end) === 40;
}
