/**
 * A 60 MB dump, over the 50 MB VS Code syncs to extensions, in a real workbench: it opens in a
 * tab without reaching the extension, and the Memory View (also the Padding Report's command) and
 * Check File still work on it, reading it from disk (streamed with progress; the commands resolve
 * only after the whole file was read).
 */
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { generateDump } from '../../../bench/generate-dump';
import type { DiskCheckResult } from '../../../client/src/large-file-commands';
import type { MemoryViewResult } from '../../../client/src/memory-view/panel';
import { EXTENSION_ID, codeOf, waitFor } from './util';

describe('XLA Layout Lens on a dump too large for extensions', function () {
  this.timeout(300_000);
  let dir: string;
  let uri: vscode.Uri;
  let lines: number;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    dir = mkdtempSync(join(tmpdir(), 'xla-lens-large-'));
    const file = join(dir, 'module_0001.jit_big.after_optimizations.txt');
    generateDump(file, 60 * 1024 * 1024);
    // One invalid layout on the last line, so Check File has something to put into Problems.
    appendFileSync(file, '%stray = f32[2,2]{0,0} parameter(0)\n');
    const text = readFileSync(file, 'latin1');
    lines = text.split('\n').length - 1;
    uri = vscode.Uri.file(file);
    assert.ok(statSync(file).size > 60 * 1024 * 1024);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens in a tab while no TextDocument reaches the extension', async () => {
    await vscode.commands.executeCommand('vscode.open', uri);
    await waitFor(
      vscode.window.tabGroups.onDidChangeTabs,
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputText && input.uri.toString() === uri.toString()
          ? true
          : undefined;
      },
      'the dump to be the active tab',
    );
    assert.equal(
      vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()),
      false,
    );
  });

  it('Padding Report opens the Memory View on the active tab, an estimate streamed from disk', async () => {
    const result = await vscode.commands.executeCommand<MemoryViewResult | undefined>(
      'xlaLayout.paddingReport',
    );
    assert.ok(result, 'the memory of the dump was read from disk');
    assert.equal(result.uri.toString(), uri.toString());
    // No buffer assignment beside the generated dump: every value the HLO defines, once (the
    // instructions inside its fusions define none).
    assert.equal(result.basis, 'estimate');
    assert.ok(result.values > 10_000, `${result.values} values`);
    assert.equal(result.allocations, result.values);
    assert.ok(BigInt(result.totalBytes) > 0n);
  });

  it('Check File puts the one invalid layout into Problems at its line', async () => {
    const result = await vscode.commands.executeCommand<DiskCheckResult | undefined>(
      'xlaLayout.checkFile',
      uri,
    );
    assert.ok(result, 'the check ran from disk');
    assert.deepEqual([result.errors, result.reported], [1, 1]);
    assert.ok(result.shapes > 400_000, `${result.shapes} shapes`);
    const [d, ...rest] = vscode.languages.getDiagnostics(uri);
    assert.equal(rest.length, 0);
    assert.ok(d);
    assert.equal(codeOf(d), 'minor-to-major-duplicate');
    assert.deepEqual(
      [d.range.start.line, d.range.start.character, d.range.end.character],
      [lines - 1, 20, 21],
    );
  });
});
