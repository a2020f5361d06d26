import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  copyDiagnostic,
  movedDiagnostic,
  RULES,
  type LayoutDiagnostic,
  type RuleCode,
  type Severity,
} from '../../core/src/diagnostics';

const range = fc
  .tuple(fc.nat(1000), fc.nat(1000))
  .map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) }));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Diagnostics with any mix of the optional fields, present or absent (never present as undefined). */
const diagnosticArb: fc.Arbitrary<LayoutDiagnostic> = fc
  .record({
    code: fc.constantFrom(...(Object.keys(RULES) as RuleCode[])),
    severity: fc.constantFrom<Severity>('error', 'warning', 'information'),
    message: fc.string(),
    range,
    plain: optional(fc.string()),
    expected: optional(fc.constantFrom('(', ')', ',')),
    related: optional(fc.array(fc.record({ range, message: fc.string() }), { maxLength: 2 })),
  })
  .map(
    (d) =>
      Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as unknown as LayoutDiagnostic,
  );

describe('copyDiagnostic', () => {
  it('equals the spread copy with the same fields replaced (seeded)', () => {
    fc.assert(
      fc.property(
        diagnosticArb,
        range,
        optional(fc.string()),
        optional(fc.string()),
        (d, r, message, plain) => {
          assert.deepStrictEqual(copyDiagnostic(d, r), { ...d, range: r });
          const replaced = copyDiagnostic(d, r, message, plain);
          const expected: Record<string, unknown> = { ...d, range: r, message: message ?? d.message };
          if (plain !== undefined) expected.plain = plain;
          assert.deepStrictEqual(replaced, expected);
          // The source is left as it was.
          assert.notEqual(replaced, d);
        },
      ),
    );
  });

  it('movedDiagnostic moves the range and every related place by the same offset (seeded)', () => {
    fc.assert(
      fc.property(diagnosticArb, fc.integer({ min: -500, max: 500 }), (d, by) => {
        const move = (r: { start: number; end: number }) => ({ start: r.start + by, end: r.end + by });
        const expected: Record<string, unknown> = { ...d, range: move(d.range) };
        if (d.related) expected.related = d.related.map((p) => ({ ...p, range: move(p.range) }));
        assert.deepStrictEqual(movedDiagnostic(d, by), expected);
      }),
    );
  });
});
