/**
 * `HloParserImpl::ParseLayout` (spec §1.3): `{` minor_to_major `:` attributes `}` with the
 * attributes in XLA's fixed order D T L # * E S SC P M, each at most once. Messages are XLA's,
 * with plain words for people beside them.
 */
import type { IntNode, LayoutNode } from '../ast';
import type { TextRange } from '../diagnostics';
import {
  CH_COLON,
  CH_COMMA,
  CH_HASH,
  CH_LPAREN,
  CH_RBRACE,
  CH_STAR,
  identifierEnd,
  isIdentStart,
  isLetter,
  skipTrivia,
  type CommentSearch,
} from './chars';
import { ORDER, parseAttribute, type LayoutFields, type NestedShapeParser } from './layout-attributes';
import type { ParserState } from './parser-state';
import { tokenAt } from './tokens';

/** What a person needs to know about attribute order. */
const ORDER_WORDS = 'XLA reads layout attributes only in the order D T L # * E S SC P M, each once';

/**
 * How far an attribute-looking thing at `pos` reaches: its name plus any directly following
 * `(...)` groups, capped so a failed look at random text stays cheap. Used only for error ranges.
 */
function attributeExtent(text: string, pos: number, end: number, comments: CommentSearch): number {
  let i = pos;
  const c = text.charCodeAt(i);
  if (isIdentStart(c)) i = identifierEnd(text, i, end);
  else i++;
  const cap = Math.min(end, i + 256);
  for (;;) {
    const open = skipTrivia(text, i, cap, comments);
    if (open >= cap || text.charCodeAt(open) !== CH_LPAREN) return i;
    const close = text.indexOf(')', open);
    if (close < 0 || close >= cap) return i;
    i = close + 1;
  }
}

/** Index in {@link ORDER} of a one-character attribute name, by char code. */
const SINGLE_INDEX: ReadonlyMap<number, number> = new Map(
  ORDER.filter((n) => n.length === 1).map((n) => [n.charCodeAt(0), ORDER.indexOf(n)]),
);
const SC_INDEX = ORDER.indexOf('SC');

/**
 * The attribute name at the current position as XLA's lexer reads it: a whole identifier (`E4` is
 * one word, no `E`), or `#` / `*`. Returns its index in {@link ORDER} (the name ends at
 * `state.pos` + its length), or -1.
 */
function readAttributeName(state: ParserState): number {
  const c = state.peek();
  const start = state.pos;
  if (c === CH_HASH || c === CH_STAR) return SINGLE_INDEX.get(c) ?? -1;
  if (!isIdentStart(c)) return -1;
  const end = identifierEnd(state.text, start, state.end);
  // `T=` and `T:` are other tokens to XLA (an attribute name, a name).
  const after = end < state.end ? state.text.charCodeAt(end) : -1;
  if (after === CH_COLON || after === 61) return -1;
  if (end === start + 1) return SINGLE_INDEX.get(c) ?? -1;
  return end === start + 2 && state.text.startsWith('SC', start) ? SC_INDEX : -1;
}

/**
 * The attributes after `:` as XLA's ParseLayout reads them: each name in its fixed order, at most
 * once, and whatever each one's sub-parser makes of what follows (its failures ignored: `S(1}`
 * is S(1) to XLA, `T(2,2}` is T(2,2)). The first failure is kept in `state.softError`.
 */
function parseAttributesAsXla(state: ParserState, fields: LayoutFields, nested: NestedShapeParser): void {
  state.softening = true;
  for (let index = 0; index < ORDER.length && !state.failed; index++) {
    if (readAttributeName(state) !== index) continue;
    const name = ORDER[index];
    const start = state.pos;
    state.pos += name.length;
    parseAttribute(state, name, start, fields, nested);
  }
  state.softening = false;
}

/**
 * After XLA would have failed at the missing `}` because attributes follow out of order or twice:
 * reads on (strictly) so the rest of the layout is still known, and names what is misplaced,
 * the repeated attribute or those already written that belong after this one.
 */
function parseMisplacedAttributes(
  state: ParserState,
  fields: LayoutFields,
  nested: NestedShapeParser,
  written: readonly (TextRange | undefined)[],
): void {
  const seen = [...written];
  let reported = false;
  for (;;) {
    const index = readAttributeName(state);
    if (index < 0) return;
    const name = ORDER[index];
    const start = state.pos;
    state.pos += name.length;
    parseAttribute(state, name, start, fields, nested);
    if (state.failed) return;
    const range = { start, end: state.pos };
    if (!reported) {
      reported = true;
      let misplaced: TextRange = range;
      if (seen[index] === undefined) {
        const later = seen.slice(index + 1).filter((r): r is TextRange => r !== undefined);
        if (later.length > 0)
          misplaced = {
            start: Math.min(...later.map((r) => r.start)),
            end: Math.max(...later.map((r) => r.end)),
          };
      }
      // Reported without stopping, to keep reading: the caller marks the layout failed.
      state.report(
        'layout-attribute-order',
        'expects layout to end with kRbrace',
        misplaced,
        seen[index] === undefined
          ? `attributes out of order: ${ORDER_WORDS}`
          : `\`${name}\` is written twice: ${ORDER_WORDS}`,
      );
    }
    seen[index] ??= range;
  }
}

/** Where each attribute of `fields` was written, by its index in {@link ORDER}. */
function writtenRanges(fields: LayoutFields): (TextRange | undefined)[] {
  return [
    fields.dimLevelTypes?.range,
    fields.tiles?.range,
    fields.tailPaddingAlignment?.range,
    fields.indexType?.range,
    fields.pointerType?.range,
    fields.elementSizeBits?.range,
    fields.memorySpace?.range,
    fields.splitConfigs?.range,
    fields.physicalShape?.range,
    fields.dynamicMetadataBytes?.range,
  ];
}

/** Parses a layout starting at the `{` under the cursor. On failure returns what was read. */
export function parseLayout(state: ParserState, nested: NestedShapeParser): LayoutNode {
  const start = state.pos;
  state.pos++;
  const minorToMajor: IntNode[] = [];
  const fields: LayoutFields = {};
  if (state.atInt()) {
    for (;;) {
      const n = state.readInt();
      if (n === undefined) return layoutNode(start, state.pos, minorToMajor, fields);
      minorToMajor.push(n);
      if (state.peek() !== CH_COMMA) break;
      state.pos++;
    }
  }
  if (state.peek() === CH_COLON) {
    state.pos++;
    parseAttributesAsXla(state, fields, nested);
    if (state.failed) return layoutNode(start, state.pos, minorToMajor, fields);
  }
  if (state.peek() === CH_RBRACE) {
    state.pos++;
    return layoutNode(start, state.pos, minorToMajor, fields);
  }
  // No `}`: XLA fails here and reports the first failure it noted on the way, if any.
  const soft = state.softError;
  if (soft) {
    state.failWith(soft);
    return layoutNode(start, state.pos, minorToMajor, fields);
  }
  const t = tokenAt(state.text, state.pos, state.end);
  if (readAttributeName(state) >= 0) {
    parseMisplacedAttributes(state, fields, nested, writtenRanges(fields));
    state.failed = true;
    if (state.peek() === CH_RBRACE) state.pos++;
    return layoutNode(start, state.pos, minorToMajor, fields);
  }
  const looksLikeAttribute = state.pos < state.end && isLetter(state.text.charCodeAt(state.pos));
  const end = looksLikeAttribute ? attributeExtent(state.text, state.pos, state.end, state.comments) : t.end;
  // An unknown, lower-case or misplaced attribute is what usually stands here; a longer word
  // (`parameter(0)` after `{1,0:T(8,128)`) more likely follows a layout whose `}` is missing.
  const found = state.text.slice(t.start, Math.min(end, t.start + 40));
  const attributeLike = looksLikeAttribute && /^[A-Za-z]{1,2}(?![A-Za-z])/.test(found);
  state.fail(
    looksLikeAttribute ? 'layout-attribute-order' : 'expected-token',
    'expects layout to end with kRbrace',
    { start: t.start, end },
    attributeLike
      ? `\`${found}\` is not a layout attribute here: ${ORDER_WORDS}`
      : 'missing `}` to close the layout',
  );
  return layoutNode(start, state.pos, minorToMajor, fields);
}

/** The layout node: the usual `{1,0:T(8,128)}` needs only its tiles copied, not a generic spread. */
function layoutNode(start: number, end: number, minorToMajor: IntNode[], fields: LayoutFields): LayoutNode {
  const range = { start, end };
  let onlyTiles = false;
  for (const key in fields) {
    if (key !== 'tiles') return { range, minorToMajor, ...fields };
    onlyTiles = true;
  }
  return onlyTiles ? { range, minorToMajor, tiles: fields.tiles } : { range, minorToMajor };
}
