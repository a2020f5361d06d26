/**
 * `npm run test:vscode`: the client's plain-Node unit tests (test/vscode/unit), then the
 * extension-host suite (test/vscode/suite) in a real VS Code:
 *
 * 1. Desktop VS Code through @vscode/test-electron when one is available: $VSCODE_EXECUTABLE, or a
 *    download from update.code.visualstudio.com when that host is reachable.
 * 2. Otherwise it says so, and runs the same suite in code-server (the same workbench and Node
 *    extension host, in Chromium) when scripts/install-code-server.sh has installed it.
 * Exits 0 only when a suite actually ran and passed.
 */
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildExtension, buildSuite } from './build';
import { REPO, missingPrerequisites } from './harness';
import { runSuiteInCodeServer } from './code-server-suite';

const FIXTURES = join(REPO, 'test', 'vscode', 'fixtures');

/** Why a desktop VS Code cannot be had here, or undefined when test-electron can run. */
async function desktopUnavailable(): Promise<string | undefined> {
  if (process.env.VSCODE_EXECUTABLE !== undefined) return undefined;
  try {
    const res = await fetch('https://update.code.visualstudio.com/api/releases/stable', {
      signal: AbortSignal.timeout(8000),
    });
    return res.ok ? undefined : `update.code.visualstudio.com answered ${res.status}`;
  } catch (e) {
    return `cannot reach update.code.visualstudio.com to download VS Code (${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)})`;
  }
}

/** The client modules free of `vscode`, under plain mocha (the repo's .mocharc ignores test/vscode/). */
function runUnitTests(): boolean {
  const r = spawnSync(
    'npx',
    [
      'mocha',
      '--no-config',
      '--node-option',
      'import=tsx',
      '--reporter',
      'dot',
      'test/vscode/unit/*.test.ts',
    ],
    { cwd: REPO, stdio: 'inherit' },
  );
  return r.status === 0;
}

async function main(): Promise<number> {
  if (!runUnitTests()) {
    console.log('test:vscode: client unit tests failed.');
    return 1;
  }
  buildExtension();
  const testsPath = await buildSuite();
  const why = await desktopUnavailable();
  if (why === undefined) {
    console.log('test:vscode: running the suite in desktop VS Code via @vscode/test-electron');
    return runTests({
      extensionDevelopmentPath: REPO,
      extensionTestsPath: testsPath,
      ...(process.env.VSCODE_EXECUTABLE !== undefined
        ? { vscodeExecutablePath: process.env.VSCODE_EXECUTABLE }
        : {}),
      launchArgs: [FIXTURES, '--disable-extensions', '--disable-workspace-trust'],
    });
  }
  console.log(`test:vscode: no desktop VS Code for @vscode/test-electron: ${why}.`);
  const missing = missingPrerequisites();
  if (missing !== undefined) {
    console.log(`test:vscode: cannot run the suite in code-server either: missing ${missing}.`);
    console.log('test:vscode: NO extension-host tests ran.');
    return 1;
  }
  console.log(
    'test:vscode: running the same suite in code-server (VS Code 1.100.3 workbench, Node extension host) instead.',
  );
  const result = await runSuiteInCodeServer(testsPath, FIXTURES);
  for (const t of result.tests)
    console.log(
      `  ${t.state === 'passed' ? '✓' : '✗'} ${t.title}${t.error ? `\n      ${t.error.split('\n').slice(0, 6).join('\n      ')}` : ''}`,
    );
  console.log(
    `\n${result.passed} passed, ${result.failed} failed (extension host exit code ${result.exitCode})`,
  );
  return result.exitCode === 0 && result.passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
