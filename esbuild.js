// Bundles every entry point with esbuild. `--production` minifies (for the .vsix);
// `--watch` rebuilds on change. A missing entry is an error: a renamed file must not silently
// leave its bundle out of the build.
const esbuild = require('esbuild');
const fs = require('fs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  // VS Code desktop: extension host and language server run in Node.
  {
    entryPoints: ['client/src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
  },
  { entryPoints: ['server/src/node-main.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs' },
  // vscode.dev / github.dev: both run in web workers.
  {
    entryPoints: ['client/src/browser-extension.ts'],
    outfile: 'dist/browser/extension.js',
    platform: 'browser',
    format: 'cjs',
    external: ['vscode'],
  },
  {
    entryPoints: ['server/src/browser-main.ts'],
    outfile: 'dist/browser/server.js',
    platform: 'browser',
    format: 'iife',
  },
  // The webview's script, loaded from the extension folder under a nonce CSP.
  { entryPoints: ['webview/src/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife' },
  // The Memory View's script, loaded the same way.
  {
    entryPoints: ['webview/src/memory/main.ts'],
    outfile: 'dist/memory-view.js',
    platform: 'browser',
    format: 'iife',
  },
  // The command-line tool.
  {
    entryPoints: ['cli/src/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
  },
];

async function main() {
  const missing = targets.flatMap((t) => t.entryPoints).filter((e) => !fs.existsSync(e));
  if (missing.length > 0) throw new Error(`esbuild.js: entry points not found: ${missing.join(', ')}`);
  const builds = targets.map((t) => ({
    bundle: true,
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    ...t,
  }));
  if (watch) {
    await Promise.all(builds.map(async (b) => (await esbuild.context(b)).watch()));
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
  fs.chmodSync('dist/cli.js', 0o755);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
