/**
 * The bundled server (`node dist/server.js --stdio`, as Neovim, Helix and Emacs start it) fed raw
 * bytes a careless client may write inside a didChange: invalid UTF-8 and control characters that
 * JSON forbids raw. The server must read such a change rather than drop it, so its text stays the
 * editor's: a later change placed by the editor's positions lands on the characters it means. The
 * editor's text counts one character per stray byte (U+FFFD) and keeps control characters as written.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { buildBundle } from '../support/esbuild';

const SERVER = join(__dirname, '..', '..', 'dist', 'server.js');

interface Json {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
}

/** A client writing LSP frames byte for byte to the server's stdin. */
class RawClient {
  private buffer = Buffer.alloc(0);
  private nextId = 0;
  private readonly replies = new Map<number, (r: Json) => void>();
  /** Notifications and requests from the server, in order. */
  readonly notifications: Json[] = [];
  private readonly waiters: { accept: (n: Json) => boolean; done: (n: Json) => void }[] = [];

  constructor(private readonly server: ChildProcessWithoutNullStreams) {
    server.stdout.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const header = this.buffer.indexOf('\r\n\r\n');
        if (header < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, header).toString())?.[1]);
        if (this.buffer.length < header + 4 + length) return;
        const m = JSON.parse(this.buffer.subarray(header + 4, header + 4 + length).toString()) as Json;
        this.buffer = this.buffer.subarray(header + 4 + length);
        if (m.id !== undefined && m.method !== undefined) {
          this.notifications.push(m);
          for (const w of [...this.waiters]) if (w.accept(m)) w.done(m);
          const items = (m.params?.items as unknown[] | undefined) ?? [];
          this.send({
            jsonrpc: '2.0',
            id: m.id,
            result: m.method === 'workspace/configuration' ? items.map(() => ({})) : null,
          });
        } else if (m.id !== undefined) this.replies.get(m.id)?.(m);
        else {
          this.notifications.push(m);
          for (const w of [...this.waiters]) if (w.accept(m)) w.done(m);
        }
      }
    });
  }

  /** Writes `body` as one frame, exactly these bytes. */
  write(body: Buffer): void {
    this.server.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  }

  send(message: object): void {
    this.write(Buffer.from(JSON.stringify(message)));
  }

  request(method: string, params: unknown): Promise<Json> {
    const id = ++this.nextId;
    this.send({ jsonrpc: '2.0', id, method, params });
    return new Promise((done) => this.replies.set(id, done));
  }

  /** The next notification `accept` takes (or one already received). */
  next(accept: (n: Json) => boolean): Promise<Json> {
    const seen = this.notifications.find(accept);
    return seen ? Promise.resolve(seen) : new Promise((done) => this.waiters.push({ accept, done }));
  }
}

const URI = 'file:///w/raw.hlo';
const TEXT = 'HloModule m\n\nENTRY e {\n  ROOT p0 = f32[8,128]{1,0} parameter(0)\n}\n';

const diagnosticsOf = (version: number) => (n: Json) =>
  n.method === 'textDocument/publishDiagnostics' && n.params?.uri === URI && n.params.version === version;

describe('server over stdio: raw bytes in a didChange', function () {
  this.timeout(60_000);
  let server: ChildProcessWithoutNullStreams;
  let client: RawClient;

  before(async () => {
    await buildBundle('dist/server.js');
  });

  beforeEach(async () => {
    server = spawn(process.execPath, [SERVER, '--stdio']);
    client = new RawClient(server);
    await client.request('initialize', {
      processId: null,
      rootUri: null,
      capabilities: { workspace: { configuration: true } },
    });
    client.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  });

  afterEach(() => {
    server.kill();
  });

  const CASES: readonly { name: string; bytes: number[]; editorText: string; log: RegExp }[] = [
    { name: 'a stray byte', bytes: [0xff], editorText: '\ufffd', log: /1 byte of invalid UTF-8/ },
    // A truncated sequence is one character per byte (a decoder reading it as one would shift every later position).
    {
      name: 'a truncated 3-byte sequence',
      bytes: [0xe2, 0x82],
      editorText: '\ufffd\ufffd',
      log: /2 bytes of invalid UTF-8/,
    },
    {
      name: 'an encoded surrogate',
      bytes: [0xed, 0xa0, 0x80],
      editorText: '\ufffd\ufffd\ufffd',
      log: /3 bytes/,
    },
    {
      name: 'a raw NUL and a raw tab',
      bytes: [0x00, 0x09],
      editorText: '\u0000\t',
      log: /raw control characters/,
    },
    { name: 'a raw line feed', bytes: [0x0a], editorText: '\n', log: /raw control characters/ },
  ];

  for (const c of CASES) {
    it(`reads ${c.name} as the editor's characters, so the next edit lands where the editor means`, async () => {
      client.send({
        jsonrpc: '2.0',
        method: 'textDocument/didOpen',
        params: { textDocument: { uri: URI, languageId: 'hlo', version: 1, text: TEXT } },
      });
      await client.next(diagnosticsOf(1));
      // Version 2 puts a comment holding the raw bytes before the shape: `/*<bytes>*/ f32[8,128]{1,0}`.
      const shapeAt = TEXT.indexOf('f32');
      const line = 3;
      const column = shapeAt - TEXT.lastIndexOf('\n', shapeAt) - 1;
      const frame = JSON.stringify({
        jsonrpc: '2.0',
        method: 'textDocument/didChange',
        params: {
          textDocument: { uri: URI, version: 2 },
          contentChanges: [
            {
              range: { start: { line, character: column }, end: { line, character: column } },
              text: '/*@@*/ ',
            },
          ],
        },
      });
      const [before, after] = frame.split('@@');
      client.write(Buffer.concat([Buffer.from(before), Buffer.from(c.bytes), Buffer.from(after)]));
      // Version 3 turns `{1,0}` into `{1,1}`, at the column the editor computes from its own text.
      const editorLine = `  ROOT p0 = /*${c.editorText}*/ f32[8,128]{1,0} parameter(0)`;
      const lines = editorLine.split('\n');
      const last = lines[lines.length - 1];
      const zero = last.indexOf('{1,0}') + 3;
      const zeroLine = line + lines.length - 1;
      client.send({
        jsonrpc: '2.0',
        method: 'textDocument/didChange',
        params: {
          textDocument: { uri: URI, version: 3 },
          contentChanges: [
            {
              range: {
                start: { line: zeroLine, character: zero },
                end: { line: zeroLine, character: zero + 1 },
              },
              text: '1',
            },
          ],
        },
      });
      const published = await client.next(diagnosticsOf(3));
      const diagnostics = published.params?.diagnostics as { code: string; range: unknown }[];
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.range]),
        [
          [
            'minor-to-major-duplicate',
            { start: { line: zeroLine, character: zero }, end: { line: zeroLine, character: zero + 1 } },
          ],
        ],
      );
      // What was forgiven is logged, not silent.
      const logs = client.notifications
        .filter((n) => n.method === 'window/logMessage')
        .map((n) => String(n.params?.message));
      assert.ok(
        logs.some((m) => c.log.test(m)),
        logs.join('\n'),
      );
    });
  }

  it('says so when a message cannot be read at all, and goes on serving', async () => {
    client.send({
      jsonrpc: '2.0',
      method: 'textDocument/didOpen',
      params: { textDocument: { uri: URI, languageId: 'hlo', version: 1, text: TEXT } },
    });
    await client.next(diagnosticsOf(1));
    client.write(Buffer.from('{"jsonrpc":"2.0","method":"textDocument/didChange",'));
    const shown = await client.next((n) => n.method === 'window/showMessageRequest');
    assert.match(String(shown.params?.message), /not JSON .*reopen the file to resynchronise/);
    const symbols = await client.request('textDocument/documentSymbol', { textDocument: { uri: URI } });
    assert.ok(Array.isArray(symbols.result) && symbols.result.length === 1);
  });
});
