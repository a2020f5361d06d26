/**
 * Where XLA parses a shape but never validates its layout. XLA runs ValidateLayoutForShape on the
 * shapes it keeps (an instruction's result, `outfeed_shape`, entry_computation_layout); it drops a
 * computation's signature (the program shape comes from the parameter instructions and ROOT),
 * compares an operand's declared shape with the operand's by type and dimensions only, and stores
 * custom-call `operand_layout_constraints` as written. There a layout XLA's validator would reject
 * is a warning that says so, not an error: XLA accepts the module (checked against jaxlib 0.10.2
 * in test/xla/unchecked-layouts.test.ts). What XLA's parser itself rejects stays an error anywhere,
 * and so does every layout inside a tuple there: the parser validates a tuple's elements.
 */
import type { ShapeNode } from '../ast';
import { RULES, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { parseStatement } from './parse-statement';
import type { HloStatement } from './types';

/** A place whose layouts XLA parses but does not validate. */
export type UncheckedPlace = 'signature' | 'operand' | 'constraint';

const WHY: Record<UncheckedPlace, string> = {
  signature:
    "XLA does not check layouts in a computation's signature (the shapes of its parameter and ROOT instructions count)",
  operand:
    "XLA does not check the layout of an operand's declared shape (only its element type and dimensions count)",
  constraint: 'XLA does not check layouts in operand_layout_constraints (it keeps them as written)',
};

/** Whether `d` is one XLA's layout validator reports, the kind XLA skips in an {@link UncheckedPlace}. */
export function isValidatorDiagnostic(d: LayoutDiagnostic): boolean {
  return RULES[d.code].stage === 'validator';
}

function inside(offset: number, range: TextRange | undefined): boolean {
  return range !== undefined && offset >= range.start && offset < range.end;
}

/** Whether `shape` is an array holding `offset`: XLA's parser validates a tuple's elements wherever the tuple is. */
function inArray(offset: number, shape: ShapeNode | undefined): boolean {
  return shape?.kind === 'array' && inside(offset, shape.range);
}

/** The unchecked place of `statement` holding `offset`, or undefined where XLA validates (or nothing is known). */
export function uncheckedPlaceAt(statement: HloStatement, offset: number): UncheckedPlace | undefined {
  if (statement.kind === 'computation') {
    if (inArray(offset, statement.result) || statement.parameters.some((p) => inArray(offset, p.shape)))
      return 'signature';
    return undefined;
  }
  if (statement.kind !== 'instruction' || inside(offset, statement.shape?.range)) return undefined;
  if (statement.operands.some((o) => inArray(offset, o.shape))) return 'operand';
  const constraints = statement.attributes.find((a) => a.key.name === 'operand_layout_constraints');
  if (!inside(offset, constraints?.valueRange)) return undefined;
  return statement.shapes.some((f) => inArray(offset, f.shape)) ? 'constraint' : undefined;
}

/**
 * `d`, a validator's error in an unchecked place, as a warning: what is wrong in plain words, that
 * XLA does not check it there, and what XLA says of the same layout on an instruction.
 */
export function uncheckedLayoutWarning(d: LayoutDiagnostic, place: UncheckedPlace): LayoutDiagnostic {
  const what = d.plain ?? 'this layout is invalid';
  const message = `${what}. ${WHY[place]}; on an instruction it would reject this one: ${d.message}`;
  return { code: d.code, severity: 'warning', message, range: d.range };
}

/**
 * `diagnostics` of the statement(s) `text[range)` with the validator's errors in unchecked places
 * made warnings ({@link uncheckedLayoutWarning}); `first` is the first statement when the caller
 * has parsed it. Where XLA reads more than one statement in the range, each is parsed when needed.
 */
export function relaxUncheckedLayouts(
  text: string,
  range: TextRange,
  diagnostics: readonly LayoutDiagnostic[],
  first: HloStatement = parseStatement(text, range),
): LayoutDiagnostic[] {
  const statements = [first];
  const statementAt = (at: number): HloStatement => {
    for (let i = 0; ; i++) {
      const st = statements[i];
      if (st.following === undefined || at < st.following) return st;
      if (i + 1 === statements.length)
        statements.push(parseStatement(text, { start: st.following, end: range.end }));
    }
  };
  return diagnostics.map((d) => {
    if (!isValidatorDiagnostic(d)) return d;
    const place = uncheckedPlaceAt(statementAt(d.range.start), d.range.start);
    return place === undefined ? d : uncheckedLayoutWarning(d, place);
  });
}
