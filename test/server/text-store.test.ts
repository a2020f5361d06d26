/**
 * The server's document text (server/src/text-store.ts) against vscode-languageserver-textdocument
 * as the reference: after any sequence of edits (line breaks of all three kinds, inserts that split
 * chunks, deletes across chunk seams), the text, the line count, every `positionAt` and `offsetAt`
 * and slices across chunks must be the same. Tiny chunks put seams everywhere.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentText } from '../../server/src/text-store';

const PIECES = [
  '\n',
  '\r\n',
  '\r',
  'abc',
  '  %x = f32[2]{0} copy(%y)',
  '',
  'def\r',
  '\nq',
  '\u00e9\ud83d\ude00',
];

/** Compares `store` with the reference at every offset and every line (and a little past both ends). */
function same(store: DocumentText, text: string): void {
  const ref = TextDocument.create('file:///r', 'hlo', 1, text);
  assert.equal(store.length, text.length);
  assert.equal(store.slice(0, text.length), text);
  assert.equal(store.lineCount, ref.lineCount);
  for (let o = -1; o <= text.length + 1; o++) {
    assert.deepEqual(store.positionAt(o), ref.positionAt(o), `positionAt(${o})`);
    assert.equal(store.charCodeAt(o), text.charCodeAt(o));
  }
  for (let line = -1; line <= ref.lineCount; line++) {
    for (const character of [-1, 0, 1, 2, 5, 1000])
      assert.equal(
        store.offsetAt({ line, character }),
        ref.offsetAt({ line, character }),
        `offsetAt(${line}:${character})`,
      );
  }
}

describe('server: document text in chunks', () => {
  it('agrees with TextDocument after random edits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.nat(30),
            fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }),
            fc.boolean(),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        (parts, chunk, edits) => {
          let text = parts.join('');
          const store = new DocumentText('file:///t', 'hlo', 1, text, chunk);
          same(store, text);
          let version = 1;
          for (const [where, length, insert, flatten] of edits) {
            const start = Math.floor(where * text.length);
            const end = Math.min(text.length, start + length);
            const inserted = insert.join('');
            text = text.slice(0, start) + inserted + text.slice(end);
            store.update(start, end, inserted, ++version);
            // Some features ask for the whole text between edits: the chunks are re-pointed into it.
            if (flatten) assert.equal(store.getText(), text);
            same(store, text);
          }
          assert.equal(store.version, version);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps slices and lines right when an insert grows a chunk past twice its length, and when all text goes', () => {
    const store = new DocumentText('file:///t', 'hlo', 1, 'ab\ncd', 2);
    const big = 'x\r\ny\rz\n'.repeat(50);
    store.update(1, 1, big, 2);
    let text = `a${big}b\ncd`;
    same(store, text);
    assert.equal(store.slice(3, 40), text.slice(3, 40));
    store.update(0, text.length, '', 3);
    text = '';
    same(store, text);
    store.update(0, 0, 'f32[2]\n', 4);
    same(store, 'f32[2]\n');
    store.replaceAll('\r\n\r\n', 5);
    same(store, '\r\n\r\n');
    assert.deepEqual(store.positionAt(1), { line: 0, character: 0 }); // inside the CR LF pair: before it
  });
});
