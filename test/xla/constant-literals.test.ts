/**
 * Constants of random shapes and element types whose literal is right, then edited the ways a
 * literal goes wrong (a value dropped or added, a `{` or `}` more or less, the element type changed,
 * a value XLA does not read: `NaN`, `0x10`, `+1`, `.5`, `true` in an s32, `1e309`, 70000 in f16),
 * judged by the real XLA. `xla-layout check` and the language server must refuse each text XLA
 * refuses, first where XLA's first error stands and with its message, and accept the rest; a
 * constant XLA aborts on must be an error with the text XLA dies with. Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { judgeOnce, rejects, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, firstError, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

const CASES = 500;
const TYPES = [
  'pred',
  's2',
  'u4',
  's8',
  'u8',
  's32',
  'u32',
  's64',
  'u64',
  'f16',
  'bf16',
  'f32',
  'f64',
  'f8e5m2',
  'f8e4m3fn',
  'f8e4m3b11fnuz',
  'f8e8m0fnu',
  'f4e2m1fn',
  'c64',
  'c128',
];
/** Values and marks an edit puts in a literal. */
const POOL = [
  '1.5',
  '-inf',
  'inf',
  'nan',
  '-nan',
  'NaN',
  'Inf',
  'true',
  'false',
  '1e309',
  '70000',
  '0x10',
  '+1',
  '.5',
  '5.',
  '-0',
  '300',
  '-1',
  '1e39',
  'nan(0x1)',
  'nan(0x400)',
  '(1, 2)',
  '(1e39, 0)',
  '{',
  '}',
  ',',
  '...',
  '1e',
  '0xff',
  '"s"',
  '%a',
  '99999999999999999999',
  '18446744073709551615',
  '3.4e38',
  '464',
  '65520',
  '-65504',
  '0',
  '1e-50',
  'inf(1)',
  '(1)',
  '(1, 2, 3)',
  ')',
];

interface Case {
  readonly line: string;
  readonly text: string;
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

function value(rand: () => number, type: string): string {
  if (type === 'pred') return pick(rand, ['true', 'false', '0', '1']);
  if (type.startsWith('c')) return `(${Math.floor(rand() * 11) - 5}, ${Math.floor(rand() * 11) - 5})`;
  if (/^[su]/.test(type)) return String(Math.floor(rand() * 4));
  return pick(rand, ['1', '2.5', '-0.5', '3']);
}

function literal(rand: () => number, type: string, dims: readonly number[]): string {
  if (dims.length === 0) return value(rand, type);
  return `{${Array.from({ length: dims[0] }, () => literal(rand, type, dims.slice(1))).join(', ')}}`;
}

/** A constant with a right literal, edited 0-2 times. */
function constantCase(rand: () => number): Case {
  let type = pick(rand, TYPES);
  const rank = pick(rand, [0, 0, 1, 1, 2, 3]);
  const dims = Array.from({ length: rank }, () => Math.floor(rand() * 4));
  const tokens = literal(rand, type, dims).match(/\([^()]*\)|[{},]|[^{},\s]+/g) ?? [];
  for (let n = pick(rand, [0, 1, 1, 1, 2]); n > 0; n--) {
    const k = Math.floor(rand() * Math.max(1, tokens.length));
    const r = rand();
    if (r < 0.35 && tokens.length > 0) tokens[k] = pick(rand, POOL);
    else if (r < 0.6) tokens.splice(k, 0, pick(rand, [...POOL, value(rand, type)]));
    else if (r < 0.8 && tokens.length > 0) tokens.splice(k, 1);
    else type = pick(rand, TYPES);
  }
  let body = '';
  for (const t of tokens)
    body += t === '{' || t === '}' || body === '' || body.endsWith('{') ? t : t === ',' ? t : ` ${t}`;
  const layout = rank > 0 ? `{${dims.map((_, i) => rank - 1 - i).join(',')}}` : '';
  const line = `${type}[${dims.join(',')}]${layout} constant(${body})`;
  return { line, text: `HloModule m\n\nENTRY %e {\n  ROOT %c = ${line}\n}\n` };
}

/** XLA's words in one of our messages: what follows "XLA:" (or all of it). */
function xlaPart(message: string): string {
  const at = message.lastIndexOf(' — XLA: ');
  return at < 0 ? message : message.slice(at + ' — XLA: '.length);
}

describeWithXla('the real XLA judges constant literals', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const cases: Case[] = [];
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    const rand = mulberry32(seed);
    while (cases.length < CASES) cases.push(constantCase(rand));
    verdicts = await judgeOnce(
      xla,
      cases.map((c) => c.text),
    );
    buildCli();
  });

  /** Each case on which `errors` disagree with XLA: a missed or false error, another place or message. */
  function compare(errors: readonly OurError[][]): string[] {
    const wrong: string[] = [];
    cases.forEach((c, i) => {
      const v = verdicts[i];
      const ours = firstError(errors[i]);
      // Tuple constants fail the MLIR import for reasons of its own (not the parser's): accepted here.
      const refused = rejects(v) && (v.stage === 'parse' || v.stage === 'crash');
      const at = /was parsing (\d+):(\d+)/.exec(v.message);
      let agree: boolean;
      if (!refused) agree = ours === undefined;
      else if (ours === undefined) agree = false;
      else if (v.stage === 'crash') agree = v.message.includes(xlaPart(ours.message));
      else
        agree =
          at?.[0] === `was parsing ${ours.line}:${ours.column}` && v.message.includes(xlaPart(ours.message));
      if (!agree)
        wrong.push(
          `${c.line}: XLA ${v.verdict} ${oneLine(v.message, 200)}; ours ${ours ? `${ours.line}:${ours.column} ${ours.code}: ${oneLine(ours.message, 160)}` : 'none'}`,
        );
    });
    return wrong;
  }

  it('XLA refuses a good share of the edited literals, and aborts on some', () => {
    const refused = verdicts.filter(rejects).length;
    assert.ok(refused > CASES / 3 && refused < CASES, `seed ${seed}: XLA refused ${refused} of ${CASES}`);
    assert.ok(
      verdicts.some((v) => v.stage === 'crash'),
      `seed ${seed}: no crash among the cases`,
    );
  });

  it('xla-layout check refuses what XLA refuses, where and as XLA does, and nothing else', () => {
    assert.deepEqual(compare(checkErrors(cases.map((c) => c.text))), [], `seed ${seed}`);
  });

  it('the language server does the same (over LSP)', async () => {
    assert.deepEqual(compare(await serverErrors(cases.map((c) => c.text))), [], `seed ${seed}`);
  });
});
