/**
 * "Define %y = s32[] parameter(1)": for an operand named only in its computation's signature, the
 * instruction that defines the name. XLA's parser reads a signature's names for their shapes and
 * drops them (name-checks.ts reports the use), so the fix writes the parameter instruction, with the
 * signature's shape and position, first in the body.
 */
import { declaredName } from '../../core/src';
import type { TextRange } from '../../core/src';
import type { HloDocument } from './document';

export interface ParameterDefinition {
  readonly title: string;
  readonly edit: { readonly range: TextRange; readonly newText: string };
}

/** The parameter instruction that would define the name at `range`, if it is a signature's and nothing in the body takes its name or number. */
export function parameterDefinition(doc: HloDocument, range: TextRange): ParameterDefinition | undefined {
  const text = doc.text.getText();
  const name = text.slice(range.start, range.end);
  const c = doc.computationOf(doc.statementIndexAt(range.start));
  // A computation written in place has no signature.
  if (!c || c.parent !== undefined) return undefined;
  const header = doc.parse(c.header);
  if (header.kind !== 'computation') return undefined;
  const number = header.parameters.findIndex((p) => p.name === name);
  const shape = header.parameters[number]?.shape;
  if (!shape) return undefined;
  let indent: string | undefined;
  for (const i of doc.statementsOf(c)) {
    if (doc.summary(i).kind !== 'instruction') continue;
    const r = doc.range(i);
    indent ??= /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', r.start - 1) + 1, r.end))?.[0];
    if (declaredName(text, r, 'ROOT')?.name === name) return undefined;
    // Parsing only the statements that can be parameters keeps the fix cheap in long computations.
    const opcode = text.indexOf('parameter(', r.start);
    if (opcode < 0 || opcode >= r.end) continue;
    const st = doc.parse(i);
    if (st.kind === 'instruction' && st.parameter?.value === number) return undefined;
  }
  const shapeText = text.slice(shape.range.start, shape.range.end);
  const headerEnd = doc.range(c.header).end;
  const lineBreak = text.indexOf('\n', headerEnd);
  const line = `${indent ?? '  '}%${name} = ${shapeText} parameter(${number})`;
  const at = lineBreak < 0 ? text.length : lineBreak + 1;
  return {
    title: `Define %${name} = ${shapeText} parameter(${number})`,
    edit: { range: { start: at, end: at }, newText: lineBreak < 0 ? `\n${line}` : `${line}\n` },
  };
}
