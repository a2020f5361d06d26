/**
 * Module-level structure and split computation headers, judged by the real XLA: two modules in
 * one file without `// -----` (concatenated dumps), text after the last `}`, `;` after an
 * instruction or an attribute value, an `HloModule` line without a name, a computation without
 * instructions, a module or instruction named like a keyword or an element type, and headers
 * whose `(`, result shape or body `{` are on a line of their own or after a blank line.
 * Hand-written cases, then seeded variants of real dumps (XLA_LENS_SEED). `xla-layout check` and
 * the language server must refuse what XLA refuses, their first error where XLA's stands, and
 * accept what it accepts.
 */
import * as assert from 'node:assert/strict';
import { withoutTokenNames } from '../../core/src/diagnostics';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { acceptedDumpTexts } from './dump-files';
import { judgeOnce, rejects, samePlace, xlaError, xlaPlace, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, firstError, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

const VARIANTS = 40;
const MAX_CHARS = 20_000;

interface Case {
  readonly text: string;
  readonly what: string;
}

const MODULE = 'HloModule m\n\nENTRY %e {\n  ROOT %r = f32[] parameter(0)\n}\n';
const body = (lines: string): string => `HloModule m\n\nENTRY %e {\n${lines}\n}\n`;

const HAND: Case[] = [
  { what: 'two modules', text: `${MODULE}\n${MODULE.replace('m\n', 'n\n')}` },
  { what: 'two module headers', text: 'HloModule m\nHloModule n\n' },
  { what: 'a word after the last }', text: `${MODULE}foo\n` },
  { what: 'two words after the last }', text: `${MODULE}foo bar\n` },
  { what: 'a word after the last }, no line break', text: `${MODULE}foo` },
  { what: 'a %name after the last }', text: `${MODULE}%foo\n` },
  { what: 'a number after the last }', text: `${MODULE}1\n` },
  { what: 'ENTRY after the last }', text: `${MODULE}ENTRY\n` },
  { what: 'ROOT after the last }', text: `${MODULE}ROOT\n` },
  { what: 'a comment after the last }', text: `${MODULE}// done\n` },
  { what: '; after an instruction', text: body('  ROOT %r = f32[] parameter(0);') },
  { what: '; after a blank', text: body('  ROOT %r = f32[] parameter(0) ;') },
  { what: '; mid-computation', text: body('  %a = f32[] parameter(0);\n  ROOT %r = f32[] negate(%a)') },
  {
    what: '; after an attribute value',
    text: body('  ROOT %r = f32[] parameter(0), metadata={op_name="x"};'),
  },
  { what: '; after a sharding', text: body('  ROOT %r = f32[] parameter(0), sharding={replicated};') },
  {
    what: '; after the HloModule line',
    text: MODULE.replace('HloModule m', 'HloModule m, is_scheduled=true;'),
  },
  {
    what: '; after a blank on the HloModule line',
    text: MODULE.replace('HloModule m', 'HloModule m, is_scheduled=true ;'),
  },
  { what: 'HloModule without a name', text: MODULE.replace('HloModule m', 'HloModule') },
  {
    what: 'HloModule without a name, attributes',
    text: MODULE.replace('HloModule m', 'HloModule , is_scheduled=true'),
  },
  { what: 'an empty computation', text: 'HloModule m\n\nENTRY %e {\n}\n' },
  {
    what: 'an empty called computation',
    text: 'HloModule m\n\n%c (x: f32[]) -> f32[] {\n}\n\nENTRY %e {\n  ROOT %r = f32[] parameter(0)\n}\n',
  },
  ...['1m', '1', 'f32', 'ENTRY', 'true', 'nan', '%m', 'a.b-c_1', '__m'].map((name) => ({
    what: `module named ${name}`,
    text: MODULE.replace('HloModule m', `HloModule ${name}`),
  })),
  ...['f32', 'pred', 'token', 's4', '__a', 'tuple', '__xla_a', 'f32.1', 'F32'].map((name) => ({
    what: `instruction named %${name}`,
    text: body(`  %${name} = f32[] parameter(0)\n  ROOT %r = f32[] negate(%${name})`),
  })),
  { what: 'ROOT named %f32', text: body('  ROOT %f32 = f32[] parameter(0)') },
  {
    what: 'instruction named f32 without %',
    text: body('  f32 = f32[] parameter(0)\n  ROOT %r = f32[] negate(f32)'),
  },
  {
    what: 'a header split before its (',
    text:
      'HloModule m\n\n%c\n(x: f32[2]) -> f32[2] {\n  ROOT %x = f32[2]{0} parameter(0)\n}\n\n' +
      'ENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  ROOT %r = f32[2]{0} call(%a), to_apply=%c\n}\n',
  },
  {
    what: "a header's result split after its type",
    text: 'HloModule m\n\nENTRY %e (a: f32[2]) -> f32\n[2] {\n  ROOT %a = f32[2]{0} parameter(0)\n}\n',
  },
  {
    what: 'a blank line before the body {',
    text: 'HloModule m\n\nENTRY %e (a: f32[2]) -> f32[2]\n\n{\n  ROOT %a = f32[2]{0} parameter(0)\n}\n',
  },
  {
    what: 'blank lines before the body {',
    text: 'HloModule m\n\nENTRY %e (a: f32[2]) -> f32[2]\n\n \n\n  {\n  ROOT %a = f32[2]{0} parameter(0)\n}\n',
  },
  ...[
    'ENTRY %e { ROOT %c = f32[] constant(0) }',
    'ENTRY %e { ROOT %c = f32[] constant(0) }\n',
    'ENTRY %e {}\n',
    'ENTRY %e { }\n',
    'ENTRY %e { %a = f32[] parameter(0) ROOT %r = f32[] negate(%a) }\n',
    'ENTRY %e {\n  ROOT %c = f32[] constant(0) }\n',
    'ENTRY %e { ROOT %c = f32[] constant(0)\n}\n',
    'ENTRY %e (a: f32[]) -> f32[] { ROOT %a = f32[] parameter(0) }\n',
    'ENTRY %e { ROOT %c = f32[] constant(0) } foo\n',
    'ENTRY %e { ROOT %c = f32[] constant(0) }}\n',
    'ENTRY %e { ROOT %c = f32[] constant(0) }\nENTRY %f { ROOT %c = f32[] constant(0) }\n',
    'ENTRY %e { ROOT %a = f32[] parametr(0) }\n',
    '%c (x: f32[]) -> f32[] { ROOT %x = f32[] parameter(0) }\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), to_apply=%c\n}\n',
    '%c (x: f32[]) -> f32[] {}\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), to_apply=%c\n}\n',
    '%c (x: f32[]) -> f32[] { ROOT %x = f32[] parameter(0) } ENTRY %e { %a = f32[] parameter(0)\n ROOT %r = f32[] call(%a), to_apply=%c }\n',
  ].map((t) => ({ what: `one line: ${JSON.stringify(t)}`, text: `HloModule m\n\n${t}` })),
  {
    what: 'module and computation on one line',
    text: 'HloModule m ENTRY %e { ROOT %c = f32[] constant(0) }\n',
  },
  ...[
    'HloModule m, is_scheduled=true ENTRY %e { ROOT %c = f32[] constant(0) }\n',
    'HloModule m, is_scheduled=true ENTRY %e {\n  ROOT %c = f32[] constant(0)\n}\n',
    'HloModule m, is_scheduled=true, replica_count=1 ENTRY %e { ROOT %c = f32[] constant(0) }\n',
    'HloModule m, frontend_attributes={a="b"} ENTRY %e { ROOT %c = f32[] constant(0) }\n',
    'HloModule m, is_scheduled=true ENTRY %e { ROOT %c = f32[] constnt(0) }\n',
    'HloModule m, is_scheduled=true, entry_computation_layout={(f32[2]{0})->f32[2]{0}} ENTRY %e { ROOT %a = f32[2]{0} parameter(0) }\n',
    'HloModule m, is_scheduled=true %c (x: f32[]) -> f32[] { ROOT %x = f32[] parameter(0) }\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), to_apply=%c\n}\n',
    'HloModule m, is_scheduled=true %c = f32[] constant(0)\nENTRY %e {\n  ROOT %c = f32[] constant(0)\n}\n',
    'HloModule m, is_scheduled=true}\nENTRY %e {\n  ROOT %c = f32[] constant(0)\n}\n',
    'HloModule m, is_scheduled=true ENTRY\n%e {\n  ROOT %c = f32[] constant(0)\n}\n',
  ].map((text) => ({ what: `after the HloModule line's attributes: ${JSON.stringify(text)}`, text })),
  ...[
    '  %a = f32[] constant(0) %b = f32[] negate(%a)\n  ROOT %r = f32[] add(%a, %b)',
    '  %a = f32[] constant(0) ROOT %b = f32[] negate(%a)',
    '  %a = f32[] constant(0) %b = f32[] negte(%a)\n  ROOT %r = f32[] add(%a, %b)',
    '  %a = f32[2]{0} parameter(0), metadata={op_name="x"} %b = f32[2]{0} negate(%a)\n  ROOT %r = f32[2] add(%a, %b)',
    '  %a = f32[] constant(0), sharding={replicated} %b = f32[] negate(%a), sharding={replicated} %c = f32[] negate(%b)\n  ROOT %r = f32[] add(%a, %c)',
    '  %a = f32[] constant(0) %b=f32[] negate(%a), metadata={op_name="y"}\n  ROOT %r = f32[] add(%a, %b)',
    '  %a = f32[4]{0} parameter(0) %r = f32[] reduce(%a, %a), dimensions={0}\n  ROOT %z = f32[] negate(%r)',
    '  %a = f32[4]{0} parameter(0) %z = f32[] constant(0) %r = f32[] reduce(%a, %z)\n  ROOT %t = f32[] negate(%r)',
    '  %a = f32[] constant(0) %b = f32[] negate(%a) ROOT %r = f32[] add(%a, %b) }\nENTRY %f { ROOT %c = f32[] constant(0) }',
  ].map((lines) => ({ what: `a second instruction on a line: ${JSON.stringify(lines)}`, text: body(lines) })),
  ...['// c', '/* c */', '\n// c\n', '/* a\n b */', '// c\n/* d */'].map((c) => ({
    what: `${JSON.stringify(c)} between a header and its {`,
    text: `HloModule m\n\nENTRY %e (a: f32[]) -> f32[]\n${c}\n{\n  ROOT %a = f32[] parameter(0)\n}\n`,
  })),
  {
    what: 'a comment between a header name and its (',
    text:
      'HloModule m\n\n%c\n// c\n(x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\n' +
      'ENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), to_apply=%c\n}\n',
  },
  ...[
    '%c',
    'c',
    '{}',
    '{ }',
    '{\n}',
    '{%c}',
    '{ROOT}',
    '{ROOT %x}',
    '1',
    '"c"',
    '(%c)',
    '%',
    'ENTRY',
    'f32',
    'true',
    'replicated',
    '',
    ' // x',
  ].map((v) => ({
    what: `to_apply=${v}`,
    text: `HloModule m\n\n%c (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), to_apply=${v}\n}\n`,
  })),
  ...['{%b}', '{%b,}', '{%b %b}', '%b', '{1}', '{f32}', '{,%b}', '{{}}', '{(%b)}'].map((v) => ({
    what: `branch_computations=${v}`,
    text: `HloModule m\n\n%b (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  %i = s32[] constant(0)\n  ROOT %r = f32[] conditional(%i, %a), branch_computations=${v}\n}\n`,
  })),
  ...['{}', '{%c}', '%c', '{1}'].map((v) => ({
    what: `called_computations=${v}`,
    text: `HloModule m\n\n%c (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] custom-call(%a), custom_call_target="x", called_computations=${v}\n}\n`,
  })),
  {
    what: 'reduce to_apply={}',
    text: 'HloModule m\n\nENTRY %e {\n  %a = f32[4]{0} parameter(0)\n  %z = f32[] constant(0)\n  ROOT %r = f32[] reduce(%a, %z), dimensions={0}, to_apply={}\n}\n',
  },
];

const TYPES = ['f32', 'pred', 's32', 'bf16', 'token'];

/** A real dump changed in one of the ways of {@link HAND}. */
function variant(rand: () => number, texts: readonly string[]): Case | undefined {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const text = pick(texts);
  const lines = text.split('\n');
  switch (Math.floor(rand() * 5)) {
    case 0:
      return { what: 'two dumps concatenated', text: text + pick(texts) };
    case 1: {
      const junk = pick(['foo', 'x y', '1', 'ROOT', 'ENTRY', '%tail', ');']);
      return { what: `${JSON.stringify(junk)} after the last }`, text: `${text.trimEnd()}\n${junk}\n` };
    }
    case 2: {
      const at = lines.map((l, i) => (/^\s+(ROOT )?%\S+ = .*\)$/.test(l) ? i : -1)).filter((i) => i >= 0);
      if (at.length === 0) return undefined;
      const i = pick(at);
      lines[i] += ';';
      return { what: `; after line ${i + 1}`, text: lines.join('\n') };
    }
    case 3: {
      const names = [...text.matchAll(/^\s+(?:ROOT )?%([\w.-]+) = /gm)].map((m) => m[1]);
      if (names.length === 0) return undefined;
      const name = pick(names);
      const type = pick(TYPES);
      const renamed = text.replace(
        new RegExp(`%${name.replace(/[.-]/g, '\\$&')}(?![\\w.-])`, 'g'),
        `%${type}`,
      );
      return { what: `%${name} renamed %${type}`, text: renamed };
    }
    default: {
      const at = lines.map((l, i) => (/^(ENTRY )?%\S+ .*\S \{$/.test(l) ? i : -1)).filter((i) => i >= 0);
      if (at.length === 0) return undefined;
      const i = pick(at);
      const split = pick(['\n\n{', '\n\n\n  {', '\n{']);
      lines[i] = lines[i].slice(0, -2) + split;
      return { what: `header of line ${i + 1} split before its {`, text: lines.join('\n') };
    }
  }
}

describeWithXla('the real XLA judges module structure and split computation headers', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const cases: Case[] = [...HAND];
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    const texts = await acceptedDumpTexts(xla, MAX_CHARS);
    const rand = mulberry32(seed);
    for (let tries = 0; cases.length < HAND.length + VARIANTS && tries < VARIANTS * 10; tries++) {
      const c = variant(rand, texts);
      if (c) cases.push(c);
    }
    verdicts = await judgeOnce(
      xla,
      cases.map((c) => c.text),
    );
    buildCli();
  });

  /** The cases where we and XLA disagree (verdict, or the place of the first error), and how many have XLA's words. */
  function compare(errors: readonly OurError[][]): { wrong: string[]; sameWords: number; refused: number } {
    const wrong: string[] = [];
    let sameWords = 0;
    let refused = 0;
    cases.forEach((c, i) => {
      const v = verdicts[i];
      const ours = firstError(errors[i]);
      const at = xlaPlace(v);
      const said = xlaError(v);
      if (rejects(v)) refused++;
      const agree = rejects(v)
        ? ours !== undefined && (at === undefined || samePlace(at, ours.line, ours.column))
        : ours === undefined;
      // XLA's token names (`kLbrace`) are shown in plain words (`{`).
      if (ours && said !== undefined && ours.message.endsWith(`XLA: ${withoutTokenNames(said)}`)) sameWords++;
      if (!agree)
        wrong.push(
          `${c.what}: XLA ${v.verdict} ${at ?? ''} ${oneLine(v.message, 160)}; ours ${ours ? `${ours.line}:${ours.column} ${ours.code}: ${oneLine(ours.message, 120)}` : 'none'}`,
        );
    });
    return { wrong, sameWords, refused };
  }

  it('xla-layout check agrees with XLA, its first error where XLA stops, in its words', () => {
    const { wrong, sameWords, refused } = compare(checkErrors(cases.map((c) => c.text)));
    console.log(`      (seed ${seed}: ${refused} of ${cases.length} refused, XLA's words in ${sameWords})`);
    assert.deepEqual(wrong, [], `seed ${seed}`);
    assert.equal(sameWords, refused, `seed ${seed}: XLA's own words on every refusal`);
  });

  it('the language server agrees with XLA (over LSP)', async () => {
    assert.deepEqual(compare(await serverErrors(cases.map((c) => c.text))).wrong, [], `seed ${seed}`);
  });
});
