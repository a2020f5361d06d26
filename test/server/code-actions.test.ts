/** Quick fixes: requested for each diagnostic, applied as an incremental edit, then re-checked. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { applyEdits } from '../support/editor-positions';
import { TestClient, textOf } from './harness';

const invalid = readFileSync(join(__dirname, 'fixtures', 'invalid.hlo'), 'utf8');

/** The quick fixes the server offers for the one diagnostic `d` of `uri`. */
function quickFixes(client: TestClient, uri: string, d: Diagnostic): Promise<CodeAction[]> {
  return client.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: d.range,
    context: { diagnostics: [d], only: ['quickfix'] },
  });
}

/** Each quick fix offered for `diags`: its title, the line it edits as the fix leaves it, and whether it is preferred. */
async function quickFixLines(
  client: TestClient,
  uri: string,
  text: string,
  diags: readonly Diagnostic[],
): Promise<[string, string, boolean | undefined][]> {
  const offered: [string, string, boolean | undefined][] = [];
  for (const d of diags) {
    const actions = await quickFixes(client, uri, d);
    for (const a of actions) {
      const line = applyEdits(text, a.edit!.changes![uri]).split('\n')[d.range.start.line];
      offered.push([a.title, line.trim(), a.isPreferred]);
    }
  }
  return offered;
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
      const actions = await quickFixes(client, uri, d);
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

  it('offers no reordering where an attribute is written twice or is unknown', async () => {
    const { client } = await TestClient.start();
    try {
      for (const layout of [
        'T(8,128)T(2,1)',
        'T(8,128)S(1)S(2)',
        'S(1)T(8,128)S(2)',
        'T(8,128)E(32)T(2,1)',
      ]) {
        const text = `HloModule m\nENTRY %e () -> f32[16,256] {\n  ROOT %c = f32[16,256]{1,0:${layout}} parameter(0)\n}\n`;
        const uri = 'file:///w/twice.hlo';
        const diags = await client.open(uri, text);
        const d = diags.find((x) => x.code === 'layout-attribute-order');
        assert.ok(d, `${layout}: ${JSON.stringify(diags.map((x) => x.code))}`);
        assert.deepEqual(await quickFixes(client, uri, d), [], layout);
        await client.close(uri);
      }
    } finally {
      await client.dispose();
    }
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

describe('server: a quick fix for every fix that is certain', () => {
  // [shape as written, the diagnostic's code, the fix's title, the shape after it, preferred].
  const cases: [string, string, string, string, boolean][] = [
    // The -1 on the minor-most entry becomes * too: what -1 meant in XLA's docs, now a warning
    // (combine-without-minor) where it was a crash; not preferred, as the layout's size is then
    // unknown.
    [
      'f32[8,8]{1,0:T(8,-1)}',
      'tile-negative',
      'Replace -1 with * (combine dimension)',
      'f32[8,8]{1,0:T(8,*)}',
      false,
    ],
    [
      'f32[16,256]{1,0:T(8,128)(2,-1)}',
      'tile-negative',
      'Replace -1 with * (combine dimension)',
      'f32[16,256]{1,0:T(8,128)(2,*)}',
      false,
    ],
    [
      'f32[2,2]{1,0:S(1)T(2,2)}',
      'layout-attribute-order',
      "Write the attributes in XLA's order: T S",
      'f32[2,2]{1,0:T(2,2)S(1)}',
      true,
    ],
    [
      'f32[2,2]{1,0:E(32)L(4)T(2,2)S(1)}',
      'layout-attribute-order',
      "Write the attributes in XLA's order: T L E S",
      'f32[2,2]{1,0:T(2,2)L(4)E(32)S(1)}',
      true,
    ],
    ['f32[10,20]{1,0:P(s32[10,20]{1,0})}', 'physical-shape-dense', 'Remove P(…)', 'f32[10,20]{1,0}', true],
    ['f32[8]{0:T(8)#(u32)}', 'index-type-dense', 'Remove #(u32)', 'f32[8]{0:T(8)}', true],
    ['f32[8]{0:*(u16)}', 'pointer-type-dense', 'Remove *(u16)', 'f32[8]{0}', true],
    ['f32[2]{0:D(D)}', 'legacy-dim-level-types', 'Remove D(D)', 'f32[2]{0}', true],
    ['f32[2]{0:D(X)}', 'dim-level-type', 'Remove D(…)', 'f32[2]{0}', true],
    ['f32[8]{0:T(8)L(0)}', 'tail-alignment-invalid', 'Remove L(0)', 'f32[8]{0:T(8)}', true],
    ['token[2]', 'token-dimensions', 'Write token[]', 'token[]', true],
    ['token[]{0}', 'token-layout', 'Remove the layout {0}', 'token[]', true],
    ['s4[8]{0:E(-4)}', 'element-size-negative', 'Use E(4), the width of s4', 's4[8]{0:E(4)}', true],
    [
      'f32[2]{0:S(201)}',
      'memory-space-range',
      'Write S(-55), the memory space XLA stores',
      'f32[2]{0:S(-55)}',
      true,
    ],
    ['f32[8,128{1,0}', 'expected-token', 'Insert ]', 'f32[8,128]{1,0}', false],
  ];
  for (const [shape, code, title, fixedShape, preferred] of cases) {
    it(`${code}: ${shape} → ${fixedShape}`, async () => {
      const { client } = await TestClient.start();
      try {
        const line = `  ROOT %c = ${shape} parameter(0)`;
        const text = `HloModule m\nENTRY %e {\n${line}\n}\n`;
        const uri = 'file:///w/fix.hlo';
        const diags = await client.open(uri, text);
        const d = diags.find((x) => x.code === code);
        assert.ok(d, `${code} among ${JSON.stringify(diags.map((x) => x.code))}`);
        const actions = await quickFixes(client, uri, d);
        assert.deepEqual(
          actions.map((a) => [a.title, a.isPreferred]),
          [[title, preferred]],
        );
        const edits = actions[0].edit!.changes![uri];
        assert.equal(applyEdits(text, edits).split('\n')[2], line.replace(shape, fixedShape));
        const after = await client.change(
          uri,
          edits.map((e) => ({ range: e.range, text: e.newText })),
        );
        assert.ok(
          !after.some(
            (x) => x.code === code && textOf(applyEdits(text, edits), x.range) === textOf(text, d.range),
          ),
          `${code} is gone: ${JSON.stringify(after.map((x) => x.message))}`,
        );
        assert.ok(
          !after.some((x) => x.severity === 1),
          `no errors left: ${JSON.stringify(after.map((x) => x.message))}`,
        );
      } finally {
        await client.dispose();
      }
    });
  }
});

describe('server: a missing `)` in a layout', () => {
  // XLA reads `T(8,128}` as T(8,128): ParseLayout ignores its sub-parsers' failures. The `)` is
  // missed only where the `}` is missing too; inserting it is then the first of two fixes.
  it('is offered, not preferred, where the `}` is missing too', async () => {
    const { client } = await TestClient.start();
    try {
      const text = 'HloModule m\nENTRY %e {\n  ROOT %c = f32[8,128]{1,0:T(8,128 parameter(0)\n}\n';
      const uri = 'file:///w/paren.hlo';
      const diags = await client.open(uri, text);
      const d = diags.find((x) => x.code === 'expected-token');
      assert.ok(d, JSON.stringify(diags.map((x) => x.message)));
      assert.equal(textOf(text, d.range), 'parameter');
      const actions = await quickFixes(client, uri, d);
      assert.deepEqual(
        actions.map((a) => [a.title, a.isPreferred]),
        [['Insert )', false]],
      );
      assert.equal(
        applyEdits(text, actions[0].edit!.changes![uri]).split('\n')[2],
        '  ROOT %c = f32[8,128]{1,0:T(8,128) parameter(0)',
      );
    } finally {
      await client.dispose();
    }
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
    assert.deepEqual(await quickFixLines(client, uri, text, diags), [
      ['Change to f32', '%a = f32[2]{0} parameter(0)', true],
      ['Change to f32', '%b = f32[2]{0} copy(%a)', true],
      ['Change to bf16', '%c = bf16[2]{0} copy(%b)', false],
    ]);
    await client.dispose();
  });

  it('offers the opcode one edit from a mistyped one, and leaves other unknown words to XLA', async () => {
    const { client } = await TestClient.start();
    const text = [
      'HloModule m',
      'ENTRY %e (p: f32[2]) -> f32[2] {',
      '  %a = f32[2]{0} parmeter(0)',
      '  %b = f32[2]{0} somenewop(%a)',
      '  %c = f32[2]{0} all-reduce-start(%b)',
      '  ROOT %d = f32[2]{0} ngate(%c)',
      '}',
      '',
    ].join('\n');
    const uri = 'file:///w/opcodes.hlo';
    const diags = (await client.open(uri, text)).filter((d) => d.code === 'unknown-opcode');
    assert.deepEqual(
      diags.map((d) => [textOf(text, d.range), d.message]),
      [
        [
          'parmeter',
          'unknown opcode `parmeter`; did you mean `parameter`? — XLA: expects opcode but sees: parmeter, error: Unknown opcode: parmeter',
        ],
        [
          'ngate',
          'unknown opcode `ngate`; did you mean `negate`? — XLA: expects opcode but sees: ngate, error: Unknown opcode: ngate',
        ],
      ],
    );
    assert.deepEqual(await quickFixLines(client, uri, text, diags), [
      ['Change to parameter', '%a = f32[2]{0} parameter(0)', false],
      ['Change to negate', 'ROOT %d = f32[2]{0} negate(%c)', false],
    ]);
    await client.dispose();
  });
});
