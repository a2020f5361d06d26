/**
 * The source tables as XLA's parser reads them (ParseStackFrameIndex), on verdicts of jaxlib's
 * XLA (0.10.2): all four or none, in order, before the computations, each entry with every field
 * once. test/xla/source-tables.test.ts asks the real XLA on edited real dumps.
 */
import { strict as assert } from 'node:assert';
import { buildComputations, checkNames, parseStatements, splitStatements } from '../../core/src/hlo';

const FN = 'FileNames\n1 "a.py"\n';
const FU = 'FunctionNames\n1 "f"\n';
const FL = 'FileLocations\n1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=5}\n';
const SF = 'StackFrames\n1 {file_location_id=1 parent_frame_id=0}\n';
const ENTRY = 'ENTRY %e {\n  ROOT %a = f32[2]{0} parameter(0), metadata={stack_frame_id=1}\n}\n';

/** [line:column, message] of each source-tables error of `HloModule m` + blank line + `body`. */
function tableErrors(body: string): string[][] {
  const text = `HloModule m\n\n${body}`;
  return checkNames(buildComputations(parseStatements(text, splitStatements(text))), text)
    .filter((d) => d.code === 'source-tables')
    .map((d) => {
      const before = text.slice(0, d.range.start).split('\n');
      return [`${before.length}:${before[before.length - 1].length + 1}`, d.message];
    });
}

describe('core: source tables, as XLA reads them', () => {
  it('takes all four in order, none, or all four empty', () => {
    assert.deepEqual(tableErrors(FN + FU + FL + SF + ENTRY), []);
    assert.deepEqual(tableErrors(ENTRY), []);
    assert.deepEqual(tableErrors('FileNames\nFunctionNames\nFileLocations\nStackFrames\n' + ENTRY), []);
    assert.deepEqual(tableErrors(FN + FU + FL + SF.replace('1 {', '-1 {') + ENTRY), []);
  });

  it('names the table missing, or the one out of order, where XLA does', () => {
    assert.deepEqual(tableErrors(FU + FL + SF + ENTRY), [['3:1', 'expects name']]);
    assert.deepEqual(tableErrors(FN + FL + SF + ENTRY), [['5:1', "expects 'FunctionNames'"]]);
    assert.deepEqual(tableErrors(FN + FU + SF + ENTRY), [['7:1', "expects 'FileLocations'"]]);
    assert.deepEqual(tableErrors(FN + FU + FL + ENTRY), [['9:1', "expects 'StackFrames'"]]);
    assert.deepEqual(tableErrors(FN + FU + SF + FL + ENTRY), [['7:1', "expects 'FileLocations'"]]);
    assert.deepEqual(tableErrors(FN + FU + FL + SF + SF + ENTRY), [['11:1', 'expects name']]);
  });

  it('refuses tables below a computation', () => {
    assert.deepEqual(tableErrors(ENTRY + FN + FU + FL + SF), [
      ['6:1', 'expects name'],
      ['8:1', 'expects name'],
      ['10:1', 'expects name'],
      ['12:1', 'expects name'],
    ]);
  });

  it('checks each entry’s fields: all there, once, known, 32-bit integers', () => {
    assert.deepEqual(tableErrors(FN + FU + FL.replace(' end_column=5', '') + SF + ENTRY), [
      ['8:3', 'sub-attribute end_column is expected but not seen'],
    ]);
    assert.deepEqual(tableErrors(FN + FU + FL + SF.replace(' parent_frame_id=0', '') + ENTRY), [
      ['10:3', 'sub-attribute parent_frame_id is expected but not seen'],
    ]);
    assert.deepEqual(tableErrors(FN + FU + FL.replace('end_column=5', 'end_column=5 line=4') + SF + ENTRY), [
      ['8:78', 'attribute line already exists'],
    ]);
    assert.deepEqual(tableErrors(FN + FU + FL.replace('end_column=5', 'end_column=5 foo=1') + SF + ENTRY), [
      [
        '8:78',
        'unexpected attribute "foo". Allowed attributes: column, end_column, end_line, file_name_id, function_name_id, line',
      ],
    ]);
    assert.deepEqual(tableErrors(FN + FU + FL.replace('line=3 ', 'line=3000000000 ') + SF + ENTRY), [
      ['8:43', 'value out of range for int32_t'],
    ]);
    assert.deepEqual(tableErrors(FN + FU + FL.replace('line=3 ', 'line="3" ') + SF + ENTRY), [
      ['8:43', 'expects integer'],
    ]);
    assert.deepEqual(tableErrors(FN + FU + 'FileLocations\n1 file_name_id=1\n' + SF + ENTRY), [
      ['8:3', "expects '{' to start sub attributes"],
    ]);
    assert.deepEqual(tableErrors('FileNames\n1 a.py\n' + FU + FL + SF + ENTRY), [['4:3', 'expects string']]);
  });
});
