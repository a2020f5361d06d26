/** Quick fixes: requested for each diagnostic, applied as an incremental edit, then re-checked. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver';
import { TestClient, textOf } from './harness';

const invalid = readFileSync(join(__dirname, 'fixtures', 'invalid.hlo'), 'utf8');

/** Applies LSP edits to `text` (last first, so earlier offsets stay valid). */
function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted)
    out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

describe('server: quick fixes', () => {
  const cases: { code: string; line: number; title: string; fixedLine: string }[] = [
    {
      code: 'tile-negative',
      line: 4,
      title: 'Replace -1 with * (combine dimension)',
      fixedLine: '  %neg = f32[8,128]{1,0:T(*,128)} copy(%p)',
    },
    {
      code: 'minor-to-major-duplicate',
      line: 5,
      title: 'Use the default minor_to_major {1,0}',
      fixedLine: '  %perm = f32[8,128]{1,0} copy(%p)',
    },
    {
      code: 'tile-empty',
      line: 6,
      title: 'Remove the empty tiling T()',
      fixedLine: '  %empty = f32[8,128]{1,0} copy(%p)',
    },
    {
      code: 'tile-empty',
      line: 7,
      title: 'Remove the empty tile ()',
      fixedLine: '  %emptylist = f32[8,128]{1,0:T(8,128)} copy(%p)',
    },
  ];
  for (const c of cases) {
    it(`fixes ${c.code} on line ${c.line + 1} and the diagnostic goes away`, async () => {
      const { client } = await TestClient.start();
      const uri = 'file:///w/invalid.hlo';
      const diags = await client.open(uri, invalid);
      const d = diags.find((x) => x.code === c.code && x.range.start.line === c.line) as Diagnostic;
      assert.ok(d);
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: d.range,
        context: { diagnostics: [d], only: ['quickfix'] },
      });
      assert.equal(actions.length, 1);
      const a = actions[0];
      assert.equal(a.title, c.title);
      assert.equal(a.kind, 'quickfix');
      assert.equal(a.isPreferred, true);
      assert.deepEqual(a.diagnostics, [d]);
      const edits = a.edit!.changes![uri];
      const fixed = applyEdits(invalid, edits);
      assert.equal(fixed.split('\n')[c.line], c.fixedLine);
      // Apply it the way an editor does (incremental didChange), then re-check.
      const after = await client.change(
        uri,
        edits.map((e) => ({ range: e.range, text: e.newText })),
      );
      assert.deepEqual(
        after.filter((x) => x.range.start.line === c.line),
        [],
      );
      assert.equal(after.length, diags.length - 1);
      await client.dispose();
    });
  }

  it('offers nothing where the fix is not certain (a -2 tile entry) or for other rules', async () => {
    const { client } = await TestClient.start();
    const text =
      'HloModule m\nENTRY %e () -> f32[8] {\n  ROOT %c = f32[8]{0:T(-2)E(-1)} constant({...})\n}\n';
    const uri = 'file:///w/uncertain.hlo';
    const diags = await client.open(uri, text);
    assert.deepEqual(
      diags.map((d) => [d.code, textOf(text, d.range)]),
      [
        ['tile-negative', '-2'],
        ['element-size-negative', '-1'],
      ],
    );
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diags[0].range,
      context: { diagnostics: diags },
    });
    assert.deepEqual(actions, []);
    await client.dispose();
  });

  it('fixes a minor_to_major of the wrong length with the default order', async () => {
    const { client } = await TestClient.start();
    const text = 'HloModule m\nENTRY %e () -> f32[2,3,4] {\n  ROOT %c = f32[2,3,4]{0} constant({...})\n}\n';
    const uri = 'file:///w/rank.hlo';
    const diags = await client.open(uri, text);
    assert.deepEqual(
      diags.map((d) => d.code),
      ['rank-mismatch'],
    );
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diags[0].range,
      context: { diagnostics: diags },
    });
    assert.equal(
      applyEdits(text, actions[0].edit!.changes![uri]).split('\n')[2],
      '  ROOT %c = f32[2,3,4]{2,1,0} constant({...})',
    );
    await client.dispose();
  });
});

describe('server: quick fixes are withheld', () => {
  it('for a -1 on the minor-most tile entry, where * would not combine anything', async () => {
    const { client } = await TestClient.start();
    const text =
      'HloModule m\nENTRY %e () -> f32[8,8] {\n  ROOT %c = f32[8,8]{1,0:T(8,-1)} constant({...})\n}\n';
    const uri = 'file:///w/minor.hlo';
    const diags = await client.open(uri, text);
    assert.deepEqual(
      diags.map((d) => [d.code, textOf(text, d.range)]),
      [['tile-negative', '-1']],
    );
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diags[0].range,
      context: { diagnostics: diags },
    });
    assert.deepEqual(actions, []);
    await client.dispose();
  });
});

describe('server: quick fix for an unknown element type', () => {
  it('changes F32 and float32 to f32 (preferred), bf61 to bf16 (a guess), and offers nothing for g32', async () => {
    const { client } = await TestClient.start();
    const text = [
      'HloModule m',
      'ENTRY %e (p: f32[2]) -> f32[2] {',
      '  %a = F32[2]{0} parameter(0)',
      '  %b = float32[2]{0} copy(%a)',
      '  %c = bf61[2]{0} copy(%b)',
      '  ROOT %d = g32[2]{0} copy(%c)',
      '}',
      '',
    ].join('\n');
    const uri = 'file:///w/types.hlo';
    const diags = (await client.open(uri, text)).filter((d) => d.code === 'unknown-element-type');
    assert.deepEqual(
      diags.map((d) => textOf(text, d.range)),
      ['F32', 'float32', 'bf61', 'g32'],
    );
    const offered: [string, string, boolean | undefined][] = [];
    for (const d of diags) {
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: d.range,
        context: { diagnostics: [d], only: ['quickfix'] },
      });
      for (const a of actions) {
        const line = applyEdits(text, a.edit!.changes![uri]).split('\n')[d.range.start.line];
        offered.push([a.title, line.trim(), a.isPreferred]);
      }
    }
    assert.deepEqual(offered, [
      ['Change to f32', '%a = f32[2]{0} parameter(0)', true],
      ['Change to f32', '%b = f32[2]{0} copy(%a)', true],
      ['Change to bf16', '%c = bf16[2]{0} copy(%b)', false],
    ]);
    await client.dispose();
  });
});
