// Minimal raw LSP harness: spawn server, frame messages, watch RSS, time requests.
import { spawn } from 'child_process';
import { readFileSync } from 'fs';
export const SERVER = process.env.SERVER || new URL('../../dist/server.js', import.meta.url).pathname;
export function rssMB(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = s.match(/VmRSS:\s+(\d+)/);
    const h = s.match(/VmHWM:\s+(\d+)/);
    return { rss: (+m[1] / 1024) | 0, hwm: (+h[1] / 1024) | 0 };
  } catch {
    return { rss: -1, hwm: -1 };
  }
}
export class Lsp {
  constructor(opts = {}) {
    this.settings = opts.settings ?? {};
    this.proc = spawn('node', [...(opts.nodeArgs ?? []), SERVER, '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pid = this.proc.pid;
    this.buf = Buffer.alloc(0);
    this.id = 1;
    this.pending = new Map();
    this.notes = [];
    this.diags = new Map();
    this.stderr = '';
    this.exited = null;
    this.proc.on('exit', (code, sig) => {
      this.exited = { code, sig };
      for (const [, p] of this.pending) p.reject(new Error('server exited ' + code + ' ' + sig));
    });
    this.proc.stderr.on('data', (d) => {
      this.stderr += d;
      if (this.stderr.length > 1e6) this.stderr = this.stderr.slice(-1e5);
    });
    this.proc.stdout.on('data', (d) => this.onData(d));
    this.proc.stdin.on('error', () => {});
    this.logs = [];
  }
  onData(d) {
    this.chunks = this.chunks || [];
    this.chunks.push(d);
    this.have = (this.have || 0) + d.length;
    if (this.need && this.have < this.need) return;
    this.buf = Buffer.concat([this.buf, ...this.chunks]);
    this.chunks = [];
    this.have = 0;
    this.need = 0;
    for (;;) {
      const i = this.buf.indexOf('\r\n\r\n');
      if (i < 0) return;
      const head = this.buf.slice(0, i).toString();
      const m = head.match(/Content-Length: (\d+)/i);
      const len = +m[1];
      if (this.buf.length < i + 4 + len) {
        this.need = i + 4 + len - this.buf.length;
        return;
      }
      const body = this.buf.slice(i + 4, i + 4 + len).toString('utf8');
      this.buf = this.buf.slice(i + 4 + len);
      let msg;
      try {
        msg = JSON.parse(body);
      } catch (e) {
        this.notes.push({ bad: body.slice(0, 200) });
        continue;
      }
      this.handle(msg, len);
    }
  }
  handle(msg, len) {
    if (msg.id !== undefined && msg.method) {
      // server->client request
      let result = null;
      if (msg.method === 'workspace/configuration') result = msg.params.items.map(() => this.settings);
      this.sendRaw({ jsonrpc: '2.0', id: msg.id, result });
      return;
    }
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        p.resolve({ msg, len });
      }
      return;
    }
    if (msg.method === 'textDocument/publishDiagnostics') {
      this.diags.set(msg.params.uri, {
        n: msg.params.diagnostics.length,
        version: msg.params.version,
        t: Date.now(),
        len,
        params: msg.params,
      });
      this.lastDiag = Date.now();
    } else if (msg.method === 'window/logMessage') {
      this.logs.push(msg.params.message);
      if (this.logs.length > 200) this.logs.shift();
    } else this.notes.push(msg.method);
  }
  sendRaw(obj) {
    const body = Buffer.from(typeof obj === 'string' ? obj : JSON.stringify(obj), 'utf8');
    return this.sendBytes(body);
  }
  sendBytes(body) {
    return new Promise((res) => {
      const ok = this.proc.stdin.write(
        Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]),
      );
      if (ok) res();
      else this.proc.stdin.once('drain', res);
    });
  }
  notify(method, params) {
    return this.sendRaw({ jsonrpc: '2.0', method, params });
  }
  request(method, params, timeoutMs = 10000) {
    const id = this.id++;
    const t0 = Date.now();
    const p = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      setTimeout(() => {
        if (this.pending.has(id)) {
          this.pending.delete(id);
          resolve({ timeout: true, ms: Date.now() - t0 });
        }
      }, timeoutMs);
    });
    this.sendRaw({ jsonrpc: '2.0', id, method, params });
    return p.then(
      (r) => ({ ...r, ms: Date.now() - t0, id }),
      (e) => ({ error: String(e), ms: Date.now() - t0 }),
    );
  }
  requestWithId(method, params, timeoutMs = 10000) {
    const id = this.id;
    return { id, p: this.request(method, params, timeoutMs) };
  }
  async init(caps) {
    const r = await this.request('initialize', {
      processId: null,
      rootUri: null,
      capabilities: caps ?? {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
        textDocument: {
          hover: { contentFormat: ['markdown', 'plaintext'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          publishDiagnostics: {
            relatedInformation: true,
            codeDescriptionSupport: true,
            versionSupport: true,
          },
          codeAction: {
            codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } },
            isPreferredSupport: true,
          },
          rename: { prepareSupport: true },
        },
      },
    });
    await this.notify('initialized', {});
    this.caps = r.msg?.result?.capabilities;
    return r;
  }
  open(uri, text, version = 1) {
    return this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'hlo', version, text } });
  }
  async waitDiag(uri, timeoutMs = 30000, version) {
    const t0 = Date.now();
    while (Date.now() - t0 < timeoutMs) {
      const d = this.diags.get(uri);
      if (d && (version === undefined || d.version === version)) return { ...d, ms: Date.now() - t0 };
      if (this.exited) return { exited: this.exited };
      await new Promise((r) => setTimeout(r, 20));
    }
    return { timeout: true };
  }
  rss() {
    return rssMB(this.pid);
  }
  kill() {
    try {
      this.proc.kill('SIGKILL');
    } catch {}
  }
}
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
