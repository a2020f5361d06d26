/**
 * The extension-host suite (test/vscode/suite: the public VS Code API against the real client
 * and server) as part of `npm test`, so CI runs it: compiled, then run in code-server's Node
 * extension host, as `npm run test:vscode` does when no desktop VS Code can be had. Each of the
 * suite's tests is reported here; any failure fails this test with the suite's own messages.
 *
 * Needs code-server and Chromium like the end-to-end test; without them the suite is not
 * registered (a line says why), and with CI set it fails instead.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { buildExtension, buildSuite } from './build';
import { runSuiteInCodeServer, type SuiteResult } from './code-server-suite';
import { REPO, missingPrerequisites } from './harness';

const missing = missingPrerequisites();

if (missing !== undefined && process.env.CI === undefined) {
  console.log(`[vscode extension host] not registered: missing ${missing}`);
} else {
  describe('VS Code extension-host suite (code-server)', function () {
    this.timeout(600_000);
    let result: SuiteResult;

    before(async function () {
      this.timeout(600_000);
      assert.equal(missing, undefined, `prerequisites missing: ${missing}`);
      buildExtension();
      result = await runSuiteInCodeServer(
        await buildSuite(),
        join(REPO, 'test', 'vscode', 'fixtures'),
        540_000,
      );
    });

    it('passes every test of the suite in the extension host', () => {
      for (const t of result.tests) console.log(`      ${t.state === 'passed' ? '✓' : '✗'} ${t.title}`);
      const failures = result.tests
        .filter((t) => t.state === 'failed')
        .map((t) => `${t.title}\n${t.error ?? ''}`);
      assert.deepEqual(failures, [], 'failed in the extension host');
      assert.equal(result.exitCode, 0, 'the extension host exit code');
      assert.ok(result.passed >= 15, `${result.passed} tests passed`);
    });
  });
}
