/**
 * Restricted Mode in a real VS Code: workspace trust on, the fixtures folder never trusted, and the
 * extension installed from its .vsix as a user installs it (VS Code always trusts an Extension
 * Development Host window, so the development path would prove nothing). The extension declares
 * `untrustedWorkspaces: limited`: it runs nothing from the workspace, but ignores the workspace's
 * values of the settings that set how much work a request does. The first test shows diagnostics
 * and hovers working there, the second that a restricted setting of the workspace is ignored while
 * another is honoured, and the control that the same extension declaring no support is kept off,
 * so it is the declaration that counts. Screenshots: test-results/vscode/untrusted*.png.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildExtension } from './build';
import { launchChromium } from '../support/chromium';
import { REPO, missingPrerequisites, openWorkbench, startCodeServer, type CodeServer } from './harness';
import { hoverText, quickOpen } from './workbench';

const SHOTS = join(REPO, 'test-results', 'vscode');
const FIXTURES = join(REPO, 'test', 'vscode', 'fixtures');
const missing = missingPrerequisites();

const TRUST_SETTINGS = {
  'security.workspace.trust.enabled': true,
  // No trust dialog: the folder simply stays untrusted, as when a user picks "Don't Trust".
  'security.workspace.trust.startupPrompt': 'never',
};

/** Marks the installed extension as not supporting untrusted workspaces (the control case). */
function declareNoUntrustedSupport(extensionsDir: string): void {
  const dir = readdirSync(extensionsDir).find((d) => d.startsWith('xla-layout-lens.'));
  assert.ok(dir, `extension installed in ${extensionsDir}`);
  const file = join(extensionsDir, dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { capabilities?: Record<string, unknown> };
  manifest.capabilities = {
    ...manifest.capabilities,
    untrustedWorkspaces: { supported: false, description: 'control case' },
  };
  writeFileSync(file, JSON.stringify(manifest));
}

if (missing !== undefined && process.env.CI === undefined) {
  console.log(`[vscode restricted mode] not registered: missing ${missing}`);
} else {
  describe('VS Code Restricted Mode (untrusted workspace, installed .vsix)', function () {
    this.timeout(300_000);
    let vsixDir: string;
    let vsix: string;
    let server: CodeServer | undefined;
    let browser: Browser;
    let page: Page;

    before(async function () {
      assert.equal(missing, undefined, `prerequisites missing: ${missing}`);
      mkdirSync(SHOTS, { recursive: true });
      buildExtension();
      vsixDir = mkdtempSync(join(tmpdir(), 'xla-lens-vsix-'));
      vsix = join(vsixDir, 'xla-layout-lens.vsix');
      execFileSync(
        process.execPath,
        [
          join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'),
          'package',
          '--no-dependencies',
          '--out',
          vsix,
        ],
        { cwd: REPO, stdio: 'pipe' },
      );
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    });

    afterEach(async function () {
      if (this.currentTest?.state === 'failed')
        await page.screenshot({
          path: join(
            SHOTS,
            `failed-untrusted-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}.png`,
          ),
        });
      server?.saveLogs(join(SHOTS, 'logs-untrusted'));
      await server?.stop();
      server = undefined;
    });

    after(async () => {
      await browser?.close();
      rmSync(vsixDir, { recursive: true, force: true });
    });

    /** Opens `folder` (no development path: a plain, untrusted folder) and tiles.hlo in it. */
    async function openFixture(s: CodeServer, folder = FIXTURES): Promise<void> {
      await openWorkbench(page, `${s.url}/?folder=${encodeURIComponent(folder)}`);
      // VS Code says so in the status bar when the workspace is untrusted.
      await page
        .locator('.statusbar-item', { hasText: 'Restricted Mode' })
        .first()
        .waitFor({ timeout: 60_000 });
      await quickOpen(page, 'tiles.hlo');
      await page
        .locator('.monaco-editor .view-line', { hasText: /ENTRY\s%main/ })
        .waitFor({ timeout: 60_000 });
    }

    it('runs in Restricted Mode: the squiggle and the hover come from the language server', async () => {
      server = await startCodeServer({ workspaceTrust: true, settings: TRUST_SETTINGS, install: [vsix] });
      await openFixture(server);
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 60_000 });
      assert.ok(
        server.processes().some((cmd) => /extensions\/xla-layout-lens\.[^ ]*\/dist\/server\.js/.test(cmd)),
        'the installed dist/server.js runs',
      );
      const text = await hoverText(page, 'p0 = f32[8,4]{1,0:T(8,128)}', 7);
      assert.match(text, /^128 B → 4 KiB \(32x\)/, text);
      await page.screenshot({ path: join(SHOTS, 'untrusted.png') });
    });

    it("ignores the workspace's value of a restricted setting, and honours the others", async () => {
      // tiles.hlo in a folder whose settings turn the hover's memory map off (restricted) and
      // make tile-negative a warning (not restricted).
      const folder = mkdtempSync(join(tmpdir(), 'xla-lens-restricted-'));
      try {
        writeFileSync(join(folder, 'tiles.hlo'), readFileSync(join(FIXTURES, 'tiles.hlo')));
        mkdirSync(join(folder, '.vscode'));
        writeFileSync(
          join(folder, '.vscode', 'settings.json'),
          JSON.stringify({
            'xlaLayout.hover.maxMemoryMapCells': 0,
            'xlaLayout.diagnostics.severity': { 'tile-negative': 'warning' },
          }),
        );
        server = await startCodeServer({ workspaceTrust: true, settings: TRUST_SETTINGS, install: [vsix] });
        await openFixture(server, folder);
        await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 60_000 });
        // f32[8,4] has 32 elements, within the default of 64 cells: the map is drawn, in the
        // details the hover's + shows.
        await hoverText(page, 'p0 = f32[8,4]{1,0:T(8,128)}', 7);
        await page.locator('.monaco-hover:visible .codicon-hover-increase-verbosity.enabled').first().click();
        const more = page.locator('.monaco-hover:visible', { hasText: 'Physical order' }).first();
        await more.waitFor({ timeout: 30_000 });
        const text = await page.locator('.monaco-hover-content:visible').first().innerText();
        assert.match(text, /Memory map/, text);
        await page.screenshot({ path: join(SHOTS, 'untrusted-restricted-setting.png') });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('control: the same extension declaring no untrusted support is kept off there', async () => {
      server = await startCodeServer({
        workspaceTrust: true,
        settings: TRUST_SETTINGS,
        install: [vsix],
        beforeStart: declareNoUntrustedSupport,
      });
      await openFixture(server);
      // The signal the first test waits on must not come, and no language server may start.
      await assert.rejects(
        page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 15_000 }),
        /Timeout/,
      );
      assert.ok(!server.processes().some((cmd) => cmd.includes('dist/server.js')), 'no language server runs');
      await page.screenshot({ path: join(SHOTS, 'untrusted-control.png') });
    });
  });
}
