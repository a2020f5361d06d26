/**
 * Requests whose params break LSP's structure (`range: null`, no position, no item) are answered
 * with InvalidParams and one log line naming the request and the field, never a stack trace.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCodes, ResponseError } from 'vscode-languageserver';
import { TestClient } from './harness';

const uri = 'file:///w/invalid.hlo';
const text = readFileSync(join(__dirname, 'fixtures', 'invalid.hlo'), 'utf8');
const doc = { uri };
const at = { line: 3, character: 4 };

const MALFORMED: [method: string, params: unknown, field: string][] = [
  ['textDocument/inlayHint', { textDocument: doc, range: null }, 'range'],
  ['textDocument/hover', { textDocument: doc }, 'position'],
  ['textDocument/definition', { textDocument: doc, position: { line: 'x' } }, 'position'],
  ['textDocument/references', { textDocument: doc, position: at }, 'context'],
  ['textDocument/rename', { textDocument: doc, position: at }, 'newName'],
  [
    'textDocument/codeAction',
    { textDocument: doc, range: { start: at }, context: { diagnostics: [] } },
    'range',
  ],
  [
    'textDocument/codeAction',
    { textDocument: doc, range: { start: at, end: at }, context: { diagnostics: [{}] } },
    'context',
  ],
  ['textDocument/selectionRange', { textDocument: doc, positions: null }, 'positions'],
  ['textDocument/documentSymbol', { textDocument: null }, 'textDocument'],
  ['callHierarchy/incomingCalls', { item: null }, 'item'],
  ['callHierarchy/outgoingCalls', { item: { uri, name: 'e' } }, 'item'],
  ['workspace/symbol', {}, 'query'],
];

describe('server: malformed request params', () => {
  it('answers InvalidParams with one log line each, no stack trace', async () => {
    const { client } = await TestClient.start();
    await client.open(uri, text);
    for (const [method, params, field] of MALFORMED) {
      const before = client.logs.length;
      const error = await client.request(method, params).then(
        () => assert.fail(`${method} answered`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ResponseError, method);
      assert.equal(error.code, ErrorCodes.InvalidParams, method);
      assert.match(error.message, new RegExp(`^${method}: invalid params: ${field}: `));
      const logged = client.logs.slice(before);
      assert.deepEqual(logged, [error.message], method);
    }
    // Well-formed params are still answered.
    assert.deepEqual(
      await client.request('textDocument/inlayHint', { textDocument: doc, range: { start: at, end: at } }),
      [],
    );
    await client.dispose();
  });
});
