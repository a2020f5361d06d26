import { Lsp } from './lsp.mjs';
const N = +process.argv[2];
const text = `HloModule m\n\nENTRY %main () -> f32[] {\n  %p = (${Array(N).fill('f32[8,3]{1,0:T(8,128)}').join(', ')}) parameter(0)\n  ROOT %c = f32[] constant(1)\n}\n`;
const s = new Lsp();
await s.init();
const uri = 'file:///w.hlo';
let t0 = Date.now();
await s.open(uri, text);
await s.waitDiag(uri, 120000);
const open = Date.now() - t0;
const out = [];
for (const [m, p] of [
  ['textDocument/hover', { position: { line: 3, character: 10 } }],
  ['textDocument/hover', { position: { line: 3, character: 5000 } }],
  ['textDocument/definition', { position: { line: 3, character: 20 } }],
  ['textDocument/references', { position: { line: 3, character: 3 }, context: { includeDeclaration: true } }],
  ['textDocument/rename', { position: { line: 3, character: 3 }, newName: 'zz' }],
  ['textDocument/selectionRange', { positions: [{ line: 3, character: 100 }] }],
]) {
  const r = await s.request(m, { textDocument: { uri }, ...p }, 60000);
  out.push(`${m.split('/')[1]} ${r.ms}ms`);
}
console.log(
  N,
  (text.length / 1e6).toFixed(1) + 'MB',
  'open',
  open,
  'ms |',
  out.join(' | '),
  JSON.stringify(s.rss()),
);
s.kill();
