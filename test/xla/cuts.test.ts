/**
 * Real HLO cut as pastes and edits cut it, judged by the real XLA: the text truncated after a line,
 * a computation's closing `}` line deleted, a computation's header line deleted. XLA refuses each
 * (or, rarely, accepts a cut that happens to leave a whole module); `xla-layout check` must agree,
 * its first error must stand where XLA stops (the line and column of "was parsing L:C") and quote
 * XLA's error. Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { acceptedDumpTexts } from './dump-files';
import { judgeOnce, rejects, xlaError, xlaPlace, type XlaVerdict } from './oracle';
import { checkErrors, firstError, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

const CUTS = 90;
/** Files larger than this are not cut: XLA takes longer on them and they add nothing new. */
const MAX_CHARS = 20_000;

interface Cut {
  readonly text: string;
  readonly what: string;
}

/** One cut of `text`: truncated after a line, or a `}` line or a header line deleted. */
function cut(rand: () => number, text: string): Cut | undefined {
  const lines = text.split('\n');
  const kind = Math.floor(rand() * 3);
  const pickLine = (test: (line: string) => boolean): number | undefined => {
    const candidates = lines.flatMap((l, i) => (test(l) ? [i] : []));
    return candidates.length === 0 ? undefined : candidates[Math.floor(rand() * candidates.length)];
  };
  if (kind === 0) {
    const at = 1 + Math.floor(rand() * (lines.length - 2));
    return { text: `${lines.slice(0, at).join('\n')}\n`, what: `truncated after line ${at}` };
  }
  const at = pickLine(kind === 1 ? (l) => l.trim() === '}' : (l) => /\{\s*$/.test(l) && /->/.test(l));
  if (at === undefined) return undefined;
  return {
    text: [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'),
    what: `deleted line ${at + 1} (${kind === 1 ? '}' : 'header'})`,
  };
}

describeWithXla('the real XLA judges real HLO cut short or missing a line', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const cuts: Cut[] = [];
  let verdicts: XlaVerdict[] = [];
  let errors: OurError[][] = [];

  before(async () => {
    const texts = await acceptedDumpTexts(xla, MAX_CHARS);
    const rand = mulberry32(seed);
    while (cuts.length < CUTS) {
      const c = cut(rand, texts[Math.floor(rand() * texts.length)]);
      if (c) cuts.push(c);
    }
    verdicts = await judgeOnce(
      xla,
      cuts.map((c) => c.text),
    );
    buildCli();
    errors = checkErrors(cuts.map((c) => c.text));
  });

  it('refuses a cut where XLA does, and its first error stands where XLA stops, quoting XLA', () => {
    const wrong: string[] = [];
    let refused = 0;
    cuts.forEach((c, i) => {
      const v = verdicts[i];
      const ours = firstError(errors[i]);
      const place = ours ? `${ours.line}:${ours.column}` : undefined;
      if (rejects(v)) refused++;
      const quoted = xlaError(v);
      const agree = rejects(v)
        ? place !== undefined &&
          (xlaPlace(v) ?? place) === place &&
          (quoted === undefined || ours?.message.endsWith(`XLA: ${quoted}`) === true)
        : place === undefined;
      if (!agree)
        wrong.push(
          `${c.what}: XLA ${v.verdict} ${xlaPlace(v) ?? ''} ${oneLine(v.message, 160)}; ours ${place ?? 'none'} ${ours ? `${ours.code}: ${oneLine(ours.message, 120)}` : ''}`,
        );
    });
    assert.ok(refused >= CUTS / 2, `seed ${seed}: XLA refused only ${refused} of ${CUTS} cuts`);
    assert.deepEqual(wrong, [], `seed ${seed}`);
  });
});
