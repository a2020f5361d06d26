// Type-checks every layer with its own tsconfig (core sees no DOM or Node types, the webview no
// Node types, ...), so a layer cannot use what its platform does not have.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const layers = ['core', 'protocol', 'server', 'client', 'webview', 'cli', '.'];
let failed = false;
for (const layer of layers) {
  if (layer !== '.' && (!existsSync(`${layer}/src`) || readdirSync(`${layer}/src`).length === 0)) continue;
  const r = spawnSync('npx', ['tsc', '-p', layer], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
