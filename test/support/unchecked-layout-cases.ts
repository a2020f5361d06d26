/**
 * Modules with an invalid layout where XLA parses a shape but never validates its layout (a
 * computation's signature, an operand's declared shape, operand_layout_constraints), and the same
 * layouts where XLA does validate them. XLA (jaxlib 0.10.2) accepts the first kind and rejects the
 * second; `check` and the server must warn on the first and report an error on the second.
 */

export interface UncheckedLayoutCase {
  readonly what: string;
  readonly text: string;
  /** The one diagnostic expected: its code, severity and 0-based line. */
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly line: number;
}

function entry(header: string, body: string): string {
  return `HloModule m\n\nENTRY %e${header} {\n  %a = f32[2,3]{1,0} parameter(0)\n${body}\n}\n`;
}

const COPY = '  ROOT %r = f32[2,3]{1,0} copy(%a)';

export const UNCHECKED_LAYOUT_CASES: readonly UncheckedLayoutCase[] = [
  {
    what: 'a parameter of the ENTRY signature',
    text: entry(' (a: f32[2,3]{1,1}) -> f32[2,3]', COPY),
    code: 'minor-to-major-duplicate',
    severity: 'warning',
    line: 2,
  },
  {
    what: "the signature's result",
    text: entry(' (a: f32[2,3]) -> f32[2,3]{2,0}', COPY),
    code: 'minor-to-major-out-of-bounds',
    severity: 'warning',
    line: 2,
  },
  {
    what: 'a signature with a comment in it (not in its plain form)',
    text: entry(' (a: f32[2,3]{1,0:T()} /* a */) -> f32[2,3]', COPY),
    code: 'tile-empty',
    severity: 'warning',
    line: 2,
  },
  {
    what: 'the signature of a called computation',
    text:
      'HloModule m\n\n%c (x: f32[2,3]{1,0:T(0,128)}) -> f32[2,3] {\n  %x = f32[2,3]{1,0} parameter(0)\n' +
      '  ROOT %y = f32[2,3]{1,0} copy(%x)\n}\n\n' +
      entry(' (a: f32[2,3]) -> f32[2,3]', '  ROOT %r = f32[2,3]{1,0} call(%a), to_apply=%c').replace(
        'HloModule m\n\n',
        '',
      ),
    code: 'tile-dimension-invalid',
    severity: 'warning',
    line: 2,
  },
  {
    what: "an operand's declared shape",
    text: entry('', '  ROOT %r = f32[2,3]{1,0} copy(f32[2,3]{1,0:E(-1)} %a)'),
    code: 'element-size-negative',
    severity: 'warning',
    line: 4,
  },
  {
    what: 'operand_layout_constraints',
    text: entry(
      '',
      '  ROOT %r = f32[2,3]{1,0} custom-call(%a), custom_call_target="foo", operand_layout_constraints={f32[2,3]{1,1}}',
    ),
    code: 'minor-to-major-duplicate',
    severity: 'warning',
    line: 4,
  },
  {
    what: "an instruction's result (XLA checks it)",
    text: entry('', '  ROOT %r = f32[2,3]{1,1} copy(%a)'),
    code: 'minor-to-major-duplicate',
    severity: 'error',
    line: 4,
  },
  {
    what: 'outfeed_shape (XLA checks it)',
    text: entry(
      '',
      '  %t = token[] after-all()\n  ROOT %o = token[] outfeed(%a, %t), outfeed_shape=f32[2,3]{1,1}',
    ),
    code: 'minor-to-major-duplicate',
    severity: 'error',
    line: 5,
  },
  {
    what: 'entry_computation_layout (XLA checks it)',
    text: entry('', COPY).replace(
      'HloModule m',
      'HloModule m, entry_computation_layout={(f32[2,3]{1,1})->f32[2,3]{1,0}}',
    ),
    code: 'minor-to-major-duplicate',
    severity: 'error',
    line: 0,
  },
  {
    what: "a tuple in a signature (XLA's parser checks a tuple's elements)",
    text: entry(' (a: (f32[2,3]{1,1})) -> f32[2,3]', COPY)
      .replace('f32[2,3]{1,0} parameter', '(f32[2,3]) parameter')
      .replace('copy(%a)', 'get-tuple-element(%a), index=0'),
    code: 'minor-to-major-duplicate',
    severity: 'error',
    line: 2,
  },
  {
    what: "a signature layout XLA's parser refuses (too few minor_to_major entries)",
    text: entry(' (a: f32[2,3]{1}) -> f32[2,3]', COPY),
    code: 'rank-mismatch',
    severity: 'error',
    line: 2,
  },
];
