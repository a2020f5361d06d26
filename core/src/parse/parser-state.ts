/**
 * The mutable cursor shared by the shape and layout parsers: position, bound, diagnostics and the
 * first fatal error. Parsing stops at the first error XLA would stop at ("fatal"); the tree built
 * so far is returned. Errors XLA reports but that do not hide the rest of the shape ("soft", such
 * as a rank mismatch) are recorded and parsing continues.
 */
import type { IntNode } from '../ast';
import { diagnostic, type LayoutDiagnostic, type RuleCode, type TextRange } from '../diagnostics';
import { CH_GT, CH_MINUS, CH_SLASH, isDigit, skipTrivia, type CommentSearch } from './chars';
import { lexNumber, lexSmallInt } from './numbers';
import { tokenAt } from './tokens';

// Placeholders between parses; never written to, since every parse starts with reset().
const NO_DIAGNOSTICS: LayoutDiagnostic[] = [];
const NO_PARTIALS: object[] = [];

export class ParserState {
  /** @param comments where block comments close in the texts this state parses. */
  constructor(readonly comments: CommentSearch) {}

  text = '';
  end = 0;
  pos = 0;
  diagnostics: LayoutDiagnostic[] = [];
  /** Set by the first fatal error. */
  failed = false;
  /**
   * Whether the fatal error was about tuple/buffer structure (no shape starts here, or a tuple
   * element list does not continue), rather than inside an array shape. The HLO shape finder uses
   * it to tell an operand list such as `(f32[2] %x)` from a broken shape.
   */
  structural = false;
  /** Tuple and buffer nodes left incomplete by the fatal error, outermost last. */
  partials: object[] = [];
  /** How many `P(...)` shapes enclose the current position (they recurse on the JS stack). */
  physicalNesting = 0;
  /**
   * Set while reading a layout's attributes, whose sub-parsers' failures XLA's ParseLayout ignores
   * (it goes on at the token they stopped at): {@link fail} then only notes the first failure in
   * {@link softError} and returns, and the layout decides at its `}` whether it matters.
   */
  softening = false;
  softError: LayoutDiagnostic | undefined;

  reset(text: string, pos: number, end: number): void {
    this.text = text;
    this.pos = pos;
    this.end = end;
    this.diagnostics = [];
    this.failed = false;
    this.structural = false;
    this.partials = [];
    this.physicalNesting = 0;
    this.softening = false;
    this.softError = undefined;
  }

  /**
   * Drops the references to the last parse's text and results (so a 100 MB text is not kept alive
   * by the shared state) without allocating fresh arrays, which {@link reset} does anyway.
   */
  release(): void {
    this.text = '';
    this.end = 0;
    this.pos = 0;
    this.diagnostics = NO_DIAGNOSTICS;
    this.partials = NO_PARTIALS;
  }

  /** Skips trivia and returns the code unit at the new position, or -1 at the end. */
  peek(): number {
    // Nearly always the cursor is already on a token: anything above space other than `/` cannot
    // start trivia, so skip the call.
    if (this.pos < this.end) {
      const c = this.text.charCodeAt(this.pos);
      if (c > 32 && c !== CH_SLASH) return c;
    }
    this.pos = skipTrivia(this.text, this.pos, this.end, this.comments);
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
  }

  /** Records an error that does not stop parsing: XLA's `message`, and `plain` words for people. */
  report(code: RuleCode, message: string, range: TextRange, plain?: string): void {
    this.diagnostics.push(diagnostic(code, message, range, plain));
  }

  /** Records the error that stops parsing (while {@link softening}, notes it only). */
  fail(code: RuleCode, message: string, range: TextRange, plain?: string, structural = false): void {
    this.failWith(diagnostic(code, message, range, plain), structural);
  }

  /** {@link fail} with the diagnostic built. */
  failWith(d: LayoutDiagnostic, structural = false): void {
    if (this.softening) {
      this.softError ??= d;
      return;
    }
    this.diagnostics.push(d);
    this.failed = true;
    this.structural = structural;
  }

  /** Fails on the token at the current position (after trivia), naming nothing. */
  failAtToken(code: RuleCode, message: string, plain?: string, structural = false): void {
    this.peek();
    const t = tokenAt(this.text, this.pos, this.end);
    this.fail(code, message, { start: t.start, end: t.end }, plain, structural);
  }

  /**
   * Consumes the code unit `ch` (after trivia) or fails on the token found instead, with XLA's
   * `message` and `plain` words (which are built only on failure).
   */
  expect(ch: number, message: string, plain: () => string, structural = false): boolean {
    if (this.peek() === ch) {
      this.pos++;
      return true;
    }
    this.peek();
    const t = tokenAt(this.text, this.pos, this.end);
    const d = diagnostic('expected-token', message, { start: t.start, end: t.end }, plain());
    this.failWith({ ...d, expected: String.fromCharCode(ch) }, structural);
    return false;
  }

  /** The token at the current position as written, for plain words (cut when long). */
  tokenText(): string {
    this.peek();
    const t = tokenAt(this.text, this.pos, this.end);
    const text = this.text.slice(t.start, Math.min(t.end, t.start + 40));
    return t.end > t.start + 40 ? `${text}…` : text;
  }

  /** Whether an integer token starts at the current position (after trivia). */
  atInt(): boolean {
    const c = this.peek();
    if (!isDigit(c)) {
      if (c !== CH_MINUS || this.pos + 1 >= this.end || !isDigit(this.text.charCodeAt(this.pos + 1)))
        return false;
    }
    return (
      lexSmallInt(this.text, this.pos, this.end, this.probe) >= 0 ||
      lexNumber(this.text, this.pos, this.end).kind === 'int'
    );
  }

  /** Start, end and value of the integer read by the last successful {@link readIntValue}. */
  intStart = 0;
  intEnd = 0;
  intValue = 0n;
  /** Where {@link atInt}'s look-ahead reads its value, leaving {@link intValue} alone. */
  private readonly probe = { intValue: 0n };

  /**
   * Reads an integer token (`ParseInt64`), failing with XLA's `expects integer` on anything else.
   * An integer beyond 64 bits is reported and kept with its written value. Allocates nothing: the
   * result is in {@link intStart}, {@link intEnd} and {@link intValue} when this returns true.
   */
  readIntValue(): boolean {
    const c = this.peek();
    const start = this.pos;
    if (
      isDigit(c) ||
      (c === CH_MINUS && !(start + 1 < this.end && this.text.charCodeAt(start + 1) === CH_GT))
    ) {
      const fastEnd = lexSmallInt(this.text, start, this.end, this);
      if (fastEnd >= 0) {
        this.pos = fastEnd;
        this.intStart = start;
        this.intEnd = fastEnd;
        return true;
      }
      const n = lexNumber(this.text, start, this.end);
      if (n.kind === 'int') {
        this.pos = n.end;
        this.intStart = start;
        this.intEnd = n.end;
        this.intValue = n.value;
        if (n.tooLarge) {
          const written = this.text.slice(start, n.end);
          this.report(
            'integer-too-large',
            `expects integer: ${written} does not fit in 64 bits`,
            { start, end: n.end },
            `${written.length > 40 ? `${written.slice(0, 40)}…` : written} is too large: XLA's integers are 64-bit (at most 9223372036854775807)`,
          );
        }
        return true;
      }
    }
    const found = this.tokenText();
    this.failAtToken(
      'expected-integer',
      'expects integer',
      found === ''
        ? 'missing integer at the end of the text'
        : `expected a whole number here, not \`${found}\``,
    );
    return false;
  }

  /** {@link readIntValue} as a node. */
  readInt(): IntNode | undefined {
    if (!this.readIntValue()) return undefined;
    return { range: { start: this.intStart, end: this.intEnd }, value: this.intValue };
  }
}
