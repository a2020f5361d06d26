/** The client's decisions about files VS Code does not sync (client/src/large-file-policy.ts, free of vscode). */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paddingReportOf } from '../../core/src/report';
import {
  checkSummary,
  globToRegExp,
  hloFilesGlob,
  isHloFileName,
  LARGE_FILE_MESSAGE,
  largeFileNotice,
  largeFileReason,
  ProgressSteps,
  MAX_SEARCH_FILE_BYTES,
  protocolRow,
  searchSkipReason,
  SYNC_LIMIT_BYTES,
  type LanguageContribution,
} from '../../client/src/large-file-policy';
import { rowItem } from '../../client/src/padding-format';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    languages: LanguageContribution[];
    commands: { command: string; title: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
  };
};
const languages = pkg.contributes.languages;

describe('large files: client policy', () => {
  it('finds files by every extension and dump-name pattern of the hlo language, in any folder', () => {
    assert.equal(
      hloFilesGlob(languages),
      '**/{*.hlo,*.hlotxt,module_*.before_optimizations.txt,*.module_*.before_optimizations.txt,module_*after_optimizations.txt,*.module_*after_optimizations.txt,module_*.after_*.before_*.txt,*.module_*.after_*.before_*.txt}',
    );
    assert.equal(
      hloFilesGlob([
        { id: 'other', extensions: ['.x'] },
        { id: 'hlo', extensions: ['.hlo'] },
      ]),
      '**/{*.hlo}',
    );
  });

  it('recognises HLO files by the extensions and dump-name patterns package.json contributes', () => {
    for (const yes of [
      '/d/model.hlo',
      'C:\\dumps\\model.HLOTXT',
      '/tmp/xla/module_0001.jit_train_step.after_optimizations.txt',
      '/tmp/xla/1700000000.module_0042.jit_f.before_optimizations.txt',
      '/tmp/xla/module_0007.jit_f.after_spmd-partitioning.before_sharding.txt',
    ])
      assert.equal(isHloFileName(yes, languages), true, yes);
    for (const no of [
      '/d/notes.txt',
      '/d/module_0001.jit_f.after_optimizations.txt.gz',
      '/d/hlo',
      '/d/model.hlo.json',
      '/d/module_/x.hlo.bak',
    ]) {
      assert.equal(isHloFileName(no, languages), false, no);
    }
    assert.equal(isHloFileName('/d/model.hlo', [{ id: 'other', extensions: ['.hlo'] }]), false);
  });

  it('turns filename globs into anchored expressions that do not cross folders', () => {
    const re = globToRegExp('module_*.after_*.txt');
    assert.equal(re.test('module_1.after_x.txt'), true);
    assert.equal(re.test('module_1/after_x.txt'), false);
    assert.equal(re.test('xmodule_1.after_x.txt'), false);
    assert.equal(globToRegExp('a?c.(x)').test('abc.(x)'), true);
  });

  it('explains files over the 50 MB limit and unsynced smaller ones, not synced ones', () => {
    assert.equal(SYNC_LIMIT_BYTES, 52_428_800);
    assert.equal(largeFileReason(60 * 1024 * 1024, false), 'too-large');
    assert.equal(largeFileReason(SYNC_LIMIT_BYTES, false), 'not-loaded');
    assert.equal(largeFileReason(SYNC_LIMIT_BYTES + 1, false), 'too-large');
    assert.equal(largeFileReason(1000, true), undefined);
    assert.equal(
      LARGE_FILE_MESSAGE,
      'This file is larger than VS Code gives to extensions (50 MB): hovers and diagnostics are unavailable. Run "XLA Layout: Padding Report" or "XLA Layout: Check File" to analyse it from disk.',
    );
  });

  it('never says a file under the limit was withheld: its late document only shows as loading', () => {
    // The real 48-layer dump (6.3 MiB) reached the extension host after 3 s in code-server on a
    // loaded machine; it was announced as "VS Code did not hand this file to extensions".
    const late = largeFileNotice(largeFileReason(6_600_000, false)!, 6_600_000);
    assert.equal(late.message, undefined);
    assert.equal(late.status, '$(loading~spin) XLA: 6.3 MiB, loading');
    for (const text of [late.status, late.tooltip, late.log]) {
      assert.doesNotMatch(text, /did not hand|unavailable|no hovers|not synced/, text);
    }
    assert.match(late.tooltip, /not handed this file to extensions yet/);
    const big = largeFileNotice(largeFileReason(60 * 1024 * 1024, false)!, 60 * 1024 * 1024);
    assert.equal(big.message, LARGE_FILE_MESSAGE);
    assert.equal(big.status, '$(warning) XLA: 60 MiB, no hovers');
  });

  it('reports progress in whole percent increments that add up to exactly 100', () => {
    const steps = new ProgressSteps(1000);
    const got = [5, 9, 10, 10, 333, 999, 1000, 1000].map((d) => steps.advance(d));
    assert.deepEqual(got, [0, 0, 1, 0, 32, 66, 1, 0]);
    assert.equal(
      got.reduce((a, b) => a + b, 0),
      100,
    );
    assert.equal(new ProgressSteps(0).advance(10), 0);
  });

  it('shows streamed rows in the same QuickPick items as the server report, at 0-based positions', () => {
    const report = paddingReportOf(readFileSync(join(ROOT, 'examples', 'tpu_padding.hlo'), 'utf8'), {
      top: 2,
    });
    const row = protocolRow(report.rows[0]);
    assert.deepEqual(row, {
      name: 'Arg_1.2',
      computation: 'main.10',
      shape: 'bf16[4096,1]{1,0:T(8,128)(2,1)}',
      range: { start: { line: 15, character: 13 }, end: { line: 15, character: 44 } },
      logicalBytes: '8192',
      physicalBytes: '1048576',
      expansion: 128,
    });
    assert.deepEqual([rowItem(row).label, rowItem(row).description], ['128x  Arg_1.2', '8 KiB → 1 MiB']);
  });

  it('summarises a check with exact counts even when Problems shows fewer', () => {
    assert.equal(
      checkSummary('big.hlo', { shapes: 76033, errors: 1, warnings: 12001 }, 10000, 12002),
      'XLA Layout: big.hlo: 1 error, 12001 warnings in 76033 shapes (the first 10000 are in Problems).',
    );
    assert.equal(
      checkSummary('ok.hlo', { shapes: 1, errors: 0, warnings: 0 }, 0, 0),
      'XLA Layout: ok.hlo: 0 errors, 0 warnings in 1 shape.',
    );
  });

  it('contributes Check File and offers both from-disk commands in the palette without an HLO editor', () => {
    const check = pkg.contributes.commands.find((c) => c.command === 'xlaLayout.checkFile');
    assert.deepEqual(check && { title: check.title }, { title: 'Check File…' });
    for (const id of ['xlaLayout.paddingReport', 'xlaLayout.checkFile']) {
      const entry = pkg.contributes.menus.commandPalette.find((m) => m.command === id);
      assert.ok(entry, id);
      assert.equal(entry.when, undefined, id);
    }
  });

  it('a source-line search reads regular files up to MAX_SEARCH_FILE_BYTES, nothing else', () => {
    // vscode.FileType: Unknown 0, File 1, Directory 2, SymbolicLink 64.
    assert.equal(searchSkipReason({ type: 1, size: 1000 }), undefined);
    assert.equal(searchSkipReason({ type: 1 | 64, size: MAX_SEARCH_FILE_BYTES }), undefined);
    assert.equal(searchSkipReason({ type: 1, size: MAX_SEARCH_FILE_BYTES + 1 }), 'over 512 MiB');
    // A link to /dev/zero: the link's bit, and Unknown for what it points to.
    assert.equal(searchSkipReason({ type: 64, size: 0 }), 'not a regular file');
    assert.equal(searchSkipReason({ type: 0, size: 0 }), 'not a regular file');
    assert.equal(searchSkipReason({ type: 2, size: 4096 }), 'not a regular file');
  });
});
