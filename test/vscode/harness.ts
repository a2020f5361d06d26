/**
 * Runs a real VS Code on this machine: code-server (VS Code's workbench and Node extension host,
 * served to a browser) from the cache folder scripts/install-code-server.sh fills, driven by
 * Debian's Chromium through playwright-core (launched by test/support/chromium.ts). Used by the
 * end-to-end test and by the extension-host suite runner.
 *
 * The extension under test and (optionally) a mocha suite are passed to the workbench the way
 * @vscode/test-web does it: the URL's `payload` carries `extensionDevelopmentPath` and
 * `extensionTestsPath` as `vscode-remote://` URIs, which the remote (Node) extension host maps back
 * to files. When the suite ends, the extension host exits and the workbench calls
 * `window.codeAutomationExit(code)`, which we expose to learn the exit code.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM } from '../support/chromium';

export const CODE_SERVER_VERSION = '4.100.3';
/** The repository root (this file is test/vscode/harness.ts). */
export const REPO = resolve(__dirname, '..', '..');

/** Where install-code-server.sh puts code-server (same defaults and overrides as the script). */
export function codeServerDir(): string {
  const root =
    process.env.XLA_LENS_CODE_SERVER_ROOT ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'xla-layout-lens', 'code-server');
  return join(root, CODE_SERVER_VERSION);
}

const entryJs = (dir: string): string => join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** What is missing to run a real VS Code here, or undefined when everything is installed. */
export function missingPrerequisites(): string | undefined {
  const dir = codeServerDir();
  const missing: string[] = [];
  if (!existsSync(join(dir, '.install-complete')) || !existsSync(entryJs(dir)))
    missing.push(`code-server ${CODE_SERVER_VERSION} in ${dir} (run scripts/install-code-server.sh)`);
  if (!existsSync(CHROMIUM)) missing.push(`Chromium at ${CHROMIUM} (run scripts/install-system-deps.sh)`);
  return missing.length > 0 ? missing.join('; ') : undefined;
}

/** User settings for a clean, quiet, test-friendly workbench. */
export const TEST_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'window.restoreWindows': 'none',
  'chat.commandCenter.enabled': false,
  'editor.hover.delay': 150,
  'editor.minimap.enabled': false,
};

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Polls code-server's health endpoint until it answers (or the process dies / time runs out). */
async function waitForHealthy(
  url: string,
  child: ChildProcess,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(
        `code-server exited with ${child.exitCode}:\n${readFileSync(logFile, 'utf8').slice(-4000)}`,
      );
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `code-server did not answer within ${timeoutMs} ms:\n${readFileSync(logFile, 'utf8').slice(-4000)}`,
  );
}

export interface CodeServerOptions {
  /** Extra user settings merged over {@link TEST_SETTINGS}. */
  readonly settings?: Record<string, unknown>;
  /** Extra environment for the server and so for the extension host it forks. */
  readonly env?: Record<string, string>;
  /** Keep VS Code's workspace trust on (by default it is disabled, as tests need no dialog). */
  readonly workspaceTrust?: boolean;
  /** .vsix files installed into the fresh extensions dir before start, as a user installs them. */
  readonly install?: readonly string[];
  /** Runs after the installs, before start: may edit what was installed in `extensionsDir`. */
  readonly beforeStart?: (extensionsDir: string) => void;
}

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  /** Temporary folder with user data, extensions dir and the server log; removed by stop(). */
  readonly root: string;
  readonly logFile: string;
  /**
   * The workbench URL that opens `folder` with the extension at `extensionPath` under development;
   * `testsPath` runs that test runner in the (Node) extension host.
   */
  workbenchUrl(folder: string, extensionPath: string, options?: { testsPath?: string }): string;
  /** Command lines of every process in code-server's process group (its extension hosts and their children). */
  processes(): string[];
  /** Copies the workbench's logs (extension host, output channels) to `dest`, for failure reports. */
  saveLogs(dest: string): void;
  stop(): Promise<void>;
}

/** Command lines of live processes whose process group is `pgid` (Linux /proc). */
function processGroup(pgid: number): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      // Field 5 of /proc/PID/stat is the process group; the command name (field 2) may contain spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid)
        out.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim());
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Starts code-server on a free loopback port with a fresh profile; resolves once it answers. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const missing = missingPrerequisites();
  if (missing !== undefined) throw new Error(`cannot start code-server: missing ${missing}`);
  const root = mkdtempSync(join(tmpdir(), 'xla-lens-vscode-'));
  const userData = join(root, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(join(root, 'extensions'));
  mkdirSync(join(root, 'config'));
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({ ...TEST_SETTINGS, ...options.settings }, null, 2),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(root, 'code-server.log');
  const log = openSync(logFile, 'a');
  const args = [
    entryJs(codeServerDir()),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust === true ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--user-data-dir',
    userData,
    '--extensions-dir',
    join(root, 'extensions'),
  ];
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, 'config'), ...options.env };
  for (const vsix of options.install ?? []) {
    const r = spawnSync(
      process.execPath,
      [entryJs(codeServerDir()), '--extensions-dir', join(root, 'extensions'), '--install-extension', vsix],
      { env, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`installing ${vsix} failed: ${r.stdout}${r.stderr}`);
  }
  options.beforeStart?.(join(root, 'extensions'));
  // detached: the server gets its own process group, so stop() ends it and its extension host together.
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', log, log],
    // XDG_CONFIG_HOME: code-server writes a default config.yaml there; keep it in the temp folder.
    env,
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    if (process.env.XLA_LENS_KEEP_PROFILE === undefined) rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitForHealthy(url, child, logFile, 60_000);
  } catch (e) {
    await stop();
    throw e;
  }
  const remote = (path: string): string => `vscode-remote://127.0.0.1:${port}${resolve(path)}`;
  return {
    url,
    port,
    root,
    logFile,
    processes: () => (child.pid === undefined ? [] : processGroup(child.pid)),
    saveLogs(dest) {
      mkdirSync(dest, { recursive: true });
      cpSync(logFile, join(dest, 'code-server.log'));
      const logs = join(userData, 'logs');
      if (existsSync(logs)) cpSync(logs, join(dest, 'logs'), { recursive: true });
    },
    workbenchUrl(folder, extensionPath, options = {}) {
      const payload: [string, string][] = [['extensionDevelopmentPath', remote(extensionPath)]];
      if (options.testsPath !== undefined) payload.push(['extensionTestsPath', remote(options.testsPath)]);
      return `${url}/?folder=${encodeURIComponent(resolve(folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    stop,
  };
}

/** Opens the workbench URL and waits until the workbench is rendered. */
export async function openWorkbench(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
}
