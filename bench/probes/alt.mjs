import { Lsp } from './lsp.mjs';
const N = +process.argv[2];
const tuple = `(${Array(N).fill('f32[8,3]{1,0:T(8,128)}').join(', ')})`;
const text = `HloModule m\n\nENTRY %main () -> f32[] {\n  %a = ${tuple} parameter(0)\n  %b = ${tuple} parameter(1)\n  ROOT %c = f32[] constant(1)\n}\n`;
const s = new Lsp();
await s.init();
const uri = 'file:///w.hlo';
await s.open(uri, text);
await s.waitDiag(uri, 120000);
const out = [];
for (let r = 0; r < 3; r++)
  for (const line of [3, 4]) {
    const x = await s.request(
      'textDocument/hover',
      { textDocument: { uri }, position: { line, character: 5000 } },
      60000,
    );
    out.push(x.ms);
  }
console.log(N, 'hovers a,b,a,b,a,b ms:', out.join(' '), JSON.stringify(s.rss()));
s.kill();
