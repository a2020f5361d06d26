/**
 * A 30 MB dump, under the 50 MB VS Code syncs to extensions, in a real workbench: Problems fill in
 * while the server analyses it. The diagnostics VS Code holds for the file grow from a first part
 * (the top of the file) to the complete set, which is what the server's own analysis of the same
 * text finds (computed here in-process, as the final count to wait for).
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { generateDump } from '../../../bench/generate-dump';
import { Analyzer } from '../../../server/src/analyzer';
import { HloDocument } from '../../../server/src/document';
import { documentDiagnostics } from '../../../server/src/lsp-diagnostics';
import { DEFAULT_SETTINGS } from '../../../protocol/src/settings';
import { EXTENSION_ID, waitFor } from './util';

describe('XLA Layout Lens on a 30 MB dump', function () {
  this.timeout(300_000);
  let dir: string;
  let uri: vscode.Uri;
  let expected: number;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    dir = mkdtempSync(join(tmpdir(), 'xla-lens-progressive-'));
    const file = join(dir, 'module_0002.jit_progressive.after_optimizations.txt');
    generateDump(file, 30 * 1024 * 1024);
    // Layout errors from the top of the file to its end: padding warnings would not do, as those
    // outside ENTRY wait for the module's call graph, which is known when the analysis ends.
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('{1,0:T(8,128)}', '{1,1:T(8,128)}'));
    uri = vscode.Uri.file(file);
    const doc = new HloDocument(
      uri.toString(),
      'hlo',
      1,
      readFileSync(file, 'utf8'),
      new Analyzer(DEFAULT_SETTINGS),
    );
    await doc.analyze(() => Promise.resolve());
    expected = documentDiagnostics(doc, DEFAULT_SETTINGS, 'https://example.invalid/rules.md').length;
    assert.ok(expected > 1000, `${expected} diagnostics in the dump`);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  it('fills Problems in as the analysis goes, top of the file first, up to every diagnostic', async () => {
    const seen: vscode.Diagnostic[][] = [];
    const watch = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString()))
        seen.push(vscode.languages.getDiagnostics(uri));
    });
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await waitFor(
        vscode.languages.onDidChangeDiagnostics,
        () => (vscode.languages.getDiagnostics(uri).length === expected ? true : undefined),
        `${expected} diagnostics on the dump`,
        120_000,
      );
    } finally {
      watch.dispose();
    }
    const counts = seen.map((d) => d.length);
    const partial = seen.filter((d) => d.length > 0 && d.length < expected);
    assert.ok(partial.length > 0, `a part was shown before all of them (counts ${counts.join(', ')})`);
    counts.reduce(
      (previous, n) => (assert.ok(n >= previous, `counts only grow: ${counts.join(', ')}`), n),
      0,
    );
    // The first part shown is the top of the file: it ends where the complete set goes on.
    const all = seen.at(-1)!;
    const first = partial[0];
    assert.deepEqual(
      first.map((d) => d.range.start.line),
      all.slice(0, first.length).map((d) => d.range.start.line),
    );
  });
});
