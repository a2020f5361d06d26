import { strict as assert } from 'node:assert';
import { analysisStatusText, formatSize } from '../../../client/src/analysis-status-text';

describe('client: analysis status item text', () => {
  it('is hidden when nothing is analysed', () => {
    assert.equal(analysisStatusText([]), undefined);
  });

  it('names the first document, its share done in whole percent, and how many more are running', () => {
    assert.deepEqual(analysisStatusText([{ name: 'dump.txt', size: 52_428_800 }]), {
      text: '$(sync~spin) XLA: analysing dump.txt',
      tooltip: 'XLA Layout Lens is analysing dump.txt (50.0 MB)',
    });
    assert.deepEqual(
      analysisStatusText([
        { name: 'a.hlo', size: 6 * 1024 * 1024, done: 0.4267 },
        { name: 'b.hlo', size: 7 * 1024 * 1024 + 512 * 1024 },
      ]),
      {
        text: '$(sync~spin) XLA: analysing a.hlo 42% (+1 more)',
        tooltip: 'XLA Layout Lens is analysing a.hlo (6.0 MB, 42% done), b.hlo (7.5 MB)',
      },
    );
  });

  it('never says 100% while the analysis runs', () => {
    assert.match(analysisStatusText([{ name: 'a.hlo', size: 1, done: 0.999 }])?.text ?? '', /a\.hlo 99%$/);
  });

  it('formats sizes in characters, KB and MB', () => {
    assert.deepEqual(
      [formatSize(999), formatSize(2048), formatSize(5 * 1024 * 1024)],
      ['999 chars', '2.0 KB', '5.0 MB'],
    );
  });
});
