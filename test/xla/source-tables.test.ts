/**
 * Real dumps' source tables (FileNames, FunctionNames, FileLocations, StackFrames) edited as
 * trimming a dump edits them, judged by the real XLA: one table deleted, two swapped, all four
 * moved below the computations, a field deleted from an entry, given twice, misspelt, or its value
 * made no integer. XLA refuses each; `xla-layout check` and the language server must refuse it
 * too, their first error where XLA's stands and with its words. Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { acceptedDumpTexts } from './dump-files';
import { judgeOnce, rejects, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, firstError, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

const EDITS = 60;
const MAX_CHARS = 20_000;
const TABLES = ['FileNames', 'FunctionNames', 'FileLocations', 'StackFrames'];

interface Edit {
  readonly text: string;
  readonly what: string;
}

/** The line ranges [start, end) of the four tables in `lines`, in order, or undefined when a dump has none. */
function tableLines(lines: readonly string[]): [number, number][] | undefined {
  const starts = TABLES.map((t) => lines.indexOf(t));
  if (starts.some((s) => s < 0)) return undefined;
  return starts.map((s, i) => {
    let e = s + 1;
    while (e < lines.length && /^-?\d/.test(lines[e]) && (i < 3 ? e !== starts[i + 1] : true)) e++;
    return [s, e];
  });
}

function edit(rand: () => number, text: string): Edit | undefined {
  const lines = text.split('\n');
  const tables = tableLines(lines);
  if (!tables) return undefined;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const join = (ls: readonly string[]) => ls.join('\n');
  const table = (i: number) => lines.slice(tables[i][0], tables[i][1]);
  const [first, last] = [tables[0][0], tables[3][1]];
  switch (Math.floor(rand() * 4)) {
    case 0: {
      const i = Math.floor(rand() * 4);
      return {
        text: join([...lines.slice(0, tables[i][0]), ...lines.slice(tables[i][1])]),
        what: `${TABLES[i]} deleted`,
      };
    }
    case 1: {
      const i = Math.floor(rand() * 3);
      const order = [0, 1, 2, 3];
      [order[i], order[i + 1]] = [order[i + 1], order[i]];
      return {
        text: join([...lines.slice(0, first), ...order.flatMap(table), ...lines.slice(last)]),
        what: `${TABLES[i]} and ${TABLES[i + 1]} swapped`,
      };
    }
    case 2:
      return {
        text: join([...lines.slice(0, first), ...lines.slice(last), ...lines.slice(first, last)]),
        what: 'tables moved after the computations',
      };
    default: {
      const entries = [2, 3].flatMap((i) =>
        Array.from({ length: tables[i][1] - tables[i][0] - 1 }, (_, k) => tables[i][0] + 1 + k),
      );
      if (entries.length === 0) return undefined;
      const at = pick(entries);
      const fields = [...lines[at].matchAll(/(\w+)=(-?\d+)/g)];
      const f = pick(fields);
      const how = Math.floor(rand() * 4);
      const changed =
        how === 0
          ? lines[at].replace(` ${f[0]}`, '').replace(`{${f[0]} `, '{')
          : how === 1
            ? lines[at].replace('}', ` ${f[0]}}`)
            : how === 2
              ? lines[at].replace(`${f[1]}=`, `${f[1]}x=`)
              : lines[at].replace(f[0], `${f[1]}=1.5`);
      const what = ['deleted', 'given twice', 'misspelt', 'made 1.5'][how];
      return {
        text: join([...lines.slice(0, at), changed, ...lines.slice(at + 1)]),
        what: `${f[1]} ${what} in line ${at + 1}`,
      };
    }
  }
}

describeWithXla('the real XLA judges source tables trimmed or moved', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const edits: Edit[] = [];
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    const texts = (await acceptedDumpTexts(xla, MAX_CHARS)).filter((t) => t.includes('\nFileNames\n'));
    const rand = mulberry32(seed);
    while (edits.length < EDITS) {
      const e = edit(rand, texts[Math.floor(rand() * texts.length)]);
      if (e) edits.push(e);
    }
    verdicts = await judgeOnce(
      xla,
      edits.map((e) => e.text),
    );
    buildCli();
  });

  function compare(errors: readonly OurError[][]): string[] {
    const wrong: string[] = [];
    edits.forEach((e, i) => {
      const v = verdicts[i];
      const ours = firstError(errors[i]);
      const at = /was parsing (\d+):(\d+): error: (.*)/.exec(v.message);
      // Two fields missing from one entry: XLA names whichever its hash map gives first.
      const words = at?.[3].replace(/^sub-attribute \w+ is/, 'sub-attribute X is');
      const mine = ours?.message
        .slice(ours.message.lastIndexOf('XLA: ') + 5)
        .replace(/^sub-attribute \w+ is/, 'sub-attribute X is');
      const agree = rejects(v)
        ? ours !== undefined &&
          at?.[1] === String(ours.line) &&
          at[2] === String(ours.column) &&
          words === mine
        : ours === undefined;
      if (!agree)
        wrong.push(
          `${e.what}: XLA ${v.verdict} ${oneLine(v.message, 200)}; ours ${ours ? `${ours.line}:${ours.column} ${ours.code}: ${oneLine(ours.message, 160)}` : 'none'}`,
        );
    });
    return wrong;
  }

  it('XLA refuses nearly every edit', () => {
    const refused = verdicts.filter(rejects).length;
    assert.ok(refused >= EDITS * 0.8, `seed ${seed}: XLA refused only ${refused} of ${EDITS}`);
  });

  it('xla-layout check refuses each as and where XLA does', () => {
    assert.deepEqual(compare(checkErrors(edits.map((e) => e.text))), [], `seed ${seed}`);
  });

  it('the language server does the same (over LSP)', async () => {
    assert.deepEqual(compare(await serverErrors(edits.map((e) => e.text))), [], `seed ${seed}`);
  });
});
