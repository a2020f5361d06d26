/** The out-of-memory account as the markdown VS Code's preview renders. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { oomMarkdown } from '../../../client/src/oom-markdown';
import { parseOomMessage } from '../../../core/src/report/oom-message';
import { oomReportLines } from '../../../core/src/report/oom-text';

describe('client: out-of-memory account as markdown', () => {
  it('gives each allocation a heading, its shape in code and its details as a list, with markdown escaped', () => {
    const text = readFileSync(join(__dirname, '..', '..', '..', 'examples', 'oom-hbm.log'), 'utf8');
    const md = oomMarkdown(oomReportLines(parseOomMessage(text)), 'oom_hbm.log');
    const lines = md.split('\n');
    assert.deepEqual(lines.slice(0, 9), [
      '# Out-of-memory message in oom\\_hbm\\.log',
      '',
      '92\\.5\\% of the 22\\.38G in the listed allocations is padding \\(20\\.70G\\)\\; the 3 layout changes below save 20\\.70G and bring hbm use from 22\\.39G to about 1\\.69G\\, under the 15\\.48G capacity\\, so it would fit\\.',
      '',
      'Out of memory in hbm\\: 22\\.39G used of 15\\.48G\\, 6\\.91G over \\(line 4\\)\\.',
      '',
      '## 1\\. 16\\.00G in hbm\\, line 19',
      '',
      '`s32[2097152,16,2]{2,1,0:T(8,128)}`',
    ]);
    assert.ok(
      lines.includes('- pads\\: dim 2\\, size 2\\, minor\\-most\\: T\\(8\\,128\\) pads 2 to 128 \\(64x\\)'),
    );
    assert.ok(
      lines.includes(
        '- fix\\: use minor\\_to\\_major \\{0\\,1\\,2\\} instead of \\{2\\,1\\,0\\}\\; dim 2 \\(size 2\\) is no longer minor\\-most \\-\\> 256\\.00M\\, saves 15\\.75G',
      ),
    );
    assert.ok(lines.includes('## 5\\. 24\\.0K in hbm\\, line 53'));
    assert.equal(lines.filter((l) => l.startsWith('## ')).length, 5);
    assert.ok(lines.includes('- source\\: model\\/grid\\.py line 41'));
    assert.doesNotMatch(md, /\n{3,}/);
  });

  it('keeps a shape with backticks in one code span and a crafted label from forming HTML or links', () => {
    const md = oomMarkdown(
      ['1. 1.00G in hbm, line 2: f32[2]`x', '   XLA label: <img src=x> [a](command:evil)'],
      'log',
    );
    assert.ok(md.includes('``f32[2]`x``'), md);
    assert.ok(md.includes('- XLA label\\: \\<img src\\=x\\> \\[a\\]\\(command\\:evil\\)'), md);
  });
});
