/**
 * XLA's parser's rules for an instruction's `, key=value` list and the `HloModule` line's: each key
 * once (`attribute metadata already exists`), only keys the opcode takes (`unexpected attribute
 * "calls". Allowed attributes: ...`), and every key it requires (`attribute condition is expected
 * but not seen`), from the table of attribute-table.ts. The statement parser reports them
 * ({@link attributeListError}); the memoised check and the language server's lean pass, which skip
 * that parser on plain instructions, send it those that may break them
 * ({@link attributesNeedParser}).
 */
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { isIdentPart, isIdentStart } from '../parse/chars';
import { editDistance } from '../parse/spelling';
import {
  ATTRIBUTE_VALUE_FORMS,
  attributeIndexAt,
  attributeRules,
  attributesOf,
  COMMON_ATTRIBUTE_NAMES,
  COMPUTATION_ATTRIBUTES,
  MODULE_ATTRIBUTE_RULES,
  type AttributeRules,
} from './attribute-table';
import { NAME_KEYWORDS } from './computation-values';
import { skipBalanced, skipString, skipTrivia } from './lex';
import { typeAt } from '../parse/type-names';
import type { HloAttribute } from './types';

/** What to write instead of `key` on `opcode`: a near spelling, or its one computation attribute for another's. */
function insteadOf(key: string, opcode: string | undefined, rules: AttributeRules): string | undefined {
  const near = [...rules.allowed].filter((name) => editDistance(key, name, 2) <= 2);
  if (near.length === 1) return near[0];
  if (opcode === undefined || !COMPUTATION_ATTRIBUTES.has(key)) return undefined;
  const computations = [...rules.allowed].filter((name) => COMPUTATION_ATTRIBUTES.has(name));
  return computations.length === 1 ? computations[0] : undefined;
}

function unexpected(
  key: HloAttribute['key'],
  opcode: string | undefined,
  rules: AttributeRules,
): LayoutDiagnostic {
  const where = opcode === undefined ? 'the `HloModule` line' : `\`${opcode}\``;
  const own = [...rules.allowed].filter((name) => opcode === undefined || !COMMON_ATTRIBUTE_NAMES.has(name));
  const instead = insteadOf(key.name, opcode, rules);
  const takes =
    own.length === 0
      ? 'it takes only the attributes every instruction takes'
      : `it takes ${own.map((n) => `\`${n}=\``).join(', ')}${opcode === undefined ? '' : ' besides those every instruction takes'}`;
  return diagnostic(
    'attribute-list',
    `unexpected attribute "${key.name}". Allowed attributes: ${rules.listed}`,
    key.range,
    `${where} does not take \`${key.name}=\`${instead ? `: write \`${instead}=\` instead` : ''}; ${takes}`,
  );
}

/** The end of XLA's message on a required attribute the list lacks. */
const MISSING = 'is expected but not seen';

/**
 * Whether `d` is {@link attributeListError}'s missing attribute, which XLA reports only after the
 * whole list is read: an error XLA meets inside the list (an odd blank) comes first.
 */
export function isMissingAttribute(d: LayoutDiagnostic): boolean {
  return d.code === 'attribute-list' && d.message.endsWith(MISSING);
}

/**
 * XLA's first error on the attributes `attributes` of an instruction with `opcode` (undefined: the
 * `HloModule` line), or undefined. XLA checks each key as it reads it, a repeat before an unknown
 * key, and the required keys after the list; it reports a missing one at the first token after
 * the operands' `)` at `close - 1`: the list's first comma, or whatever follows (`;`, a second
 * instruction on the line), or the next statement's first token, which the statement does not
 * hold: the diagnostic then stands on the `)` and waits for it ({@link LayoutDiagnostic.atNextToken}).
 * With `complete` false (the parser stopped inside the list) no key is missing yet. `rules`: those
 * of the opcode, or of its form for its first operand (operand-attributes.ts).
 */
export function attributeListError(
  text: string,
  opcode: string | undefined,
  attributes: readonly HloAttribute[],
  close: number,
  end: number,
  complete = true,
  rules = opcode === undefined ? MODULE_ATTRIBUTE_RULES : attributeRules(opcode),
): LayoutDiagnostic | undefined {
  if (!rules) return undefined;
  const seen = new Set<string>();
  for (const { key } of attributes) {
    if (seen.has(key.name))
      return diagnostic(
        'attribute-list',
        `attribute ${key.name} already exists`,
        key.range,
        `\`${key.name}=\` is given twice: XLA takes each attribute once; remove one of them`,
      );
    if (!rules.allowed.has(key.name)) return unexpected(key, opcode, rules);
    seen.add(key.name);
  }
  // XLA looks for the required keys once the list is read; a list it stops in fails there first.
  if (!complete) return undefined;
  const missing = rules.required.find((name) => !seen.has(name));
  if (missing === undefined || opcode === undefined) return undefined;
  const next = skipTrivia(text, close, end);
  const at = next < end ? next : close - 1;
  const kind = attributesOf(opcode).find((a) => a.name === missing)?.value;
  const d = diagnostic(
    'attribute-list',
    `attribute ${missing} ${MISSING}`,
    { start: at, end: at + 1 },
    `\`${opcode}\` needs a \`${missing}=\` attribute, and has none: add \`, ${missing}=...\`${kind ? ` (${ATTRIBUTE_VALUE_FORMS[kind]})` : ''}`,
  );
  return next < end ? d : { ...d, atNextToken: true };
}

/** Whether `c` is a blank the fast paths see inside one line: space, tab, or the `\r` of a `\r\n`. */
function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13;
}

/**
 * Where the value starting at `p` ends as the statement parser's `valueEnd` reads it (a string, or
 * text up to the next `,` outside brackets and strings), or -1 when it holds what that reading
 * treats specially and the parser should see: a comment, a closing bracket that ends the list, an
 * `=` after a blank, text after a string value.
 */
function plainValueEnd(text: string, p: number, end: number): number {
  if (p >= end || isBlank(text.charCodeAt(p))) return -1;
  if (text.charCodeAt(p) === 34) {
    const q = skipString(text, p, end);
    return q >= end || text.charCodeAt(q) === 44 || isBlank(text.charCodeAt(q)) ? q : -1;
  }
  let depth = 0;
  while (p < end) {
    const c = text.charCodeAt(p);
    if (c === 34) {
      p = skipString(text, p, end);
      continue;
    }
    if (c === 39 || c === 47) return -1;
    if (c === 61 && isBlank(text.charCodeAt(p - 1))) return -1;
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93 || c === 125) {
      if (depth === 0) return -1;
      depth--;
    } else if (c === 44 && depth === 0) return p;
    p++;
  }
  return end;
}

/**
 * Whether the `, key=value` list from `close` (the operands' `)`, or the `(` of a literal) on,
 * read as the statement parser reads it, holds every key of `rules.requiredBits` before anything
 * unusual. Stops as soon as it has them: dumps write the required keys first.
 */
function requiredRead(
  text: string,
  rules: AttributeRules,
  open: number,
  close: number,
  end: number,
): boolean {
  let p = close === open ? skipBalanced(text, open, end) : close + 1;
  let seen = 0;
  while ((seen & rules.requiredBits) !== rules.requiredBits) {
    while (p < end && isBlank(text.charCodeAt(p))) p++;
    if (p >= end || text.charCodeAt(p) !== 44) return false;
    p++;
    while (p < end && isBlank(text.charCodeAt(p))) p++;
    const k = p;
    while (p < end && isIdentPart(text.charCodeAt(p))) p++;
    if (p === k || p >= end || text.charCodeAt(p) !== 61) return false;
    const i = attributeIndexAt(rules, text, k, p);
    if (i >= 0) seen |= 1 << i;
    p = plainValueEnd(text, p + 1, end);
    if (p < 0) return false;
  }
  return true;
}

/**
 * Whether the instruction with `opcode`, its operands' `(` at `open` and `)` at `close` (or `open`
 * for a literal), ending at `end` on one line, may break XLA's attribute rules or has an `=` after a
 * blank or a comment (`dimensions = {0}`: XLA's lexer reads `name=` as one token), so that the
 * statement parser must read it. Each `key=` right after a comma is taken for an attribute: that
 * finds every one the parser reads (a comment after the comma goes to the parser) and perhaps a
 * `,key=` inside a value, which only sends the instruction to the parser; the required keys are
 * then read as the parser reads the list. Keys are compared in place, without a string each: this
 * runs on every instruction of a dump.
 */
export function attributesNeedParser(
  text: string,
  opcode: string,
  open: number,
  close: number,
  end: number,
): boolean {
  for (let at = text.indexOf('=', open); at >= 0 && at < end; at = text.indexOf('=', at + 1)) {
    const c = text.charCodeAt(at - 1);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47) return true;
  }
  const rules = attributeRules(opcode);
  // A conditional's computations are read by the parser (computation-values.ts).
  if (!rules) return opcode === 'conditional';
  let seen = 0;
  for (
    let comma = text.indexOf(',', close);
    comma >= 0 && comma < end;
    comma = text.indexOf(',', comma + 1)
  ) {
    let k = comma + 1;
    while (k < end && isBlank(text.charCodeAt(k))) k++;
    if (k < end && text.charCodeAt(k) === 47) return true;
    let e = k;
    while (e < end && isIdentPart(text.charCodeAt(e))) e++;
    if (e === k || e >= end || text.charCodeAt(e) !== 61) continue;
    const i = attributeIndexAt(rules, text, k, e);
    if (i < 0 || (seen & (1 << i)) !== 0) return true;
    seen |= 1 << i;
    // A computation's name is `%name` in dumps: anything else (`{...}`, a bare word), and lists of
    // them (rare), are the parser's to read.
    if ((rules.computationListBits & (1 << i)) !== 0) return true;
    if ((rules.computationBits & (1 << i)) !== 0 && !plainName(text, e + 1, end)) return true;
  }
  if ((seen & rules.requiredBits) !== rules.requiredBits) return true;
  return rules.requiredBits !== 0 && !requiredRead(text, rules, open, close, end);
}

/** Whether a name XLA's lexer reads as one starts at `pos`: `%name`, or a word that is no keyword or element type. */
function plainName(text: string, pos: number, end: number): boolean {
  const c = text.charCodeAt(pos);
  if (c === 37) return isIdentStart(text.charCodeAt(pos + 1));
  if (!isIdentStart(c)) return false;
  let w = pos + 1;
  while (w < end && isIdentPart(text.charCodeAt(w))) w++;
  return typeAt(text, pos, w) === undefined && !NAME_KEYWORDS.has(text.slice(pos, w));
}

/**
 * Adds `error` to a statement's `diagnostics` when none of them is an error before it: XLA stops at
 * its first error, and the attribute rules are checked as the list is read.
 */
export function addAttributeListError(
  diagnostics: LayoutDiagnostic[],
  error: LayoutDiagnostic | undefined,
): void {
  if (!error) return;
  let i = diagnostics.length;
  for (const d of diagnostics) if (d.severity === 'error' && d.range.start < error.range.start) return;
  while (i > 0 && diagnostics[i - 1].range.start > error.range.start) i--;
  diagnostics.splice(i, 0, error);
}
