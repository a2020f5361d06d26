/**
 * Source lines of current jax dumps: `stack_frame_id=N` resolved through the module's FileNames /
 * FunctionNames / FileLocations / StackFrames tables (core/src/hlo/stack-frames.ts), the one
 * resolution the memory model, the padding report and the language server share.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  indexHlo,
  isLibraryPath,
  metadataSource,
  paddingReportOf,
  parseStatements,
  resolveStackFrame,
  splitStatements,
  StackFrameTables,
  type InstructionStatement,
} from '../../core/src';

/** A real dump: jax 0.7 on CPU, `cnn.py` beside it (recorded as /work/xp/cnn.py). */
const DIR = join(__dirname, '..', 'server', 'fixtures', 'stack-frames');
const CNN = readFileSync(join(DIR, 'module_0010.jit_f.cpu_after_optimizations.txt'), 'utf8');

/** The tables of a text's first module. */
function tablesOf(text: string): StackFrameTables {
  const tables = new StackFrameTables();
  tables.line(text.slice(0, text.search(/^(?:ENTRY\s+)?%/m)));
  return tables;
}

const TABLES = [
  'FileNames',
  '1 "/home/me/proj/train.py"',
  '2 "/usr/lib/python3.12/site-packages/flax/linen/linear.py"',
  '3 "/home/me/proj/model.py"',
  '',
  'FunctionNames',
  '1 "<module>"',
  '2 "main"',
  '3 "__call__"',
  '4 "block"',
  '',
  'FileLocations',
  '1 {file_name_id=1 function_name_id=1 line=40 end_line=40 column=1 end_column=7}',
  '2 {file_name_id=3 function_name_id=4 line=12 end_line=12 column=9 end_column=30}',
  '3 {file_name_id=2 function_name_id=3 line=260 end_line=260 column=5 end_column=50}',
  '',
  'StackFrames',
  '1 {file_location_id=1 parent_frame_id=1}',
  '2 {file_location_id=2 parent_frame_id=2}',
  '3 {file_location_id=3 parent_frame_id=3}',
  '',
].join('\n');

describe('core: stack frames', () => {
  it('reads parent_frame_id as the caller plus one: outermost frames call nothing', () => {
    const tables = tablesOf(CNN);
    assert.equal(tables.size, 18);
    // %conv_general_dilated.5 (line 465) names frame 10: f, cnn.py line 7, called from line 13.
    const conv = resolveStackFrame(tables, 10);
    assert.deepEqual(conv && { file: conv.file, line: conv.line, fn: conv.function, depth: conv.depth }, {
      file: '/work/xp/cnn.py',
      line: 7,
      fn: 'f',
      depth: 0,
    });
    assert.deepEqual(
      conv?.chain.map((f) => [f.function, f.line]),
      [
        ['f', 7],
        ['<module>', 13],
      ],
    );
    // Frame 3 is bn's line 4, which f's line 8 calls (`y = jax.nn.relu(bn(y, g, b))`).
    assert.deepEqual(
      resolveStackFrame(tables, 3)?.chain.map((f) => [f.function, f.line]),
      [
        ['bn', 4],
        ['f', 8],
        ['<module>', 13],
      ],
    );
    assert.equal(resolveStackFrame(tables, 99), undefined);
  });

  it("takes the innermost frame of the user's program, past a library's frames", () => {
    const tables = tablesOf(TABLES);
    const framed = resolveStackFrame(tables, 3);
    assert.ok(framed);
    assert.equal(framed.file, '/home/me/proj/model.py');
    assert.equal(framed.line, 12);
    assert.equal(framed.function, 'block');
    assert.equal(framed.depth, 1);
    assert.equal(framed.chain[0].file, '/usr/lib/python3.12/site-packages/flax/linen/linear.py');
    assert.equal(isLibraryPath('/opt/venv/lib/python3.12/site-packages/jax/_src/numpy/lax_numpy.py'), true);
    assert.equal(isLibraryPath('/src/jax/jax/_src/lax/lax.py'), true);
    assert.equal(isLibraryPath('/home/me/proj/jax/train.py'), false);
    // A frame of a library alone stays what it is.
    const only = new StackFrameTables();
    only.line(
      TABLES.replace('3 {file_location_id=3 parent_frame_id=3}', '3 {file_location_id=3 parent_frame_id=1}'),
    );
    assert.equal(resolveStackFrame(only, 3)?.file, '/usr/lib/python3.12/site-packages/flax/linen/linear.py');
  });

  it('resolves a real dump whose frames pass through an installed library to the caller', () => {
    // Written by jax 0.10.2 on CPU: train.py line 7 calls mylayers.dense, installed under
    // site-packages, whose `x @ w` (line 4) and `jnp.tanh` (line 5) are frames 4 and 5. XLA's own
    // import to MLIR reads frame 4 as dense:4 called at model:7 called at <module>:10.
    const text = readFileSync(join(DIR, 'module_0006.jit_model.site-packages.txt'), 'utf8');
    const tables = tablesOf(text);
    const where = (id: number): [string | undefined, number | undefined, number | undefined] => {
      const f = resolveStackFrame(tables, id);
      return [f?.file.split('/').pop(), f?.line, f?.depth];
    };
    assert.deepEqual(where(4), ['train.py', 7, 1]);
    assert.deepEqual(where(5), ['train.py', 7, 1]);
    assert.deepEqual(where(2), ['train.py', 8, 0]);
    assert.deepEqual(
      resolveStackFrame(tables, 4)?.chain.map((f) => [f.function, f.line]),
      [
        ['dense', 4],
        ['model', 7],
        ['<module>', 10],
      ],
    );
  });

  it('survives tables that loop or name what is not there', () => {
    const tables = new StackFrameTables();
    tables.line(
      [
        'FileNames',
        '1 "a.py"',
        'FileLocations',
        '1 {file_name_id=1 function_name_id=7 line=3}',
        'StackFrames',
        '1 {file_location_id=1 parent_frame_id=3}',
        '2 {file_location_id=1 parent_frame_id=2}',
        '3 {file_location_id=9 parent_frame_id=1}',
      ].join('\n'),
    );
    // 1 → 2 → 1: the chain stops where it would come back.
    assert.deepEqual(
      resolveStackFrame(tables, 1)?.chain.map((f) => [f.file, f.line, f.function]),
      [
        ['a.py', 3, undefined],
        ['a.py', 3, undefined],
      ],
    );
    assert.equal(resolveStackFrame(tables, 3), undefined);
  });

  it('parses stack_frame_id in metadata and prefers source_file where both are written', () => {
    const text = [
      'ENTRY %e () -> f32[] {',
      '  %a = f32[] constant(1), metadata={op_name="x" stack_frame_id=2}',
      '  %b = f32[] constant(1), metadata={source_file="/src/t.py" source_line=5 stack_frame_id=2}',
      '}',
    ].join('\n');
    const [, a, b] = parseStatements(text, splitStatements(text)) as InstructionStatement[];
    assert.equal(a.metadata?.stackFrameId, 2);
    const tables = tablesOf(TABLES);
    assert.deepEqual(metadataSource(a.metadata, tables)?.line, 12);
    assert.deepEqual(metadataSource(b.metadata, tables), { file: '/src/t.py', line: 5 });
    assert.equal(metadataSource(a.metadata, undefined), undefined);
  });

  it('gives the memory index and the padding report the same source lines', () => {
    const index = indexHlo(CNN);
    assert.equal(index.instructions.get('conv_general_dilated.5')?.source, 'cnn.py:7');
    const report = paddingReportOf(CNN, { top: 0 });
    const labelled = report.rows.filter((r) => r.source !== undefined);
    assert.ok(labelled.length > 100, `${labelled.length} rows with a source`);
    for (const row of report.rows)
      assert.equal(row.source, index.instructions.get(row.name)?.source, row.name);
  });

  it('filters the padding report to a source line through the frames of each module', () => {
    const rows = (path: string, line?: number) =>
      paddingReportOf(CNN, { top: 0, from: { path, ...(line !== undefined ? { line } : {}) } })
        .rows.map((r) => r.name)
        .sort();
    // Line 7's convolution, and the bitcast of its transpose (the same frame, in the gradient).
    assert.deepEqual(rows('/home/u/xp/cnn.py', 7), ['bitcast.12', 'conv_general_dilated.5']);
    // The whole file: every instruction naming a frame (134 of the 330; parameters and
    // the fusions' inner instructions mostly name none).
    assert.equal(rows('/home/u/xp/cnn.py').length, (CNN.match(/stack_frame_id=/g) ?? []).length);
    assert.equal(rows('/home/u/xp/cnn.py').length, 134);
    assert.deepEqual(rows('/home/u/xp/other.py', 7), []);
    // Two modules whose frame 1 means different lines: each is read through its own tables.
    const second = CNN.replace(
      'line=7 end_line=7 column=8 end_column=96',
      'line=70 end_line=70 column=8 end_column=96',
    );
    const both = `${CNN}\n${second}`;
    const twice = paddingReportOf(both, { top: 0, from: { path: '/x/cnn.py', line: 7 } }).rows;
    const lines = CNN.split('\n').length;
    assert.deepEqual(twice.map((r) => [r.name, r.source, r.start.line > lines]).sort(), [
      ['bitcast.12', 'cnn.py:7', false],
      ['conv_general_dilated.5', 'cnn.py:7', false],
    ]);
    const moved = paddingReportOf(both, { top: 0, from: { path: '/x/cnn.py', line: 70 } }).rows;
    assert.deepEqual(moved.map((r) => [r.name, r.source, r.start.line > lines]).sort(), [
      ['bitcast.12', 'cnn.py:70', true],
      ['conv_general_dilated.5', 'cnn.py:70', true],
    ]);
  });
});
