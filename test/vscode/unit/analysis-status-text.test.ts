import { strict as assert } from 'node:assert';
import { analysisStatusText } from '../../../client/src/analysis-status-text';
import { fileSize } from '../../../client/src/large-file-policy';

describe('client: analysis status item text', () => {
  it('is hidden when nothing is analysed', () => {
    assert.equal(analysisStatusText([]), undefined);
  });

  it('names the first document, its share done in whole percent, and how many more are running', () => {
    assert.deepEqual(analysisStatusText([{ name: 'dump.txt', size: 52_428_800 }]), {
      text: '$(sync~spin) XLA: analysing dump.txt',
      tooltip: 'XLA Layout Lens is analysing dump.txt (50 MiB)',
    });
    assert.deepEqual(
      analysisStatusText([
        { name: 'a.hlo', size: 6 * 1024 * 1024, done: 0.4267 },
        { name: 'b.hlo', size: 7 * 1024 * 1024 + 512 * 1024 },
      ]),
      {
        text: '$(sync~spin) XLA: analysing a.hlo 42% (+1 more)',
        tooltip: 'XLA Layout Lens is analysing a.hlo (6 MiB, 42% done), b.hlo (7.5 MiB)',
      },
    );
  });

  it('never says 100% while the analysis runs', () => {
    assert.match(analysisStatusText([{ name: 'a.hlo', size: 1, done: 0.999 }])?.text ?? '', /a\.hlo 99%$/);
  });

  it("formats sizes as core's one size formatter does", () => {
    assert.deepEqual(
      [fileSize(999), fileSize(2048), fileSize(5 * 1024 * 1024), fileSize(12_000_000_000_000)],
      ['999 B', '2 KiB', '5 MiB', '10.9 TiB'],
    );
  });
});
