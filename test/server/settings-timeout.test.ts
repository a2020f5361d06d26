/**
 * A client that never answers workspace/configuration (a busy extension host, a client that
 * advertises the request and drops it) must not hold the documents: the settings fetch shares
 * their queue, so it gives up after a timeout, keeps the settings it has, logs once, and still
 * applies the answer if it comes later.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResponseError, type Hover } from 'vscode-languageserver';
import { positionOf, TestClient } from './harness';

const invalid = readFileSync(join(__dirname, 'fixtures', 'invalid.hlo'), 'utf8');
const uri = 'file:///w/invalid.hlo';
const TIMEOUT_MS = 50;

/** Makes the client hold every workspace/configuration request; `answer` replies to the held ones. */
function holdConfiguration(client: TestClient): { answer: (section: unknown) => void; asked: () => number } {
  const held: ((items: unknown[]) => void)[] = [];
  let asked = 0;
  client.rpc.onRequest('workspace/configuration', (params: { items: unknown[] }) => {
    asked++;
    return new Promise<unknown[]>((resolve) =>
      held.push(() => resolve(params.items.map(() => client.settings))),
    );
  });
  return {
    answer: (section) => {
      client.settings = section;
      for (const reply of held.splice(0)) reply([]);
    },
    asked: () => asked,
  };
}

describe('server: unanswered workspace/configuration', () => {
  it('keeps answering edits and requests, logs once, and applies a late answer', async () => {
    const { client } = await TestClient.start({}, undefined, { configurationTimeoutMs: TIMEOUT_MS });
    assert.equal((await client.open(uri, invalid)).length, 4);
    const config = holdConfiguration(client);
    await client.rpc.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.rpc.sendNotification('workspace/didChangeConfiguration', { settings: null });
    // An edit and a hover behind the unanswered fetches are served with the settings kept.
    const diags = await client.change(uri, [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' },
    ]);
    assert.equal(diags.length, 4);
    const hover = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(` ${invalid}`, 'f32['),
    });
    assert.ok(hover);
    assert.equal(config.asked(), 2);
    const waits = client.logs.filter((l) => l.includes('workspace/configuration'));
    assert.equal(waits.length, 1, client.logs.join('\n'));
    assert.match(waits[0], /did not answer .* within 0\.05 s; the server goes on with the settings it has/);
    // The answer comes at last: the newest fetch's answer takes effect.
    const next = client.waitFor(uri, (p) => p.diagnostics.length === 2);
    config.answer({ diagnostics: { severity: { 'tile-empty': 'off' } } });
    assert.deepEqual(
      (await next).diagnostics.map((d) => d.code),
      ['tile-negative', 'minor-to-major-duplicate'],
    );
    await client.dispose();
  });

  it('logs an error answer in one line and keeps the settings', async () => {
    const { client } = await TestClient.start({ diagnostics: { severity: { 'tile-empty': 'off' } } });
    assert.equal((await client.open(uri, invalid)).length, 2);
    client.rpc.onRequest('workspace/configuration', () => {
      throw new ResponseError(-32603, 'settings are unavailable');
    });
    await client.rpc.sendNotification('workspace/didChangeConfiguration', { settings: null });
    assert.equal(
      (
        await client.change(uri, [
          { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' },
        ])
      ).length,
      2,
    );
    assert.deepEqual(client.logs, [
      'The editor answered the request for settings with an error (settings are unavailable); the settings stay as they were.',
    ]);
    await client.dispose();
  });
});
