/**
 * The tolerant shape parser (`HloParserImpl::ParseShape`, spec §1.3): arrays with static, `<=N`
 * and `?` dimensions and layouts, tuples, `b(...)` buffers. It never throws: every problem is a
 * diagnostic with XLA's message and the exact range, and the tree read so far is returned.
 *
 * Tuples and buffers are parsed with an explicit stack, so nesting depth costs heap, not JS stack;
 * XLA's limit of 8192 is enforced as 'recursion-depth'.
 */
import type { ArrayShapeNode, DimNode, LayoutNode, ShapeNode, TupleShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { primitiveType, type PrimitiveTypeInfo } from '../primitive-types';
import { printLayout } from '../print';
import {
  CH_COLON,
  CH_COMMA,
  CH_EQUAL,
  CH_LBRACE,
  CH_LPAREN,
  CH_LSQUARE,
  CH_LT,
  CH_QUESTION,
  CH_RPAREN,
  CH_RSQUARE,
  identifierEnd,
  isIdentStart,
  skipTrivia,
} from './chars';
import { parseLayout } from './layout-parser';
import type { ParserState } from './parser-state';
import { ScanState } from './scan-state';
import { tokenAt } from './tokens';
import { typeAt } from './type-names';
import { unknownElementTypeWords } from './spelling';

/** `Shape::kUnboundedSize`, the stored size of a `?` dimension. */
const INT64_MIN = -(1n << 63n);

/** XLA's `HloParserOptions::kDefaultMaxRecursionDepth`. */
export const DEFAULT_MAX_DEPTH = 8192;

/**
 * `P(...)` shapes recurse on the JS stack (a few frames each), so their nesting has its own,
 * smaller limit. XLA rejects every `P` on a dense array anyway.
 */
const MAX_PHYSICAL_NESTING = 64;

export interface ShapeParseOptions {
  /** Stop reading at this offset (exclusive); defaults to the end of the text. */
  readonly end?: number;
  /** Maximum tuple/buffer nesting; defaults to XLA's 8192. */
  readonly maxDepth?: number;
  /** The state of a caller parsing one text piece by piece (see {@link ScanState}); a fresh one by default. */
  readonly scan?: ScanState;
}

export interface ShapeParseResult {
  /** The shape as far as it could be read; undefined when no shape starts at `start`. */
  readonly shape: ShapeNode | undefined;
  /** Where parsing stopped: after the shape, or at the first fatal error. */
  readonly end: number;
  readonly diagnostics: LayoutDiagnostic[];
  /** Whether an error stopped the parse (then `end` is where, not the shape's end). */
  readonly failed: boolean;
}

interface Frame {
  readonly kind: 'tuple' | 'buffer';
  readonly start: number;
  readonly elements: ShapeNode[];
}

/** Whether a layout starts at `pos`: `{` followed by an integer or `:` (XLA's look-ahead). */
function layoutAhead(state: ParserState): boolean {
  const save = state.pos;
  let yes = false;
  if (state.peek() === CH_LBRACE) {
    state.pos++;
    yes = state.peek() === CH_COLON || state.atInt();
  }
  state.pos = yes ? skipTrivia(state.text, save, state.end, state.comments) : save;
  return yes;
}

function parseDims(state: ParserState, dims: DimNode[]): void {
  if (
    !state.expect(
      CH_LSQUARE,
      'expects a list starting with kLsquare',
      () => 'missing `[` after the element type: a shape is written like f32[8,128]',
    )
  )
    return;
  if (state.peek() === CH_RSQUARE) {
    state.pos++;
    return;
  }
  for (;;) {
    const c = state.peek();
    const start = state.pos;
    if (c === CH_QUESTION) {
      state.pos++;
      dims.push({ range: { start, end: state.pos }, kind: 'unbounded', value: 0n });
    } else {
      const bounded =
        c === CH_LT && state.pos + 1 < state.end && state.text.charCodeAt(state.pos + 1) === CH_EQUAL;
      if (bounded) state.pos += 2;
      if (!state.readIntValue()) return;
      const value = state.intValue;
      // XLA stores `?` as a dynamic INT64_MIN, so `<=` that number (or 2^63, which lexes to it)
      // is an unbounded dimension (`Shape::IsValidDimensionSize`), printed as `?`.
      if (bounded && value === INT64_MIN)
        dims.push({ range: { start, end: state.intEnd }, kind: 'unbounded', value: 0n });
      else dims.push({ range: { start, end: state.intEnd }, kind: bounded ? 'bounded' : 'static', value });
    }
    const next = state.peek();
    if (next === CH_COMMA) {
      state.pos++;
      continue;
    }
    state.expect(
      CH_RSQUARE,
      'expects a list to end with kRsquare',
      () => 'missing `]` to close the dimensions',
    );
    return;
  }
}

/** Plain words for a shape that starts with no word at all, given XLA's token kind there. */
function elementTypeWords(kind: string, found: string): string {
  if (kind === 'kEof') return 'missing shape: expected an element type such as f32';
  return `expected a shape here: an element type such as f32, or \`(\` for a tuple, not \`${found}\``;
}

/** Parses `type[dims]{layout}` at the cursor; undefined (and a structural failure) when no type is there. */
function parseArray(state: ParserState): ArrayShapeNode | undefined {
  const start = state.pos;
  // tokenAt's kPrimitiveType test, without slicing: an identifier not followed by `:` or `=`.
  let type: PrimitiveTypeInfo | undefined;
  let typeEnd = start;
  if (start < state.end && isIdentStart(state.text.charCodeAt(start))) {
    typeEnd = identifierEnd(state.text, start, state.end);
    const after = typeEnd < state.end ? state.text.charCodeAt(typeEnd) : 0;
    if (after !== CH_COLON && after !== CH_EQUAL) type = typeAt(state.text, start, typeEnd);
  }
  if (type === undefined) {
    const t = tokenAt(state.text, start, state.end);
    const xla = `expected primitive type, saw ${t.kind}`;
    if (t.kind !== 'kIdent') {
      state.fail(
        'expected-primitive-type',
        xla,
        { start: t.start, end: t.end },
        elementTypeWords(t.kind, state.tokenText()),
        true,
      );
      return undefined;
    }
    const word = state.text.slice(start, typeEnd);
    const range = { start, end: typeEnd };
    // A word before `[` can only be meant for an element type: reported as the shape it starts.
    // Any other word (`(a, b)` read as a tuple) may be no shape at all, which is the caller's call.
    const open = skipTrivia(state.text, typeEnd, state.end, state.comments);
    const shaped = open < state.end && state.text.charCodeAt(open) === CH_LSQUARE;
    state.fail('unknown-element-type', xla, range, unknownElementTypeWords(word), !shaped);
    if (!shaped) return undefined;
    state.pos = typeEnd;
    return {
      kind: 'array',
      range,
      elementType: word,
      elementTypeRange: range,
      dimsRange: { start: typeEnd, end: typeEnd },
      dims: [],
    };
  }
  state.pos = typeEnd;
  const dimsStart = skipTrivia(state.text, state.pos, state.end, state.comments);
  const dims: DimNode[] = [];
  parseDims(state, dims);
  const dimsRange = { start: dimsStart, end: state.pos };
  const elementTypeRange = { start, end: typeEnd };
  if (state.failed || !layoutAhead(state)) {
    return {
      kind: 'array',
      range: { start, end: state.pos },
      elementType: type.name,
      elementTypeRange,
      dimsRange,
      dims,
    };
  }
  const layout = parseLayout(state, parseNestedShape);
  const node: ArrayShapeNode = {
    kind: 'array',
    range: { start, end: state.pos },
    elementType: type.name,
    elementTypeRange,
    dimsRange,
    dims,
    layout,
  };
  if (!state.failed) checkParsedLayout(state, node, type, layout);
  return node;
}

/** The two checks XLA's ParseShape makes on a parsed layout (spec §1.3), both non-fatal here. */
function checkParsedLayout(
  state: ParserState,
  node: ArrayShapeNode,
  type: PrimitiveTypeInfo,
  layout: LayoutNode,
): void {
  const m2m = layout.minorToMajor;
  if (type.isArray && m2m.length !== node.dims.length) {
    const range =
      m2m.length > 0 ? { start: m2m[0].range.start, end: m2m[m2m.length - 1].range.end } : layout.range;
    state.report(
      'rank-mismatch',
      `Dimensions size is ${node.dims.length}, but minor to major size is ${m2m.length}.`,
      range,
      `minor_to_major lists ${m2m.length} dimension${m2m.length === 1 ? '' : 's'}, but the shape has ${node.dims.length}: list each dimension once`,
    );
  }
  if (layout.physicalShape !== undefined) {
    state.report(
      'physical-shape-dense',
      `Layout has physical shape, but is not for a sparse array: ${printLayout(layout)}`,
      layout.physicalShape.range,
      'P(…) is only for sparse arrays, which XLA no longer has: remove it',
    );
  }
}

/** The shape inside `P(...)`, with its own nesting guard. */
function parseNestedShape(state: ParserState): ShapeNode | undefined {
  if (state.physicalNesting >= MAX_PHYSICAL_NESTING) {
    state.failAtToken(
      'recursion-depth',
      'maximum recursion depth exceeded',
      'P(…) shapes nest deeper than XLA reads them',
    );
    return undefined;
  }
  state.physicalNesting++;
  const shape = parseShapeTree(state, DEFAULT_MAX_DEPTH);
  state.physicalNesting--;
  return shape;
}

/** Whether `b(` starts at the cursor: the identifier `b` followed by `(`. */
function bufferAhead(state: ParserState, c: number): boolean {
  if (c !== 98 || identifierEnd(state.text, state.pos, state.end) !== state.pos + 1) return false;
  const open = skipTrivia(state.text, state.pos + 1, state.end, state.comments);
  return open < state.end && state.text.charCodeAt(open) === CH_LPAREN;
}

function closePartial(state: ParserState, frame: Frame, child: ShapeNode | undefined): ShapeNode {
  if (child !== undefined) frame.elements.push(child);
  const range = { start: frame.start, end: Math.max(frame.start, state.pos) };
  const node: ShapeNode =
    frame.kind === 'tuple' || frame.elements.length === 0
      ? { kind: 'tuple', range, elements: frame.elements }
      : { kind: 'buffer', range, element: frame.elements[0] };
  state.partials.push(node);
  return node;
}

/**
 * Parses one shape at the cursor (trivia allowed before it). Internal entry point shared with
 * the HLO shape finder, which inspects `state.failed`, `state.structural` and `state.partials`.
 */
export function parseShapeTree(state: ParserState, maxDepth: number): ShapeNode | undefined {
  const frames: Frame[] = [];
  for (;;) {
    // Descend: open tuples and buffers until an element that is not one.
    let node: ShapeNode | undefined;
    const c = state.peek();
    if (c === CH_LPAREN || (isIdentStart(c) && bufferAhead(state, c))) {
      if (frames.length >= maxDepth) {
        state.fail(
          'recursion-depth',
          'maximum recursion depth exceeded',
          { start: state.pos, end: state.pos + 1 },
          `tuples nest deeper than XLA's parser reads them (${maxDepth} levels)`,
        );
      } else if (c === CH_LPAREN) {
        frames.push({ kind: 'tuple', start: state.pos, elements: [] });
        state.pos++;
        if (state.peek() !== CH_RPAREN) continue;
        state.pos++;
        const done = frames.pop()!;
        node = { kind: 'tuple', range: { start: done.start, end: state.pos }, elements: done.elements };
      } else {
        frames.push({ kind: 'buffer', start: state.pos, elements: [] });
        state.pos = skipTrivia(state.text, state.pos + 1, state.end, state.comments) + 1;
        continue;
      }
    } else {
      node = parseArray(state);
    }
    // Ascend: attach the element to its tuple or buffer, closing as many as end here.
    for (;;) {
      const frame = frames[frames.length - 1];
      if (frame === undefined) return node;
      if (state.failed) {
        node = closePartial(state, frame, node);
        frames.pop();
        continue;
      }
      frame.elements.push(node!);
      const next = state.peek();
      if (frame.kind === 'tuple') {
        if (next === CH_COMMA) {
          state.pos++;
          break;
        }
        if (next === CH_RPAREN) {
          state.pos++;
          frames.pop();
          node = {
            kind: 'tuple',
            range: { start: frame.start, end: state.pos },
            elements: frame.elements,
          } satisfies TupleShapeNode;
          continue;
        }
        state.failAtToken(
          'expected-token',
          "expects ')' at the end of tuple.",
          'missing `)` to close the tuple, or `,` before its next element',
          true,
        );
        frame.elements.pop();
        continue;
      }
      if (next !== CH_RPAREN) {
        state.failAtToken(
          'expected-token',
          "expects ')' at the end of buffer shape.",
          'missing `)` to close `b(…)`: a buffer holds one array shape',
          true,
        );
        frame.elements.pop();
        continue;
      }
      state.pos++;
      frames.pop();
      const element = node!;
      if (element.kind !== 'array' || primitiveType(element.elementType)?.isArray !== true) {
        state.report(
          'buffer-element',
          'element_shape must be an array shape to create a buffer shape.',
          element.range,
          '`b(…)` must hold an array shape, not a tuple, token or opaque',
        );
      }
      node = { kind: 'buffer', range: { start: frame.start, end: state.pos }, element };
    }
  }
}

/** {@link parseShape} plus whether a fatal error stopped it. */
function run(text: string, start: number, options: ShapeParseOptions, scan: ScanState): ShapeParseResult {
  const end = Math.max(0, Math.min(options.end ?? text.length, text.length));
  const state = scan.parser;
  state.reset(text, Math.max(0, Math.min(start, end)), end);
  const shape = parseShapeTree(state, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  const result = { shape, end: state.pos, diagnostics: state.diagnostics, failed: state.failed };
  state.release();
  return result;
}

/**
 * Parses one shape starting at `start` (leading whitespace and comments are skipped). Reads as
 * far as the shape goes; use {@link parseShapeText} to require that nothing follows. Never throws.
 */
export function parseShape(text: string, start = 0, options: ShapeParseOptions = {}): ShapeParseResult {
  return run(text, start, options, options.scan ?? new ScanState());
}

/**
 * Parses a whole string as one shape (`ParseShape(str)`): text after a complete shape is
 * 'extra-content' ("Extra content after shape") on the trailing range.
 */
export function parseShapeText(text: string): ShapeParseResult {
  const scan = new ScanState();
  const { shape, end, diagnostics, failed } = run(text, 0, {}, scan);
  const rest = skipTrivia(text, end, text.length, scan.comments);
  if (!failed && rest < text.length) {
    diagnostics.push(
      diagnostic(
        'extra-content',
        'Extra content after shape',
        { start: rest, end: text.length },
        'unexpected text after the shape',
      ),
    );
  }
  return { shape, end, diagnostics, failed };
}
