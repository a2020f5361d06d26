import { Lsp } from './lsp.mjs';
const N = +(process.argv[2] ?? 200000);
const text = `HloModule m\n\nENTRY %main () -> f32[] {\n  %a = f32[2] parameter(0)\n  %t = (${Array(N).fill('f32[2]').join(',')}) tuple(${Array(N).fill('%a').join(', ')})\n  ROOT %c = f32[] constant(1)\n}\n`;
const nodeArgs = process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`] : [];
const s = new Lsp({ nodeArgs });
await s.init();
const uri = 'file:///many.hlo';
await s.open(uri, text);
await s.waitDiag(uri, 120000);
const out = [];
for (let r = 0; r < 2; r++)
  for (const [m, extra] of [
    ['textDocument/references', { context: { includeDeclaration: true } }],
    ['textDocument/documentHighlight', {}],
    ['textDocument/rename', { newName: 'zz' }],
  ]) {
    const x = await s.request(
      m,
      { textDocument: { uri }, position: { line: 3, character: 3 }, ...extra },
      60000,
    );
    out.push(`${m.split('/')[1]} ${x.ms}ms ${x.len}B`);
  }
console.log(N, out.join(' | '), JSON.stringify(s.rss()));
await s.request('shutdown', null, 30000);
await s.notify('exit');
await new Promise((r) => s.proc.once('exit', r));
