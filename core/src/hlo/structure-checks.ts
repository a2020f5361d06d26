/**
 * Where XLA's parser stops on a module whose computations are not closed or hold statements
 * outside them: a computation's instructions run until its `}`, and between computations the
 * parser expects a computation. A truncated paste or a deleted `}` or header line ends up here.
 */
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { PRIMITIVE_TYPE_NAMES } from '../primitive-types';
import { readName, skipTrivia } from './lex';
import { SOURCE_TABLES } from './stack-frames';
import type { ComputationHeaderStatement, HloStatement, ModuleHeaderStatement } from './types';

/** What the module-wide walks read of a statement: its kind, range, and whether it opens a computation written in place. */
export interface StatementOutline {
  readonly kind: HloStatement['kind'];
  readonly range: TextRange;
  /** An instruction `calls={` (or a `}, condition={`) opening a computation written in place. */
  readonly opens?: boolean;
}

/**
 * The errors on `HloModule` lines that follow a module in the same part of the text: XLA's parser
 * reads one module, then computations to the end, and stops at the second `HloModule`, which is
 * no computation's name. Concatenated dumps end up here. A `// -----` line starts a new part, as
 * this tool reads XLA's split test files (XLA's plain parser refuses those too).
 */
export function secondModules(text: string, statements: readonly StatementOutline[]): LayoutDiagnostic[] {
  const out: LayoutDiagnostic[] = [];
  let content = false;
  for (const s of statements) {
    if (s.kind === 'separator') content = false;
    else if (s.kind === 'module' && content) {
      const at = skipTrivia(text, s.range.start, s.range.end);
      out.push(
        diagnostic(
          'outside-computation',
          'expects name',
          { start: at, end: Math.min(at + 'HloModule'.length, s.range.end) },
          'a second module starts here, and XLA reads one module per file: split the file, or put a `// -----` line before this one to check the modules apart here',
        ),
      );
    } else if (s.kind !== 'blank' && s.kind !== 'comment') content = true;
  }
  return out;
}

/**
 * The errors on computations without instructions (`ENTRY %e {` then `}`): XLA's parser reads at
 * least one instruction after the `{`, so it expects a name at the `}`.
 */
export function emptyComputations(text: string, statements: readonly StatementOutline[]): LayoutDiagnostic[] {
  const out: LayoutDiagnostic[] = [];
  let opened = false;
  for (const s of statements) {
    if (s.kind === 'blank' || s.kind === 'comment') continue;
    if (opened && s.kind === 'close') {
      const at = skipTrivia(text, s.range.start, s.range.end);
      out.push(
        diagnostic(
          'computation-unclosed',
          'expects name',
          { start: at, end: at + 1 },
          'this computation has no instructions: XLA wants at least one (the last, or the one marked ROOT, is its result)',
        ),
      );
    }
    opened = s.kind === 'computation' || s.opens === true;
  }
  return out;
}

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
  if (statement.kind === 'unknown') return strayText(text, statement);
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
 * The error on text after a module's computations that is no computation (a stray word, a number,
 * junk pasted at the end), unless its statement has an error of its own: XLA reads a name there as
 * the next computation's and then expects its `(` or `{`; anything else is no name.
 */
function strayText(text: string, statement: HloStatement): LayoutDiagnostic | undefined {
  if (statement.diagnostics.some((d) => d.severity === 'error')) return undefined;
  const { start, end } = statement.range;
  const at = skipTrivia(text, start, end);
  let name = readName(text, at, end);
  let word = name ? text.slice(at, name.end) : '';
  // `ENTRY` is followed by the computation's name.
  if (name && word === 'ENTRY') {
    const next = skipTrivia(text, name.end, text.length);
    name = readName(text, next, text.length);
    word = name ? text.slice(next, name.end) : '';
    if (!name) return noName(text, next, at, end);
  }
  if (!name || (text.charCodeAt(at) !== 37 && KEYWORDS.has(word))) return noName(text, at, at, end);
  const after = skipTrivia(text, name.end, text.length);
  return diagnostic(
    'outside-computation',
    "expects '{' at the beginning of instruction list.",
    { start: after, end: Math.min(after + 1, text.length) },
    `\`${oneLine(text.slice(at, end))}\` stands after the computations, where XLA reads \`${word}\` as the name of another computation and expects its \`{\`: remove it`,
  );
}

/** XLA's error where it expects a computation's name at `pos` and finds none, on the stray statement `text[start, end)`. */
function noName(text: string, pos: number, start: number, end: number): LayoutDiagnostic {
  let stop = pos;
  while (stop < text.length && /[\w.%-]/.test(text[stop])) stop++;
  return diagnostic(
    'outside-computation',
    'expects name',
    { start: pos, end: Math.max(stop, Math.min(pos + 1, text.length)) },
    `\`${oneLine(text.slice(start, end))}\` stands after the computations, where XLA expects another computation: remove it`,
  );
}

/** Words XLA's lexer reads as keywords or element types, never as names. */
const KEYWORDS = new Set([
  'ROOT',
  'ENTRY',
  'HloModule',
  'true',
  'false',
  'inf',
  'nan',
  ...PRIMITIVE_TYPE_NAMES,
]);

/** `s` on one line, cut to a length a message can quote. */
function oneLine(s: string): string {
  const line = s.trim().split(/\r?\n|\r/)[0] ?? '';
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
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
