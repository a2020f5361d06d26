/**
 * The standalone claim, tested with a second real editor: Debian's Emacs 28 with eglot, configured
 * as docs/other-editors.md says, starts the bundled `node dist/server.js --stdio`, shows the
 * server's diagnostics through flymake (at the severity the workspace configuration asks for),
 * gets a hover, goes to the source the metadata names through eglot's xref backend, completes a
 * name through eglot's completion-at-point and renames an instruction with eglot-rename. The Elisp
 * probe writes what Emacs received; this test asserts on it.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { badTileCase, buildServer, runProbe } from './editor-probe';

describe('server: Emacs (eglot) over stdio', function () {
  this.timeout(120000);
  before(function () {
    const emacs = spawnSync(
      'emacs',
      ['--batch', '--eval', "(progn (require 'eglot) (princ emacs-version))"],
      { encoding: 'utf8' },
    );
    if (emacs.status !== 0)
      throw new Error(
        `emacs with eglot is required: apt-get install -y emacs-nox elpa-eglot\n${emacs.stderr}`,
      );
    buildServer();
  });

  it('shows the bad-tile diagnostic in flymake at the configured severity, the hover and the source line, completes and renames', () => {
    const probe = badTileCase('emacs');
    const seen = runProbe<{
      mode: string;
      connected: boolean;
      got_diagnostics: boolean;
      diagnostics: { line: number; col: number; end_col: number; type: string; text: string }[];
      hover: string;
      definitions: { file: string; line: number }[];
      completions: string[];
      renamed: string[];
    }>('emacs', ['--batch', '-l', join(__dirname, 'emacs', 'probe.el')], probe);
    assert.deepEqual([seen.mode, seen.connected, seen.got_diagnostics], ['hlo-mode', true, true]);
    // The `-1` of T(-1,128), as a warning: eglot-workspace-configuration overrides the rule's error.
    assert.deepEqual(
      seen.diagnostics.map((d) => [d.line, d.col, d.end_col, d.type]),
      [[4, 29, 31, 'eglot-warning']],
    );
    assert.match(
      seen.diagnostics[0].text,
      /^xla-layout \[tile-negative\]: negative tile size -1 makes XLA abort: .* — XLA: Tile dimension size needs to be minimum int64_t/,
    );
    // The answer first: the layout is invalid, and why; then whose shape it is.
    assert.match(seen.hover, /^\*\*Invalid layout:\*\* negative tile size \\-1 makes XLA abort/);
    assert.match(seen.hover, /\n---\n\nResult of `%t` · f32\\\[8, 128\\\]/);
    // source_file="model.py" is relative: the dump's folder; source_line=7 is line 6 from 0.
    assert.deepEqual(seen.definitions, [{ file: join(probe.dir, 'model.py'), line: 6 }]);
    // Completion after the % of copy(%p), through eglot's completion-at-point: the other instruction of ENTRY.
    assert.deepEqual(seen.completions, ['p']);
    // M-x eglot-rename of %p, applied by eglot: the signature's name, the definition and the operand.
    assert.deepEqual(seen.renamed.slice(2, 5), [
      'ENTRY %main (input: f32[8,128]) -> f32[8,128] {',
      '  %input = f32[8,128]{1,0} parameter(0)',
      '  ROOT %t = f32[8,128]{1,0:T(-1,128)} copy(%input), metadata={source_file="model.py" source_line=7}',
    ]);
  });
});
