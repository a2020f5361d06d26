/**
 * A constant's literal read as XLA's parser reads it (`ParseDenseLiteral` in hlo_parser.cc), with
 * its messages: as many values, nested as deep, as the shape says (`f32[3]{0} constant({1, 2})` is
 * "expects 3 elements in the []th element, but sees 2"), values of the element type's kind and
 * range, the `)` after it, and the two literals XLA aborts on: `true`/`false` in a constant of any
 * type but pred, and a token or opaque constant. A literal the statement ends inside of is left
 * to the checks of statements.
 */
import type { ArrayShapeNode, ShapeNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type RuleCode, type TextRange } from '../diagnostics';
import { typeAt } from '../parse/type-names';
import { C64_PART_MAX, floatOutOfRange, nanPayloadRefusal, sixDigits } from './float-range';
import { skipTrivia } from './lex';
import { integerOutOfRange } from './literal-range';
import { literalToken, nanPayload, tokenNumber, type LiteralToken } from './literal-tokens';

/** An array shape as the literal reader needs it: element type and sizes (a `<=N` size counts N). */
interface LiteralShape {
  readonly elementType: string;
  readonly dims: readonly number[];
}

type ElementKind = 'integer' | 'pred' | 'float' | 'complex';

/** The kind of values of the primitive type `type` (a name XLA knows), by its first letter. */
function elementKind(type: string): ElementKind | undefined {
  switch (type.charCodeAt(0)) {
    case 112: // p
      return 'pred';
    case 115: // s
    case 117: // u
      return 'integer';
    case 99: // c
      return 'complex';
    case 98: // b
    case 102: // f
      return 'float';
  }
  return undefined;
}

const NO_DIMS: number[] = [];

function shapeText(shape: LiteralShape): string {
  return `${shape.elementType}[${shape.dims.join(',')}]`;
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** The words for a token no literal holds, by what it most likely meant. */
function unreadableWords(text: string, t: LiteralToken, type: string): string {
  const written = text.slice(t.start, Math.min(t.end, t.start + 24));
  const word = /^[A-Za-z_][\w.-]*/.exec(text.slice(t.start, t.start + 24))?.[0];
  if (word && /^nan$/i.test(word)) return `XLA writes NaN as \`nan\`, in lower case`;
  if (word && /^inf(inity)?$/i.test(word))
    return `XLA writes infinity as \`inf\` and \`-inf\`, in lower case`;
  const c = text.charCodeAt(t.start);
  if (c === 43) return 'XLA reads no `+` sign before a number: leave it out';
  if (c === 46) return 'XLA reads no number starting with `.`: write a digit before the point (`0.5`)';
  if (/^-?0[xX][0-9a-fA-F]/.test(text.slice(t.start, t.start + 4)))
    return 'XLA reads numbers in decimal only, not hexadecimal';
  if (/^-?\d+$/.test(text.slice(t.start, t.end)))
    return `${written} is beyond the 64-bit integers XLA's lexer reads (-9223372036854775808 to 18446744073709551615)`;
  if (c === 41) return 'the `)` comes before every `{` of the literal is closed';
  return `\`${written}\` is no value XLA reads in a ${type} constant`;
}

/** Reads the literal; see {@link denseLiteralError}. */
class DenseLiteralReader {
  private readonly rank: number;
  private readonly total: number;
  private readonly kind: ElementKind | undefined;
  private readonly seen: number[];
  private nest = 0;
  private linear = 0;
  /** The first error XLA records but reads on after (too many values in a row): its message's first line when the literal then fails. */
  private recorded: LayoutDiagnostic | undefined;

  constructor(
    private readonly text: string,
    private readonly shape: LiteralShape,
  ) {
    this.rank = shape.dims.length;
    let total = 1;
    for (const d of shape.dims) total *= d;
    this.total = total;
    this.kind = elementKind(shape.elementType);
    this.seen = this.rank === 0 ? NO_DIMS : new Array<number>(this.rank).fill(0);
  }

  private range(t: LiteralToken): TextRange {
    return { start: t.start, end: Math.max(t.end, t.start + 1) };
  }

  private error(code: RuleCode, t: LiteralToken, message: string, plain: string): LayoutDiagnostic {
    return diagnostic(code, message, this.range(t), plain);
  }

  /** What XLA reports when the literal fails at `d`: the first error it recorded before, else `d`. */
  private fail(d: LayoutDiagnostic): LayoutDiagnostic {
    return this.recorded ?? d;
  }

  /** `[i,j]`: which element XLA's message speaks of, from the elements seen up to dimension `dim`. */
  private index(dim: number): string {
    return `[${this.seen
      .slice(0, dim)
      .map((n) => n - 1)
      .join(',')}]`;
  }

  /** XLA's `add_one_elem_seen`: false (after recording why) when a value stands where none fits. */
  private addOne(t: LiteralToken): boolean {
    if (this.rank === 0) return true;
    const { rank, nest } = this;
    const shape = shapeText(this.shape);
    if (nest !== rank) {
      this.recorded ??= this.error(
        'literal-shape-mismatch',
        t,
        `expects nested array in rank ${rank}, but sees ${nest}`,
        `${shape} has ${plural(rank, 'dimension')}, so each value stands inside ${rank} levels of \`{...}\`; this one stands inside ${nest}`,
      );
      return false;
    }
    const size = this.shape.dims[rank - 1];
    if (++this.seen[rank - 1] > size) {
      this.recorded ??= this.error(
        'literal-shape-mismatch',
        t,
        `expects ${size} elements on the minor-most dimension, but sees more`,
        `more than ${plural(size, 'value')} in one \`{...}\`: the last dimension of ${shape} has size ${size}`,
      );
      return false;
    }
    return true;
  }

  /** The literal's first error from `pos` (after `(`) on, or undefined when XLA reads it (or it cannot tell). */
  read(pos: number, end: number): LayoutDiagnostic | undefined {
    const { text, shape } = this;
    const type = shape.elementType;
    let p = pos;
    do {
      p = skipTrivia(text, p, end);
      const t = literalToken(text, p, end);
      switch (t.kind) {
        case 'end':
          return undefined;
        case '{': {
          this.nest++;
          const { nest, rank } = this;
          if (nest > rank)
            return this.fail(
              this.error(
                'literal-shape-mismatch',
                t,
                `expects nested array in rank ${rank}, but sees larger`,
                rank === 0
                  ? `${shapeText(shape)} is one value, written without \`{...}\``
                  : `${shapeText(shape)} has ${plural(rank, 'dimension')}, so its literal nests ${rank} levels of \`{...}\`; this \`{\` opens one more`,
              ),
            );
          if (nest > 1) {
            const dim = nest - 2;
            const size = shape.dims[dim];
            if (++this.seen[dim] > size)
              return this.fail(
                this.error(
                  'literal-shape-mismatch',
                  t,
                  `expects ${size} elements in the ${this.index(dim)}th element, but sees more`,
                  `one \`{...}\` too many: dimension ${dim} of ${shapeText(shape)} has size ${size}`,
                ),
              );
          }
          break;
        }
        case '}': {
          if (this.nest === 0)
            return this.fail(
              this.error('literal-syntax', t, "unexpected '}' token", 'this `}` closes no `{`'),
            );
          const dim = --this.nest;
          const size = shape.dims[dim];
          const seen = this.seen[dim];
          if (seen !== size) {
            const held = dim === this.rank - 1 ? plural(seen, 'value') : `${plural(seen, 'list')} \`{...}\``;
            return this.fail(
              this.error(
                'literal-shape-mismatch',
                t,
                `expects ${size} elements in the ${this.index(dim)}th element, but sees ${seen}`,
                `this \`{...}\` holds ${held}, but dimension ${dim} of ${shapeText(shape)} has size ${size}`,
              ),
            );
          }
          this.seen[dim] = 0;
          break;
        }
        case '(': {
          if (this.kind !== 'complex')
            return this.fail(
              this.error(
                'literal-syntax',
                t,
                "unexpected '(' in literal. Parens are only valid for complex literals",
                `parentheses are only for complex values (c64, c128); a ${type} value is a plain number`,
              ),
            );
          if (!this.addOne(t)) return this.recorded;
          const value = this.complexValue(t, end);
          if (value === null) return undefined;
          if (typeof value !== 'number') return this.fail(value);
          if (this.linear++ >= this.total) return this.recorded;
          p = value;
          continue;
        }
        case '...': {
          if (this.nest !== 1)
            return this.fail(
              this.error(
                'literal-syntax',
                t,
                `expects \`...\` at nest level 1, but sees it at nest level ${this.nest}`,
                '`...` (values left out) stands only directly inside the outermost `{...}`',
              ),
            );
          this.seen[0] = shape.dims[0];
          break;
        }
        case ',':
          break;
        case 'true':
        case 'false':
          this.addOne(t);
          if (this.kind !== 'pred')
            return this.error(
              'literal-crash',
              t,
              `${type.toUpperCase()} is not PRED type`,
              `\`${t.kind}\` fits only a pred constant: XLA aborts on it in a ${type} constant (LOG(FATAL) in SetValueInLiteral); write ${t.kind === 'true' ? 1 : 0}`,
            );
          if (this.linear++ >= this.total) return this.recorded;
          break;
        case 'int':
        case 'decimal':
        case 'inf':
        case '-inf': {
          this.addOne(t);
          const d = this.value(t);
          if (d) return this.fail(d);
          if (d === null) return undefined;
          if (this.linear++ >= this.total) return this.recorded;
          const payload = nanPayload(text, t);
          const refusal = payload === undefined ? undefined : nanPayloadRefusal(payload, type);
          if (refusal)
            return this.fail(
              this.error(
                'literal-out-of-range',
                t,
                `tries to set NaN payload 0x${payload?.toString(16)} to a literal in shape ${shapeText(shape)} at linear index ${this.linear - 1}, but ${refusal}`,
                refusal.endsWith('payloads')
                  ? `${type} has one NaN, without payload bits: write \`nan\``
                  : `the payload does not fit in ${type}'s NaN, whose payload bits are ${refusal.slice(refusal.indexOf('(') + 1, -1)}`,
              ),
            );
          break;
        }
        case 'other':
        case ')': {
          // An integer past what the lexer reads is out of every integer type's range.
          const code = /^-?\d+$/.test(text.slice(t.start, t.end)) ? 'literal-out-of-range' : 'literal-syntax';
          return this.fail(
            this.error(code, t, 'unexpected token type in a literal', unreadableWords(text, t, type)),
          );
        }
      }
      p = t.end;
    } while (this.nest > 0);
    p = skipTrivia(text, p, end);
    const after = literalToken(text, p, end);
    if (after.kind === 'end' || after.kind === ')') return undefined;
    return this.fail(
      this.error(
        'literal-syntax',
        after,
        "expects ')' after constant literal",
        this.rank === 0
          ? `a ${shapeText(shape)} constant holds one value, complete before this; XLA expects its closing \`)\` here`
          : `the literal's outermost \`{...}\` closes before this; XLA expects the constant's closing \`)\` here`,
      ),
    );
  }

  /**
   * The complex value `(real, imaginary)` whose `(` is `open` (XLA's ParseComplex, then its range
   * check of c64 parts, which are not rounded first): where it ends, XLA's error in it, or null
   * when the statement ends inside it.
   */
  private complexValue(open: LiteralToken, end: number): number | LayoutDiagnostic | null {
    const { text } = this;
    const type = this.shape.elementType;
    const parts: number[] = [];
    let p = open.end;
    for (const part of ['real', 'imaginary'] as const) {
      p = skipTrivia(text, p, end);
      const t = literalToken(text, p, end);
      if (t.kind === 'end') return null;
      if (t.kind !== 'int' && t.kind !== 'decimal' && t.kind !== 'inf' && t.kind !== '-inf')
        return this.error(
          'literal-syntax',
          t,
          'expects decimal or integer',
          `the ${part} part of a ${type} value is a number`,
        );
      const v = t.kind === 'inf' ? Infinity : t.kind === '-inf' ? -Infinity : tokenNumber(text, t);
      if (t.kind === 'decimal' && !Number.isFinite(v) && !Number.isNaN(v)) return this.doubleOverflow(t);
      parts.push(v);
      p = skipTrivia(text, t.end, end);
      const after = literalToken(text, p, end);
      if (after.kind === 'end') return null;
      const want = part === 'real' ? ',' : ')';
      if (after.kind !== want)
        return this.error(
          'literal-syntax',
          after,
          part === 'real'
            ? 'expect comma after real part of complex literal'
            : "expect ')' after complex number",
          `a ${type} value is written \`(real, imaginary)\`: two numbers`,
        );
      p = after.end;
    }
    if (type === 'c64')
      for (const [i, part] of (['real', 'imaginary'] as const).entries()) {
        const v = parts[i];
        if (Number.isFinite(v) && Math.abs(v) > C64_PART_MAX) {
          const max = sixDigits(C64_PART_MAX);
          return this.error(
            'literal-out-of-range',
            open,
            `${part} part ${sixDigits(v)} is out of range for literal's primitive type C64, namely [-${max}, ${max}].`,
            `the ${part} part does not fit in c64, whose parts are f32s (-${max} to ${max}); c128 holds it`,
          );
        }
      }
    return p;
  }

  /** XLA's refusal of a decimal its lexer read as infinite (`1e309`), past every double. */
  private doubleOverflow(t: LiteralToken): LayoutDiagnostic {
    return this.error(
      'literal-syntax',
      t,
      'Constant is out of range for double (+/-1.79769e+308) and so is unparsable.',
      `${this.text.slice(t.start, t.end)} is beyond the largest double, ±1.79769e+308`,
    );
  }

  /**
   * What XLA says about the value token `t` in this constant's type: a diagnostic, undefined when
   * it takes it, null when this reader cannot tell.
   */
  private value(t: LiteralToken): LayoutDiagnostic | undefined | null {
    const { text, kind } = this;
    const type = this.shape.elementType;
    const written = text.slice(t.start, t.end);
    switch (kind) {
      case 'integer':
      case 'pred': {
        if (t.kind !== 'int')
          return this.error(
            'literal-syntax',
            t,
            `expects integer for primitive type: ${type.toUpperCase()}`,
            kind === 'pred'
              ? `\`${written}\` is no integer; a pred constant holds true, false or integers`
              : `\`${written}\` is no integer, and ${type} holds integers only`,
          );
        if (kind === 'pred') return undefined;
        const range = integerOutOfRange(written, type);
        return range && this.error('literal-out-of-range', t, range.message, range.plain);
      }
      case 'float': {
        const v = tokenNumber(text, t);
        if (t.kind === 'decimal' && (v === Infinity || v === -Infinity)) return this.doubleOverflow(t);
        const range = floatOutOfRange(v, type);
        return (
          range &&
          this.error(
            'literal-out-of-range',
            t,
            range.message,
            `${written} does not fit in ${type}, which holds ${range.holds}`,
          )
        );
      }
      case 'complex':
        return this.error(
          'literal-syntax',
          t,
          `unsupported primitive type ${type.toUpperCase()}`,
          `a ${type} value is written \`(real, imaginary)\`, as in \`(${written}, 0)\``,
        );
      default:
        return null;
    }
  }
}

/**
 * The first error XLA's parser finds in the literal of a constant of the array shape `shape`,
 * read from `pos` (after `constant(`) to the statement's `end`, where it also expects the `)`;
 * undefined when XLA reads it, or when this reader cannot tell (the statement ends inside it).
 */
function denseLiteralError(
  text: string,
  pos: number,
  end: number,
  shape: LiteralShape,
): LayoutDiagnostic | undefined {
  return new DenseLiteralReader(text, shape).read(pos, end);
}

/** XLA's abort on a constant of a token or opaque shape (`token[] constant()`), on its opcode `op`. */
function notArrayCrash(type: string, op: TextRange): LayoutDiagnostic {
  return diagnostic(
    'literal-crash',
    `Check failed: shape.IsArray() ${type}[]`,
    op,
    `a ${type}[] constant holds no value: XLA aborts on it (CHECK failure in ParseNonTupleLiteral)${type === 'token' ? '; make a token with after-all()' : ''}`,
  );
}

/**
 * The first error XLA's parser finds in the constant whose result shape is `shape` (read without
 * errors), opcode at `op`, literal from `pos` (after its `(`) to the statement's `end`; undefined
 * when it finds none, or for a shape this does not read literals of (tuples, `?` sizes).
 */
export function constantLiteralError(
  text: string,
  shape: ShapeNode | undefined,
  op: TextRange,
  pos: number,
  end: number,
): LayoutDiagnostic | undefined {
  if (shape?.kind !== 'array') return undefined;
  if (shape.elementType === 'token' || shape.elementType === 'opaque')
    return notArrayCrash(shape.elementType, op);
  const literal = literalShape(shape);
  return literal && denseLiteralError(text, pos, end, literal);
}

function literalShape(shape: ArrayShapeNode): LiteralShape | undefined {
  const dims: number[] = [];
  for (const d of shape.dims) {
    if (d.kind === 'unbounded' || d.value > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
    dims.push(Number(d.value));
  }
  return { elementType: shape.elementType, dims };
}

/**
 * Whether the plain instruction whose clean result shape starts at `shapeStart`, opcode at `op`
 * and `(` at `open`, is a constant {@link constantLiteralError} finds an error in: the fast paths
 * that skip the statement parser leave such instructions to it, and take every other constant as
 * plain. The shape is read in place (`type[d0,d1,...]`, sizes `N` or `<=N`); a shape written
 * otherwise is left to the parser too.
 */
export function constantNeedsParser(
  text: string,
  shapeStart: number,
  op: number,
  open: number,
  end: number,
): boolean {
  if (open - op !== 8 || !text.startsWith('constant', op)) return false;
  const c = text.charCodeAt(shapeStart);
  if (c === 40) return false; // a tuple: its literal is XLA's to read
  let typeEnd = shapeStart;
  for (let k = text.charCodeAt(typeEnd); (k >= 97 && k <= 122) || (k >= 48 && k <= 57);)
    k = text.charCodeAt(++typeEnd);
  const type = typeAt(text, shapeStart, typeEnd);
  if (!type?.isArray || text.charCodeAt(typeEnd) !== 91) return true;
  const dims: number[] = [];
  let p = typeEnd + 1;
  if (text.charCodeAt(p) !== 93)
    for (;;) {
      if (text.startsWith('<=', p)) p += 2;
      const from = p;
      while (p < end && text.charCodeAt(p) >= 48 && text.charCodeAt(p) <= 57) p++;
      if (p === from || p - from > 15) return true;
      dims.push(Number(text.slice(from, p)));
      const next = text.charCodeAt(p++);
      if (next === 93) break;
      if (next !== 44) return true;
    }
  return denseLiteralError(text, open + 1, end, { elementType: type.name, dims }) !== undefined;
}
