/**
 * The Node client's log when the server process exits: a clean exit (code 0, what every requested
 * stop or restart ends in) is information, any other code still an error. vscode-languageclient's
 * real process handling runs here, outside VS Code: `vscode` is a stub that answers every property
 * (only the version is read while the client is made and its server process started).
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeLanguageClient } from '../../../client/src/node-language-client';

/** Anything, callable and constructible, whose properties are more of the same. */
function anything(): unknown {
  return new Proxy(function () {}, {
    get: (_target, key) => (key === 'then' ? undefined : anything()),
    apply: () => anything(),
    construct: () => anything() as object,
  });
}

const STUBBED: Record<string, unknown> = { version: '1.90.0' };
const VSCODE = new Proxy(STUBBED, {
  get: (target, key) => (typeof key === 'string' && key in target ? target[key] : anything()),
});

type Load = (request: string, ...rest: unknown[]) => unknown;
const loader = Module as unknown as { _load: Load };

/** Starts the server module `file` through the client's own transport code; returns its log. */
async function exitLog(Client: typeof NodeLanguageClient, file: string): Promise<string[]> {
  const lines: string[] = [];
  const channel = {
    name: 'test',
    append: (s: string) => lines.push(s),
    appendLine: (s: string) => lines.push(s),
  };
  const { TransportKind } = await import('vscode-languageclient/node');
  const client = new Client(
    'test',
    'Test',
    { module: file, transport: TransportKind.ipc },
    { outputChannel: channel as never },
  );
  // The protected step of start() that spawns the process and listens for its exit.
  await (
    client as unknown as { createMessageTransports(e: string): Promise<unknown> }
  ).createMessageTransports('utf8');
  for (let waited = 0; lines.length === 0 && waited < 10_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return lines;
}

describe('client: the server process exit in the output channel', () => {
  let dir: string;
  let Client: typeof NodeLanguageClient;

  before(async () => {
    const load = loader._load;
    loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
      return request === 'vscode' ? VSCODE : load.call(this, request, ...rest);
    };
    try {
      Client = (await import('../../../client/src/node-language-client')).NodeLanguageClient;
    } finally {
      loader._load = load;
    }
    dir = mkdtempSync(join(tmpdir(), 'xla-lens-exit-'));
    writeFileSync(join(dir, 'clean.js'), 'setTimeout(() => process.exit(0), 100);\n');
    writeFileSync(join(dir, 'crash.js'), 'setTimeout(() => process.exit(3), 100);\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('logs a clean exit, as after a requested restart, as information, not an error', async () => {
    const log = await exitLog(Client, join(dir, 'clean.js'));
    assert.equal(log.length, 1, log.join('\n'));
    assert.match(log[0], /^\[Info +- .*\] Server process exited successfully\.$/);
  });

  it('still logs any other exit code as an error', async () => {
    const log = await exitLog(Client, join(dir, 'crash.js'));
    assert.equal(log.length, 1, log.join('\n'));
    assert.match(log[0], /^\[Error - .*\] Server process exited with code 3\.$/);
  });
});
