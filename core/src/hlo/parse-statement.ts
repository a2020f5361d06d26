/**
 * Reads one HLO statement (a range from `splitStatements`) into a {@link HloStatement}. Shapes at
 * known positions (result, operand annotations, signature parameters, entry_computation_layout)
 * go through the shape parser; the shape finder covers whatever text is left between them
 * (attribute values such as `outfeed_shape=`), so every shape of the statement is reported once.
 * Never throws: what it cannot read becomes an `unknown` statement or an absent field. This file
 * reads headers and dispatches; instructions are parse-instruction.ts's, `key=value` lists
 * statement-attributes.ts's.
 */
import type { ShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { ScanState } from '../parse';
import { unterminatedComment } from '../parse/lexical-lines';
import { hasBadSigil, instructionEquals } from './instruction-start';
import { charAt, lastNonBlank, readName, skipBalanced, skipString, skipTrivia, trimmedEnd } from './lex';
import { leftoverAt, strayStart, tableEntryErrors } from './leftover';
import { isMissingAttribute } from './attribute-checks';
import { NAME_KEYWORDS } from './computation-values';
import { firstOddBlank, oddBlankError } from './odd-blanks';
import { parseInstruction } from './parse-instruction';
import { isIdentifierChar, isIdentifierStart } from './split-statements';
import { addAttributeListError, attributeListError } from './attribute-checks';
import { inlineOpening, readKeyValues, valueEnd } from './statement-attributes';
import { named, Shapes } from './statement-shapes';
import { typeAt } from '../parse/type-names';
import type {
  ComputationParameter,
  EntryComputationLayout,
  HloAttribute,
  HloName,
  HloStatement,
} from './types';

/** A line that is `// -----` and nothing else: the split marker of XLA's `--split-input-file` tests. */
const SEPARATOR_LINE = /^[ \t]*\/\/ -----[ \t]*\r?$/m;

/**
 * `{(p0, p1, ...)->result}` at `pos` (the `{`), with XLA's messages (ParseComputationLayout) for a
 * bracket or arrow missing; the first error ends the reading, as it ends XLA's.
 */
function readEntryLayout(text: string, pos: number, end: number, shapes: Shapes): EntryComputationLayout {
  // The value is one bracketed token: what follows its `}` is the next statement (ENTRY ...).
  const valueEnd = skipBalanced(text, pos, end);
  const parameters: ShapeNode[] = [];
  const layout = (result?: ShapeNode): EntryComputationLayout => ({
    range: { start: pos, end: valueEnd },
    parameters,
    ...(result ? { result } : {}),
  });
  const expected = (at: number, xla: string): EntryComputationLayout => {
    shapes.reportAt('expected-token', at, end, '', xla);
    return layout();
  };
  let p = skipTrivia(text, pos + 1, valueEnd);
  if (charAt(text, p, valueEnd) !== 40) return expected(p, 'Expects ( before parameter shape list');
  p = skipTrivia(text, p + 1, valueEnd);
  while (charAt(text, p, valueEnd) !== 41) {
    const r = shapes.parseAt(p, valueEnd);
    if (!r.shape || r.failed) return layout();
    parameters.push(r.shape);
    p = skipTrivia(text, r.end, valueEnd);
    const c = charAt(text, p, valueEnd);
    if (c === 41) break;
    if (c !== 44) return expected(p, 'Expects , between parameter shapes');
    p = skipTrivia(text, p + 1, valueEnd);
  }
  p = skipTrivia(text, p + 1, valueEnd);
  if (!text.startsWith('->', p) || p + 2 > valueEnd) return expected(p, 'Expects -> before result shape');
  const r = shapes.parseAt(skipTrivia(text, p + 2, valueEnd), valueEnd);
  if (!r.shape || r.failed) return layout();
  p = skipTrivia(text, r.end, end);
  if (charAt(text, p, end) !== 125)
    shapes.reportAt('expected-token', p, end, '', "Expects '}' at the end of computation layouts");
  return layout(r.shape);
}

/**
 * XLA's error on the module's name at `at` (read up to `nameEnd`, undefined when no name starts
 * there): its lexer reads a keyword (`ENTRY`, `true`), an element type or a number there, not a
 * name. Other characters are left to {@link leftoverAt}.
 */
function moduleNameError(
  text: string,
  at: number,
  end: number,
  nameEnd: number | undefined,
): LayoutDiagnostic | undefined {
  const c = text.charCodeAt(at);
  let stop = nameEnd ?? at;
  if (nameEnd === undefined) {
    while (stop < end && isIdentifierChar(text.charCodeAt(stop))) stop++;
    // Not a word at all (`HloModule , is_scheduled=true`): XLA's next token is no name.
    if (stop === at)
      return diagnostic(
        'invalid-name',
        'expects name',
        { start: at, end: at + 1 },
        `the \`HloModule\` line names no module: write its name after \`HloModule\` (e.g. \`HloModule m\`)`,
      );
  } else if (c === 37 || !(NAME_KEYWORDS.has(text.slice(at, stop)) || typeAt(text, at, stop)))
    return undefined;
  const word = text.slice(at, stop);
  return diagnostic(
    'invalid-name',
    'expects name',
    { start: at, end: stop },
    `\`${word}\` cannot name the module: a name starts with a letter or _ and is no keyword or element type (write e.g. \`HloModule m_${word}\`)`,
  );
}

function parseModuleHeader(text: string, range: TextRange, pos: number, scan: ScanState): HloStatement {
  const { end } = range;
  const shapes = new Shapes(text, scan);
  const attributes: HloAttribute[] = [];
  let entryComputationLayout: EntryComputationLayout | undefined;
  let p = skipTrivia(text, pos, end);
  const name = readName(text, p, end);
  if (name) p = name.end;
  const nameAt = skipTrivia(text, pos, end);
  // With nothing after `HloModule` on its line, XLA looks for the name in the next statement.
  const refused =
    nameAt < end
      ? moduleNameError(text, nameAt, end, name?.end)
      : {
          ...diagnostic(
            'invalid-name',
            'expects name',
            { start: end - 1, end },
            'the `HloModule` line names no module: write its name after `HloModule` (e.g. `HloModule m`)',
          ),
          atNextToken: true as const,
        };
  if (refused) shapes.diagnostics.push(refused);
  const stop = readKeyValues(text, p, end, attributes, (key, vs) => {
    if (key.name === 'entry_computation_layout' && charAt(text, vs, end) === 123) {
      entryComputationLayout = readEntryLayout(text, vs, end, shapes);
      return entryComputationLayout.range.end;
    }
    return moduleValueEnd(text, vs, end);
  });
  addAttributeListError(shapes.diagnostics, attributeListError(text, undefined, attributes, stop, end));
  // What follows on the line, but a comma or `;`, is what XLA reads next, as a computation
  // (`HloModule m ENTRY %e {...}`, or `HloModule m foo` with `foo`'s `{` missing).
  const next = skipTrivia(text, stop, end);
  const c = charAt(text, next, end);
  const following = next < end && !refused && c !== 44 && c !== 59 ? next : -1;
  // XLA stops at its first error: what is left over counts only when all before it was read.
  if (shapes.diagnostics.length === 0 && following < 0)
    shapes.diagnostics.push(...leftoverAt(text, stop, end));
  if (refused) shapes.diagnostics.splice(0, shapes.diagnostics.length, refused);
  const statementRange =
    following >= 0 ? { start: range.start, end: trimmedEnd(text, range.start, following) } : range;
  return {
    kind: 'module',
    range: statementRange,
    ...(following >= 0 ? { following } : {}),
    ...(name ? { name: name.name } : {}),
    attributes,
    ...(entryComputationLayout ? { entryComputationLayout } : {}),
    shapes: shapes.scanRest(statementRange),
    diagnostics: shapes.diagnostics,
  };
}

/**
 * The end of a value of the `HloModule` line at `pos`: one token to XLA (a word or number such as
 * `true` or `8`, a string, or a bracketed list), so what follows it on the line is the next
 * statement (`HloModule m, is_scheduled=true ENTRY %e {`), not more of the value.
 */
function moduleValueEnd(text: string, pos: number, end: number): number {
  const c = charAt(text, pos, end);
  if (c === 34 || c === 39) return skipString(text, pos, end);
  if (c === 123 || c === 40 || c === 91) return skipBalanced(text, pos, end);
  let i = pos;
  while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
  return i > pos ? i : valueEnd(text, pos, end);
}

function parseComputationHeader(
  text: string,
  range: TextRange,
  entryKeyword: TextRange | undefined,
  name: HloName | undefined,
  pos: number,
  scan: ScanState,
): { statement: HloStatement; rest: number } {
  const { end } = range;
  const shapes = new Shapes(text, scan);
  const parameters: ComputationParameter[] = [];
  let result: ShapeNode | undefined;
  let rest = -1;
  // XLA's parser stops at its first error: so does this reading, leaving the rest unjudged.
  let ok = true;
  let p = skipTrivia(text, pos, end);
  if (charAt(text, p, end) === 40) {
    p = skipTrivia(text, p + 1, end);
    if (charAt(text, p, end) === 41) p++;
    else
      for (;;) {
        // `name:` is one token to XLA's lexer: no `%`, nothing between the name and the colon.
        const n = readName(text, p, end);
        if (!n || charAt(text, p, end) === 37 || charAt(text, n.end, end) !== 58) {
          const sigil = n && charAt(text, p, end) === 37;
          shapes.reportAt(
            'invalid-name',
            sigil ? n.end : p,
            end,
            sigil ? 'a parameter is written `name: shape`, without %' : 'expected a parameter `name: shape`',
            sigil ? 'expected primitive type, saw kColon' : 'expects name',
          );
          ok = false;
          break;
        }
        const r = shapes.parseAt(skipTrivia(text, n.end + 1, end), end);
        parameters.push(named(n.name, r.shape));
        if (r.failed || !r.shape) {
          ok = false;
          break;
        }
        p = skipTrivia(text, r.end, end);
        const c = charAt(text, p, end);
        if (c === 44) {
          p = skipTrivia(text, p + 1, end);
          continue;
        }
        if (c !== 41) {
          shapes.reportAt('expected-token', p, end, '', "expects ')' at the end of param list");
          ok = false;
        }
        p++;
        break;
      }
    p = skipTrivia(text, p, end);
    if (ok && !text.startsWith('->', p)) {
      shapes.reportAt(
        'expected-token',
        p,
        end,
        'expected `->` and the result shape after the parameters',
        "expects '->'",
      );
      ok = false;
    }
  }
  if (ok && text.startsWith('->', p)) {
    const r = shapes.parseAt(skipTrivia(text, p + 2, end), end);
    result = r.shape;
    ok = !r.failed && r.shape !== undefined;
    p = skipTrivia(text, r.end, end);
  }
  if (ok) {
    if (charAt(text, p, end) !== 123) {
      const words =
        p === skipTrivia(text, pos, end)
          ? "expected `(` and the parameters, or `{`, after the computation's name"
          : "expected `{` to open the computation's body";
      shapes.reportAt('expected-token', p, end, words, "expects '{' at the beginning of instruction list.");
    } else {
      const next = skipTrivia(text, p + 1, end);
      // The body's first instruction, or the `}` of an empty body, on the header's line.
      if (next < end && (instructionEquals(text, next, end) >= 0 || text.charCodeAt(next) === 125))
        rest = next;
      else shapes.diagnostics.push(...leftoverAt(text, next, end, false));
    }
  }
  const statementRange = rest >= 0 ? { start: range.start, end: trimmedEnd(text, range.start, rest) } : range;
  return {
    statement: {
      kind: 'computation',
      range: statementRange,
      entry: entryKeyword !== undefined,
      ...(entryKeyword ? { entryKeyword } : {}),
      ...(name ? { name } : {}),
      parameters,
      ...(result ? { result } : {}),
      shapes: shapes.scanRest(statementRange),
      diagnostics: shapes.diagnostics,
    },
    rest,
  };
}

/**
 * Parses the statement at `range` of `text` (normally one range from `splitStatements`). All
 * ranges in the result are absolute offsets into `text`. When another statement starts on the
 * same line (`a = f32[2] parameter(0) b = f32[2] negate(a)`, which XLA reads as two), the result
 * covers the first and `following` says where the next begins; {@link parseStatements} goes on
 * from there. A caller parsing many statements of one text passes one `scan` for all of them:
 * the finder then searches each stretch of the text once, not once per statement.
 */
export function parseStatement(
  text: string,
  range: TextRange,
  scan: ScanState = new ScanState(),
): HloStatement {
  const start = Math.max(0, Math.min(range.start, text.length));
  const end = Math.max(start, Math.min(range.end, text.length));
  const statement = withOddBlank(text, withStraySigil(text, parseBounded(text, { start, end }, scan)));
  // A `/*` never closed: XLA's lexer fails there, and the rest of the text is the comment's.
  const open = unterminatedComment(text, statement.range.start, statement.range.end);
  if (open < 0) return statement;
  const unterminated = diagnostic(
    'unterminated-comment',
    "this /* comment is never closed, so all that follows is part of it, and XLA's lexer fails here",
    { start: open, end: open + 2 },
  );
  // What the statement lacks after it is the comment's doing.
  const before = statement.diagnostics.filter((d) => d.range.start < open);
  return { ...statement, diagnostics: [...before, unterminated] };
}

/**
 * The statement with an error on its first `%` that opens no name (`%0x`, `%.a`: XLA's lexer
 * reads no name there, "expects name"), outside strings and comments, unless it has one there.
 */
function withStraySigil(text: string, statement: HloStatement): HloStatement {
  const { start, end } = statement.range;
  if (!hasBadSigil(text, start, end)) return statement;
  const at = straySigil(text, start, end);
  if (at < 0 || statement.diagnostics.some((d) => d.range.start === at)) return statement;
  let stop = at + 1;
  while (stop < end && isIdentifierChar(text.charCodeAt(stop))) stop++;
  const stray = diagnostic(
    'invalid-name',
    'expects name',
    { start: at, end: Math.max(at + 1, stop) },
    `\`${text.slice(at, stop)}\` is no name: a name starts with a letter or _`,
  );
  const diagnostics = [...statement.diagnostics, stray].sort((a, b) => a.range.start - b.range.start);
  return { ...statement, diagnostics };
}

/**
 * The statement with XLA's error on its first odd blank (odd-blanks.ts), unless an error stands
 * before it (XLA stops there first) or on it; what the statement parser made of the text after it
 * is dropped, as XLA reads no further.
 */
function withOddBlank(text: string, statement: HloStatement): HloStatement {
  const { start, end } = statement.range;
  const at = firstOddBlank(text, start, end);
  // A byte-order mark opening a statement has words of its own (strayStart).
  if (at < 0 || (at === skipTrivia(text, start, end) && text.charCodeAt(at) === 0xfeff)) return statement;
  // An error on the character itself that says only that no statement starts with it gives way,
  // and so does a missing attribute, which XLA looks for only after the whole list.
  const stray = (d: LayoutDiagnostic) =>
    (d.range.start === at && d.code === 'invalid-name') || isMissingAttribute(d);
  const errorBefore = (d: LayoutDiagnostic) => d.severity === 'error' && d.range.start <= at && !stray(d);
  if (
    statement.diagnostics.some(errorBefore) ||
    statement.shapes.some((f) => f.diagnostics.some(errorBefore))
  )
    return statement;
  const diagnostics = statement.diagnostics.filter((d) => d.range.start < at && !isMissingAttribute(d));
  diagnostics.push(oddBlankError(text, statement, at));
  return { ...statement, diagnostics };
}

/** Offset of the first `%` in `text[start, end)`, outside strings and comments, not followed by a letter or `_`; -1. */
function straySigil(text: string, start: number, end: number): number {
  for (let i = skipTrivia(text, start, end); i < end; i = skipTrivia(text, i, end)) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) i = skipString(text, i, end);
    else if (c === 37 && !isIdentifierStart(charAt(text, i + 1, end))) return i;
    else i++;
  }
  return -1;
}

/** The statements of `ranges` (from `splitStatements`), two or more where XLA reads more on one line. */
export function parseStatements(text: string, ranges: readonly TextRange[]): HloStatement[] {
  const out: HloStatement[] = [];
  const scan = new ScanState();
  for (const range of ranges) {
    let r = range;
    for (;;) {
      const st = parseStatement(text, r, scan);
      out.push(st);
      if (st.following === undefined) break;
      r = { start: st.following, end: r.end };
    }
  }
  return out;
}

function parseBounded(text: string, r: TextRange, scan: ScanState): HloStatement {
  const { start, end } = r;
  const p = skipTrivia(text, start, end);
  if (p >= end) {
    // Only whitespace and comments.
    const trivia = text.slice(start, end);
    const kind = SEPARATOR_LINE.test(trivia) ? 'separator' : /\S/.test(trivia) ? 'comment' : 'blank';
    return { kind, range: r, shapes: [], diagnostics: [] };
  }
  if (charAt(text, p, end) === 125) return parseClose(text, r, p);
  const first = readName(text, p, end);
  if (first?.name.name === 'HloModule' && charAt(text, p, end) !== 37)
    return parseModuleHeader(text, r, first.end, scan);
  let keyword: TextRange | undefined;
  let q = p;
  if (first && charAt(text, p, end) !== 37 && (first.name.name === 'ENTRY' || first.name.name === 'ROOT')) {
    keyword = first.name.range;
    q = skipTrivia(text, first.end, end);
  }
  const entry = keyword !== undefined && first?.name.name === 'ENTRY';
  const root = keyword !== undefined && !entry;
  const name = readName(text, q, end);
  const after = name ? skipTrivia(text, name.end, end) : q;
  const c = charAt(text, after, end);
  if (name && !entry && c === 61)
    return withFollowing(parseInstruction(text, r, root ? keyword : undefined, name.name, after + 1, scan));
  // A header is `[ENTRY] name (...) -> shape {` or `name {`; a line that names something, is no
  // instruction and ends in `{` is one too, with something XLA does not expect after its name.
  if (
    !root &&
    (c === 40 ||
      c === 123 ||
      text.startsWith('->', after) ||
      (name && lastNonBlank(text, after, end) === 123))
  )
    return withFollowing(
      parseComputationHeader(text, r, entry ? keyword : undefined, name?.name, after, scan),
    );
  const shapes = new Shapes(text, scan);
  return {
    kind: 'unknown',
    range: r,
    shapes: shapes.scanRest(r),
    // A source-table entry starts with a number, any other statement with a name.
    diagnostics: [...strayStart(text, p, end), ...tableEntryErrors(text, p, end)],
  };
}

function withFollowing({ statement, rest }: { statement: HloStatement; rest: number }): HloStatement {
  return rest >= 0 ? { ...statement, following: rest } : statement;
}

/**
 * `}` closing a computation, and what may follow it on its line: `, execution_thread="..."`, or
 * the next computation written in place by the same instruction (`}, condition={`).
 */
function parseClose(text: string, r: TextRange, brace: number): HloStatement {
  const attributes: HloAttribute[] = [];
  const stop = readKeyValues(text, brace + 1, r.end, attributes, (_key, vs) => valueEnd(text, vs, r.end));
  const inlineComputation = inlineOpening(text, r.end, attributes);
  // What follows on the line, but a comma, is what XLA reads next: another computation, a `}`
  // closing none, or text that is no computation; it is a statement of its own.
  const next = skipTrivia(text, stop, r.end);
  const following = next < r.end && text.charCodeAt(next) !== 44 ? next : -1;
  return {
    kind: 'close',
    range: following >= 0 ? { start: r.start, end: trimmedEnd(text, r.start, following) } : r,
    shapes: [],
    diagnostics: following >= 0 ? [] : leftoverAt(text, stop, r.end),
    ...(inlineComputation ? { inlineComputation } : {}),
    ...(following >= 0 ? { following } : {}),
  };
}
