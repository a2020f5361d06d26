/**
 * The server agrees with `check` on layouts XLA does not validate (signatures, operands' declared
 * shapes, operand_layout_constraints): a warning there, an error where XLA validates. Over LSP, on
 * the cases test/core/unchecked-layouts.test.ts runs through the streaming check, both through the
 * lean first pass and the full per-statement analysis. A hover on the shape says the same.
 */
import { strict as assert } from 'node:assert';
import { DiagnosticSeverity, type Hover, type MarkupContent } from 'vscode-languageserver';
import { AnalyzeShapeRequest } from '../../protocol/src/lsp';
import { TestClient } from './harness';
import { UNCHECKED_LAYOUT_CASES } from '../support/unchecked-layout-cases';

describe('server: layouts XLA does not check', () => {
  let client: TestClient;
  before(async () => {
    ({ client } = await TestClient.start());
  });
  after(async () => {
    await client.dispose();
  });

  UNCHECKED_LAYOUT_CASES.forEach((c, i) =>
    it(`${c.severity === 'warning' ? 'warns on' : 'reports an error on'} an invalid layout in ${c.what}`, async () => {
      const diags = await client.open(`file:///w/unchecked-${i}.hlo`, c.text);
      assert.deepEqual(
        diags.map((d) => ({ code: String(d.code), severity: d.severity, line: d.range.start.line })),
        [
          {
            code: c.code,
            severity: c.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
            line: c.line,
          },
        ],
      );
      if (c.severity === 'warning')
        assert.match(diags[0].message, /XLA does not check .*; on an instruction it would reject this one: /);
    }),
  );

  UNCHECKED_LAYOUT_CASES.forEach((c, i) =>
    it(`a hover on the shape agrees: ${c.what}`, async () => {
      const uri = `file:///w/unchecked-hover-${i}.hlo`;
      const [d] = await client.open(uri, c.text);
      // On the array's element type: a hover of the whole shape, not of one part of its layout.
      const line = c.text.split('\n')[c.line];
      const position = { line: c.line, character: line.lastIndexOf('f32[', d.range.start.character) + 1 };
      const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position });
      const first = (h.contents as MarkupContent).value.split('\n')[0];
      // Its first line quotes the diagnostic, Markdown escapes aside.
      assert.ok(first.replace(/\\/g, '').includes(d.message), `${first}\n${d.message}`);
      if (c.severity === 'warning') assert.match(first, /^\*\*Invalid layout, which XLA accepts here:\*\* /);
      else assert.match(first, /^\*\*Invalid layout:\*\* /);
      // xlaLayout/analyzeShape too.
      const a = await client.request(AnalyzeShapeRequest, { textDocument: { uri }, position });
      assert.deepEqual(
        a?.analysis.diagnostics.map((x) => [x.code, x.severity, x.message]),
        [[c.code, c.severity, d.message]],
      );
      assert.equal(a?.analysis.hasErrors, c.severity === 'error');
    }),
  );
});
