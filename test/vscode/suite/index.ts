/**
 * Test runner loaded by the VS Code extension host through `extensionTestsPath` (under
 * @vscode/test-electron or code-server alike). Runs every compiled `*.test.js` next to this file
 * with mocha and reports through the standard callback (the host exits with 1 on failures).
 * It also writes a JSON summary to $XLA_LENS_SUITE_RESULTS when set, because under code-server the
 * extension host's console is not visible to the process that started it.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

interface TestRecord {
  readonly title: string;
  readonly state: 'passed' | 'failed';
  readonly error?: string;
  readonly ms?: number;
}

export function run(_testsRoot: string, callback: (error: unknown, failures?: number) => void): void {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(join(__dirname, file));
  }
  const records: TestRecord[] = [];
  try {
    const runner = mocha.run((failures) => {
      const out = process.env.XLA_LENS_SUITE_RESULTS;
      if (out !== undefined) {
        writeFileSync(
          out,
          JSON.stringify(
            { passed: records.filter((r) => r.state === 'passed').length, failed: failures, tests: records },
            null,
            2,
          ),
        );
      }
      callback(null, failures);
    });
    runner.on('pass', (t) => records.push({ title: t.fullTitle(), state: 'passed', ms: t.duration }));
    runner.on('fail', (t, err: Error) =>
      records.push({ title: t.fullTitle(), state: 'failed', error: err.stack ?? err.message }),
    );
  } catch (e) {
    callback(e);
  }
}
