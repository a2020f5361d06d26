/**
 * Where XLA's parser stops on a module whose computations are not closed or hold statements
 * outside them: a computation's instructions run until its `}`, and between computations the
 * parser expects a computation. A truncated paste or a deleted `}` or header line ends up here.
 */
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { skipTrivia } from './lex';
import { SOURCE_TABLES } from './stack-frames';
import type { ComputationHeaderStatement, HloStatement, ModuleHeaderStatement } from './types';

/** A line naming one of the source tables newer dumps write before the computations. */
const TABLE_LINE = new RegExp(`^[ \\t]*(${SOURCE_TABLES.join('|')})[ \\t]*\\r?$`, 'gm');
const TABLES: readonly string[] = SOURCE_TABLES;

/**
 * The error on computation `header`, never closed, where XLA's parser finds out: at `next`, the
 * first statement after its instructions (a header or `HloModule` line; a `// -----` line ends the
 * part XLA parses), or at the end of the text when there is none.
 */
export function unclosedComputation(
  text: string,
  header: ComputationHeaderStatement,
  next: HloStatement | undefined,
): LayoutDiagnostic {
  const name = header.name ? `%${header.name.name}` : 'this computation';
  let range: TextRange = { start: text.length, end: text.length };
  let message = 'expects name';
  let where = '';
  if (next?.kind === 'computation' && !next.entry && next.name) {
    // Its name reads as an instruction's, and what follows is no `=`.
    const at = skipTrivia(text, next.name.range.end, next.range.end);
    range = { start: at, end: Math.min(at + 1, next.range.end) };
    message = "expects '=' in instruction";
    where = `before %${next.name.name}`;
  } else if (next && next.kind !== 'separator') {
    const at = skipTrivia(text, next.range.start, next.range.end);
    // The word there: `ENTRY` or `HloModule`.
    let end = at;
    while (end < next.range.end && /\w/.test(text[end])) end++;
    range = { start: at, end: Math.max(end, Math.min(at + 1, next.range.end)) };
    where = next.kind === 'module' ? 'before the next HloModule' : 'before the next computation';
  } else if (next) range = { start: next.range.start, end: next.range.start };
  const d = diagnostic(
    'computation-unclosed',
    message,
    range,
    next && next.kind !== 'separator'
      ? `${name} is never closed: its \`}\` is missing ${where}, which XLA reads as one of its instructions`
      : `${name} is never closed: its \`}\` is missing at the end of the text`,
  );
  const brace = header.range.end - 1;
  return {
    ...d,
    related: [{ range: { start: brace, end: brace + 1 }, message: `the { of ${name}, never closed` }],
  };
}

/**
 * The error on a statement outside any computation: a `}` that closes none, or an instruction
 * whose computation has no header (XLA reads its name as a computation's name, then expects `{`).
 */
export function outsideComputation(text: string, statement: HloStatement): LayoutDiagnostic | undefined {
  if (statement.kind === 'close') {
    const at = skipTrivia(text, statement.range.start, statement.range.end);
    return diagnostic(
      'outside-computation',
      'expects name',
      { start: at, end: at + 1 },
      'this `}` closes no computation: the one it closed has ended already, or its header is missing',
    );
  }
  if (statement.kind !== 'instruction') return undefined;
  if (statement.rootKeyword)
    return diagnostic(
      'outside-computation',
      'expects name',
      statement.rootKeyword,
      `%${statement.name.name} is outside any computation: the header of its computation (\`%name (params) -> shape {\`) is missing above it`,
    );
  const at = skipTrivia(text, statement.name.range.end, statement.range.end);
  return diagnostic(
    'outside-computation',
    "expects '{' at the beginning of instruction list.",
    { start: at, end: Math.min(at + 1, statement.range.end) },
    `%${statement.name.name} is outside any computation: the header of its computation (\`%name (params) -> shape {\`) is missing above it`,
  );
}

/**
 * The error on the last module of `text`, whose `header` no computation follows: XLA's parser
 * reaches the end of the text where it expects the next source table or the first computation.
 */
export function moduleWithoutComputation(text: string, header: ModuleHeaderStatement): LayoutDiagnostic {
  let last = -1;
  TABLE_LINE.lastIndex = header.range.end;
  for (let m = TABLE_LINE.exec(text); m; m = TABLE_LINE.exec(text)) last = TABLES.indexOf(m[1]);
  const end = { start: text.length, end: text.length };
  if (last >= 0 && last < TABLES.length - 1)
    return diagnostic(
      'computation-unclosed',
      `expects '${TABLES[last + 1]}'`,
      end,
      `the text ends inside the source tables: XLA expects the ${TABLES[last + 1]} table next, then the module's computations`,
    );
  return diagnostic(
    'computation-unclosed',
    'expects name',
    end,
    'the module has no computation: the text ends before its first one',
  );
}
