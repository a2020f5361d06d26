import { readFileSync } from 'node:fs';
import { TestClient } from '../test/server/harness';
const gc = (globalThis as { gc?: () => void }).gc!;
const mb = () => { const m = process.memoryUsage(); return `rss ${Math.round(m.rss / 1048576)} heapUsed ${Math.round(m.heapUsed / 1048576)} heapTotal ${Math.round(m.heapTotal / 1048576)}`; };
async function main(): Promise<void> {
  let text: string | undefined = readFileSync('bench/data/module_0002.jit_train_step_model.50mb.after_optimizations.txt', 'utf8');
  const { client } = await TestClient.start({}, undefined, { collectGarbage: gc });
  const uri = 'file:///big.hlo';
  await client.open(uri, text);
  text = undefined;
  gc(); console.log('after open+gc      ', mb());
  await Promise.all([client.request('textDocument/documentSymbol', { textDocument: { uri } }), client.request('textDocument/foldingRange', { textDocument: { uri } })]);
  console.log('after outline      ', mb());
  gc(); console.log('after outline+gc   ', mb());
  await client.dispose();
}
void main();
