/**
 * The standalone claim, tested with a real other editor: Debian's Neovim 0.7 starts the bundled
 * `node dist/server.js --stdio`, opens an HLO file with a bad tile, waits for the diagnostics, asks
 * for a hover, goes to the source named by the metadata, asks for completions and renames an
 * instruction, applying the edit as Neovim does. The Lua probe writes what Neovim received; this
 * test asserts on it.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { badTileCase, buildServer, runProbe } from './editor-probe';

describe('server: Neovim over stdio', function () {
  this.timeout(120000);
  before(function () {
    const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
    if (nvim.status !== 0) throw new Error('neovim is required: apt-get install -y neovim');
    buildServer();
  });

  it('shows the bad-tile diagnostic and the shape hover, goes to the source line, completes and renames', () => {
    const probe = badTileCase('nvim');
    const seen = runProbe<{
      got_diagnostics: boolean;
      diagnostics: {
        lnum: number;
        col: number;
        end_col: number;
        severity: number;
        source: string;
        message: string;
        code: string;
      }[];
      hover: string;
      definitions: { uri: string; line: number }[];
      completions: string[];
      renamed: string[];
    }>(
      'nvim',
      ['--headless', '-u', 'NONE', '-c', `luafile ${join(__dirname, 'neovim', 'probe.lua')}`],
      probe,
    );
    assert.equal(seen.got_diagnostics, true);
    assert.deepEqual(
      seen.diagnostics.map((d) => [d.lnum, d.col, d.end_col, d.severity, d.source, d.code]),
      [[4, 29, 31, 1, 'xla-layout', 'tile-negative']],
    );
    assert.match(seen.diagnostics[0].message, /Value is -1/);
    // The answer first: the layout is invalid, and why; then whose shape it is.
    assert.match(seen.hover, /^\*\*Invalid layout:\*\* negative tile size \\-1 makes XLA abort/);
    assert.match(seen.hover, /\n---\n\nResult of `%t` · f32\\\[8, 128\\\]/);
    // source_file="model.py" is relative: the dump's folder; source_line=7 is line 6 from 0.
    assert.deepEqual(seen.definitions, [{ uri: pathToFileURL(join(probe.dir, 'model.py')).href, line: 6 }]);
    // Completion after the % of copy(%p): the other instruction of ENTRY.
    assert.deepEqual(seen.completions, ['p']);
    // Rename of %p, applied by Neovim: the signature's name, the definition and the operand.
    assert.deepEqual(seen.renamed.slice(2, 5), [
      'ENTRY %main (input: f32[8,128]) -> f32[8,128] {',
      '  %input = f32[8,128]{1,0} parameter(0)',
      '  ROOT %t = f32[8,128]{1,0:T(-1,128)} copy(%input), metadata={source_file="model.py" source_line=7}',
    ]);
  });
});
