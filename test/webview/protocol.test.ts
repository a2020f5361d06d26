/**
 * The webview message validators (protocol/src/webview.ts), used by both the panel host and the
 * page: well-formed messages pass unchanged, malformed ones are rejected with a reason.
 */
import { strict as assert } from 'node:assert';
import {
  MAX_SHAPE_LENGTH,
  isRange,
  validateHostToWebview,
  validateWebviewToHost,
} from '../../protocol/src/webview';

const range = { start: { line: 3, character: 4 }, end: { line: 3, character: 24 } };

describe('webview protocol validation', () => {
  it('accepts every well-formed host → webview message', () => {
    const messages = [
      { type: 'show', shape: 'f32[3,5]{1,0:T(2,2)}' },
      {
        type: 'show',
        shape: 'f32[8]',
        compareWith: 'f32[8]{0:T(4)}',
        source: { name: 'a.hlo:4', uri: 'file:///a.hlo', range },
      },
      { type: 'exportResult', ok: true, detail: '/tmp/layout.png' },
      { type: 'follow', on: false },
    ];
    for (const m of messages) assert.deepEqual(validateHostToWebview(m), { ok: true, value: m });
  });

  it('rejects malformed host → webview messages', () => {
    const bad: unknown[] = [
      null,
      'show',
      [],
      { type: 'show' },
      { type: 'show', shape: 42 },
      { type: 'show', shape: 'x'.repeat(MAX_SHAPE_LENGTH + 1) },
      { type: 'show', shape: 'f32[2]', extra: 1 },
      { type: 'show', shape: 'f32[2]', compareWith: null },
      { type: 'show', shape: 'f32[2]', source: { uri: 'file:///a' } },
      {
        type: 'show',
        shape: 'f32[2]',
        source: { name: 'a', range: { start: { line: 1, character: 0 }, end: { line: 0, character: 0 } } },
      },
      {
        type: 'show',
        shape: 'f32[2]',
        source: { name: 'a', range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } } },
      },
      { type: 'show', shape: 'f32[2]', source: { name: 'a', html: '<b>' } },
      { type: 'exportResult', ok: 'yes', detail: '' },
      { type: 'follow', on: 'true' },
      { type: 'follow', on: true, shape: 'f32[2]' },
      { type: 'eval', code: 'alert(1)' },
    ];
    for (const m of bad) assert.equal(validateHostToWebview(m).ok, false, JSON.stringify(m)?.slice(0, 80));
  });

  it('accepts well-formed webview → host messages', () => {
    const messages = [
      { type: 'ready' },
      { type: 'reveal' },
      { type: 'export', format: 'png', fileName: 'layout.png', data: 'iVBORw0KGgo=' },
      {
        type: 'export',
        format: 'svg',
        fileName: 'my-layout_2.svg',
        data: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      },
      { type: 'follow', on: true },
      { type: 'showing', shape: 'f32[3,5]{1,0:T(2,2)}' },
      { type: 'showing', shape: 'f32[2]', element: { start: 1, end: 7 } },
    ];
    for (const m of messages) assert.deepEqual(validateWebviewToHost(m), { ok: true, value: m });
  });

  it('rejects malformed webview → host messages, including path tricks in file names', () => {
    const bad: unknown[] = [
      undefined,
      { type: 'ready', now: 1 },
      { type: 'reveal', uri: 'file:///etc/passwd' },
      { type: 'export', format: 'gif', fileName: 'a.gif', data: 'AAAA' },
      { type: 'export', format: 'png', fileName: '../../.bashrc.png', data: 'AAAA' },
      { type: 'export', format: 'png', fileName: 'a/b.png', data: 'AAAA' },
      { type: 'export', format: 'png', fileName: 'layout.svg', data: 'AAAA' },
      { type: 'export', format: 'png', fileName: 'layout.png', data: 'not base64!' },
      { type: 'export', format: 'png', fileName: 'layout.png', data: '' },
      { type: 'export', format: 'svg', fileName: 'layout.svg', data: '<script>alert(1)</script>' },
      { type: 'export', format: 'svg', fileName: 'layout.svg' },
      { type: 'openFile', path: '/etc/passwd' },
      { type: 'follow' },
      { type: 'showing', shape: 7 },
      { type: 'showing', shape: 'f32[2]', uri: 'file:///etc/passwd' },
      { type: 'showing', shape: 'f32[2]', element: { start: 5, end: 2 } },
      { type: 'showing', shape: 'f32[2]', element: { start: -1, end: 2 } },
      { type: 'showing', shape: 'f32[2]', element: { start: 0, end: 2, line: 9 } },
      { type: 'showing', shape: 'f32[2]', element: { start: 0.5, end: 2 } },
    ];
    for (const m of bad) assert.equal(validateWebviewToHost(m).ok, false, JSON.stringify(m));
  });

  it('isRange requires ordered, non-negative integer positions', () => {
    assert.equal(isRange(range), true);
    assert.equal(isRange({ start: { line: 0, character: 1.5 }, end: { line: 0, character: 2 } }), false);
    assert.equal(isRange({ start: { line: 2, character: 5 }, end: { line: 2, character: 4 } }), false);
  });
});
