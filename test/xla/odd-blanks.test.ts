/**
 * A no-break space, form feed or vertical tab put between two tokens of real HLO XLA accepts (in
 * place of a blank, or before a bracket, comma or `=`), outside strings and comments, judged by the
 * real XLA: its lexer skips only spaces, tabs and line breaks, so it refuses the text on that
 * character (or on the operand or attribute name it ends). `xla-layout check` and the language
 * server must refuse it where XLA stops, and mostly with XLA's words (counted, not required: XLA's
 * message depends on what its parser expected there). Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { acceptedDumpTexts } from './dump-files';
import { judgeOnce, rejects, samePlace, xlaError, xlaPlace, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, firstError, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

const TEXTS = 80;
const MAX_CHARS = 20_000;
const BLANKS = ['\u00a0', '\f', '\v'];

interface Placed {
  readonly text: string;
  readonly what: string;
}

/** Offsets of `text` outside strings and comments, before a blank or a bracket, comma or `=`. */
function places(text: string): number[] {
  const out: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = text.indexOf('"', i + 1);
      if (i < 0) break;
    } else if (text.startsWith('/*', i)) i = text.indexOf('*/', i) + 1;
    else if (text.startsWith('//', i)) i = text.indexOf('\n', i);
    else if (' (),{}[]='.includes(c)) out.push(i);
    if (i < 0) break;
  }
  return out;
}

/** `text` with an odd blank at a random place: in place of a space, or before the character there. */
function placed(rand: () => number, text: string): Placed | undefined {
  const at = places(text);
  if (at.length === 0) return undefined;
  const i = at[Math.floor(rand() * at.length)];
  const blank = BLANKS[Math.floor(rand() * BLANKS.length)];
  const rest = text[i] === ' ' ? text.slice(i + 1) : text.slice(i);
  const line = text.slice(0, i).split('\n').length;
  return {
    text: text.slice(0, i) + blank + rest,
    what: `${JSON.stringify(blank)} at line ${line}: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`,
  };
}

describeWithXla(
  'the real XLA judges a no-break space, form feed or vertical tab between tokens',
  function (xla) {
    this.timeout(300_000);
    const seed = runSeed();
    const cases: Placed[] = [];
    let verdicts: XlaVerdict[] = [];

    before(async () => {
      const texts = await acceptedDumpTexts(xla, MAX_CHARS);
      const rand = mulberry32(seed);
      while (cases.length < TEXTS) {
        const c = placed(rand, texts[Math.floor(rand() * texts.length)]);
        if (c) cases.push(c);
      }
      verdicts = await judgeOnce(
        xla,
        cases.map((c) => c.text),
      );
      buildCli();
    });

    function compare(errors: readonly OurError[][]): { wrong: string[]; sameWords: number } {
      const wrong: string[] = [];
      let sameWords = 0;
      cases.forEach((c, i) => {
        const v = verdicts[i];
        const ours = firstError(errors[i]);
        const at = xlaPlace(v);
        const said = xlaError(v)?.replace(/:$/, '');
        const agree = rejects(v)
          ? ours !== undefined && (at === undefined || samePlace(at, ours.line, ours.column))
          : ours === undefined;
        if (
          ours &&
          said !== undefined &&
          ours.message.includes(said.replace('kError', 'a character XLA cannot read'))
        )
          sameWords++;
        if (!agree)
          wrong.push(
            `${c.what}: XLA ${v.verdict} ${at ?? ''} ${oneLine(v.message, 160)}; ours ${ours ? `${ours.line}:${ours.column} ${ours.code}: ${oneLine(ours.message, 120)}` : 'none'}`,
          );
      });
      return { wrong, sameWords };
    }

    it('xla-layout check refuses it where XLA stops', () => {
      const { wrong, sameWords } = compare(checkErrors(cases.map((c) => c.text)));
      console.log(`      (seed ${seed}: XLA's own words in ${sameWords} of ${cases.length})`);
      assert.deepEqual(wrong, [], `seed ${seed}`);
    });

    it('the language server refuses it where XLA stops (over LSP)', async () => {
      assert.deepEqual(compare(await serverErrors(cases.map((c) => c.text))).wrong, [], `seed ${seed}`);
    });
  },
);
