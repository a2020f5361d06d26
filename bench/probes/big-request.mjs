import { Lsp, sleep } from './lsp.mjs';
import { DOCS } from './docs.mjs';
const name = process.argv[2];
const methods = process.argv.slice(3);
const s = new Lsp();
await s.init();
const uri = `file:///${name}.hlo`;
const text = DOCS[name]();
let t0 = Date.now();
await s.open(uri, text);
const d = await s.waitDiag(uri, 120000);
console.log('open', Date.now() - t0, 'ms', 'diags', d.n, JSON.stringify(s.rss()));
await s.open('file:///small.hlo', DOCS.example());
await s.waitDiag('file:///small.hlo');
for (const m of methods) {
  const params =
    m === 'workspace/symbol'
      ? { query: '' }
      : m === 'callHierarchy/outgoingCalls'
        ? null
        : { textDocument: { uri } };
  let p;
  if (m === 'callHierarchy/outgoingCalls') {
    const ph = await s.request('textDocument/prepareCallHierarchy', {
      textDocument: { uri },
      position: { line: 2, character: 8 },
    });
    p = s.request(m, { item: ph.msg.result[0] }, 120000);
  } else p = s.request(m, params, 120000);
  // probe responsiveness meanwhile
  const probes = [];
  for (let i = 0; i < 5; i++) {
    await sleep(300);
    const h = await s.request(
      'textDocument/hover',
      { textDocument: { uri: 'file:///small.hlo' }, position: { line: 8, character: 30 } },
      60000,
    );
    probes.push(h.ms);
  }
  const r = await p;
  console.log(
    m,
    r.ms,
    'ms',
    r.len,
    'bytes',
    r.timeout ? 'TIMEOUT' : '',
    'items',
    Array.isArray(r.msg?.result) ? r.msg.result.length : r.msg?.result?.rows?.length,
    '| hover probes on other doc (ms):',
    probes.join(','),
    JSON.stringify(s.rss()),
  );
}
s.kill();
