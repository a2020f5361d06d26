/**
 * The attributes of the two opcodes whose rules depend on their first operand's shape, which only
 * the instruction defining the operand shows: a `broadcast` needs `dimensions=` unless its operand
 * is a scalar, and a `conditional` on a pred[] takes `true_computation=` and `false_computation=`,
 * on an s32[] `branch_computations=`, and on anything else is refused before its attributes are
 * read (jaxlib 0.10.2's `The first operand must be a scalar of PRED or S32`); with the right
 * attributes, it takes one operand per branch after that one. The name checks (name-checks.ts),
 * which know every operand, run them.
 */
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { printShape } from '../print';
import { attributeListError, isMissingAttribute } from './attribute-checks';
import { BROADCAST_RULES, conditionalRules } from './attribute-table';
import { skipBalanced, skipTrivia } from './lex';
import { operandCount } from './operand-counts';
import type { InstructionStatement } from './types';

/** `d` at the first token after the instruction ending at `end` when it waits for it (see attributeListError). */
function placed(d: LayoutDiagnostic, text: string, end: number): LayoutDiagnostic {
  if (!d.atNextToken) return d;
  const at = skipTrivia(text, end, text.length);
  return diagnostic(d.code, d.message, { start: at, end: Math.min(at + 1, text.length) }, d.plain);
}

/**
 * XLA's error on the attributes of `ins` (a `broadcast` or `conditional`; undefined for other
 * opcodes) whose first operand is `operand`, defined before it with a shape read cleanly, or
 * undefined. `text` holds the instruction and what follows it up to its computation's `}`.
 */
export function operandAttributeError(
  text: string,
  ins: InstructionStatement,
  operand: InstructionStatement,
): LayoutDiagnostic | undefined {
  const opcode = ins.opcode?.name;
  const shape = operand.shape;
  if ((opcode !== 'broadcast' && opcode !== 'conditional') || !ins.opcode || !shape) return undefined;
  const end = ins.range.end;
  const close = skipBalanced(text, skipTrivia(text, ins.opcode.range.end, end), end);
  const scalar = shape.kind === 'array' && shape.dims.length === 0;
  if (opcode === 'broadcast') {
    if (scalar) return undefined;
    // The statement parser reported any other attribute error of a broadcast.
    const d = attributeListError(text, opcode, ins.attributes, close, end, true, BROADCAST_RULES);
    return d && isMissingAttribute(d) ? placed(d, text, end) : undefined;
  }
  const type = shape.kind === 'array' ? shape.elementType : undefined;
  if (!scalar || (type !== 'pred' && type !== 's32')) {
    // XLA says so at the first token after the operands, before it reads the attributes.
    const next = skipTrivia(text, close, end);
    const what = `%${operand.name.name} is ${printShape(shape, { layout: false })}`;
    const d = diagnostic(
      'attribute-list',
      scalar ? 'The first operand must be a scalar of PRED or S32' : 'The first operand must be a scalar',
      { start: next, end: Math.min(next + 1, end) },
      `a \`conditional\`'s first operand picks its branch: a pred[] (with \`true_computation=\` and \`false_computation=\`) or an s32[] (with \`branch_computations=\`), and ${what}`,
    );
    return next < end ? d : placed({ ...d, atNextToken: true }, text, end);
  }
  const d = attributeListError(
    text,
    opcode,
    ins.attributes,
    close,
    end,
    true,
    conditionalRules(type === 'pred'),
  );
  return d ? placed(d, text, end) : branchCountError(text, ins, type === 'pred', close);
}

/**
 * XLA's refusal of a `conditional` (its attributes right for its first operand) that has other
 * than one operand per branch computation after the branch index, or no branch: its parser gives
 * up without a message of its own. `close` is just past the operands' `)`.
 */
function branchCountError(
  text: string,
  ins: InstructionStatement,
  pred: boolean,
  close: number,
): LayoutDiagnostic | undefined {
  const open = skipTrivia(text, ins.opcode?.range.end ?? close, close);
  const count = operandCount(text, open, close - 1);
  const branches = pred
    ? 2
    : ins.calledComputations.filter((c) => c.attribute === 'branch_computations').length;
  if (count === undefined || (branches > 0 && count === branches + 1)) return undefined;
  const plain =
    branches === 0
      ? '`branch_computations={}` lists no computation: a `conditional` needs at least one branch'
      : `this \`conditional\` has ${branches} branch computation${branches === 1 ? '' : 's'}, so it takes ${branches + 1} operands (the branch index, then one per branch); it has ${count}`;
  return diagnostic(
    'operand-count',
    'Syntax error when trying to parse the text as a HloModule',
    { start: open, end: close },
    plain,
  );
}
