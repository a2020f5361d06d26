/**
 * Attribute lists judged by the real XLA: those of real HLO XLA accepts, edited as people edit
 * dumps (an attribute repeated, one moved to an instruction of another opcode, one deleted: a
 * required one makes XLA say `attribute <name> is expected but not seen`), and hand-written ones
 * (a missing attribute with the next statement after it, a broadcast's and a conditional's
 * attributes by their first operand). `xla-layout check` and the language server must refuse what
 * XLA refuses, where XLA stops and with XLA's text, and accept the rest. Also compares the
 * attribute table with XLA's own list for every opcode it checks. Seeded (XLA_LENS_SEED).
 */
import * as assert from 'node:assert/strict';
import { HLO_OPCODES, parseStatements, splitStatements } from '../../core/src';
import { attributeRules } from '../../core/src/hlo/attribute-table';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { acceptedDumpTexts } from './dump-files';
import { judgeOnce, rejects, samePlace, xlaError, xlaPlace, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, firstError, type OurError } from './our-verdicts';
import { oneLine, runSeed } from './tally';

const TEXTS = 90;
const MAX_CHARS = 20_000;

interface Edited {
  readonly text: string;
  readonly what: string;
}

/** One attribute of an instruction: `, key=value` from `start` to `end`, and the opcode. */
interface Attr {
  readonly opcode: string;
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

function attributesIn(text: string): Attr[] {
  const out: Attr[] = [];
  for (const st of parseStatements(text, splitStatements(text))) {
    if (st.kind !== 'instruction' || !st.opcode) continue;
    for (const a of st.attributes) {
      const comma = text.lastIndexOf(',', a.key.range.start);
      out.push({ opcode: st.opcode.name, key: a.key.name, start: comma, end: a.valueRange.end });
    }
  }
  return out;
}

/** `text` with one attribute repeated, moved to another instruction, or deleted. */
function edit(rand: () => number, text: string): Edited | undefined {
  const attrs = attributesIn(text);
  if (attrs.length === 0) return undefined;
  const pick = (list: readonly Attr[]) => list[Math.floor(rand() * list.length)];
  const a = pick(attrs);
  const piece = text.slice(a.start, a.end);
  switch (Math.floor(rand() * 3)) {
    case 0:
      return {
        text: text.slice(0, a.end) + piece + text.slice(a.end),
        what: `${a.key} repeated on ${a.opcode}`,
      };
    case 1: {
      const others = attrs.filter((b) => b.opcode !== a.opcode);
      if (others.length === 0) return undefined;
      const b = pick(others);
      const t = text.slice(0, b.end) + piece + text.slice(b.end);
      const at = b.end <= a.start ? piece.length : 0;
      return {
        text: t.slice(0, a.start + at) + t.slice(a.end + at),
        what: `${a.key} moved from ${a.opcode} to ${b.opcode}`,
      };
    }
    default: {
      // Deleting a required one is the interesting case: pick one half the time.
      const required = attrs.filter((b) => attributeRules(b.opcode)?.required.includes(b.key));
      const d = required.length > 0 && rand() < 0.5 ? pick(required) : a;
      return { text: text.slice(0, d.start) + text.slice(d.end), what: `${d.key} deleted from ${d.opcode}` };
    }
  }
}

const F = '%f (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\n';
const entry = (lines: string): string => `HloModule m\n\n${F}ENTRY %e {\n${lines}\n}\n`;
const V = '  %a = f32[2]{0} parameter(0)\n';
const cond = (type: string, attributes: string): string =>
  entry(
    `  %p = ${type} parameter(0)\n  %a = f32[] parameter(1)\n  ROOT %c = f32[] conditional(%p, %a, %a)${attributes}`,
  );

/**
 * Hand-written cases: a required attribute missing with nothing after the `)` (XLA names the next
 * token), and the attributes of a broadcast and a conditional, which depend on the first operand.
 */
const HAND: Edited[] = [
  {
    what: 'missing, next instruction',
    text: entry(`${V}  %b = f32[2]{0} transpose(%a)\n  ROOT %r = f32[2]{0} negate(%b)`),
  },
  { what: 'missing, then }', text: entry(`${V}  ROOT %b = f32[2]{0} transpose(%a)`) },
  {
    what: 'missing, comments after',
    text: entry(`${V}  ROOT %b = f32[2]{0} transpose(%a) /* c */ // x\n\n  // y`),
  },
  {
    what: 'missing, end of text',
    text: `HloModule m\n\nENTRY %e {\n${V}  ROOT %b = f32[2]{0} transpose(%a)`,
  },
  { what: 'missing, then ;', text: entry(`${V}  ROOT %b = f32[2]{0} transpose(%a);`) },
  {
    what: 'missing, second instruction on the line',
    text: entry(`${V}  %b = f32[2]{0} transpose(%a) ROOT %r = f32[2]{0} negate(%b)`),
  },
  { what: 'broadcast of a vector', text: entry(`${V}  ROOT %b = f32[3,2]{1,0} broadcast(%a)`) },
  {
    what: 'broadcast of a vector, metadata',
    text: entry(`${V}  ROOT %b = f32[3,2]{1,0} broadcast(%a), metadata={}`),
  },
  {
    what: 'broadcast of a scalar',
    text: entry('  %a = f32[] parameter(0)\n  ROOT %b = f32[3]{0} broadcast(%a)'),
  },
  {
    what: 'broadcast of a tuple',
    text: entry('  %a = (f32[]) parameter(0)\n  ROOT %b = f32[3]{0} broadcast(%a)'),
  },
  { what: 'conditional on pred', text: cond('pred[]', ', true_computation=%f, false_computation=%f') },
  { what: 'conditional on s32', text: cond('s32[]', ', branch_computations={%f, %f}') },
  { what: 'conditional on pred, bare', text: cond('pred[]', '') },
  { what: 'conditional on s32, bare', text: cond('s32[]', '') },
  { what: 'conditional on pred, branches', text: cond('pred[]', ', branch_computations={%f, %f}') },
  {
    what: 'conditional on s32, true/false',
    text: cond('s32[]', ', true_computation=%f, false_computation=%f'),
  },
  {
    what: 'conditional, metadata twice',
    text: cond('pred[]', ', true_computation=%f, false_computation=%f, metadata={}, metadata={}'),
  },
  { what: 'conditional on pred[2]', text: cond('pred[2]{0}', ', true_computation=%f, false_computation=%f') },
  { what: 'conditional on f32', text: cond('f32[]', ', true_computation=%f, false_computation=%f') },
  { what: 'conditional on a tuple, bare', text: cond('(pred[])', '') },
];

describeWithXla('the real XLA judges edited attribute lists', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const cases: Edited[] = [...HAND];
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    const texts = await acceptedDumpTexts(xla, MAX_CHARS);
    const rand = mulberry32(seed);
    while (cases.length < HAND.length + TEXTS) {
      const c = edit(rand, texts[Math.floor(rand() * texts.length)]);
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
      const xlaAt = xlaPlace(v);
      const said = xlaError(v);
      const atXlaPlace =
        xlaAt === undefined || (ours !== undefined && samePlace(xlaAt, ours.line, ours.column));
      const agree = rejects(v)
        ? ours !== undefined && atXlaPlace && (said === undefined || ours.message.endsWith(`XLA: ${said}`))
        : ours === undefined;
      if (!agree)
        wrong.push(
          `${c.what}: XLA ${v.verdict} ${xlaAt ?? ''} ${oneLine(v.message, 160)}; ours ${place ?? 'none'} ${ours ? `${ours.code}: ${oneLine(ours.message, 160)}` : ''}`,
        );
    });
    return wrong;
  }

  it('XLA refuses some of the edits and accepts others', () => {
    const refused = verdicts.slice(HAND.length).filter(rejects).length;
    assert.ok(refused > TEXTS / 4 && refused < TEXTS, `seed ${seed}: ${refused} of ${TEXTS} refused`);
  });

  it('xla-layout check refuses what XLA refuses, where and as XLA says', () => {
    assert.deepEqual(compare(checkErrors(cases.map((c) => c.text))), [], `seed ${seed}`);
  });

  it('the language server refuses it too (over LSP)', async () => {
    assert.deepEqual(compare(await serverErrors(cases.map((c) => c.text))), [], `seed ${seed}`);
  });
});

describeWithXla("the attribute table holds XLA's list for each opcode", function (xla) {
  this.timeout(300_000);

  it('names, for a made-up attribute, exactly the attributes XLA lists', async () => {
    const head =
      'HloModule m\n\n%c (x: f32[], y: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n  ROOT %s = f32[] add(%x, %y)\n}\n\n';
    // Operand counts that get an opcode's parser as far as its attributes.
    const texts: string[] = [];
    const asked: string[] = [];
    for (const { name } of HLO_OPCODES) {
      const rules = attributeRules(name);
      if (!rules || name === 'tuple' || name.startsWith('async-')) continue;
      for (let n = 0; n <= 5; n++) {
        const params = Array.from({ length: n }, (_, i) => `  %p${i} = f32[] parameter(${i})\n`).join('');
        const operands =
          name === 'parameter'
            ? '9'
            : name === 'constant'
              ? '0'
              : Array.from({ length: n }, (_, i) => `%p${i}`).join(', ');
        texts.push(`${head}ENTRY %e {\n${params}  ROOT %r = f32[] ${name}(${operands}), zzz_made_up=1\n}\n`);
        asked.push(`${name}/${rules.listed}`);
      }
    }
    const verdicts = await judgeOnce(xla, texts);
    const listed = new Map<string, string>();
    verdicts.forEach((v, i) => {
      const m = /unexpected attribute "zzz_made_up"\. Allowed attributes: (.*)/.exec(v.message);
      if (m) listed.set(asked[i].split('/')[0], m[1]);
    });
    const wrong: string[] = [];
    for (const { name } of HLO_OPCODES) {
      const rules = attributeRules(name);
      if (!rules || name === 'tuple' || name.startsWith('async-')) continue;
      if (listed.get(name) !== rules.listed)
        wrong.push(`${name}: XLA ${listed.get(name) ?? 'none'}; ours ${rules.listed}`);
    }
    assert.deepEqual(wrong, []);
  });
});
