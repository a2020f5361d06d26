// The whole test suite in one command: build, type-check, lint, then every mocha suite.
// Ends with one line "N passed, N failed" so that any CI can read the result.
import { spawnSync } from 'node:child_process';

function step(name, cmd, args) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.log(`\n${name} failed (exit ${r.status})`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

step('build', 'node', ['esbuild.js']);
step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
step('lint', 'npm', ['run', '--silent', 'lint']);
step('exports', 'node', ['scripts/unused-exports.mjs']);

console.log('\n=== tests: mocha');
const r = spawnSync(
  'npx',
  [
    'mocha',
    'test/**/*.test.ts',
    '--ignore',
    'test/vscode/suite/**',
    '--reporter',
    'spec',
    '--reporter-option',
    'maxDiffSize=4000',
  ],
  { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 28 },
);
process.stdout.write(r.stdout);
const passed = Number(/(\d+) passing/.exec(r.stdout)?.[1] ?? 0);
const failed = Number(/(\d+) failing/.exec(r.stdout)?.[1] ?? (r.status === 0 ? 0 : 1));
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(r.status === 0 && passed > 0 ? 0 : 1);
