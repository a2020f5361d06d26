import { randomBytes } from 'crypto';
import { readFileSync } from 'fs';
const wrap = (body) =>
  `HloModule m\n\nENTRY %main () -> f32[] {\n${body}\n  ROOT %c = f32[] constant(1)\n}\n`;
function prng(seed) {
  let x = seed >>> 0;
  return () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
export const DOCS = {
  example: () => readFileSync(new URL('../../examples/tpu_padding.hlo', import.meta.url), 'utf8'),
  binary: () => {
    const r = prng(1);
    let s = '';
    for (let i = 0; i < 200000; i++) s += String.fromCharCode((r() * 256) | 0);
    return s;
  },
  nul: () => wrap('  %p = f32[2\0,3]{1,0\0} parameter(0)\0\0'),
  surrogates: () =>
    wrap(
      '  %p\uD800 = f32[2,3]{1,0} parameter(0) // \uDC00\uD83D\n  %q = f32[\uD83D\uDE00] parameter(1)\n  %\uD83D\uDE00 = f32[2]{0:T(\uDFFF)} parameter(2)',
    ),
  longline: () => wrap('  %p = f32[2,3]{1,0} parameter(0), metadata={op_name="' + 'a'.repeat(100000) + '"}'),
  longline2: () =>
    wrap('  %p = (' + Array(10000).fill('f32[8,3]{1,0:T(8,128)}').join(', ') + ') parameter(0)'),
  millionLines: () => {
    const a = ['HloModule m', '', 'ENTRY %main () -> f32[] {'];
    for (let i = 0; i < 1000000; i++) a.push('');
    a.push('  ROOT %c = f32[] constant(1)', '}');
    return a.join('\n');
  },
  millionInstr: () => {
    const a = ['HloModule m', '', 'ENTRY %main () -> f32[] {'];
    for (let i = 0; i < 300000; i++) a.push(`  %p${i} = f32[8,3]{1,0:T(8,128)} parameter(${i})`);
    a.push('  ROOT %c = f32[] constant(1)', '}');
    return a.join('\n');
  },
  deepTuple: () => wrap('  %p = ' + '('.repeat(10000) + 'f32[2]' + ')'.repeat(10000) + ' parameter(0)'),
  deepTuple8k: () =>
    wrap('  %p = ' + '('.repeat(8000) + 'f32[2]{0:T(128)}' + ')'.repeat(8000) + ' parameter(0)'),
  deepBraces: () => wrap('  %p = f32[2]' + '{'.repeat(10000) + '}'.repeat(10000) + ' parameter(0)'),
  deepParens: () => wrap('  %p = f32[2] custom-call' + '('.repeat(10000) + ')'.repeat(10000)),
  deepAttr: () => wrap('  %p = f32[2] parameter(0), backend_config=' + '{'.repeat(10000) + '}'.repeat(10000)),
  deepComments: () => wrap('  %p = f32[2] parameter(0) ' + '/*'.repeat(10000) + '*/'.repeat(10000)),
  unclosedComment: () => wrap('  %p = f32[2] parameter(0) /*' + 'x'.repeat(52e6)),
  unclosedString: () => wrap('  %p = f32[2] parameter(0), metadata={op_name="' + 'x'.repeat(52e6)),
  hugeDims: () =>
    wrap(
      [
        '9223372036854775807',
        '9223372036854775808',
        '18446744073709551616',
        '4294967296,4294967296,4294967296',
        '9223372036854775807,9223372036854775807',
        '99999999999999999999999999999999999999',
        '-9223372036854775808',
        '1e308',
        '0x10',
      ]
        .map(
          (d, i) =>
            `  %p${i} = f32[${d}]{${d
              .split(',')
              .map((_, j, a) => a.length - 1 - j)
              .join(',')}:T(8,128)} parameter(${i})`,
        )
        .join('\n'),
    ),
  hugeTiles: () =>
    wrap(
      `  %p = f32[3,5]{1,0:T(9223372036854775807,9223372036854775807)(4294967296)} parameter(0)\n  %q = f32[9223372036854775807]{0:T(9223372036854775807)(2)L(9223372036854775807)} parameter(1)\n  %r = f32[1]{0:T(1)E(999999999999)S(99999999999999999999)} parameter(2)`,
    ),
  manyDiags: () => {
    const a = ['HloModule m', '', 'ENTRY %main () -> f32[] {'];
    for (let i = 0; i < 200000; i++) a.push(`  %p${i} = f32[2,2]{0,0} parameter(${i})`);
    a.push('  ROOT %c = f32[] constant(1)', '}');
    return a.join('\n');
  },
  manyDiagsOneLine: () =>
    'HloModule m\n\nENTRY %main () -> f32[] {\n ' + Array(200000).fill('f32[2]{0,0}').join(' ') + '\n}\n',
};
