/**
 * A statement parsed for one request is kept for the next until the text changes: on a tuple of
 * 20,000 leaves every hover, definition or highlight re-parsed and re-explained the whole line.
 */
import { strict as assert } from 'node:assert';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { Analyzer } from '../../server/src/analyzer';
import { HloDocument } from '../../server/src/document';
import { explainFound } from '../../server/src/explain-found';
import { DEFAULT_SETTINGS } from '../../protocol/src/settings';
import { positionOf, TestClient } from './harness';

const LEAVES = 2000;
const wide = (type: string) =>
  `HloModule m\n\nENTRY %main () -> f32[] {\n  %p = (${Array(LEAVES).fill(`${type}[8,3]{1,0:T(8,128)}`).join(', ')}) parameter(0)\n  ROOT %c = f32[] constant(1)\n}\n`;

describe('server: the statement parsed last is kept until the text changes', () => {
  it('parses and explains a statement once for requests in a row, again after an edit', async () => {
    const doc = new HloDocument('file:///w/wide.hlo', 'hlo', 1, wide('f32'), new Analyzer(DEFAULT_SETTINGS));
    await doc.analyze(() => Promise.resolve());
    const i = doc.statementIndexAt(doc.text.getText().indexOf('%p'));
    const first = doc.parse(i);
    assert.equal(doc.parse(i), first);
    const found = first.shapes[0];
    assert.equal(explainFound(doc, found, DEFAULT_SETTINGS), explainFound(doc, found, DEFAULT_SETTINGS));
    // Another statement in between, then back: parsed again, the same text read.
    doc.parse(i + 1);
    assert.notEqual(doc.parse(i), first);
    const again = doc.parse(i);
    doc.applyChanges(
      [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' }],
      2,
    );
    const edited = doc.parse(doc.statementIndexAt(doc.text.getText().indexOf('%p')));
    assert.notEqual(edited, again);
    assert.equal(edited.shapes[0].shape.range.start, again.shapes[0].shape.range.start + 1);
  });

  it('answers hovers from the edited text after an edit inside the kept statement', async () => {
    const { client } = await TestClient.start();
    const text = wide('f32');
    const at = positionOf(text, 'f32[8,3]', 6);
    const hover = async (uri: string) =>
      (
        (await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: at }))
          .contents as MarkupContent
      ).value;
    const uri = 'file:///w/wide.hlo';
    await client.open(uri, text);
    const before = await hover(uri);
    assert.equal(await hover(uri), before);
    // The first leaf f32[8,3] → f32[8,128], which does not pad: the kept parse must not answer.
    const edit = { start: at, end: { line: at.line, character: at.character + 1 } };
    await client.change(uri, [{ range: edit, text: '128' }]);
    const fresh = 'file:///w/fresh.hlo';
    await client.open(fresh, editText(text, at));
    // Compared by their answer, before the links to their document.
    const answer = (h: string) => h.split(' · [')[0];
    const after = answer(await hover(uri));
    assert.notEqual(after, answer(before));
    assert.equal(after, answer(await hover(fresh)));
    await client.dispose();
  });
});

/** `text` with the character at `at` replaced by `128`. */
function editText(text: string, at: { line: number; character: number }): string {
  const lines = text.split('\n');
  const line = lines[at.line];
  lines[at.line] = `${line.slice(0, at.character)}128${line.slice(at.character + 1)}`;
  return lines.join('\n');
}
