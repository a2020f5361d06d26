/**
 * The long statements parsed for requests are kept for the next ones until the text changes: on a
 * tuple of 20,000 leaves every hover, definition or highlight re-parsed and re-explained the whole
 * line, and moving between two such tuples re-parsed each every time.
 */
import { strict as assert } from 'node:assert';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { Analyzer } from '../../server/src/analyzer';
import type { HloStatement } from '../../core/src';
import { HloDocument } from '../../server/src/document';
import { explainFound } from '../../server/src/explain-found';
import { KEPT_CHARS, KEPT_STATEMENTS, KeptParses } from '../../server/src/kept-parses';
import { DEFAULT_SETTINGS } from '../../protocol/src/settings';
import { positionOf, TestClient } from './harness';

const LEAVES = 2000;
const wide = (type: string) =>
  `HloModule m\n\nENTRY %main () -> f32[] {\n  %p = (${Array(LEAVES).fill(`${type}[8,3]{1,0:T(8,128)}`).join(', ')}) parameter(0)\n  ROOT %c = f32[] constant(1)\n}\n`;

describe('server: the long statements parsed last are kept until the text changes', () => {
  it('parses and explains a statement once for requests in a row, again after an edit', async () => {
    const doc = new HloDocument('file:///w/wide.hlo', 'hlo', 1, wide('f32'), new Analyzer(DEFAULT_SETTINGS));
    await doc.analyze(() => Promise.resolve());
    const i = doc.statementIndexAt(doc.text.getText().indexOf('%p'));
    const first = doc.parse(i);
    assert.equal(doc.parse(i), first);
    const found = first.shapes[0];
    assert.equal(explainFound(doc, found, DEFAULT_SETTINGS), explainFound(doc, found, DEFAULT_SETTINGS));
    // Another statement in between, then back: still kept.
    doc.parse(i + 1);
    assert.equal(doc.parse(i), first);
    const again = doc.parse(i);
    doc.applyChanges(
      [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' }],
      2,
    );
    const edited = doc.parse(doc.statementIndexAt(doc.text.getText().indexOf('%p')));
    assert.notEqual(edited, again);
    assert.equal(edited.shapes[0].shape.range.start, again.shapes[0].shape.range.start + 1);
    // Closing drops them too, for a request still holding the document.
    const j = doc.statementIndexAt(doc.text.getText().indexOf('%p'));
    doc.closed();
    assert.notEqual(doc.parse(j), edited);
  });

  it('alternating hovers on two tuples of 20,000 leaves parse each once', async function () {
    this.timeout(120_000);
    const tuple = `(${Array(20_000).fill('f32[8,3]{1,0:T(8,128)}').join(', ')})`;
    const text = `HloModule m\n\nENTRY %main () -> f32[] {\n  %a = ${tuple} parameter(0)\n  %b = ${tuple} parameter(1)\n  ROOT %c = f32[] constant(1)\n}\n`;
    const { client } = await TestClient.start();
    const uri = 'file:///w/two.hlo';
    await client.open(uri, text);
    // Every statement parse() answers, counted once: a statement parsed again is a new object.
    const parsed = new Set<HloStatement>();
    const { prototype } = HloDocument;
    const parse = Object.getOwnPropertyDescriptor(prototype, 'parse')?.value as (i: number) => HloStatement;
    prototype.parse = function (this: HloDocument, i: number) {
      const st = parse.call(this, i);
      parsed.add(st);
      return st;
    };
    try {
      const hovers: string[] = [];
      for (let round = 0; round < 3; round++)
        for (const name of ['%a', '%b']) {
          const h = await client.request<Hover>('textDocument/hover', {
            textDocument: { uri },
            position: positionOf(text, `${name} = (f32[8,3]`, 10),
          });
          hovers.push((h.contents as MarkupContent).value);
        }
      assert.equal(parsed.size, 2);
      assert.equal(hovers[4], hovers[0]);
      assert.match(hovers[0], /^\*\*96 B → 4 KiB \(42\.7x\)\*\*[^]*Result of `%a`/);
      assert.match(hovers[1], /Result of `%b`/);
    } finally {
      prototype.parse = parse;
    }
    await client.dispose();
  });

  it('keeps a few long statements, within a size, the newest whatever its size', () => {
    const kept = new KeptParses();
    let parses = 0;
    const get = (start: number, length: number): HloStatement =>
      kept.get(start, start + length, () => {
        parses++;
        return { kind: 'other', start } as unknown as HloStatement;
      });
    const long = 10_000;
    const firsts = Array.from({ length: KEPT_STATEMENTS }, (_, k) => get(k * long, long));
    assert.equal(parses, KEPT_STATEMENTS);
    for (let k = 0; k < KEPT_STATEMENTS; k++) assert.equal(get(k * long, long), firsts[k]);
    assert.equal(parses, KEPT_STATEMENTS);
    // One more pushes out the one used longest ago: the first.
    get(KEPT_STATEMENTS * long, long);
    assert.notEqual(get(0, long), firsts[0]);
    assert.equal(parses, KEPT_STATEMENTS + 2);
    // Short statements are not kept, and push nothing out.
    get(1, 10);
    get(1, 10);
    assert.equal(parses, KEPT_STATEMENTS + 4);
    assert.equal(get(KEPT_STATEMENTS * long, long), get(KEPT_STATEMENTS * long, long));
    assert.equal(parses, KEPT_STATEMENTS + 4);
    // A statement larger than the size bound is kept alone; the next big one replaces it.
    const huge = get(1e8, KEPT_CHARS + 1);
    assert.equal(get(1e8, KEPT_CHARS + 1), huge);
    get(long, long);
    assert.notEqual(get(1e8, KEPT_CHARS + 1), huge);
    // The same start with another end (the text changed without a clear) is parsed again.
    const before = parses;
    get(1e8, KEPT_CHARS + 2);
    assert.equal(parses, before + 1);
    kept.clear();
    get(1e8, KEPT_CHARS + 2);
    assert.equal(parses, before + 2);
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
