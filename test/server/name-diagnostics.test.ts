/**
 * Name diagnostics over the real protocol: XLA's messages on the exact characters with the place
 * they refer to, kept right across edits (each computation is parsed again only when its own text
 * changes), and left out for documents past the size where they are checked.
 */
import { strict as assert } from 'node:assert';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import fc from 'fast-check';
import { readableMessage } from '../../core/src/diagnostics';
import { checkNames, NAME_CHECK_MAX_CHARS, parseHloText } from '../../core/src/hlo';
import { offsetAt, positionAt } from '../support/editor-positions';
import { positionOf, TestClient, textOf } from './harness';

const TEXT = `HloModule names

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8]) -> f32[] {
  %p = f32[8]{0} parameter(0)
  %z = f32[] constant(0)
  ROOT %r = f32[] reduce(%p, %z), dimensions={0}, to_apply=%add
}
`;

/** [code, the characters it is on, message] of each name diagnostic, in text order. */
function named(text: string, diagnostics: readonly Diagnostic[]): [string, string, string][] {
  return diagnostics
    .filter((d) => d.code !== 'padding-overhead')
    .sort((a, b) => offsetAt(text, a.range.start) - offsetAt(text, b.range.start))
    .map((d) => [String(d.code), textOf(text, d.range), d.message]);
}

describe('server: name diagnostics', () => {
  let client: TestClient;
  before(async () => {
    ({ client } = await TestClient.start());
  });
  after(async () => {
    await client.dispose();
  });

  it('publishes nothing for a module whose names all resolve', async () => {
    assert.deepEqual(await client.open('file:///w/names-clean.hlo', TEXT), []);
  });

  it('reports a misspelt operand, a second definition with where the first is, and follows edits', async () => {
    const uri = 'file:///w/names-edit.hlo';
    let text = TEXT.replace('reduce(%p, %z)', 'reduce(%p, %zz)').replace(
      '  %b = f32[] parameter(1)\n',
      '  %b = f32[] parameter(1)\n  %a = f32[] negate(%b)\n',
    );
    const opened = await client.open(uri, text);
    assert.deepEqual(named(text, opened), [
      [
        'instruction-duplicate',
        'a',
        '`%a` is already defined above in this computation: rename one of the two — XLA: instruction already exists: a',
      ],
      [
        'instruction-undefined',
        'zz',
        '`%zz` is not defined in this computation — XLA: instruction does not exist: zz',
      ],
    ]);
    const duplicate = opened.find((d) => d.code === 'instruction-duplicate')!;
    assert.equal(duplicate.severity, 1);
    assert.deepEqual(
      duplicate.relatedInformation?.map((r) => [
        r.location.uri,
        r.location.range.start.line,
        textOf(text, r.location.range),
        r.message,
      ]),
      [[uri, 3, 'a', 'instruction previously defined here']],
    );
    assert.match(String(duplicate.codeDescription?.href), /rules\.md#instruction-duplicate$/);

    // Fixing the name in ENTRY leaves %add's diagnostic where it is.
    const at = positionOf(text, 'zz');
    let diagnostics = await client.change(uri, [
      { range: { start: at, end: { line: at.line, character: at.character + 2 } }, text: 'z' },
    ]);
    text = text.replace('%zz', '%z');
    assert.deepEqual(
      named(text, diagnostics).map(([code, at]) => [code, at]),
      [['instruction-duplicate', 'a']],
    );

    // A line added above moves it; renaming the second %a removes it.
    diagnostics = await client.change(uri, [
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '// a comment\n' },
    ]);
    text = text.replace('HloModule names\n', 'HloModule names\n// a comment\n');
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, textOf(text, d.range)]),
      [['instruction-duplicate', 6, 'a']],
    );
    const second = positionAt(text, text.indexOf('%a = f32[] negate') + 1);
    diagnostics = await client.change(uri, [
      { range: { start: second, end: { line: second.line, character: second.character + 1 } }, text: 'c' },
    ]);
    assert.deepEqual(diagnostics, []);
  });

  it('publishes an operand not defined alone where XLA meets it before the operand count, and the count once it is', async () => {
    const uri = 'file:///w/names-first.hlo';
    let text = TEXT.replace('ROOT %s = f32[] add(%a, %b)', 'ROOT %s = f32[] add(%a, %nope, %b)');
    assert.deepEqual(named(text, await client.open(uri, text)), [
      [
        'instruction-undefined',
        'nope',
        '`%nope` is not defined in this computation — XLA: instruction does not exist: nope',
      ],
    ]);
    const at = positionOf(text, 'nope');
    const diagnostics = await client.change(uri, [
      { range: { start: at, end: { line: at.line, character: at.character + 4 } }, text: 'a' },
    ]);
    text = text.replace('%nope', '%a');
    assert.deepEqual(named(text, diagnostics), [
      [
        'operand-count',
        '(%a, %a, %b)',
        '`add` takes 2 operands; this one has 3 — XLA: expects 2 operands, but has 3 operands',
      ],
    ]);
  });

  it('reports a computation called before it is defined, a second ENTRY and a second ROOT', async () => {
    const uri = 'file:///w/names-order.hlo';
    // %add moved below ENTRY: XLA's parser does not know it yet at the call.
    const add = TEXT.slice(TEXT.indexOf('%add'), TEXT.indexOf('ENTRY'));
    const text = `${TEXT.replace(add, '')}\n${add.replace('%add (', 'ENTRY %add (').replace('  %b = f32[] parameter(1)', '  ROOT %b = f32[] parameter(1)')}`;
    const diagnostics = await client.open(uri, text);
    assert.deepEqual(named(text, diagnostics), [
      [
        'computation-undefined',
        'add',
        "`%add` is defined further down: XLA's parser knows a computation only after its closing `}`, so move it above this use — XLA: computation does not exist: add",
      ],
      [
        'entry-duplicate',
        'ENTRY',
        'this module already has an ENTRY computation: keep the keyword on one of the two — XLA: expects only one ENTRY',
      ],
      [
        'root-duplicate',
        'ROOT',
        'this computation already has a ROOT, `%b`: keep one of the two — XLA: one computation should have only one ROOT',
      ],
    ]);
  });

  it('reports an entry_computation_layout with more parameters than ENTRY, and follows edits of either', async () => {
    const uri = 'file:///w/names-entry-layout.hlo';
    let text = TEXT.replace(
      'HloModule names',
      'HloModule names, entry_computation_layout={(f32[8]{0}, f32[8]{0})->f32[]}',
    );
    const opened = await client.open(uri, text);
    assert.deepEqual(named(text, opened), [
      [
        'entry-layout-count',
        'f32[8]{0}, f32[8]{0}',
        'entry_computation_layout lists 2 parameter arrays, but the entry computation main takes 1: XLA aborts on the mismatch (tuples count by their elements) — XLA: Check failed: parameter_shapes.size() == main.getNumArguments() (2 vs. 1)',
      ],
    ]);
    assert.equal(textOf(text, opened[0].relatedInformation![0].location.range), 'main');
    // A second parameter in ENTRY (only its computation is parsed again) makes the counts agree.
    const at = positionOf(text, '  %z = f32[]');
    const added = await client.change(uri, [
      { range: { start: at, end: at }, text: '  %q = f32[8]{0} parameter(1)\n' },
    ]);
    text = text.replace('  %z = f32[]', '  %q = f32[8]{0} parameter(1)\n  %z = f32[]');
    assert.deepEqual(named(text, added), []);
    // The header edited alone: its result now counts two arrays against ENTRY's one.
    const from = positionOf(text, '->f32[]}');
    const to = { line: from.line, character: from.character + '->f32[]'.length };
    const result = await client.change(uri, [{ range: { start: from, end: to }, text: '->(f32[], f32[])' }]);
    text = text.replace('->f32[]}', '->(f32[], f32[])}');
    assert.deepEqual(named(text, result), [
      [
        'entry-layout-count',
        '(f32[], f32[])',
        "entry_computation_layout's result holds 2 arrays, but the ROOT of the entry computation main holds 1: XLA aborts on the mismatch (tuples count by their elements) — XLA: Check failed: result_shapes.size() == main.getNumResults() (2 vs. 1)",
      ],
    ]);
  });

  it('reports a computation whose } is deleted where XLA stops, and follows edits', async () => {
    const uri = 'file:///w/names-unclosed.hlo';
    // The `}` of %add deleted: XLA reads ENTRY's header as %add's next instruction.
    let text = TEXT.replace('add(%a, %b)\n}\n', 'add(%a, %b)\n');
    const opened = await client.open(uri, text);
    assert.deepEqual(named(text, opened), [
      [
        'computation-unclosed',
        'ENTRY',
        '%add is never closed: its `}` is missing before the next computation, which XLA reads as one of its instructions — XLA: expects name',
      ],
    ]);
    assert.equal(textOf(text, opened[0].relatedInformation![0].location.range), '{');
    // The `}` typed back: clean; then ENTRY's header line deleted: its instructions are outside any computation.
    const at = positionOf(text, '\nENTRY');
    const closed = await client.change(uri, [{ range: { start: at, end: at }, text: '\n}' }]);
    text = text.replace('\nENTRY', '\n}\nENTRY');
    assert.deepEqual(named(text, closed), []);
    const header = positionOf(text, 'ENTRY');
    const deleted = await client.change(uri, [
      { range: { start: header, end: { line: header.line + 1, character: 0 } }, text: '' },
    ]);
    text = text.replace(/ENTRY[^\n]*\n/, '');
    assert.deepEqual(
      named(text, deleted).map(([code, at]) => [code, at]),
      [
        ['outside-computation', '='],
        ['outside-computation', '='],
        ['outside-computation', 'ROOT'],
        ['outside-computation', '}'],
      ],
    );
  });

  it('reports a computation wrapped by two async-starts, with the first as related information', async () => {
    const uri = 'file:///w/names-async.hlo';
    const text = TEXT.replace(
      '  ROOT %r = f32[] reduce(%p, %z), dimensions={0}, to_apply=%add',
      [
        '  %start1 = ((f32[], f32[]), f32[], s32[]) async-start(%z, %z), calls=%add',
        '  %d1 = f32[] async-done(%start1), calls=%add',
        '  %start2 = ((f32[], f32[]), f32[], s32[]) async-start(%d1, %z), calls=%add',
        '  ROOT %d2 = f32[] async-done(%start2), calls=%add',
      ].join('\n'),
    );
    const diagnostics = await client.open(uri, text);
    assert.deepEqual(named(text, diagnostics), [
      [
        'async-computation-shared',
        'add',
        '`%add` is already wrapped by an async-start above: each async computation has exactly one; give this one a copy of its own — XLA: Computation add is called by more than one async op.',
      ],
    ]);
    assert.deepEqual(
      diagnostics[0].relatedInformation?.map((r) => [
        r.location.range.start.line,
        textOf(text, r.location.range),
        r.message,
      ]),
      [[11, 'add', 'the first async-start that calls it']],
    );
    assert.equal(diagnostics[0].range.start.line, 13);
  });

  it('offers the known name spelt most like an unknown one as a quick fix, not a preferred one', async () => {
    const uri = 'file:///w/names-fix.hlo';
    const text = TEXT.replace(/%p\b/g, '%param.0')
      .replace(/%z\b/g, '%zero')
      .replace('reduce(%param.0, %zero)', 'reduce(%parm.0, %zero)')
      .replace('to_apply=%add', 'to_apply=%addd')
      .replace('add(%a, %b)', 'add(%a, %c)');
    const diagnostics = await client.open(uri, text);
    const fixes = [];
    for (const d of diagnostics) {
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: d.range,
        context: { diagnostics: [d] },
      });
      fixes.push([
        textOf(text, d.range),
        ...actions.map((a) => [
          a.title,
          a.isPreferred,
          a.edit?.changes?.[uri]?.map((e) => [textOf(text, e.range), e.newText]),
        ]),
      ]);
    }
    assert.deepEqual(fixes, [
      // `c` is one edit from `a` and from `b`: too short a name to guess.
      ['c'],
      ['parm.0', ['Change to %param.0', false, [['parm.0', 'param.0']]]],
      ['addd', ['Change to %add', false, [['addd', 'add']]]],
    ]);
  });

  it('defines a name written only in the signature with its parameter instruction, a preferred fix', async () => {
    const uri = 'file:///w/names-signature.hlo';
    // %add's %b is dropped from the body; `b` stays in its signature.
    const text = TEXT.replace('  %b = f32[] parameter(1)\n', '');
    const diagnostics = await client.open(uri, text);
    assert.deepEqual(named(text, diagnostics), [
      [
        'instruction-undefined',
        'b',
        "`%b` is named only in the computation's signature, which XLA reads for its shape: define it with an instruction, `%b = f32[] parameter(1)` — XLA: instruction does not exist: b",
      ],
    ]);
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0].range,
      context: { diagnostics },
    });
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred, a.edit?.changes?.[uri]?.map((e) => [e.range, e.newText])]),
      [
        [
          'Define %b = f32[] parameter(1)',
          true,
          [
            [
              { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
              '  %b = f32[] parameter(1)\n',
            ],
          ],
        ],
      ],
    );
    // Applied, the module is clean again; a gap in the numbers is what XLA would abort on.
    const fixed = await client.change(uri, [
      {
        range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
        text: '  %b = f32[] parameter(2)\n',
      },
    ]);
    assert.deepEqual(
      named(text, fixed).map(([code]) => code),
      ['parameter-number'],
    );
    assert.match(
      fixed[0].message,
      /^the computation's 2 parameters must be numbered 0 to 1, and parameter\(1\) is missing: XLA aborts on this CHECK — XLA: invalid parameter number\. Expected \[0, 2\), got 2$/,
    );
    const edited = text.replace(
      '  %a = f32[] parameter(0)\n',
      '  %b = f32[] parameter(2)\n  %a = f32[] parameter(0)\n',
    );
    assert.deepEqual(
      [fixed[0].range.start, textOf(edited, fixed[0].range)],
      [{ line: 3, character: 23 }, '2'],
    );
  });

  it('offers no parameter instruction when the body has one of that number', async () => {
    const uri = 'file:///w/names-signature-taken.hlo';
    const text = TEXT.replace('(a: f32[], b: f32[])', '(a: f32[], param_1: f32[])')
      .replace(/%b\b/g, '%param.1')
      .replace('add(%a, %param.1)', 'add(%a, %param_1)');
    const diagnostics = await client.open(uri, text);
    assert.deepEqual(
      named(text, diagnostics).map(([code, name]) => [code, name]),
      [['instruction-undefined', 'param_1']],
    );
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0].range,
      context: { diagnostics },
    });
    // parameter(1) is %param.1 already: the spelling guess is what is left.
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred]),
      [['Change to %param.1', false]],
    );
  });

  it('guesses no spelling for a name that exists too far down', async () => {
    const uri = 'file:///w/names-order-fix.hlo';
    const text = TEXT.replace('  %z = f32[] constant(0)\n', '')
      .replace('  ROOT %r', '  %r')
      .replace(
        'dimensions={0}, to_apply=%add\n',
        'dimensions={0}, to_apply=%add\n  ROOT %z = f32[] constant(0)\n',
      );
    const diagnostics = await client.open(uri, text);
    assert.deepEqual(
      named(text, diagnostics).map(([code, name]) => [code, name]),
      [['instruction-undefined', 'z']],
    );
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0].range,
      context: { diagnostics },
    });
    assert.deepEqual(actions, []);
  });

  it('property: publishes what core finds in the whole text, after edits too', async () => {
    // Random modules: computations calling others (defined before or not), operands naming
    // instructions above, below or nowhere, names and ROOTs twice, a body written in place,
    // `// -----` parts; then edits
    // that rename a definition, each compared with core's checkNames of the edited text.
    const computation = fc.record({
      uses: fc.array(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }), {
        minLength: 1,
        maxLength: 5,
      }),
      call: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      inline: fc.boolean(),
      entry: fc.boolean(),
      split: fc.boolean(),
      twice: fc.boolean(),
    });
    const write = (
      cs: {
        uses: number[][];
        call?: number;
        inline: boolean;
        entry: boolean;
        split: boolean;
        twice: boolean;
      }[],
    ) =>
      cs
        .map((c, k) => {
          const lines = c.uses.map(
            // An opcode that takes as many operands as there are uses: only the names are random.
            (u, i) =>
              `  %v${i} = f32[] ${u.length === 0 ? `parameter(${i})` : `${['negate', 'add', 'clamp'][u.length - 1]}(${u.map((n) => `%v${n}`).join(', ')})`}`,
          );
          if (c.call !== undefined) lines.push(`  %k = f32[] call(%v0), to_apply=%c${c.call}`);
          // A second %v0, ROOT and parameter(0) (when %v0 is one), each pointing back at the first.
          if (c.twice)
            lines.push(
              '  ROOT %v0 = f32[] constant(0)',
              '  ROOT %w = f32[] constant(1)',
              '  %p0 = f32[] parameter(0)',
            );
          if (c.inline)
            lines.push(
              '  %f = f32[] fusion(%v0), kind=kLoop, calls=\n  {\n    %v0 = f32[] parameter(0)\n    ROOT %n = f32[] negate(%v1)\n  }',
            );
          return `${c.split ? '// -----\n' : ''}${c.entry ? 'ENTRY ' : ''}%c${k % 4} (x: f32[]) -> f32[] {\n${lines.join('\n')}\n}\n`;
        })
        .join('\n');
    const expected = (text: string) =>
      checkNames(parseHloText(text), text)
        .map(
          (d) =>
            `${d.code} ${d.range.start} ${readableMessage(d)} ${(d.related ?? []).map((r) => r.range.start).join(',')}`,
        )
        .sort();
    const published = (text: string, ds: readonly Diagnostic[]) =>
      ds
        .map(
          (d) =>
            `${d.code} ${offsetAt(text, d.range.start)} ${d.message} ${(d.relatedInformation ?? []).map((r) => offsetAt(text, r.location.range.start)).join(',')}`,
        )
        .sort();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(computation, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        async (cs, edits) => {
          const uri = `file:///w/names-random-${n++}.hlo`;
          let text = `HloModule r\n${write(cs)}`;
          assert.deepEqual(published(text, await client.open(uri, text)), expected(text));
          for (const e of edits) {
            // Rename the definition of some %vN (its text changes, so only its computation is parsed again).
            const sites = [...text.matchAll(/%v\d+ = /g)];
            if (sites.length === 0) break;
            const at = sites[e % sites.length].index + 2;
            const start = positionAt(text, at);
            text = `${text.slice(0, at)}9${text.slice(at)}`;
            const ds = await client.change(uri, [{ range: { start, end: start }, text: '9' }]);
            assert.deepEqual(published(text, ds), expected(text));
          }
          await client.close(uri);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('honours severity overrides, "off" included', async () => {
    const { client: quiet } = await TestClient.start({
      diagnostics: { severity: { 'instruction-undefined': 'off', 'computation-undefined': 'warning' } },
    });
    try {
      const text = TEXT.replace('reduce(%p, %z)', 'reduce(%p, %zz)').replace('to_apply=%add', 'to_apply=%ad');
      const diagnostics = await quiet.open('file:///w/names-severity.hlo', text);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity]),
        [['computation-undefined', 2]],
      );
    } finally {
      await quiet.dispose();
    }
  });

  it(`checks no names in documents over ${NAME_CHECK_MAX_CHARS.toLocaleString('en-US')} characters`, async () => {
    const filler = `  %c = f32[] constant(0), metadata={op_name="${'x'.repeat(200)}"}\n`;
    const body = filler.replace('%c', '%f').repeat(Math.ceil(NAME_CHECK_MAX_CHARS / filler.length));
    const broken = TEXT.replace('reduce(%p, %z)', 'reduce(%p, %zz)');
    const small = await client.open('file:///w/names-small.hlo', broken);
    assert.deepEqual(
      named(broken, small).map(([code]) => code),
      ['instruction-undefined'],
    );
    // The same module with a long computation before it: no name is checked, whatever else is.
    const large = broken.replace('HloModule names\n', `HloModule names\n\n%filler {\n${body}}\n`);
    assert.ok(large.length > NAME_CHECK_MAX_CHARS);
    assert.deepEqual(await client.open('file:///w/names-large.hlo', large), []);
  });
});
