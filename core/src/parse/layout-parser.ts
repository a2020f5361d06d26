/**
 * `HloParserImpl::ParseLayout` (spec §1.3): `{` minor_to_major `:` attributes `}` with the
 * attributes in XLA's fixed order D T L # * E S SC P M, each at most once. Messages are XLA's.
 */
import type {
  DimLevelNode,
  IntAttributeNode,
  IntNode,
  LayoutNode,
  ShapeNode,
  SplitConfigNode,
  TileEntryNode,
  TileNode,
  TypeAttributeNode,
} from '../ast';
import type { TextRange } from '../diagnostics';
import {
  CH_COLON,
  CH_COMMA,
  CH_HASH,
  CH_LPAREN,
  CH_PLUS,
  CH_RBRACE,
  CH_RPAREN,
  CH_STAR,
  CH_TILDE,
  identifierEnd,
  isIdentStart,
  isLetter,
  skipTrivia,
  type CommentSearch,
} from './chars';
import type { ParserState } from './parser-state';
import { tokenAt } from './tokens';

/** Parses the shape inside `P(...)`; supplied by the shape parser to avoid an import cycle. */
export type NestedShapeParser = (state: ParserState) => ShapeNode | undefined;

/** `Tile::kCombineDimension`. */
const INT64_MIN = -(1n << 63n);

/** Attribute names in the only order XLA accepts. */
const ORDER = ['D', 'T', 'L', '#', '*', 'E', 'S', 'SC', 'P', 'M'] as const;
type AttributeName = (typeof ORDER)[number];

/** The words ParseLayoutIntAttribute puts in its messages. */
const INT_ATTRIBUTE_WHAT = {
  L: 'multiple padded to in elements',
  E: 'element size in bits',
  S: 'memory space',
  M: 'dynamic shape metadata prefix bytes',
} as const;

/** Mutable collector for the layout's fields while parsing. */
interface LayoutFields {
  dimLevelTypes?: LayoutNode['dimLevelTypes'];
  tiles?: LayoutNode['tiles'];
  tailPaddingAlignment?: IntAttributeNode;
  indexType?: TypeAttributeNode;
  pointerType?: TypeAttributeNode;
  elementSizeBits?: IntAttributeNode;
  memorySpace?: IntAttributeNode;
  splitConfigs?: LayoutNode['splitConfigs'];
  physicalShape?: LayoutNode['physicalShape'];
  dynamicMetadataBytes?: IntAttributeNode;
}

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
 * Reads an attribute name at the current position: letters only (`E4` is `E` then `4`), or `#` /
 * `*`. Returns its index in {@link ORDER} (the name ends at `state.pos` + its length), or -1.
 */
function readAttributeName(state: ParserState): number {
  const c = state.peek();
  const start = state.pos;
  let end = start;
  if (c === CH_HASH || c === CH_STAR) end = start + 1;
  else while (end < state.end && isLetter(state.text.charCodeAt(end))) end++;
  if (end === start + 1) return SINGLE_INDEX.get(c) ?? -1;
  return end === start + 2 && state.text.startsWith('SC', start) ? SC_INDEX : -1;
}

/** `(` INT `)` after L, E, S or M (`ParseLayoutIntAttribute`). */
function parseIntAttribute(state: ParserState, start: number, what: string): IntAttributeNode | undefined {
  if (!state.expect(CH_LPAREN, `expects ${what} to start with kLparen`)) return undefined;
  const value = state.readInt();
  if (value === undefined) return undefined;
  if (!state.expect(CH_RPAREN, `expects ${what} to end with kRparen`)) return undefined;
  return { range: { start, end: state.pos }, value };
}

/**
 * `(` type `)` after `#` or `*`. XLA records "expecting an unsigned integer type" for a signed
 * type but ignores the failure, and the validator rejects any #/* anyway, so no message here.
 */
function parseTypeAttribute(state: ParserState, start: number, hash: boolean): TypeAttributeNode | undefined {
  const sign = hash ? 'kOctothorp' : 'kAsterisk';
  if (!state.expect(CH_LPAREN, `expects ${sign} to be followed by kLparen`)) return undefined;
  state.peek();
  const t = tokenAt(state.text, state.pos, state.end);
  if (t.kind !== 'kPrimitiveType') {
    state.fail('expected-primitive-type', `expected primitive type, saw ${t.kind}`, {
      start: t.start,
      end: t.end,
    });
    return undefined;
  }
  state.pos = t.end;
  const typeName = state.text.slice(t.start, t.end);
  if (
    !state.expect(CH_RPAREN, `expects ${hash ? 'index' : 'pointer'} primitive type to be followed by kRparen`)
  )
    return undefined;
  return { range: { start, end: state.pos }, typeName, typeRange: { start: t.start, end: t.end } };
}

/** `(` [item (`,` item)*] `)` as `ParseList` does it; `item` returns false after failing. */
function parseParenList(
  state: ParserState,
  openMessage: string,
  item: () => boolean,
  open = CH_LPAREN,
): boolean {
  if (!state.expect(open, openMessage)) return false;
  if (state.peek() === CH_RPAREN) {
    state.pos++;
    return true;
  }
  for (;;) {
    if (!item()) return false;
    const c = state.peek();
    if (c === CH_COMMA) {
      state.pos++;
      continue;
    }
    return state.expect(CH_RPAREN, 'expects a list to end with kRparen');
  }
}

function parseDimLevelTypes(state: ParserState, start: number): LayoutFields['dimLevelTypes'] {
  const levels: DimLevelNode[] = [];
  const ok = parseParenList(state, 'expects a list starting with kLparen', () => {
    state.peek();
    const t = tokenAt(state.text, state.pos, state.end);
    const word = t.kind === 'kIdent' ? state.text.slice(t.start, t.end) : '';
    if (word !== 'D' && word !== 'C' && word !== 'S' && word !== 'H') {
      state.fail('dim-level-type', 'expected a DimLevelType abbreviation (D, C, or S)', {
        start: t.start,
        end: t.end,
      });
      return false;
    }
    state.pos = t.end;
    let unique = true;
    let ordered = true;
    if (state.peek() === CH_PLUS) {
      unique = false;
      state.pos++;
    }
    if (state.peek() === CH_TILDE) {
      ordered = false;
      state.pos++;
    }
    levels.push({ range: { start: t.start, end: state.pos }, level: word, unique, ordered });
    return true;
  });
  return ok ? { range: { start, end: state.pos }, levels } : undefined;
}

function parseTiles(state: ParserState, start: number): LayoutFields['tiles'] {
  const tiles: TileNode[] = [];
  // Written out rather than through parseParenList: this is the hottest list in TPU dumps.
  do {
    state.peek();
    const tileStart = state.pos;
    if (!state.expect(CH_LPAREN, 'expects a list starting with kLparen')) return undefined;
    const entries: TileEntryNode[] = [];
    if (state.peek() === CH_RPAREN) {
      state.pos++;
    } else {
      for (;;) {
        if (state.peek() === CH_STAR) {
          entries.push({ range: { start: state.pos, end: state.pos + 1 }, value: 'combine' });
          state.pos++;
        } else {
          if (!state.readIntValue()) return undefined;
          const range = { start: state.intStart, end: state.intEnd };
          // `*` is stored as INT64_MIN (Tile::kCombineDimension), so XLA reads an entry written
          // as that number (or as 2^63, which lexes to it) as `*` too, and prints it as `*`.
          entries.push({ range, value: state.intValue === INT64_MIN ? 'combine' : state.intValue });
        }
        if (state.peek() !== CH_COMMA) break;
        state.pos++;
      }
      if (!state.expect(CH_RPAREN, 'expects a list to end with kRparen')) return undefined;
    }
    tiles.push({ range: { start: tileStart, end: state.pos }, entries });
  } while (state.peek() === CH_LPAREN);
  return { range: { start, end: state.pos }, tiles };
}

function parseSplitConfigs(state: ParserState, start: number): LayoutFields['splitConfigs'] {
  const configs: SplitConfigNode[] = [];
  do {
    if (!state.expect(CH_LPAREN, 'expects split configs to start with kLparen')) return undefined;
    const configStart = state.pos - 1;
    const dimension = state.readInt();
    if (dimension === undefined) return undefined;
    const indices: IntNode[] = [];
    const ok = parseParenList(
      state,
      'expects a list starting with kColon',
      () => {
        const n = state.readInt();
        if (n !== undefined) indices.push(n);
        return n !== undefined;
      },
      CH_COLON,
    );
    if (!ok) return undefined;
    configs.push({ range: { start: configStart, end: state.pos }, dimension, indices });
  } while (state.peek() === CH_LPAREN);
  return { range: { start, end: state.pos }, configs };
}

function parsePhysicalShape(
  state: ParserState,
  start: number,
  nested: NestedShapeParser,
): LayoutFields['physicalShape'] {
  if (!state.expect(CH_LPAREN, 'expects physical shape to start with kLparen')) return undefined;
  const shape = nested(state);
  if (shape === undefined || state.failed) return undefined;
  if (!state.expect(CH_RPAREN, 'expects physical shape to end with kRparen')) return undefined;
  return { range: { start, end: state.pos }, shape };
}

/** Parses one attribute's body into `fields` (only when its slot is still free). False on failure. */
function parseAttribute(
  state: ParserState,
  name: AttributeName,
  start: number,
  fields: LayoutFields,
  nested: NestedShapeParser,
): boolean {
  switch (name) {
    case 'D': {
      const v = parseDimLevelTypes(state, start);
      fields.dimLevelTypes ??= v;
      return v !== undefined;
    }
    case 'T': {
      const v = parseTiles(state, start);
      fields.tiles ??= v;
      return v !== undefined;
    }
    case 'L':
    case 'E':
    case 'S':
    case 'M': {
      const v = parseIntAttribute(state, start, INT_ATTRIBUTE_WHAT[name]);
      if (name === 'L') fields.tailPaddingAlignment ??= v;
      else if (name === 'E') fields.elementSizeBits ??= v;
      else if (name === 'S') fields.memorySpace ??= v;
      else fields.dynamicMetadataBytes ??= v;
      return v !== undefined;
    }
    case '#':
    case '*': {
      const v = parseTypeAttribute(state, start, name === '#');
      if (name === '#') fields.indexType ??= v;
      else fields.pointerType ??= v;
      return v !== undefined;
    }
    case 'SC': {
      const v = parseSplitConfigs(state, start);
      fields.splitConfigs ??= v;
      return v !== undefined;
    }
    case 'P': {
      const v = parsePhysicalShape(state, start, nested);
      fields.physicalShape ??= v;
      return v !== undefined;
    }
  }
}

/** Attributes after `:`, until something that is not a known attribute name. */
function parseAttributes(state: ParserState, fields: LayoutFields, nested: NestedShapeParser): void {
  const seen: (TextRange | undefined)[] = [];
  let last = -1;
  let orderReported = false;
  for (;;) {
    const index = readAttributeName(state);
    if (index < 0) return;
    const name = ORDER[index];
    const start = state.pos;
    state.pos += name.length;
    if (!parseAttribute(state, name, start, fields, nested)) return;
    const range = { start, end: state.pos };
    if (index <= last && !orderReported) {
      // XLA stops here and fails at the missing `}`. We keep parsing so the rest of the layout is
      // still known, and point at what is misplaced: the repeated attribute, or the attributes
      // already written that belong after this one.
      orderReported = true;
      let misplaced: TextRange = range;
      if (seen[index] === undefined) {
        const later = seen.slice(index + 1).filter((r): r is TextRange => r !== undefined);
        misplaced = {
          start: Math.min(...later.map((r) => r.start)),
          end: Math.max(...later.map((r) => r.end)),
        };
      }
      state.report('layout-attribute-order', 'expects layout to end with kRbrace', misplaced);
    }
    seen[index] ??= range;
    last = Math.max(last, index);
  }
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
    parseAttributes(state, fields, nested);
    if (state.failed) return layoutNode(start, state.pos, minorToMajor, fields);
  }
  if (state.peek() !== CH_RBRACE) {
    const t = tokenAt(state.text, state.pos, state.end);
    const looksLikeAttribute =
      state.pos < state.end &&
      (isLetter(state.text.charCodeAt(state.pos)) || t.kind === 'kOctothorp' || t.kind === 'kAsterisk');
    const end = looksLikeAttribute
      ? attributeExtent(state.text, state.pos, state.end, state.comments)
      : t.end;
    // An unknown, lower-case or misplaced attribute is what usually stands here.
    state.fail(
      looksLikeAttribute ? 'layout-attribute-order' : 'expected-token',
      'expects layout to end with kRbrace',
      { start: t.start, end },
    );
    return layoutNode(start, state.pos, minorToMajor, fields);
  }
  state.pos++;
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
