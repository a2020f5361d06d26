/**
 * A blank, tab or comment put before the `=` of a random attribute (`dimensions =`, `op_name =`
 * inside metadata, `size =` inside a window, `devices =` inside a sharding,
 * `entry_computation_layout =` in the header) of real HLO XLA accepts, judged by the real XLA: its
 * lexer reads an attribute name only with its `=` (`name=` is one token), so it refuses each such
 * text with "expects attribute name" (in a sharding: "unexpected token"). `xla-layout check` and the language server
 * must refuse it too, their first error where XLA stops. Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { acceptedDumpTexts } from './dump-files';
import { judgeOnce, rejects, xlaPlace, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, firstError, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

const TEXTS = 60;
const MAX_CHARS = 20_000;
const GAPS = [' ', '\t', ' /* c */ ', '  '];

interface Spaced {
  readonly text: string;
  readonly what: string;
}

/** `text` with a gap before the `=` of one attribute (`, key=` or a metadata `key=`), or undefined. */
function spaced(rand: () => number, text: string): Spaced | undefined {
  // Outside strings: an attribute's key after `, `, metadata's first key, or a key inside a
  // window, sharding or frontend_attributes value (not in a value nested in it).
  // Half the time one inside such a value, when the text has one.
  const outsideStrings = (m: RegExpMatchArray) => (text.slice(0, m.index).match(/"/g)?.length ?? 0) % 2 === 0;
  const top = [...text.matchAll(/(?<=, |metadata=\{)([a-z_][a-z0-9_-]*)=(?!=)/g)].filter(outsideStrings);
  const inner = [
    ...text.matchAll(
      /(?<=(?:window|sharding|frontend_attributes)=\{\{?[^{}"]*?)(?<![\w.-])([a-z_][a-z0-9_]*)=(?!=)/g,
    ),
  ].filter(outsideStrings);
  const keys = inner.length > 0 && (top.length === 0 || rand() < 0.5) ? inner : top;
  if (keys.length === 0) return undefined;
  const m = keys[Math.floor(rand() * keys.length)];
  const at = m.index + m[1].length;
  const gap = GAPS[Math.floor(rand() * GAPS.length)];
  return {
    text: text.slice(0, at) + gap + text.slice(at),
    what: `${JSON.stringify(gap)} before the = of ${m[1]}`,
  };
}

describeWithXla('the real XLA judges a blank before an attribute’s =', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const cases: Spaced[] = [];
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    const texts = await acceptedDumpTexts(xla, MAX_CHARS);
    const rand = mulberry32(seed);
    while (cases.length < TEXTS) {
      const c = spaced(rand, texts[Math.floor(rand() * texts.length)]);
      if (c) cases.push(c);
    }
    verdicts = await judgeOnce(
      xla,
      cases.map((c) => c.text),
    );
    buildCli();
  });

  function compare(errors: readonly OurError[][]): string[] {
    const wrong: string[] = [];
    cases.forEach((c, i) => {
      const v = verdicts[i];
      const ours = firstError(errors[i]);
      const place = ours ? `${ours.line}:${ours.column}` : undefined;
      // XLA's column for the header's first attribute is one before the name; the line decides there.
      const xlaAt = xlaPlace(v);
      const agree = rejects(v)
        ? place !== undefined &&
          (xlaAt === undefined || xlaAt === place || (xlaAt.startsWith('1:') && place.startsWith('1:')))
        : place === undefined;
      if (!agree)
        wrong.push(
          `${c.what}: XLA ${v.verdict} ${xlaAt ?? ''} ${oneLine(v.message, 160)}; ours ${place ?? 'none'} ${ours ? `${ours.code}: ${oneLine(ours.message, 120)}` : ''}`,
        );
    });
    return wrong;
  }

  it('XLA refuses every such text', () => {
    assert.deepEqual(
      cases.filter((_, i) => !rejects(verdicts[i])).map((c) => c.what),
      [],
      `seed ${seed}`,
    );
  });

  it('xla-layout check refuses it where XLA stops', () => {
    assert.deepEqual(compare(checkErrors(cases.map((c) => c.text))), [], `seed ${seed}`);
  });

  it('the language server refuses it where XLA stops (over LSP)', async () => {
    assert.deepEqual(compare(await serverErrors(cases.map((c) => c.text))), [], `seed ${seed}`);
  });
});
