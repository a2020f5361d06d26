/**
 * Where the parts of an instruction statement start, read in place without parsing it: the `=`
 * after `[ROOT] %name`, and the result shape after it. Shared by the statement parser, the
 * language server's lean pass and the memoised check, which must agree on what an instruction is.
 */
import {
  closingQuote,
  isIdentPart,
  isIdentStart,
  quotedEnd,
  skipTrivia,
  type CommentSearch,
} from '../parse/chars';
import { attributesNeedParser } from './attribute-checks';
import { skipBalanced, skipTrivia as skipComments } from './lex';
import { sharedNextOccurrences } from '../parse/next-occurrence';
import { typeAt } from '../parse/type-names';
import { constantNeedsParser } from './constant-literal';
import { mayHoldOddBlank } from './odd-blanks';
import { countFits } from './operand-counts';
import { literalOpcodeAt, opcodeAt } from './opcodes';
import { takesStartIndices } from './start-indices';

const CH_PERCENT = 37;
const CH_EQUAL = 61;

/** The first position at or after `pos` (before `end`) that is not a space, tab, CR or LF; `end` if none. */
export function skipBlanks(text: string, pos: number, end: number): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    pos++;
  }
  return pos;
}

/** End of the `[%]identifier` at `pos`, or -1 (the rule of hlo/lex `readName`, without allocating). */
export function nameEnd(text: string, pos: number, end: number): number {
  let i = pos;
  if (i < end && text.charCodeAt(i) === CH_PERCENT) i++;
  if (i >= end || !isIdentStart(text.charCodeAt(i))) return -1;
  i++;
  while (i < end && isIdentPart(text.charCodeAt(i))) i++;
  return i;
}

function isWord(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && text.startsWith(word, start);
}

/**
 * Where the `=` after the name of the instruction `text[start, end)` (`[ROOT] %name =`) is, or -1
 * when the statement does not start that way as `parseStatement` reads it. The name is the
 * identifier before it.
 */
export function instructionEquals(text: string, start: number, end: number): number {
  const p = skipBlanks(text, start, end);
  let e = nameEnd(text, p, end);
  if (e < 0) return -1;
  if (text.charCodeAt(p) !== CH_PERCENT) {
    // `HloModule` and `ENTRY` open headers; `ROOT` prefixes an instruction's name.
    if (isWord(text, p, e, 'HloModule') || isWord(text, p, e, 'ENTRY')) return -1;
    if (isWord(text, p, e, 'ROOT')) {
      const nameStart = skipBlanks(text, e, end);
      e = nameEnd(text, nameStart, end);
      if (e < 0) return -1;
    }
  }
  const after = skipBlanks(text, e, end);
  return after < end && text.charCodeAt(after) === CH_EQUAL ? after : -1;
}

/**
 * What XLA renames the instruction name `text[start, stop)` (without its `%`) to, or undefined
 * when it keeps it: a primitive type's name is a keyword of the text format (`tuple` is none), so
 * it gets a `_` after it, and a leading `__` other than `__xla_` is reserved for backends, so its
 * first `_` becomes `a` (NameUniquer::GetSanitizedName). XLA's parser refuses a name it renames.
 */
export function renamedInstruction(text: string, start: number, stop: number): string | undefined {
  if (typeAt(text, start, stop) !== undefined) return `${text.slice(start, stop)}_`;
  if (text.startsWith('__', start) && stop - start >= 2 && !text.startsWith('__xla_', start))
    return `a${text.slice(start + 1, stop)}`;
  return undefined;
}

/**
 * Whether the instruction `text[start, end)` (`[ROOT] %name = ...`) has a name XLA renames (see
 * {@link renamedInstruction}), or one without `%` that its lexer reads as an element type.
 */
function renamedInstructionAt(text: string, start: number, end: number): boolean {
  let p = skipBlanks(text, start, end);
  let e = nameEnd(text, p, end);
  if (e < 0) return false;
  if (isWord(text, p, e, 'ROOT') && text.charCodeAt(p) !== CH_PERCENT) {
    p = skipBlanks(text, e, end);
    e = nameEnd(text, p, end);
    if (e < 0) return false;
  }
  if (text.charCodeAt(p) === CH_PERCENT) p++;
  return renamedInstruction(text, p, e) !== undefined;
}

/**
 * Where the name of the computation header `text[start, end)` ends (`[ENTRY] [%]name`, blanks
 * before and between), or -1 when the statement does not start that way as `parseStatement` reads
 * a header: `HloModule` and `ROOT` open other statements.
 */
export function headerNameEnd(text: string, start: number, end: number): number {
  const p = skipBlanks(text, start, end);
  const e = nameEnd(text, p, end);
  if (e < 0 || text.charCodeAt(p) === CH_PERCENT) return e;
  if (isWord(text, p, e, 'HloModule') || isWord(text, p, e, 'ROOT')) return -1;
  return isWord(text, p, e, 'ENTRY') ? nameEnd(text, skipBlanks(text, e, end), end) : e;
}

/**
 * Where the result shape of the instruction `text[start, end)` starts (after `[ROOT] %name =`), or
 * -1 when the statement is not an instruction in the sense of `parseStatement`, or when it is one
 * `parseStatement` reads differently (trivia other than blanks before the name: comments).
 */
export function resultShapeStart(text: string, start: number, end: number): number {
  const equals = instructionEquals(text, start, end);
  if (equals < 0) return -1;
  const result = skipBlanks(text, equals + 1, end);
  // A `/` may open a comment the statement parser skips as trivia: leave such statements to it.
  return result < end && text.charCodeAt(result) === 47 ? -1 : result;
}

/**
 * Whether a `%` in `text[start, end)` is followed by something other than a letter or `_`, which
 * opens no name to XLA's lexer (`negate(%0x)`): the statement parser reports it. A `%` inside a
 * string counts too; the statement parser then finds nothing wrong.
 */
export function hasBadSigil(text: string, start: number, end: number): boolean {
  for (let at = text.indexOf('%', start); at >= 0 && at < end; at = text.indexOf('%', at + 1))
    if (at + 1 >= end || !isIdentStart(text.charCodeAt(at + 1))) return true;
  return false;
}

/**
 * Whether the call `text[op, open)(...)` (`open` at its `(`) is in the plain form the statement
 * parser finds nothing in: an opcode (or an asynchronous form of one), with the literal of
 * `constant`, `parameter` or `iota`, which it does not read as operands, or with operands `)` or
 * `[<shape>] name` separated by commas, where every shape is one the finder read cleanly (`clean`:
 * start and end pairs, in text order) and no name is a bare element type. Anything else, such as an
 * unknown opcode, a tuple-shaped operand missing its `)` or `add(,32[2] %a)`, is for the statement
 * parser to report.
 */
export function plainCall(
  text: string,
  op: number,
  open: number,
  end: number,
  comments: CommentSearch,
  clean: readonly number[],
): boolean {
  return plainCallEnd(text, op, open, end, comments, clean) >= 0;
}

/**
 * Where the operand list of the plain call `text[op, open)(...)` ends ({@link plainCall}): its `)`,
 * or `open` for the literal of `constant`, `parameter` or `iota`; -1 when the call is not plain.
 * `opcode` is the opcode there, when the caller has read it. Given `result`, where the result
 * shape starts, a count of operands XLA does not take is not plain either (operand-counts.ts).
 */
function plainCallEnd(
  text: string,
  op: number,
  open: number,
  end: number,
  comments: CommentSearch,
  clean: readonly number[],
  opcode = opcodeAt(text, op, open),
  result = -1,
): number {
  if (opcode === undefined) return -1;
  if (literalOpcodeAt(text, op, open)) {
    // `iota` takes no operands: anything in its parentheses is for the parser to count.
    const inside = skipTrivia(text, open + 1, end, comments);
    const empty = opcode !== 'iota' || (inside < end && text.charCodeAt(inside) === 41);
    return result < 0 || empty ? open : -1;
  }
  let p = skipTrivia(text, open + 1, end, comments);
  if (p < end && text.charCodeAt(p) === 41)
    return result < 0 || countFits(text, opcode, 0, result, end) ? p : -1;
  let k = 0;
  let count = 0;
  for (;;) {
    while (k < clean.length && clean[k] < p) k += 2;
    if (k < clean.length && clean[k] === p) {
      // The statement parser checks a dynamic-slice's start indices against written shapes.
      if (result >= 0 && takesStartIndices(opcode)) return -1;
      p = skipTrivia(text, clean[k + 1], end, comments);
    }
    const name = nameEnd(text, p, end);
    // A bare element type (`bitcast(u32)`) is a shape missing its `[` to the statement parser.
    if (name < 0 || typeAt(text, p, name) !== undefined) return -1;
    p = skipTrivia(text, name, end, comments);
    count++;
    const c = p < end ? text.charCodeAt(p) : -1;
    if (c === 41) return result < 0 || countFits(text, opcode, count, result, end) ? p : -1;
    if (c !== 44) return -1;
    p = skipTrivia(text, p + 1, end, comments);
  }
}

/**
 * Where the operand list of the plain instruction whose result shape the finder left at
 * `resultEnd` ends (see {@link plainCallEnd}); -1 when it is not plain. Shapes before it are the
 * operands' declared shapes.
 */
export function plainOperandsEnd(
  text: string,
  resultEnd: number,
  end: number,
  comments: CommentSearch,
  clean: readonly number[],
): number {
  const op = skipBlanks(text, resultEnd, end);
  if (op >= end || !isIdentStart(text.charCodeAt(op))) return -1;
  const open = nameEnd(text, op, end);
  return open < end && text.charCodeAt(open) === 40 ? plainCallEnd(text, op, open, end, comments, clean) : -1;
}

/**
 * Whether the instruction `text[op, open)(...` may hold an attribute that XLA reads as a shape
 * (`operand_layout_constraints=` on a custom-call, `outfeed_shape=` on an outfeed): the statement
 * parser reads those values, where the shape finder would pass over a misspelt element type.
 */
function shapeAttributeAfter(text: string, op: number, open: number, end: number): boolean {
  const key = isWord(text, op, open, 'custom-call')
    ? 'operand_layout_constraints='
    : isWord(text, op, open, 'outfeed')
      ? 'outfeed_shape='
      : undefined;
  // Searched in a slice: a search of the text itself would run on past `end` when there is none.
  return key !== undefined && text.slice(open, end).includes(key);
}

/**
 * Whether what follows the clean result shape of the instruction `text[start, end)` (the shape
 * starts at `result`, the finder went on at `resultEnd`) is in the plain form the statement parser
 * finds nothing in: `opcode(...)` as {@link plainCall} reads it, no odd blank (odd-blanks.ts) or
 * iota replica groups, no `%` in the statement that opens no name, no constant whose literal
 * XLA refuses, and attributes XLA's rules accept (attribute-checks.ts). The memoised check and the language server's lean pass skip the parser on such
 * instructions; a comment left open is theirs to test.
 */
export function plainInstructionTail(
  text: string,
  start: number,
  result: number,
  resultEnd: number,
  end: number,
  comments: CommentSearch,
  clean: readonly number[],
): boolean {
  const op = skipBlanks(text, resultEnd, end);
  if (op >= end || !isIdentStart(text.charCodeAt(op))) return false;
  const open = nameEnd(text, op, end);
  if (open >= end || spansLines(text, start, end) || text.charCodeAt(open) !== 40) return false;
  const opcode = opcodeAt(text, op, open);
  const close = plainCallEnd(text, op, open, end, comments, clean, opcode, result);
  return (
    opcode !== undefined &&
    close >= 0 &&
    !textAfterAttributes(text, close === open ? skipBalanced(text, open, end) : close + 1, end) &&
    !shapeAttributeAfter(text, op, open, end) &&
    !attributesNeedParser(text, opcode, open, close, end) &&
    !hasBadSigil(text, start, end) &&
    !mayHoldOddBlank(text, start, end) &&
    SEMICOLONS.find(text, 0, start) >= end &&
    !renamedInstructionAt(text, start, end) &&
    IOTA_GROUPS.find(text, 0, open) >= end &&
    !constantNeedsParser(text, result, op, open, end)
  );
}

/**
 * Whether anything but blanks follows the attribute list that starts at `pos` (after the operands'
 * `)`) in `text[pos, end)`, an instruction on one line: a second statement on the line (`%b = ...`,
 * `ROOT ...`, a `}`, or a word XLA then fails on), which XLA reads next and the statement parser
 * reads too. A value runs to the next blank or comma outside brackets and strings: one with blanks
 * between its parts (which dumps never write), or a comment, only sends the instruction to the parser.
 */
function textAfterAttributes(text: string, pos: number, end: number): boolean {
  let p = skipBlanks(text, pos, end);
  while (p < end && text.charCodeAt(p) === 44) {
    const key = skipBlanks(text, p + 1, end);
    const equals = nameEnd(text, key, end);
    if (equals < 0 || equals >= end || text.charCodeAt(equals) !== 61) return true;
    const valueEnd = tokenValueEnd(text, equals + 1, end);
    if (valueEnd < 0) return true;
    p = skipBlanks(text, valueEnd, end);
  }
  return p < end;
}

/**
 * Where the value at `pos` of a one-line statement ends: a braced one after its `}` (as the
 * statement parser reads it), any other at the first blank or comma outside brackets and strings
 * (where the parser may read on); -1 at a `/` outside strings (a comment, the parser's to read).
 */
function tokenValueEnd(text: string, pos: number, end: number): number {
  const braced = text.charCodeAt(pos) === 123;
  let depth = 0;
  let i = pos;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      // On one line, a string ends at its closing quote (quotedEnd's line-break rule aside).
      const q = closingQuote(text, i, end);
      if (q < 0) return end;
      i = q + 1;
      continue;
    }
    if (c === 47) return -1;
    if (c === 123 || c === 40 || c === 91) depth++;
    else if (c === 125 || c === 41 || c === 93) {
      if (depth === 0) return i;
      if (--depth === 0 && braced) return i + 1;
    } else if (!braced && depth === 0 && (c === 44 || c === 32 || c === 9 || c === 10 || c === 13)) return i;
    i++;
  }
  return end;
}

/**
 * Iota replica groups (`replica_groups=[2,4]<=[8]`), whose counts the statement parser compares
 * (XLA aborts on a mismatch); searched natively, once per stretch of a text walked forward.
 */
const IOTA_GROUPS = sharedNextOccurrences(['replica_groups=[']);

/** `;`, which XLA's parser refuses after an instruction (searched natively, as above). */
const SEMICOLONS = sharedNextOccurrences([';']);

/**
 * Whether a line break lies in `text[pos, end)` (the `\r` of a `\r\n` ending the statement aside):
 * the splitter may have continued the statement with a line (`, metadata=...`, or `)` after a
 * complete one) whose leftovers the statement parser reports in such statements only. Dumps write
 * an instruction on one line, whose own `\n` at `end` stops the native search; a lone `\r` ends
 * lines only in texts without `\n` there.
 */
export function spansLines(text: string, pos: number, end: number): boolean {
  const nl = text.indexOf('\n', pos);
  if (nl >= 0 && nl <= end) return nl < end;
  const cr = text.indexOf('\r', pos);
  return cr >= 0 && cr < end - 1;
}

/**
 * Whether `text[start, end)` holds a `}` that closes no `{` opened before it in the range, outside
 * strings and comments: an instruction followed on its line by the `}` of its computation
 * (`ROOT %r = f32[] negate(%a) }`), which XLA reads as two statements.
 */
export function strayCloseBrace(text: string, start: number, end: number): boolean {
  let depth = 0;
  for (let i = start; i < end;) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) i = quotedEnd(text, i, end);
    else if (c === 47) i = Math.max(i + 1, skipComments(text, i, end));
    else {
      if (c === 123) depth++;
      else if (c === 125 && --depth < 0) return true;
      i++;
    }
  }
  return false;
}
