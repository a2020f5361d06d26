/**
 * Computations written in place on one line (`to_apply={ %p = ... ROOT %n = ... }`), which XLA
 * reads as it reads them over several lines (a line break is a blank to it), and the computation
 * headers split over lines that XLA accepts. The real XLA must accept each text, and
 * `xla-layout check` and the language server report no error on it.
 */
import * as assert from 'node:assert/strict';
import { buildCli } from '../cli/run-cli';
import { describeWithXla } from '../support/real-xla';
import { judgeOnce, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, type OurError } from './our-verdicts';
import { oneLine } from './tally';

const ADD =
  '%add (x: f32[], y: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n  ROOT %s = f32[] add(%x, %y)\n}\n\n';

const TEXTS: Record<string, string> = {
  'call, two instructions': `HloModule m\n\nENTRY %e (a: f32[4]) -> f32[4] {\n  %a = f32[4]{0} parameter(0)\n  ROOT %c = f32[4]{0} call(%a), to_apply={ %p = f32[4]{0} parameter(0) ROOT %n = f32[4]{0} negate(%p) }\n}\n`,
  'call, ROOT only': `HloModule m\n\nENTRY %e (a: f32[4]) -> f32[4] {\n  %a = f32[4]{0} parameter(0)\n  ROOT %c = f32[4]{0} call(%a), to_apply={ROOT %p = f32[4]{0} parameter(0)}\n}\n`,
  'reduce with its adder in place': `HloModule m\n\nENTRY %e (a: f32[4]) -> f32[] {\n  %a = f32[4]{0} parameter(0)\n  %z = f32[] constant(0)\n  ROOT %r = f32[] reduce(%a, %z), dimensions={0}, to_apply={%x = f32[] parameter(0) %y = f32[] parameter(1) ROOT %s = f32[] add(%x, %y)}\n}\n`,
  'a named computation called beside it': `HloModule m\n\n${ADD}ENTRY %e (a: f32[4]) -> f32[] {\n  %a = f32[4]{0} parameter(0)\n  %z = f32[] constant(0)\n  %b = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add\n  ROOT %c = f32[] call(%b), to_apply={ %q = f32[] parameter(0) ROOT %n = f32[] negate(%q) }\n}\n`,
  'header: name, then its parameters on the next line': `HloModule m\n\n%c\n(x: f32[2]) -> f32[2] {\n  ROOT %x = f32[2]{0} parameter(0)\n}\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  ROOT %r = f32[2]{0} call(%a), to_apply=%c\n}\n`,
  'header: element type, then its dimensions on the next line': `HloModule m\n\nENTRY %e (a: f32[2]) -> f32\n[2] {\n  ROOT %a = f32[2]{0} parameter(0)\n}\n`,
};

describeWithXla('the real XLA judges computations written in place on one line', function (xla) {
  this.timeout(300_000);
  const names = Object.keys(TEXTS);
  const texts = names.map((n) => TEXTS[n]);
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    verdicts = await judgeOnce(xla, texts);
    buildCli();
  });

  const wrong = (errors: readonly OurError[][]) =>
    names.flatMap((n, i) =>
      errors[i].length > 0
        ? [
            `${n}: ${errors[i].map((e) => `${e.line}:${e.column} ${e.code} ${oneLine(e.message, 120)}`).join('; ')}`,
          ]
        : [],
    );

  it('XLA accepts each text', () => {
    assert.deepEqual(
      names.flatMap((n, i) =>
        verdicts[i].verdict === 'ok' ? [] : [`${n}: ${oneLine(verdicts[i].message)}`],
      ),
      [],
    );
  });

  it('xla-layout check reports no error', () => {
    assert.deepEqual(wrong(checkErrors(texts)), []);
  });

  it('the language server reports no error (over LSP)', async () => {
    assert.deepEqual(wrong(await serverErrors(texts)), []);
  });
});
