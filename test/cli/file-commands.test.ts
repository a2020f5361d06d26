import { strict as assert } from 'node:assert';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliAndTempDir, cli } from './run-cli';
import { CORPUS_HLO_DIR, SHARED_CORPUS } from '../support/corpus';

const CORPUS = CORPUS_HLO_DIR;

describe('cli: check and report', function () {
  this.timeout(120_000);
  let dir: string;
  useCliAndTempDir('xla-layout-cli-', (d) => (dir = d));

  it('check reports the invalid example like a compiler and exits 1', () => {
    const r = cli('check', 'examples/invalid_layouts.hlo');
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/: error: .*\[/, ': error: … [')),
      [
        'examples/invalid_layouts.hlo:9:27: error: … [tile-negative]',
        'examples/invalid_layouts.hlo:10:27: error: … [minor-to-major-duplicate]',
        'examples/invalid_layouts.hlo:11:30: error: … [tile-empty]',
        'examples/invalid_layouts.hlo:12:30: error: … [minor-to-major-out-of-bounds]',
      ],
    );
    assert.equal(r.stderr, '4 errors, 0 warnings in 6 shapes\n');
  });

  it('check --json gives line, column and end of each diagnostic', () => {
    const r = cli('check', '--json', 'examples/invalid_layouts.hlo');
    const j = JSON.parse(r.stdout) as {
      files: { diagnostics: Record<string, unknown>[] }[];
      errors: number;
      warnings: number;
    };
    assert.equal(r.code, 1);
    assert.equal(j.errors, 4);
    assert.equal(j.warnings, 0);
    const { message, ...first } = j.files[0]?.diagnostics[0] ?? {};
    assert.deepEqual(first, {
      line: 9,
      column: 27,
      endLine: 9,
      endColumn: 29,
      severity: 'error',
      code: 'tile-negative',
    });
    assert.match(
      String(message),
      /^negative tile size -1 makes XLA abort: write `\*` to combine dimensions, or a positive size — XLA: Tile dimension size needs to be minimum int64_t value if it's negative\. Value is -1$/,
    );
  });

  it('check passes every corpus file and every valid example with exit 0 and no output', () => {
    const files = readdirSync(CORPUS)
      .filter((f) => f.endsWith('.hlo'))
      .map((f) => join(CORPUS, f));
    const examples = [
      'examples/tpu_padding.hlo',
      'examples/seed_figures.hlo',
      'examples/subbyte_memory_spaces.hlo',
      'examples/module_0001.jit_train_step.after_optimizations.txt',
    ];
    // Without padding warnings (tpu_padding.hlo has three: test/cli/check-padding.test.ts).
    const r = cli('check', ...files, ...examples);
    assert.equal(r.stdout, '');
    assert.equal(r.code, 0, r.stderr);
  });

  it("check reports names as XLA's parser does in files of up to 1,000,000 bytes, in line order with the layout diagnostics", () => {
    const text = [
      'HloModule names',
      'ENTRY %main (p: f32[8]) -> f32[8] {',
      '  %p = f32[8]{0} parameter(0)',
      '  %n = f32[8]{0} negate(%q)',
      '  %bad = f32[2,2]{0,0} copy(%n)',
      '  ROOT %r = f32[8]{0} call(%n), to_apply=%later',
      '}',
      '%later (x: f32[8]) -> f32[8] {',
      '  ROOT %x = f32[8]{0} parameter(0)',
      '}',
    ].join('\n');
    const file = join(dir, 'names.hlo');
    writeFileSync(file, text);
    const expected = [
      `${file}:4:26: error: \`%q\` is not defined in this computation — XLA: instruction does not exist: q [instruction-undefined]`,
      `${file}:5:21: error: minor_to_major names dimension 0 twice: list each dimension once — XLA: layout minor_to_major field has duplicate values: {0, 0}; shape: f32[2,2] [minor-to-major-duplicate]`,
      `${file}:6:43: error: \`%later\` is defined further down: XLA's parser knows a computation only after its closing \`}\`, so move it above this use — XLA: computation does not exist: later [computation-undefined]`,
    ];
    for (const jobs of [[], ['--jobs', '2']]) {
      const r = cli('check', ...jobs, file);
      assert.equal(r.code, 1);
      assert.deepEqual(r.stdout.trimEnd().split('\n'), expected);
      assert.equal(r.stderr, '3 errors, 0 warnings in 9 shapes\n');
    }
    const j = JSON.parse(cli('check', '--json', file).stdout) as {
      files: { diagnostics: { line: number; column: number; endColumn: number; code: string }[] }[];
      errors: number;
    };
    assert.equal(j.errors, 3);
    assert.deepEqual(j.files[0].diagnostics[0], {
      ...j.files[0].diagnostics[0],
      line: 4,
      column: 26,
      endColumn: 27,
      code: 'instruction-undefined',
    });
    // Past the limit (a long comment before it), the same module gets layout checks only.
    const large = join(dir, 'names-large.hlo');
    writeFileSync(large, `// ${'x'.repeat(1_000_000)}\n${text}`);
    assert.deepEqual(cli('check', large).stdout.trimEnd().split('\n'), [
      `${large}:6:21: error: minor_to_major names dimension 0 twice: list each dimension once — XLA: layout minor_to_major field has duplicate values: {0, 0}; shape: f32[2,2] [minor-to-major-duplicate]`,
    ]);
  });

  it('check reports operand counts in files of any size, declared operand shapes up to the name checks limit', () => {
    const text = [
      'HloModule counts',
      'ENTRY %main {',
      '  %p = f32[8]{0} parameter(0)',
      '  %n = f32[8]{0} negate(f32[4]{0} %p)',
      '  %t = (f32[8], f32[8]) tuple(%p, %n, %p)',
      '  ROOT %r = f32[8]{0} add(%p, %n, %t)',
      '}',
    ].join('\n');
    const counts = (file: string) => [
      `${file}:5:30: error: this \`tuple\`'s shape holds two elements, so it takes 2 operands; this one has 3 — XLA: expects 2 operands, but has 3 operands [operand-count]`,
      `${file}:6:26: error: \`add\` takes 2 operands; this one has 3 — XLA: expects 2 operands, but has 3 operands [operand-count]`,
    ];
    const file = join(dir, 'counts.hlo');
    writeFileSync(file, text);
    const r = cli('check', file);
    assert.equal(r.code, 1);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      `${file}:4:25: error: \`%p\` is written here as f32[4], but its definition makes it f32[8]: write the shape it has, or leave the annotation out — XLA: The declared operand shape f32[4]{0} is not compatible with the shape of the operand instruction f32[8]{0}. [operand-shape-mismatch]`,
      ...counts(file),
    ]);
    // Past the name checks' limit the counts are still checked: each needs only its statement.
    const large = join(dir, 'counts-large.hlo');
    writeFileSync(large, `// ${'x'.repeat(1_000_000)}\n${text}`);
    assert.deepEqual(
      cli('check', large).stdout.trimEnd().split('\n'),
      counts(large).map((l) => l.replace(/:(\d+):/, (_, n: string) => `:${Number(n) + 1}:`)),
    );
  });

  it('check reports an operand not defined alone where XLA meets it before the operand count, counting one error', () => {
    const text = [
      'HloModule first',
      'ENTRY %main {',
      '  %p = f32[] parameter(0)',
      '  %a = f32[] add(%p, %nope, %p)',
      '  ROOT %r = f32[] add(%p, %a, %p), control-predecessors={%nope}',
      '}',
    ].join('\n');
    const file = join(dir, 'first.hlo');
    writeFileSync(file, text);
    const r = cli('check', file);
    assert.equal(r.code, 1);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      `${file}:4:23: error: \`%nope\` is not defined in this computation — XLA: instruction does not exist: nope [instruction-undefined]`,
      `${file}:5:22: error: \`add\` takes 2 operands; this one has 3 — XLA: expects 2 operands, but has 3 operands [operand-count]`,
    ]);
    assert.equal(r.stderr, '2 errors, 0 warnings in 3 shapes\n');
  });

  it('check streams: lines and columns stay exact across read boundaries, multi-line statements and ASCII/UTF-8 reads', () => {
    const filler =
      '  %a.1 = bf16[8,256]{1,0:T(8,128)(2,1)} add(bf16[8,256]{1,0:T(8,128)(2,1)} %x, bf16[8,256]{1,0} %y), metadata={op_name="jit(f)/add"}';
    const lines = [
      'HloModule big, entry_computation_layout={(',
      '  f32[8]{0:T(128)},',
      '  f32[8]{0:T(128)}',
      ')->f32[8]{0}}',
      'ENTRY %main {',
    ];
    const bad: [number, number][] = [];
    // ~3.5 MiB: dozens of read boundaries; a bad shape every 7000 lines and a 3-line instruction every
    // 5001. The last bad line carries UTF-8 before the shape (7 bytes, 5 UTF-16 units): its read is
    // decoded as UTF-8, the others (pure ASCII) as Latin-1, and columns count UTF-16 units in both.
    for (let i = 0; lines.length < 26_000; i++) {
      if (i % 7000 === 6999) {
        const utf8 = lines.length > 20_000;
        lines.push(
          utf8 ? '  /*größe*/ %bad = f32[2,2]{0,0} copy(%a.1)' : '  %bad = f32[2,2]{0,0} copy(%a.1)',
        );
        bad.push([lines.length, utf8 ? 31 : 21]);
      } else if (i % 5001 === 5000) {
        lines.push(
          '  %m = (f32[2]{0},',
          '        s32[]) custom-call(f32[2]{0} %a.1),',
          '        custom_call_target="x"',
        );
      } else {
        lines.push(filler);
      }
    }
    lines.push('}');
    const file = join(dir, 'big.hlo');
    writeFileSync(file, lines.join('\n'));
    const r = cli('check', file);
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.stdout.trimEnd().split('\n'),
      bad.map(
        ([n, column]) =>
          `${file}:${n}:${column}: error: minor_to_major names dimension 0 twice: list each dimension once — XLA: layout minor_to_major field has duplicate values: {0, 0}; shape: f32[2,2] [minor-to-major-duplicate]`,
      ),
    );
    assert.equal(bad.length, 3);
  });

  it('check --jobs cuts a file into pieces for worker threads and prints exactly what one stream prints', () => {
    // Errors every 97 lines, 3-line statements every 89, UTF-8 comments (bytes ≠ UTF-16 units), CRLF
    // in the second half: ~3 MiB cut into ~24 pieces, so cuts land next to all of them.
    const lines = ['HloModule pieces', '', 'ENTRY %main {'];
    let bad = 0;
    for (let i = 0; lines.length < 40_000; i++) {
      if (i % 97 === 96) {
        lines.push(`  %bad.${i} = f32[2,2]{0,0} copy(%a.1)`);
        bad++;
      } else if (i % 89 === 88)
        lines.push(
          `  %m.${i} = (f32[2]{0},`,
          '        s32[]) custom-call(f32[2]{0} %a.1),',
          '        custom_call_target="x"',
        );
      else if (i % 53 === 52) lines.push(`  // größe 形状 ${i}: f32[3]{0,0} inside a comment is not checked`);
      else
        lines.push(
          `  %a.${i} = bf16[8,256]{1,0:T(8,128)(2,1)} add(bf16[8,256]{1,0:T(8,128)(2,1)} %x, f32[${i % 5}]{0} %y), metadata={op_name="jit(f)/größe"}`,
        );
    }
    lines.push('}');
    const half = lines.length >> 1;
    const file = join(dir, 'pieces.hlo');
    writeFileSync(file, `${lines.slice(0, half).join('\n')}\n${lines.slice(half).join('\r\n')}`);
    const one = cli('check', '--jobs', '1', file);
    assert.equal(one.code, 1);
    assert.equal(one.stdout.trimEnd().split('\n').length, bad);
    assert.ok(bad > 400);
    for (const jobs of ['2', '3']) {
      const many = cli('check', '--jobs', jobs, file, file);
      assert.equal(many.code, 1);
      assert.equal(many.stdout, one.stdout + one.stdout, `--jobs ${jobs}`);
      assert.equal(
        many.stderr,
        one.stderr.replace(
          /^(\d+) errors, 0 warnings in (\d+) shapes/,
          (_, e: string, n: string) => `${2 * Number(e)} errors, 0 warnings in ${2 * Number(n)} shapes`,
        ),
      );
    }
    assert.deepEqual(
      JSON.parse(cli('check', '--json', '--jobs', '2', file).stdout),
      JSON.parse(cli('check', '--json', file).stdout),
    );
  });

  it("check --jobs places a missing attribute of a piece's last statement at the next piece's first token", () => {
    // Every reduce lacks its attributes, which XLA reports at the next statement's first token (an
    // indented line, after blank and comment lines at times): whichever ends a piece, that token is
    // in the next piece.
    const lines = [
      'HloModule pieces',
      '',
      'ENTRY %main {',
      '  %a = f32[4]{0} parameter(0)',
      '  %z = f32[] constant(0)',
    ];
    for (let i = 0; lines.length < 60_000; i++) {
      lines.push(`  %r.${i} = f32[] reduce(%a, %z)`);
      if (i % 7 === 6) lines.push('', '  // between');
    }
    lines.push('  ROOT %t = f32[] negate(%z)', '}');
    const file = join(dir, 'unplaced.hlo');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const one = cli('check', '--jobs', '1', file);
    assert.equal(one.code, 1);
    assert.match(one.stdout, /^\S+:7:3: error: `reduce` needs a `dimensions=` attribute/);
    for (const jobs of ['2', '3']) {
      const many = cli('check', '--jobs', jobs, file);
      assert.equal(many.stdout, one.stdout, `--jobs ${jobs}`);
      assert.equal(many.stderr, one.stderr, `--jobs ${jobs}`);
    }
  });

  it('check --jobs places a missing attribute followed only by comments to the end at the end', () => {
    // The pieces after the one holding the reduce hold no token: XLA reports it at the text's end.
    const lines = [
      'HloModule tail',
      '',
      'ENTRY %main {',
      '  %a = f32[4]{0} parameter(0)',
      '  %z = f32[] constant(0)',
    ];
    for (let i = 0; i < 20_000; i++) lines.push(`  %n.${i} = f32[4]{0} negate(%a)`);
    lines.push('  %r = f32[] reduce(%a, %z)');
    while (lines.length < 60_000) lines.push('  // a comment line, and another, to the end of the file');
    const file = join(dir, 'tail.hlo');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const one = cli('check', '--jobs', '1', file);
    assert.equal(one.code, 1);
    assert.match(one.stdout, /^\S+:60001:1: error: `reduce` needs a `dimensions=` attribute/);
    for (const jobs of ['2', '3']) {
      const many = cli('check', '--jobs', jobs, file);
      assert.equal(many.stdout, one.stdout, `--jobs ${jobs}`);
      assert.equal(many.stderr, one.stderr, `--jobs ${jobs}`);
    }
  });

  it('check uses worker threads by itself on files of 16 MiB and more, with the same output', () => {
    // CRLF, UTF-8 in strings and comments, and 3-line statements, across the workers' reads.
    const line =
      '  %a.1 = bf16[8,256]{1,0:T(8,128)(2,1)} add(bf16[8,256]{1,0:T(8,128)(2,1)} %x, bf16[8,256]{1,0} %y), metadata={op_name="jit(f)/größe"}\r\n';
    const multi =
      '  %m = (f32[2]{0},\r\n        s32[]) custom-call(f32[2]{0} %a.1),\r\n        custom_call_target="形状"\r\n';
    const bad = '  %bad = f32[2,2]{1,1} copy(%a.1) // größe 形状\r\n';
    const block = line.repeat(997) + multi + line.repeat(1003) + bad;
    const file = join(dir, 'auto.hlo');
    writeFileSync(
      file,
      `HloModule auto\r\nENTRY %main {\r\n${block.repeat(Math.ceil((17 << 20) / block.length))}}\r\n`,
    );
    const auto = cli('check', file);
    const one = cli('check', '--jobs', '1', file);
    assert.equal(auto.code, 1);
    assert.ok(auto.stdout.split('\n').length > 60);
    assert.equal(auto.stdout, one.stdout);
    assert.equal(auto.stderr, one.stderr);
  });

  it('check refuses missing and binary paths with exit 2 and no stack trace', () => {
    const binary = join(dir, 'blob.bin');
    writeFileSync(binary, Buffer.from([0x48, 0x6c, 0x6f, 0x00, 0x01]));
    const missing = cli('check', join(dir, 'nope.hlo'));
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `xla-layout: ${join(dir, 'nope.hlo')}: cannot read: no such file\n`);
    const bin = cli('check', binary);
    assert.equal(bin.code, 2);
    assert.equal(bin.stderr, `xla-layout: ${binary}: binary file (NUL byte at offset 3), not HLO text\n`);
    assert.doesNotMatch(missing.stderr + bin.stderr, /\n\s+at /);
  });

  it('report lists the padded buffers of the TPU example worst first with exact totals', () => {
    const j = JSON.parse(cli('report', 'examples/tpu_padding.hlo', '--json', '--top', '3').stdout) as {
      reports: {
        totals: Record<string, unknown>;
        rows: { name: string; logicalBytes: string; physicalBytes: string; expansion: number }[];
      }[];
    };
    const rep = j.reports[0];
    assert.ok(rep);
    assert.deepEqual(rep.totals, {
      buffers: 9,
      skipped: 0,
      logicalBytes: '1159172',
      physicalBytes: '4755460',
      expansion: 4.102462,
    });
    assert.deepEqual(
      rep.rows.map((r) => [r.name, r.logicalBytes, r.physicalBytes, r.expansion]),
      [
        ['Arg_1.2', '8192', '1048576', 128],
        // A tuple result sums its leaves: two f32[1024,4] (16 KiB in 512 KiB each) and a u32[].
        ['copy-start.5', '32772', '1048580', 31.996216],
        ['param_0.1', '16384', '524288', 32],
      ],
    );
  });

  it('report names the source line of rows whose metadata has one, in a column and in JSON', () => {
    const text = cli('report', 'examples/tpu_padding.hlo', '--top', '0').stdout.split('\n');
    assert.match(text[2] ?? '', /\bline\s+source\s+shape$/);
    assert.match(text.find((l) => l.includes('transpose.4')) ?? '', /\s19\s+embed\.py:37\s+f32\[4,1024\]/);
    const j = JSON.parse(cli('report', 'examples/tpu_padding.hlo', '--json', '--top', '0').stdout) as {
      reports: { rows: { name: string; source?: string }[] }[];
    };
    assert.deepEqual(
      j.reports[0]?.rows.filter((r) => r.source !== undefined).map((r) => [r.name, r.source]),
      [
        ['transpose.4', 'embed.py:37'],
        ['broadcast.2', 'embed.py:41'],
        ['fusion.7', 'embed.py:41'],
      ],
    );
    // Without any metadata the column is left out.
    assert.doesNotMatch(cli('report', 'examples/seed_figures.hlo').stdout, /\bsource\b/);
  });

  it('report text puts totals first', () => {
    const r = cli('report', 'examples/tpu_padding.hlo', '--top', '1');
    assert.equal(r.code, 0);
    const [file, totals, header, row] = r.stdout.split('\n');
    assert.equal(file, 'examples/tpu_padding.hlo');
    assert.equal(
      totals,
      '  9 buffers: logical 1,159,172 B (1.1 MiB), physical 4,755,460 B (4.5 MiB), expansion 4.1x, padding 3.4 MiB',
    );
    assert.match(header ?? '', /physical\s+logical\s+expansion\s+instruction/);
    assert.match(
      row ?? '',
      /1 MiB\s+8 KiB\s+128x\s+Arg_1\.2\s+main\.10\s+16\s+bf16\[4096,1\]\{1,0:T\(8,128\)\(2,1\)\}/,
    );
  });

  // A file of the shared corpus (XLA's hlo_cost_analysis_test); support/corpus says when it is missing.
  (SHARED_CORPUS ? it : () => undefined)(
    'report names the computation around a computation written in place, after its `}` too',
    () => {
      const file = join(CORPUS, 'raw__xla__service__hlo_cost_analysis_test__L1021.hlo');
      const j = JSON.parse(cli('report', file, '--json', '--top', '0').stdout) as {
        reports: { rows: { name: string; computation: string; line: number }[] }[];
      };
      const rows = (j.reports[0]?.rows ?? [])
        .map((r) => `${r.line} ${r.computation}`)
        .sort((a, b) => parseInt(a) - parseInt(b));
      // Lines 9-10 and 15-17 are inside the two inline computations; 12, 13 and 19 come after them.
      assert.deepEqual(
        rows,
        ['6', '7', '9', '10', '12', '13', '15', '16', '17', '19']
          .map((l) => `${l} fused_computation.1`)
          .concat(['23 temp', '24 temp']),
      );
    },
  );
});
