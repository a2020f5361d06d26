import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { Analyzer } from '../../server/src/analyzer';
import { HloDocument } from '../../server/src/document';
import { DIAGNOSTIC_SOURCE, documentDiagnostics } from '../../server/src/lsp-diagnostics';
import { readSettingsSection } from '../../protocol/src/settings';

const RULES = 'https://example.invalid/rules.md';

/** The cap as a second step over the whole list: the reference the streaming cap must equal. */
function capped(all: Diagnostic[], max: number, maxErrors: number): Diagnostic[] {
  const errors = all.filter((d) => d.severity === DiagnosticSeverity.Error);
  const others = all.filter((d) => d.severity !== DiagnosticSeverity.Error);
  const kept = all.filter((d) =>
    d.severity === DiagnosticSeverity.Error ? errors.indexOf(d) < maxErrors : others.indexOf(d) < max,
  );
  const moreErrors = errors.length - maxErrors;
  if (moreErrors > 0)
    kept.push({
      range: errors[maxErrors].range,
      severity: DiagnosticSeverity.Error,
      source: DIAGNOSTIC_SOURCE,
      message: `${moreErrors.toLocaleString('en-US')} more error${moreErrors === 1 ? '' : 's'} in this file are not listed, from here on: at most ${maxErrors.toLocaleString('en-US')} are (setting xlaLayout.diagnostics.maxErrors). \`xla-layout check\` lists them all.`,
    });
  const more = others.length - max;
  if (more > 0)
    kept.push({
      range: others[max].range,
      severity: DiagnosticSeverity.Information,
      source: DIAGNOSTIC_SOURCE,
      message: `${more.toLocaleString('en-US')} more warning${more === 1 ? '' : 's'} and notes in this file are not listed, from here on: at most ${max.toLocaleString('en-US')} are (setting xlaLayout.diagnostics.maxWarnings).${moreErrors > 0 ? '' : ' Every error is listed.'}`,
    });
  return kept;
}

/** Instruction lines: a padding warning, an error, two padding warnings, another warning, nothing. */
const LINE = fc.constantFrom(
  (i: number) => `  p${i} = f32[8,4]{1,0:T(8,128)} parameter(${i})`,
  (i: number) => `  s${i} = f32[2]{0:S(200)} parameter(${i})`,
  (i: number) => `  e${i} = f32[2]{5} parameter(${i})`,
  (i: number) => `  t${i} = (f32[8,4]{1,0:T(8,128)}, s8[3]{0:T(256)}) parameter(${i})`,
  (i: number) => `  q${i} = f32[8,128]{1,0} parameter(${i})`,
);
const SEVERITY = fc.constantFrom(undefined, 'off', 'error', 'warning', 'information', 'hint');

describe('the published diagnostics cap', () => {
  it('equals capping the whole list, with severity overrides and after edits (seeded)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(LINE, { minLength: 1, maxLength: 40 }),
        fc.nat(12),
        fc.integer({ min: 1, max: 12 }),
        SEVERITY,
        fc.tuple(LINE, fc.nat(), fc.nat()),
        async (lines, max, maxErrors, padding, [inserted, at, removed]) => {
          const text = `HloModule m\n\nENTRY e {\n${lines.map((l, i) => l(i)).join('\n')}\n  ROOT r = f32[] constant(0)\n}\n`;
          const section = (maxWarnings: number, errors: number) => ({
            padding: { warnMinWastedBytes: 0 },
            diagnostics: {
              maxWarnings,
              maxErrors: errors,
              ...(padding === undefined ? {} : { severity: { 'padding-overhead': padding } }),
            },
          });
          const settings = readSettingsSection(section(max, maxErrors)).settings;
          const all = readSettingsSection(section(1_000_000_000, 1_000_000_000)).settings;
          const doc = new HloDocument('file:///w/cap.hlo', 'hlo', 1, text, new Analyzer(settings));
          await doc.analyze(() => Promise.resolve());
          // The same document asked with other severity overrides in between is marked again.
          const plain = readSettingsSection({
            padding: { warnMinWastedBytes: 0 },
            diagnostics: { maxWarnings: max, maxErrors },
          }).settings;
          const plainAll = readSettingsSection({
            padding: { warnMinWastedBytes: 0 },
            diagnostics: { maxWarnings: 1_000_000_000, maxErrors: 1_000_000_000 },
          }).settings;
          const check = () => {
            assert.deepEqual(
              documentDiagnostics(doc, settings, RULES),
              capped(documentDiagnostics(doc, all, RULES), max, maxErrors),
            );
            assert.deepEqual(
              documentDiagnostics(doc, plain, RULES),
              capped(documentDiagnostics(doc, plainAll, RULES), max, maxErrors),
            );
          };
          check();
          // A line that may hold diagnostics put among the instructions (every line below moves),
          // then one of them taken out.
          const line = (n: number) => ({ line: 3 + (n % lines.length), character: 0 });
          doc.applyChanges([{ range: { start: line(at), end: line(at) }, text: `${inserted(99)}\n` }], 2);
          check();
          doc.applyChanges([{ range: { start: line(removed), end: line(removed + 1) }, text: '' }], 3);
          check();
        },
      ),
      { numRuns: 300 },
    );
  });
});
