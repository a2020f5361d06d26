/**
 * The server agrees with `check` on layouts XLA does not validate (signatures, operands' declared
 * shapes, operand_layout_constraints): a warning there, an error where XLA validates. Over LSP, on
 * the cases test/core/unchecked-layouts.test.ts runs through the streaming check, both through the
 * lean first pass and the full per-statement analysis.
 */
import { strict as assert } from 'node:assert';
import { DiagnosticSeverity } from 'vscode-languageserver';
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
});
