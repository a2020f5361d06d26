/**
 * The statements of a whole text for the name checks, taken from the streamed check as it goes
 * (`CheckStream`'s `onStatement`): what the check parsed is kept, a plain instruction it found
 * nothing wrong in is read without its shapes (plain-instruction.ts), and only the rest is parsed
 * again. The result is what `parseStatements(text, splitStatements(text))` gives, without reading
 * each statement twice.
 */
import type { TextRange } from '../diagnostics';
import { ScanState } from '../parse';
import { parseStatement } from './parse-statement';
import { plainInstruction } from './plain-instruction';
import type { HloStatement } from './types';

/** Collects the statements of `text` in order; see {@link add}. */
export class NameStatements {
  readonly statements: HloStatement[] = [];
  private readonly scan = new ScanState();

  constructor(private readonly text: string) {}

  /**
   * Adds the statement at `range` of `piece`, a stretch of the text starting at its offset `base`,
   * as the check left it: `parsed`, its reading by `parseStatement` (of `piece`) if the check made
   * one; `plainResultEnd` (in `piece`), where its result shape ends when it is a plain instruction
   * with nothing wrong in it, or -1.
   */
  add(
    piece: string,
    range: TextRange,
    base: number,
    parsed: HloStatement | undefined,
    plainResultEnd: number,
  ): void {
    const whole = { start: range.start + base, end: range.end + base };
    // A reading of the whole text itself is kept; one of a piece cut from it has ranges of its own.
    const kept = parsed !== undefined && base === 0 && piece === this.text ? parsed : undefined;
    const plain =
      kept === undefined && plainResultEnd >= 0
        ? plainInstruction(this.text, whole, plainResultEnd + base, this.scan)
        : undefined;
    let st: HloStatement = kept ?? plain ?? parseStatement(this.text, whole, this.scan);
    this.statements.push(st);
    // XLA reads a second instruction on the line as a statement of its own (as parseStatements does).
    while (st.following !== undefined) {
      st = parseStatement(this.text, { start: st.following, end: whole.end }, this.scan);
      this.statements.push(st);
    }
  }
}
