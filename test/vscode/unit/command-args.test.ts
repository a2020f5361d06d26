/** Validation of `xlaLayout.openVisualizer` arguments, which hover links build from document text. */
import { strict as assert } from 'node:assert';
import {
  MAX_SHAPE_LENGTH,
  parseOpenSourceArgs,
  parseRange,
  parseVisualizerArgs,
} from '../../../client/src/command-args';

const range = { start: { line: 3, character: 8 }, end: { line: 3, character: 30 } };

describe('client: openVisualizer arguments', () => {
  it('accepts { shape, uri, range } and a one-element array of it', () => {
    const args = { shape: 'f32[8,4]{1,0:T(8,128)}', uri: 'file:///w/a.hlo', range };
    assert.deepEqual(parseVisualizerArgs(args), args);
    assert.deepEqual(parseVisualizerArgs([args]), args);
  });

  it('drops unknown fields and bad optional fields but keeps the shape', () => {
    assert.deepEqual(
      parseVisualizerArgs({
        shape: 'f32[2]{0}',
        uri: 'javascript alert(1)',
        range: { start: { line: -1, character: 0 }, end: range.end },
        html: '<b>',
      }),
      { shape: 'f32[2]{0}' },
    );
    assert.deepEqual(parseVisualizerArgs({ shape: 'f32[2]{0}', uri: 42 }), { shape: 'f32[2]{0}' });
  });

  it('refuses a missing, empty, non-string or oversized shape', () => {
    assert.equal(parseVisualizerArgs(undefined), undefined);
    assert.equal(parseVisualizerArgs('f32[2]'), undefined);
    assert.equal(parseVisualizerArgs({ shape: '   ' }), undefined);
    assert.equal(parseVisualizerArgs({ shape: 7 }), undefined);
    assert.equal(parseVisualizerArgs({ shape: 'f'.repeat(MAX_SHAPE_LENGTH + 1) }), undefined);
    assert.equal(parseVisualizerArgs([{ shape: 'a' }, { shape: 'b' }]), undefined);
  });

  it('accepts only ordered ranges of non-negative integer positions', () => {
    assert.deepEqual(parseRange(range), range);
    assert.equal(parseRange({ start: range.end, end: range.start }), undefined);
    assert.equal(parseRange({ start: { line: 1.5, character: 0 }, end: range.end }), undefined);
    assert.equal(parseRange({ start: { line: 0, character: 0 } }), undefined);
    assert.deepEqual(parseRange({ start: { line: 2, character: 9 }, end: { line: 2, character: 9 } }), {
      start: { line: 2, character: 9 },
      end: { line: 2, character: 9 },
    });
  });
});

describe('client: openSource arguments', () => {
  it('accepts { uri, line } and a one-element array of it, dropping other fields', () => {
    const args = { uri: 'file:///workspace/train.py', line: 787 };
    assert.deepEqual(parseOpenSourceArgs(args), args);
    assert.deepEqual(parseOpenSourceArgs([{ ...args, html: '<b>' }]), args);
  });

  it('refuses a URI without a scheme and a line that is not a non-negative integer', () => {
    assert.equal(parseOpenSourceArgs({ uri: '/workspace/train.py', line: 1 }), undefined);
    assert.equal(parseOpenSourceArgs({ uri: 'file:///a.py', line: -1 }), undefined);
    assert.equal(parseOpenSourceArgs({ uri: 'file:///a.py', line: 1.5 }), undefined);
    assert.equal(parseOpenSourceArgs({ uri: 'file:///a.py', line: '3' }), undefined);
    assert.equal(parseOpenSourceArgs({ uri: 'file:///a.py' }), undefined);
    assert.equal(parseOpenSourceArgs(undefined), undefined);
  });
});
