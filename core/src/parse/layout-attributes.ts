/**
 * The bodies of a layout's attributes as XLA's `ParseLayout` reads them (spec §1.3): `D(...)`,
 * `T(...)...`, `L(n)`, `#(type)`, `*(type)`, `E(n)`, `S(n)`, `SC(...)...`, `P(shape)`, `M(n)`.
 * Each stops at its first failure, which XLA ignores (see layout-parser.ts); messages are XLA's,
 * with plain words for people beside them.
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
import { CH_COLON, CH_COMMA, CH_LPAREN, CH_PLUS, CH_RPAREN, CH_STAR, CH_TILDE } from './chars';
import type { ParserState } from './parser-state';
import { tokenAt } from './tokens';

/** Parses the shape inside `P(...)`; supplied by the shape parser to avoid an import cycle. */
export type NestedShapeParser = (state: ParserState) => ShapeNode | undefined;

/** `Tile::kCombineDimension`. */
const INT64_MIN = -(1n << 63n);

/** Attribute names in the only order XLA accepts. */
export const ORDER = ['D', 'T', 'L', '#', '*', 'E', 'S', 'SC', 'P', 'M'] as const;
export type AttributeName = (typeof ORDER)[number];

/** The words ParseLayoutIntAttribute puts in its messages. */
const INT_ATTRIBUTE_WHAT = {
  L: 'multiple padded to in elements',
  E: 'element size in bits',
  S: 'memory space',
  M: 'dynamic shape metadata prefix bytes',
} as const;

/** Mutable collector for the layout's fields while parsing. */
export interface LayoutFields {
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
 * `(` INT `)` after L, E, S or M (`ParseLayoutIntAttribute`): stops at its first failure, keeping
 * the value when it was read (XLA sets the attribute as soon as it has the number).
 */
function parseIntAttribute(
  state: ParserState,
  start: number,
  name: keyof typeof INT_ATTRIBUTE_WHAT,
): IntAttributeNode | undefined {
  const what = INT_ATTRIBUTE_WHAT[name];
  if (
    !state.expect(CH_LPAREN, `expects ${what} to start with kLparen`, () => `missing \`(\` after \`${name}\``)
  )
    return undefined;
  const value = state.readInt();
  if (value === undefined) return undefined;
  state.expect(
    CH_RPAREN,
    `expects ${what} to end with kRparen`,
    () => `missing \`)\` to close \`${name}(…)\``,
  );
  return { range: { start, end: state.pos }, value };
}

/**
 * `(` type `)` after `#` or `*`: three steps XLA takes whatever each of them finds. It records
 * "expecting an unsigned integer type" for a signed type but goes on, and the validator rejects
 * any #/* anyway, so no message for that here.
 */
function parseTypeAttribute(state: ParserState, start: number, hash: boolean): TypeAttributeNode | undefined {
  const sign = hash ? 'kOctothorp' : 'kAsterisk';
  const letter = hash ? '#' : '*';
  state.expect(
    CH_LPAREN,
    `expects ${sign} to be followed by kLparen`,
    () => `missing \`(\` after \`${letter}\``,
  );
  state.peek();
  const t = tokenAt(state.text, state.pos, state.end);
  let typeName: string | undefined;
  if (t.kind === 'kPrimitiveType') {
    state.pos = t.end;
    typeName = state.text.slice(t.start, t.end);
  } else
    state.fail(
      'expected-primitive-type',
      `expected primitive type, saw ${t.kind}`,
      { start: t.start, end: t.end },
      `expected an integer type such as u32 inside \`${letter}(…)\``,
    );
  state.expect(
    CH_RPAREN,
    `expects ${hash ? 'index' : 'pointer'} primitive type to be followed by kRparen`,
    () => `missing \`)\` to close \`${letter}(…)\``,
  );
  if (typeName === undefined) return undefined;
  return { range: { start, end: state.pos }, typeName, typeRange: { start: t.start, end: t.end } };
}

/**
 * `ParseList`: `open` [item (`,` item)*] `)`, stopping at the first failure; `item` returns false
 * after failing. `what` names the list for plain words ("`D(…)`"); `openWords` says what is
 * missing when it does not open.
 */
function parseList(
  state: ParserState,
  openMessage: string,
  openWords: string,
  what: string,
  item: () => boolean,
  open = CH_LPAREN,
): boolean {
  if (!state.expect(open, openMessage, () => openWords)) return false;
  if (state.peek() === CH_RPAREN) {
    state.pos++;
    return true;
  }
  for (;;) {
    if (!item()) return false;
    if (state.peek() !== CH_COMMA) break;
    state.pos++;
  }
  return state.expect(
    CH_RPAREN,
    'expects a list to end with kRparen',
    () => `missing \`)\` to close ${what}`,
  );
}

function parseDimLevelTypes(state: ParserState, start: number): LayoutFields['dimLevelTypes'] {
  const levels: DimLevelNode[] = [];
  parseList(state, 'expects a list starting with kLparen', 'missing `(` after `D`', '`D(…)`', () => {
    state.peek();
    const t = tokenAt(state.text, state.pos, state.end);
    const word = t.kind === 'kIdent' ? state.text.slice(t.start, t.end) : '';
    if (word !== 'D' && word !== 'C' && word !== 'S' && word !== 'H') {
      state.fail(
        'dim-level-type',
        'expected a DimLevelType abbreviation (D, C, or S)',
        { start: t.start, end: t.end },
        `\`${state.tokenText()}\` is not a dimension level type: D(…) takes D, C, S or H`,
      );
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
  return { range: { start, end: state.pos }, levels };
}

/**
 * `ParseTiles`: tiles while a `(` follows, each begun before its list is read (so `T` with no
 * `(` is one empty tile), the entries read so far kept when the list stops early.
 */
function parseTiles(state: ParserState, start: number): LayoutFields['tiles'] {
  const tiles: TileNode[] = [];
  do {
    // `T` with no `(` after it is one empty tile to XLA: it is where the tile is.
    const tileStart = state.peek() === CH_LPAREN || tiles.length > 0 ? state.pos : start;
    const entries: TileEntryNode[] = [];
    const ok = parseList(
      state,
      'expects a list starting with kLparen',
      'missing `(` after `T`',
      'the tile',
      () => {
        if (state.peek() === CH_STAR) {
          entries.push({ range: { start: state.pos, end: state.pos + 1 }, value: 'combine' });
          state.pos++;
          return true;
        }
        if (!state.readIntValue()) return false;
        const range = { start: state.intStart, end: state.intEnd };
        // `*` is stored as INT64_MIN (Tile::kCombineDimension), so XLA reads an entry written as
        // that number (or as 2^63, which lexes to it) as `*` too, and prints it as `*`.
        entries.push({ range, value: state.intValue === INT64_MIN ? 'combine' : state.intValue });
        return true;
      },
    );
    tiles.push({ range: { start: tileStart, end: state.pos }, entries });
    if (!ok) break;
  } while (state.peek() === CH_LPAREN);
  return { range: { start, end: state.pos }, tiles };
}

/** `ParseSplitConfigs`: `(` dim `:` indices `)` while a `(` follows, stopping at the first failure. */
function parseSplitConfigs(state: ParserState, start: number): LayoutFields['splitConfigs'] {
  const configs: SplitConfigNode[] = [];
  do {
    if (
      !state.expect(CH_LPAREN, 'expects split configs to start with kLparen', () => 'missing `(` after `SC`')
    )
      break;
    const configStart = state.pos - 1;
    const dimension = state.readInt();
    if (dimension === undefined) break;
    const indices: IntNode[] = [];
    const ok = parseList(
      state,
      'expects a list starting with kColon',
      "missing `:` after the split config's dimension, as in SC(0:2,4)",
      'the split config',
      () => {
        const n = state.readInt();
        if (n !== undefined) indices.push(n);
        return n !== undefined;
      },
      CH_COLON,
    );
    configs.push({ range: { start: configStart, end: state.pos }, dimension, indices });
    if (!ok) break;
  } while (state.peek() === CH_LPAREN);
  return configs.length > 0 ? { range: { start, end: state.pos }, configs } : undefined;
}

function parsePhysicalShape(
  state: ParserState,
  start: number,
  nested: NestedShapeParser,
): LayoutFields['physicalShape'] {
  if (!state.expect(CH_LPAREN, 'expects physical shape to start with kLparen', () => 'missing `(` after `P`'))
    return undefined;
  // Any `P` is an error (no array is sparse any more): its inner shape is read as strictly as XLA
  // reads shapes, so a broken one stops the layout here.
  const softening = state.softening;
  state.softening = false;
  const shape = nested(state);
  state.softening = softening;
  if (shape === undefined || state.failed) return undefined;
  state.expect(CH_RPAREN, 'expects physical shape to end with kRparen', () => 'missing `)` to close `P(…)`');
  return { range: { start, end: state.pos }, shape };
}

/** Parses one attribute's body into `fields` (only when its slot is still free). */
export function parseAttribute(
  state: ParserState,
  name: AttributeName,
  start: number,
  fields: LayoutFields,
  nested: NestedShapeParser,
): void {
  // Each body is read (to move past it) before its slot is filled, if still free.
  switch (name) {
    case 'D': {
      const v = parseDimLevelTypes(state, start);
      fields.dimLevelTypes ??= v;
      return;
    }
    case 'T': {
      const v = parseTiles(state, start);
      fields.tiles ??= v;
      return;
    }
    case 'L':
    case 'E':
    case 'S':
    case 'M': {
      const v = parseIntAttribute(state, start, name);
      if (name === 'L') fields.tailPaddingAlignment ??= v;
      else if (name === 'E') fields.elementSizeBits ??= v;
      else if (name === 'S') fields.memorySpace ??= v;
      else fields.dynamicMetadataBytes ??= v;
      return;
    }
    case '#':
    case '*': {
      const v = parseTypeAttribute(state, start, name === '#');
      if (name === '#') fields.indexType ??= v;
      else fields.pointerType ??= v;
      return;
    }
    case 'SC': {
      const v = parseSplitConfigs(state, start);
      fields.splitConfigs ??= v;
      return;
    }
    case 'P': {
      const v = parsePhysicalShape(state, start, nested);
      fields.physicalShape ??= v;
      return;
    }
  }
}
