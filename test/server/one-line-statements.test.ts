/**
 * Statements XLA reads one after another on one line (its parser is token based: line breaks do
 * not matter), over the real protocol: a second instruction after an instruction, and a second
 * computation after a `}`, get their diagnostics, hovers, outline, definitions and references.
 */
import { strict as assert } from 'node:assert';
import type { Diagnostic, DocumentSymbol, Hover, Location } from 'vscode-languageserver';
import { positionOf, TestClient, textOf } from './harness';

describe('server: statements after the first on a line', () => {
  let client: TestClient;
  before(async () => {
    ({ client } = await TestClient.start());
  });
  after(async () => {
    await client.dispose();
  });

  const at = (uri: string, text: string, needle: string, delta = 0, occurrence = 0) => ({
    textDocument: { uri },
    position: positionOf(text, needle, delta, occurrence),
  });
  const where = (text: string, ds: readonly Diagnostic[]) =>
    ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${textOf(text, d.range)} ${d.code}`);

  it("reports a second instruction's layout and opcode errors, hovers its shape and finds its name", async () => {
    const uri = 'file:///w/second-instruction.hlo';
    const text =
      'HloModule m\n\nENTRY %e {\n  %a = f32[2]{0} parameter(0) %b = f32[2]{0} negate(%a), metadata={op_name="x"} %c = f32[2]{1} negate(%b)\n' +
      '  ROOT %r = f32[2]{0} add(%a, %c)\n}\n';
    const diagnostics = await client.open(uri, text);
    assert.deepEqual(where(text, diagnostics), ['3:92 1 minor-to-major-out-of-bounds']);
    const hover = await client.request<Hover>('textDocument/hover', at(uri, text, 'f32[2]{1}', 2));
    assert.match(JSON.stringify(hover.contents), /Result of `%c`/);
    const defs = await client.request<Location[]>('textDocument/definition', at(uri, text, '%c)', 1));
    assert.deepEqual(
      defs.map((d) => [textOf(text, d.range), d.range.start.line, d.range.start.character]),
      [['c', 3, 81]],
    );
    const refs = await client.request<Location[]>('textDocument/references', {
      ...at(uri, text, '%b = ', 1),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      refs.map((r) => [r.range.start.line, r.range.start.character]),
      [[3, 103]],
    );
    const typo = text.replace('%b = f32[2]{0} negate', '%b = f32[2]{0} negte');
    const refused = await client.open('file:///w/second-typo.hlo', typo);
    assert.deepEqual(where(typo, refused), [
      '3:45 negte unknown-opcode',
      '3:91 1 minor-to-major-out-of-bounds',
    ]);
  });

  it('outlines two computations on one line and finds their names', async () => {
    const uri = 'file:///w/two-computations.hlo';
    const text =
      'HloModule m\n\n%c (x: f32[]) -> f32[] { ROOT %x = f32[] parameter(0) } ENTRY %e { %a = f32[] parameter(0)\n' +
      ' ROOT %r = f32[] call(%a), to_apply=%c }\n';
    assert.deepEqual(await client.open(uri, text), []);
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
      textDocument: { uri },
    });
    const outline = (ss: readonly DocumentSymbol[] | undefined): unknown =>
      (ss ?? []).map((s) => [s.name, textOf(text, s.selectionRange), outline(s.children)]);
    assert.deepEqual(outline(symbols), [
      [
        'm',
        'm',
        [
          ['c', 'c', [['x', 'x', []]]],
          [
            'e',
            'e',
            [
              ['a', 'a', []],
              ['r', 'r', []],
            ],
          ],
        ],
      ],
    ]);
    const defs = await client.request<Location[]>(
      'textDocument/definition',
      at(uri, text, 'to_apply=%c', 10),
    );
    assert.deepEqual(
      defs.map((d) => [textOf(text, d.range), d.range.start.line, d.range.start.character]),
      [['c', 2, 1]],
    );
    const refs = await client.request<Location[]>('textDocument/references', {
      ...at(uri, text, '%a = ', 1),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(refs.map((r) => [textOf(text, r.range), r.range.start.line]).sort(), [
      ['a', 2],
      ['a', 3],
    ]);
    const comp = await client.request<Location[]>('textDocument/references', {
      ...at(uri, text, '%c (', 1),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      comp.map((r) => [textOf(text, r.range), r.range.start.line]),
      [['c', 3]],
    );
  });
});
