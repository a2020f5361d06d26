import { strict as assert } from 'node:assert';
import { buildCli, cli } from './run-cli';

const FIG1 = 'f32[3,5]{1,0:T(2,2)}';
const FIG2 = 'f32[4,8]{1,0:T(2,4)(2,1)}';
// 2^40 x (2^20 - 1) floats: the minor dim pads by one element to 2^20; sizes pass 2^53.
const HUGE = 'f32[1099511627776,1048575]{1,0:T(8,128)}';

describe('cli: explain, index, element, map', function () {
  this.timeout(120_000);
  before(() => buildCli());

  it('explain prints Figure 1 exactly', () => {
    const r = cli('explain', FIG1);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        // The answer first: bytes before and after padding, and which dimension pads to what.
        '60 B → 96 B (1.6x) · dim 0 (size 3) pads to 4, dim 1 (size 5) to 6',
        'f32[3,5]{1,0:T(2,2)}',
        '  element type     f32 (32 bits per element)',
        '  logical shape    [3,5]  dims 0=3 1=5',
        '  memory order     0:3 > 1:5   (major -> minor)',
        '  tiles            (2,2)',
        '  steps',
        '    tile 1 (2,2) on [3,5]:',
        '      pad         [4,6]',
        '      reshape     [2,2,3,2]',
        '      transpose   [2,3,2,2]',
        '    expanded shape [2,3,2,2] (row-major order = memory order)',
        '  sizes',
        '    logicalElements   15',
        '    physicalElements  24',
        '    logicalBytes      60 B   (XLA ByteSizeOf)',
        '    physicalBytes     96 B   (all tile levels)',
        '    arraySizeBytes    96 B   (XLA ArraySize, first tile only)',
        '    expansion         1.6x (8/5)',
        '    overhead          37.5% of physical memory is padding',
        '  padding by dimension',
        '    dim 0, size 3, physical position 0: tile 1 entry 0 (2) pads 3 -> 4 = 1.33x',
        '    dim 1, size 5, minor-most: tile 1 entry 1 (2) pads 5 -> 6 = 1.2x',
        '    dominant: tile 1 entry 0 pads 3 -> 4 (1.33x)',
        '',
      ].join('\n'),
    );
  });

  it('explain says an unbounded dim leaves the size unknown, and an empty array pads nothing', () => {
    const open = cli('explain', 'f32[?,4]');
    assert.equal(open.code, 0, open.stderr);
    assert.match(open.stdout, /\n {2}logical shape {4}\[\?,4\] {2}dims 0=\? 1=4\n/);
    assert.match(open.stdout, /\n {2}sizes {12}unknown: dim 0 is unbounded \(`\?`\)/);
    assert.doesNotMatch(open.stdout, /0 B|padding/);
    const empty = cli('explain', 'f32[0,5]{1,0:T(8,128)}');
    assert.match(empty.stdout, /\n {2}padding by dimension: none \(the array is empty\)\n$/);
    assert.doesNotMatch(empty.stdout, /dominant|pads 5/);
  });

  it('explain --json has the exact size keys, wherever the option is', () => {
    for (const args of [
      ['explain', FIG1, '--json'],
      ['explain', '--json', FIG1],
    ]) {
      const r = cli(...args);
      assert.equal(r.code, 0, r.stderr);
      const j = JSON.parse(r.stdout) as Record<string, unknown>;
      assert.deepEqual(
        [j.logicalElements, j.physicalElements, j.logicalBytes, j.physicalBytes, j.arraySizeBytes],
        ['15', '24', '60', '96', '96'],
      );
      assert.deepEqual(j.physicalOrder, [0, 1]);
      assert.deepEqual(j.tiles, ['(2,2)']);
    }
  });

  it('explain is exact past 2^53', () => {
    const j = JSON.parse(cli('explain', '--json', HUGE).stdout) as Record<string, unknown>;
    assert.equal(j.logicalElements, '1152920405095219200');
    assert.equal(j.physicalElements, '1152921504606846976');
    assert.equal(j.logicalBytes, '4611681620380876800');
    assert.equal(j.physicalBytes, '4611686018427387904');
    const text = cli('explain', HUGE).stdout;
    assert.match(text, /physicalBytes {5}4,611,686,018,427,387,904 B \(4 EiB\)/);
  });

  it('explain of a tuple explains each leaf and sums the sizes', () => {
    const j = JSON.parse(cli('explain', '--json', `(${FIG1}, ${FIG2})`).stdout) as {
      arrays: { path: number[] }[];
      physicalBytes: string;
      logicalBytes: string;
    };
    assert.deepEqual(
      j.arrays.map((a) => a.path),
      [[0], [1]],
    );
    assert.equal(j.logicalBytes, String(60 + 128));
    assert.equal(j.physicalBytes, String(96 + 128));
  });

  it('explain of a bad shape: one error line, the shape, a caret, exit 2', () => {
    const r = cli('explain', 'f32[3,5]{1,0:S(1)T(2,2)}');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      'xla-layout explain: error: attributes out of order: XLA reads layout attributes only in the order D T L # * E S SC P M, each once — XLA: expects layout to end with `}` [layout-attribute-order]\n  f32[3,5]{1,0:S(1)T(2,2)}\n               ^^^^\n',
    );
  });

  it('index: Figure 1 element (2,3) is 17, Figure 2 element (3,5) is 27', () => {
    assert.equal(
      cli('index', FIG1, '2,3').stdout,
      'f32[3,5]{1,0:T(2,2)} element (2,3) -> linear index 17\n  byte offset 68\n  expanded index [1,1,0,1] in expanded shape [2,3,2,2]\n',
    );
    const j = JSON.parse(cli('index', '--json', FIG2, '3,5').stdout) as Record<string, unknown>;
    assert.equal(j.index, 27);
    assert.equal(j.byteOffset, 108);
  });

  it('index --json is a number up to 2^53 - 1 and a string past it', () => {
    const j = JSON.parse(cli('index', HUGE, '1099511627775,1048574', '--json').stdout) as Record<
      string,
      unknown
    >;
    // Last row: tile row 137438953471 of 8192 tiles of 1024 slots, row 7 in tile, lane 126 of tile 8191.
    assert.equal(j.index, '1152921504606846974');
    assert.equal(j.byteOffset, '4611686018427387896');
  });

  it('index errors point at the bad coordinate', () => {
    const r = cli('index', FIG1, '2,7');
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'xla-layout index: error: coordinate 7 is out of bounds for dimension 1 of size 5\n  2,7\n    ^\n',
    );
    assert.equal(cli('index', FIG1, '1').code, 2);
  });

  it('element: slot 17 holds (2,3); slot 9 is padding of dim 1; slot 24 is outside', () => {
    assert.equal(cli('element', FIG1, '17').stdout, 'f32[3,5]{1,0:T(2,2)} slot 17 of 24: element (2,3)\n');
    const pad = cli('element', FIG1, '9');
    assert.equal(
      pad.stdout,
      'f32[3,5]{1,0:T(2,2)} slot 9 of 24: padding: tile level 1 T(2,2) pads dim 1 here\n  level 1 T(2,2): tile [0,2], position in tile [0,1]\n',
    );
    const j = JSON.parse(cli('element', FIG1, '9', '--json').stdout) as Record<string, unknown>;
    assert.equal(j.kind, 'padding');
    assert.deepEqual(j.paddedDims, [1]);
    const out = cli('element', FIG1, '24');
    assert.equal(out.code, 2);
    assert.match(out.stderr, /offset 24 is outside the array: it has 24 slots \(0\.\.23\)/);
  });

  it('map prints the Figure 1 and Figure 2 tables of the XLA docs', () => {
    assert.equal(
      cli('map', FIG1).stdout,
      'f32[3,5]{1,0:T(2,2)}: 3 x 5 slice, slots 0..20\n 0  1  4  5  8\n 2  3  6  7 10\n12 13 16 17 20\npadding slots: 9, 11, 14-15, 18-19, 21-23\n',
    );
    assert.equal(
      cli('map', FIG2).stdout,
      'f32[4,8]{1,0:T(2,4)(2,1)}: 4 x 8 slice, slots 0..31\n 0  2  4  6  8 10 12 14\n 1  3  5  7  9 11 13 15\n16 18 20 22 24 26 28 30\n17 19 21 23 25 27 29 31\npadding slots: none\n',
    );
  });

  it('map prints a slice of more cells than a call takes arguments, when --max-cells allows it', () => {
    const r = cli('map', 'f32[1,200000]', '--max-cells', '200000');
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.split('\n');
    assert.equal(rows[0], 'f32[1,200000]: 1 x 200000 slice, slots 0..199,999');
    // Every column as wide as the widest slot number, 199999.
    assert.match(rows[1], /^ +0 +1 +2 /);
    assert.ok(rows[1].endsWith(' 199999'));
  });

  it('map refuses past --max-cells', () => {
    const r = cli('map', FIG1, '--max-cells', '10');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /max-cells/);
  });

  it('usage errors and help', () => {
    const unknown = cli('frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
    assert.equal(cli('explain').code, 2);
    assert.equal(cli('explain', FIG1, '--bogus').code, 2);
    for (const c of ['explain', 'index', 'element', 'map', 'check', 'report']) {
      const h = cli(c, '--help');
      assert.equal(h.code, 0);
      assert.match(h.stdout, new RegExp(`^Usage: xla-layout ${c} `));
    }
    assert.match(cli('--help').stdout, /^Usage: xla-layout <command>/);
  });
});
