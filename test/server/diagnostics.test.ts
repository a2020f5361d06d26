/** Diagnostics over the real protocol: codes, exact ranges, links, settings, and the corpus. */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { positionOf, TestClient, textOf } from './harness';
import { CORPUS_HLO_DIR } from '../support/corpus';

const FIXTURES = join(__dirname, 'fixtures');
const CORPUS = CORPUS_HLO_DIR;
const invalid = readFileSync(join(FIXTURES, 'invalid.hlo'), 'utf8');
const padded = readFileSync(join(FIXTURES, 'padded.after_optimizations.hlo'), 'utf8');

/** [code, covered text, line] of each diagnostic, in order. */
function summary(text: string, diags: Diagnostic[]): [string, string, number][] {
  return diags.map((d) => [String(d.code), textOf(text, d.range), d.range.start.line]);
}

describe('server: diagnostics', () => {
  let client: TestClient;
  beforeEach(async () => {
    ({ client } = await TestClient.start());
  });
  afterEach(async () => {
    await client.dispose();
  });

  it('reports each invalid layout on the exact characters, with code, link and source', async () => {
    const diags = await client.open('file:///w/invalid.hlo', invalid);
    assert.deepEqual(summary(invalid, diags), [
      ['tile-negative', '-1', 4],
      ['minor-to-major-duplicate', '1', 5],
      ['tile-empty', '()', 6],
      ['tile-empty', '()', 7],
    ]);
    assert.deepEqual(diags[1].range.start, positionOf(invalid, '{1,1}', 3));
    for (const d of diags) {
      assert.equal(d.source, 'xla-layout');
      assert.equal(d.severity, DiagnosticSeverity.Error);
      assert.equal(
        d.codeDescription?.href,
        `https://github.com/xla-layout-lens/xla-layout-lens/blob/main/docs/rules.md#${String(d.code)}`,
      );
    }
    assert.match(diags[0].message, /^negative tile size -1 makes XLA abort: .* — XLA: .*Value is -1$/);
    assert.equal(
      diags[1].message,
      'minor_to_major names dimension 1 twice: list each dimension once — XLA: layout minor_to_major field has duplicate values: {1, 1}; shape: f32[8,128]',
    );
  });

  it('reads a line no statement starts with, or a `}` closing metadata, as going on, also after edits', async () => {
    // XLA (jaxlib 0.10.2) accepts each: a line break is a blank to it.
    const text = [
      'HloModule m',
      '',
      'ENTRY %e (p: f32[2]) -> (f32[2], f32[2]) {',
      '  %a',
      '    = f32[2]{0} parameter(0), metadata={op_name="x"',
      '}',
      '  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%a, %a)',
      '    , metadata={op_name="t"}',
      '}',
    ].join('\n');
    const uri = 'file:///w/line-breaks.hlo';
    assert.deepEqual(summary(text, await client.open(uri, text)), []);
    // A `)` typed at the start of a line after a complete instruction: XLA expects a name there.
    const at = { line: 7, character: 4 };
    const broken = await client.change(uri, [{ range: { start: at, end: at }, text: ') ' }]);
    assert.deepEqual(
      broken.map((d) => [String(d.code), d.range.start]),
      [['invalid-name', at]],
    );
    // Undone, and the `%a` line joined with its `=` line: the table agrees with a fresh split.
    const undo = { start: at, end: { line: 7, character: 6 } };
    assert.deepEqual(await client.change(uri, [{ range: undo, text: '' }]), []);
    const join = { start: { line: 3, character: 4 }, end: { line: 4, character: 4 } };
    assert.deepEqual(await client.change(uri, [{ range: join, text: ' ' }]), []);
  });

  it('accepts a computation signature broken before or after its `->`, as XLA does', async () => {
    const text = [
      'HloModule m',
      '',
      '%add (a: f32[],',
      '      b: f32[]) ->',
      '      f32[] {',
      '  %a = f32[] parameter(0)',
      '  %b = f32[] parameter(1)',
      '  ROOT %s = f32[] add(%a, %b)',
      '}',
      '',
      'ENTRY %main (x: f32[4]) // the input',
      '    -> f32[] {',
      '  %x = f32[4]{0} parameter(0)',
      '  %c = f32[] constant(0)',
      '  ROOT %r = f32[] reduce(%x, %c), dimensions={0}, to_apply=%add',
      '}',
    ].join('\n');
    assert.deepEqual(await client.open('file:///w/arrow.hlo', text), []);
  });

  it("says what is wrong in plain words first, then XLA's text, and never names a parser token", async () => {
    // [shape as written, the plain words the message starts with, XLA's text after "— XLA: "].
    const cases: [string, string, string][] = [
      // XLA reads `T(8,128}` as T(8,128) (ParseLayout ignores its sub-parsers' failures), so the
      // tile's `)` is missed only where no `}` follows either.
      ['f32[8,128]{1,0:T(8,128', 'missing `)` to close the tile', 'expects a list to end with `)`'],
      ['f32[8,128]{1,0:T(8,128)', 'missing `}` to close the layout', 'expects layout to end with `}`'],
      ['f32[8,128{1,0}', 'missing `]` to close the dimensions', 'expects a list to end with `]`'],
      ['F32[8]{0}', 'unknown element type `F32`', 'expected primitive type, saw a word'],
      [
        'f32[2,2]{1,0:S(1)T(2,2)}',
        'attributes out of order: XLA reads layout attributes only in the order D T L # * E S SC P M, each once',
        'expects layout to end with `}`',
      ],
      [
        'f32[8,128]{1,0:T()}',
        'empty tile `()`: a tile needs at least one size; remove it',
        'layout has invalid tiles: f32[8,128]',
      ],
      [
        'f32[8,128]{1,0:T(8,-1)}',
        'negative tile size -1 makes XLA abort',
        "Tile dimension size needs to be minimum int64_t value if it's negative. Value is -1",
      ],
      ['f32[8]{0:S(1', 'missing `)` to close `S(…)`', 'expects memory space to end with `)`'],
      [
        'f32[8]{0:D(X)}',
        '`X` is not a dimension level type: D(…) takes D, C, S or H',
        'expected a DimLevelType abbreviation (D, C, or S)',
      ],
      ['f32[1.5]{0}', 'expected a whole number here, not `1.5`', 'expects integer'],
      [
        'f32[8,128]{2,0}',
        'minor_to_major names dimension 2, but the shape has dimensions 0 to 1',
        'layout minor_to_major field has out-of-bounds value',
      ],
      [
        'f32[8]{0:L(0)}',
        'L(0) makes XLA abort',
        'layout tail_padding_alignment_in_elements field is <= 0: {0}',
      ],
    ];
    const text = [
      'HloModule m',
      'ENTRY %e {',
      ...cases.map(([shape], i) => `  %p${i} = ${shape} parameter(${i})`),
      '}',
      '',
    ].join('\n');
    const diags = await client.open('file:///w/plain.hlo', text);
    for (const [i, [shape, plain, xla]] of cases.entries()) {
      const d = diags.find((x) => x.range.start.line === i + 2 && x.severity === DiagnosticSeverity.Error);
      assert.ok(d, `a diagnostic on ${shape}: ${JSON.stringify(diags.map((x) => x.message))}`);
      assert.ok(d.message.startsWith(plain), `${shape}: ${d.message}`);
      const after = d.message.split(' — XLA: ')[1] ?? '';
      assert.ok(after.startsWith(xla), `${shape}: XLA's text after the plain words: ${d.message}`);
    }
    for (const d of diags) assert.doesNotMatch(d.message, /\bk[A-Z][a-z]+\b|\bkw_/, d.message);
  });

  it('reports attribute lists XLA refuses on the key, in plain words first, also after an edit', async () => {
    const line = '  ROOT %r = f32[2]{0} negate(%a), metadata={op_name="a"}';
    const text = `HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n${line}\n}\n`;
    assert.deepEqual(await client.open('file:///w/attributes.hlo', text), []);
    const twice = text.replace(line, `${line}, metadata={op_name="b"}`);
    const diags = await client.change('file:///w/attributes.hlo', [{ text: twice }]);
    assert.deepEqual(summary(twice, diags), [['attribute-list', 'metadata', 4]]);
    assert.equal(
      diags[0].message,
      '`metadata=` is given twice: XLA takes each attribute once; remove one of them — XLA: attribute metadata already exists',
    );
  });

  it('puts a missing attribute at the next token, as XLA does, and moves it when lines come between', async () => {
    // jaxlib 0.10.2: "was parsing 6:3: error: attribute dimensions is expected but not seen".
    const uri = 'file:///w/missing.hlo';
    const text =
      'HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0)\n  %b = f32[2]{0} transpose(%a)\n  ROOT %r = f32[2]{0} negate(%b)\n}\n';
    const at = (diags: Diagnostic[]) =>
      diags.map((d) => [String(d.code), d.range.start.line, d.range.start.character]);
    assert.deepEqual(at(await client.open(uri, text)), [['attribute-list', 5, 2]]);
    // Blank and comment lines typed after it: XLA's lexer skips them.
    const after = { line: 4, character: 30 };
    assert.deepEqual(
      at(await client.change(uri, [{ range: { start: after, end: after }, text: '\n\n  // c' }])),
      [['attribute-list', 7, 2]],
    );
    // The ROOT line deleted: the `}` is next.
    const root = { start: { line: 7, character: 0 }, end: { line: 8, character: 0 } };
    assert.deepEqual(at(await client.change(uri, [{ range: root, text: '' }])), [['attribute-list', 7, 0]]);
  });

  it('reports an operand count XLA refuses on the operand list, also after an edit, and a declared shape', async () => {
    // jaxlib 0.10.2: "was parsing 5:22: error: expects 2 operands, but has 3 operands" (the `(`).
    const uri = 'file:///w/operands.hlo';
    const line = '  ROOT %r = f32[] add(%a, %a)';
    const text = `HloModule m\n\nENTRY %e {\n  %a = f32[] parameter(0)\n${line}\n}\n`;
    assert.deepEqual(await client.open(uri, text), []);
    const three = text.replace(line, '  ROOT %r = f32[] add(%a, %a, %a)');
    const diags = await client.change(uri, [{ text: three }]);
    assert.deepEqual(summary(three, diags), [['operand-count', '(%a, %a, %a)', 4]]);
    assert.equal(diags[0].range.start.character, 21);
    assert.equal(
      diags[0].message,
      '`add` takes 2 operands; this one has 3 — XLA: expects 2 operands, but has 3 operands',
    );
    const declared = text.replace(line, '  ROOT %r = f32[] add(f32[2]{0} %a, %a)');
    assert.deepEqual(summary(declared, await client.change(uri, [{ text: declared }])), [
      ['operand-shape-mismatch', 'f32[2]{0} %a', 4],
    ]);
  });

  it("says the module-level errors XLA's parser reports in plain words too, XLA's text after them", async () => {
    const text = [
      'HloModule m',
      '',
      '%c (a: f32[2]) -> s32[2] {',
      '  ROOT %a1 = f32[2]{0} parameter(0)',
      '}',
      '',
      'ENTRY %e (p: f32[2]) -> f32[2] {',
      '  %p0 = f32[2]{0} parameter(0)',
      '  %u = bb(f32[2]{0} %p0)',
      '  %k = s8[] constant(1000)',
      '  %0x = f32[2]{0} copy(%p0)',
      '  ROOT %r = f32[2]{0} copy(%p0)',
      '}',
      '',
    ].join('\n');
    const diags = await client.open('file:///w/plain-module.hlo', text);
    assert.deepEqual(
      diags
        .filter((d) => d.severity === DiagnosticSeverity.Error)
        .map((d) => [d.code, d.message])
        .sort(),
      [
        ['invalid-name', '`%0x` is no name: a name starts with a letter or _ — XLA: expects name'],
        [
          'literal-out-of-range',
          "1000 does not fit in s8, which holds -128 to 127 — XLA: value 1000 is out of range for literal's primitive type S8 namely [-128, 127].",
        ],
        [
          'root-shape-mismatch',
          'the computation is declared to return s32[2], but its ROOT a1 is f32[2] — XLA: Shape of computation c, s32[2], is not compatible with that of its root instruction a1, f32[2]',
        ],
        [
          'unknown-opcode',
          '`bb` is no opcode, and no shape stands before it — XLA: expects opcode but sees: bb, error: Unknown opcode: bb',
        ],
      ],
    );
  });

  it('links codes to the rules page the client names, and refuses what is not a document URI', async () => {
    const linkOf = async (rulesDocUri: unknown) => {
      const { client: other } = await TestClient.start({}, { rulesDocUri });
      try {
        const diags = await other.open('file:///w/invalid.hlo', invalid);
        return diags[0].codeDescription?.href;
      } finally {
        await other.dispose();
      }
    };
    const installed = 'vscode-remote://host/ext/xla-layout-lens/docs/rules.md';
    assert.equal(await linkOf(installed), `${installed}#tile-negative`);
    assert.equal(
      await linkOf('javascript:alert(1)'),
      'https://github.com/xla-layout-lens/xla-layout-lens/blob/main/docs/rules.md#tile-negative',
    );
    assert.equal(
      await linkOf(42),
      'https://github.com/xla-layout-lens/xla-layout-lens/blob/main/docs/rules.md#tile-negative',
    );
  });

  it('warns about excessive padding on the result shape and names the dimension', async () => {
    const diags = await client.open('file:///w/padded.after_optimizations.hlo', padded);
    const lines = diags.map((d) => d.range.start.line);
    // %Arg_0, %fusion, ROOT %copy: every f32[65536,4] buffer; not the operand annotations, nor
    // the values inside %fused_add (its parameters are %Arg_0, its root is %fusion's buffer).
    assert.deepEqual(lines, [9, 12, 13]);
    for (const d of diags) {
      assert.equal(d.code, 'padding-overhead');
      assert.equal(d.severity, DiagnosticSeverity.Warning);
      // On the layout, which is what pads: the hover on the type and dimensions opens on its answer.
      assert.equal(textOf(padded, d.range), '{1,0:T(8,128)}');
      assert.match(d.message, /32x/);
      assert.match(d.message, /1 MiB logical → 32 MiB physical \(32,505,856 bytes of padding\)/);
      assert.match(d.message, /dim 1 \(size 4, minor-most\): tile \(8,128\) pads 4 to 128/);
      // The fix too, briefly: the Problems list is where a dump's many warnings are read.
      assert.match(d.message, /\. Fix: use minor_to_major \{0,1\} instead of \{1,0\}, saving 30 MiB\.$/);
    }
  });

  it('publishes the version it analysed and clears on close', async () => {
    await client.open('file:///w/invalid.hlo', invalid);
    await client.close('file:///w/invalid.hlo');
    assert.deepEqual(client.diagnostics('file:///w/invalid.hlo'), []);
  });

  for (const file of readdirSync(CORPUS).filter((f) => f.endsWith('.hlo'))) {
    it(`reports nothing on the valid corpus file ${file}`, async () => {
      const text = readFileSync(join(CORPUS, file), 'utf8');
      const diags = await client.open(`file:///corpus/${file}`, text);
      assert.deepEqual(summary(text, diags), []);
    });
  }
});

describe('server: diagnostic settings', () => {
  it('applies severity overrides, including off and hint', async () => {
    const { client } = await TestClient.start({
      diagnostics: {
        severity: {
          'tile-empty': 'off',
          'tile-negative': 'hint',
          'minor-to-major-duplicate': 'warning',
          bogus: 'error',
        },
      },
    });
    const diags = await client.open('file:///w/invalid.hlo', invalid);
    assert.deepEqual(
      diags.map((d) => [d.code, d.severity]),
      [
        ['tile-negative', DiagnosticSeverity.Hint],
        ['minor-to-major-duplicate', DiagnosticSeverity.Warning],
      ],
    );
    await client.dispose();
  });

  it('uses the padding thresholds: expansion and wasted bytes', async () => {
    const strict = await TestClient.start({ padding: { warnExpansion: 64 } });
    assert.deepEqual(await strict.client.open('file:///w/p.hlo', padded), []);
    await strict.client.dispose();
    const lax = await TestClient.start({ padding: { warnExpansion: 1.5, warnMinWastedBytes: 0 } });
    const diags = await lax.client.open('file:///w/p.hlo', padded);
    // Now also the small f32[3,5]{1,0:T(2,2)} (60 B → 96 B, 1.6x) warns.
    assert.deepEqual(
      summary(padded, diags).filter((s) => s[2] === 11),
      [['padding-overhead', '{1,0:T(2,2)}', 11]],
    );
    await lax.client.dispose();
  });

  it('re-publishes when the configuration changes', async () => {
    const { client } = await TestClient.start();
    const uri = 'file:///w/invalid.hlo';
    assert.equal((await client.open(uri, invalid)).length, 4);
    client.settings = { diagnostics: { severity: { 'tile-empty': 'off' } } };
    const next = client.waitFor(uri, (p) => p.diagnostics.length === 2);
    await client.rpc.sendNotification('workspace/didChangeConfiguration', { settings: null });
    assert.deepEqual(
      (await next).diagnostics.map((d) => d.code),
      ['tile-negative', 'minor-to-major-duplicate'],
    );
    await client.dispose();
  });

  it('labels padding under the assumed TPU tiling', async () => {
    const { client } = await TestClient.start({ assumedTiling: 'tpu' });
    const text =
      'HloModule m\n\nENTRY %e () -> f32[262144,2] {\n  ROOT %c = f32[262144,2]{1,0} constant({...})\n}\n';
    const diags = await client.open('file:///w/assumed.hlo', text);
    assert.equal(diags.length, 1);
    assert.equal(textOf(text, diags[0].range), '{1,0}');
    // Compact second-minor does not apply (262144 rows); (8,128) pads 2 → 128: 64x.
    assert.match(diags[0].message, /^Assumed TPU 32-bit: \(8,128\): padding makes this array 64x its size/);
    await client.dispose();
  });
});
