/**
 * The padding-overhead warning fires where memory is allocated, over the protocol: on the values
 * XLA gives buffers (ENTRY's parameters and the values its instructions define), not on a fused
 * computation's parameters and intermediates, nor on values that alias another (`bitcast`,
 * `get-tuple-element`, a `tuple`'s elements, `copy-start`'s `{1}`). Which computation a
 * statement is in decides, so edits that change a computation's role (a `calls=`, a header, an
 * opcode) must leave the published warnings as a fresh open of the same text publishes them.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Diagnostic } from 'vscode-languageserver';
import { TestClient } from './harness';
import { positionAt } from '../support/editor-positions';

const TPU = join(__dirname, '../memory/fixtures/tpu/module_0042.jit_train_step.after_optimizations.txt');

/** 1-based lines of the padding warnings. */
const warnedLines = (diags: readonly Diagnostic[]) =>
  diags.filter((d) => d.code === 'padding-overhead').map((d) => d.range.start.line + 1);

/** What a fresh open must agree on (related information names the document). */
const comparable = (diags: readonly Diagnostic[]) =>
  diags.map((d) => [d.code, d.severity, d.range, d.message]);

/** A module with a fused computation, a while body and a reducer, every array padding 32x. */
const MODULE = `HloModule roles

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

%fused (p: f32[65536,4]) -> f32[65536,4] {
  %p = f32[65536,4]{1,0:T(8,128)} parameter(0)
  ROOT %n = f32[65536,4]{1,0:T(8,128)} negate(%p)
}

%body (b: f32[65536,4]) -> f32[65536,4] {
  %b = f32[65536,4]{1,0:T(8,128)} parameter(0)
  ROOT %e = f32[65536,4]{1,0:T(8,128)} exponential(%b)
}

%cond (c: f32[65536,4]) -> pred[] {
  %c = f32[65536,4]{1,0:T(8,128)} parameter(0)
  ROOT %t = pred[] constant(true)
}

ENTRY %main (a: f32[65536,4]) -> f32[65536,4] {
  %a = f32[65536,4]{1,0:T(8,128)} parameter(0)
  %f = f32[65536,4]{1,0:T(8,128)} fusion(%a), kind=kLoop, calls=%fused
  %bc = f32[65536,4]{1,0:T(8,128)} bitcast(%f)
  %w = f32[65536,4]{1,0:T(8,128)} while(%bc), condition=%cond, body=%body
  %tp = (f32[65536,4]{1,0:T(8,128)}, f32[65536,4]{1,0:T(8,128)}) tuple(%w, %a)
  ROOT %g = f32[65536,4]{1,0:T(8,128)} get-tuple-element(%tp), index=0
}
`;

/** Edits that change what a computation is or what an instruction defines: [find, replace]. */
const ROLE_EDITS: readonly [string, string][] = [
  ['calls=%fused', 'calls=%body'],
  ['calls=%fused', 'to_apply=%fused'],
  ['kind=kLoop, calls=%fused', 'to_apply=%add'],
  [' fusion(%a)', ' call(%a)'],
  ['body=%body', 'body=%fused'],
  // An instruction that stops calling, or starts: the while body's values warn only while called.
  ['while(%bc), condition=%cond, body=%body', 'negate(%bc)'],
  ['ENTRY %main', '%main'],
  ['%body (b', 'ENTRY %body (b'],
  ['bitcast(%f)', 'copy(%f)'],
  ['tuple(%w, %a)', 'copy-start(%a)'],
  ['parameter(0)\n  ROOT %n', 'negate(%p)\n  ROOT %n'],
  ['%fused (p', '%fusedX (p'],
  ['\n}\n\n%body', '\n}\n\n%other (o: f32[]) -> f32[] {\n  ROOT %o = f32[] parameter(0)\n}\n\n%body'],
  // Lines being typed: between computations, in place of a `}`, before an instruction, in ENTRY.
  ['}\n\n%cond', '}\nx\n%cond'],
  [
    '  ROOT %n = f32[65536,4]{1,0:T(8,128)} negate(%p)\n}',
    '  ROOT %n = f32[65536,4]{1,0:T(8,128)} negate(%p)\nx}',
  ],
  ['\n  %bc = ', '\n  x\n  %bc = '],
  ['  %f = f32', '  x%f = f32'],
];

describe('server: padding warnings where memory is allocated', () => {
  let client: TestClient;
  beforeEach(async () => {
    ({ client } = await TestClient.start());
  });
  afterEach(async () => {
    await client.dispose();
  });

  it('warns on the TPU fixture only on the buffers of its buffer assignment (lines 48-50)', async () => {
    const diags = await client.open(
      'file:///w/module_0042.jit_train_step.after_optimizations.txt',
      readFileSync(TPU, 'utf8'),
    );
    // Not %param_0.1 … %broadcast.4 inside the fused computations (lines 10-13, 29, 36-39).
    assert.deepEqual(warnedLines(diags), [48, 49, 50]);
  });

  it('warns on ENTRY parameters and defined values, not on fused, aliasing or called parameters', async () => {
    const diags = await client.open('file:///w/roles.hlo', MODULE);
    const lines = MODULE.split('\n');
    const names = warnedLines(diags).map((l) => /%[\w.-]+/.exec(lines[l - 1])?.[0]);
    // %e: the while body's values are the module's (its parameter %b is the while's operand).
    assert.deepEqual(names, ['%e', '%a', '%f']);
  });

  it("after edits that change computations' roles, publishes what a fresh open publishes", async function () {
    this.timeout(120_000);
    const fresh = await TestClient.start();
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.nat(ROLE_EDITS.length * 2 - 1), { minLength: 1, maxLength: 6 }),
          async (picks) => {
            run++;
            const uri = `file:///w/edit-${run}.hlo`;
            let text = MODULE;
            let diags = await client.open(uri, text);
            for (const pick of picks) {
              // Each edit one way or back: the text keeps changing roles in both directions.
              const [a, b] = ROLE_EDITS[pick >> 1];
              const [find, replace] = pick & 1 ? [b, a] : [a, b];
              const at = text.indexOf(find);
              if (at < 0) continue;
              const range = { start: positionAt(text, at), end: positionAt(text, at + find.length) };
              text = text.slice(0, at) + replace + text.slice(at + find.length);
              diags = await client.change(uri, [{ range, text: replace }]);
            }
            const expected = await fresh.client.open(`file:///w/fresh-${run}.hlo`, text);
            assert.deepEqual(comparable(diags), comparable(expected));
            await client.close(uri);
            await fresh.client.close(`file:///w/fresh-${run}.hlo`);
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      await fresh.client.dispose();
    }
  });
});
