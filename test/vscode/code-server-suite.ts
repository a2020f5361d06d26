/**
 * Runs the extension-host mocha suite inside code-server: the workbench gets `extensionTestsPath`
 * in its payload, the Node extension host runs suite/index.js, exits with the mocha result, and
 * the workbench hands the exit code to `window.codeAutomationExit`, which we expose.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../support/chromium';
import { REPO, startCodeServer } from './harness';

export interface SuiteResult {
  readonly exitCode: number;
  readonly passed: number;
  readonly failed: number;
  readonly tests: readonly { title: string; state: 'passed' | 'failed'; error?: string }[];
}

/** Runs the compiled suite at `testsPath` with `folder` open; resolves when the extension host exits. */
export async function runSuiteInCodeServer(
  testsPath: string,
  folder: string,
  timeoutMs = 300_000,
): Promise<SuiteResult> {
  const scratch = mkdtempSync(join(tmpdir(), 'xla-lens-suite-'));
  const resultsFile = join(scratch, 'results.json');
  const server = await startCodeServer({ env: { XLA_LENS_SUITE_RESULTS: resultsFile } });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    let resolveExit: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationExit', (code: number) => resolveExit(code));
    await page.goto(server.workbenchUrl(folder, REPO, { testsPath }));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `the extension-host suite did not finish within ${timeoutMs} ms; server log:\n${readFileSync(server.logFile, 'utf8').slice(-3000)}`,
            ),
          ),
        timeoutMs,
      );
    });
    const code = await Promise.race([exitCode, timeout]).finally(() => clearTimeout(timer));
    if (!existsSync(resultsFile))
      return {
        exitCode: code,
        passed: 0,
        failed: 1,
        tests: [{ title: 'suite did not report results (runner failed to load?)', state: 'failed' }],
      };
    const parsed = JSON.parse(readFileSync(resultsFile, 'utf8')) as Omit<SuiteResult, 'exitCode'>;
    return { exitCode: code, ...parsed };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
