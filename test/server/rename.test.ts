/** Rename of instruction and computation names over the real protocol, on a fixture and on the corpus. */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ResponseError,
  type InitializeResult,
  type Range,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { parseHloText, type HloModel, type HloSymbol } from '../../core/src/hlo';
import { CORPUS_HLO_DIR } from '../support/corpus';
import { applyEdits, offsetAt, positionAt } from '../support/editor-positions';
import { positionOf, TestClient } from './harness';

const TEXT = `HloModule renames, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

%fused (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%p)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  %a = f32[8]{0} fusion(%p), kind=kLoop, calls=%fused, metadata={op_name="jit(main)/fused/p"}
  %b = f32[8]{0} fusion(%a), kind=kLoop, calls=%fused
  ROOT %c = f32[8]{0} add(%a, %b), control-predecessors={%p}
}
// -----
HloModule other

%fused (x: f32[]) -> f32[] {
  ROOT %x = f32[] parameter(0)
}

ENTRY %e {
  %x = f32[] parameter(0)
  ROOT %y = f32[] call(%x), to_apply=%fused, metadata={op_name="fused"}
}
`;

/** The whole-identifier occurrences of `name` in `text`, as a count. */
function identifierCount(text: string, name: string): number {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return (text.match(new RegExp(`(?<![\\w.-])${escaped}(?![\\w.-])`, 'g')) ?? []).length;
}

describe('server: rename', () => {
  let client: TestClient;
  let init: InitializeResult;
  const uri = 'file:///w/renames.hlo';
  const at = (needle: string, delta = 0, occurrence = 0) => ({
    textDocument: { uri },
    position: positionOf(TEXT, needle, delta, occurrence),
  });
  const renamed = async (needle: string, delta: number, newName: string, occurrence = 0): Promise<string> => {
    const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
      ...at(needle, delta, occurrence),
      newName,
    });
    return applyEdits(TEXT, edit.changes?.[uri] ?? []);
  };
  const refusal = async (needle: string, delta: number, newName: string, occurrence = 0): Promise<string> => {
    const e = await client.request('textDocument/rename', { ...at(needle, delta, occurrence), newName }).then(
      () => assert.fail(`renaming to ${newName} should be refused`),
      (err: unknown) => err,
    );
    assert.ok(e instanceof ResponseError);
    return e.message;
  };

  before(async () => {
    ({ client, init } = await TestClient.start());
    await client.open(uri, TEXT);
  });
  after(async () => {
    await client.dispose();
  });

  it('announces rename with prepare support to a client that asks first', () => {
    assert.deepEqual(init.capabilities.renameProvider, { prepareProvider: true });
  });

  it('prepares a name (without its %) and nothing else', async () => {
    const prepared = await client.request<{ range: Range; placeholder: string }>(
      'textDocument/prepareRename',
      at('ROOT %n', 6),
    );
    assert.equal(prepared.placeholder, 'n');
    assert.deepEqual(prepared.range, {
      start: positionOf(TEXT, 'n = f32'),
      end: positionOf(TEXT, ' = f32[8]{0} negate'),
    });
    for (const [needle, delta] of [
      ['negate', 2],
      ['f32[8]{0} negate', 1],
      ['kind=kLoop', 6],
      ['op_name="jit', 10],
    ] as const) {
      assert.equal(await client.request('textDocument/prepareRename', at(needle, delta)), null, needle);
    }
  });

  it('renames an instruction everywhere in its computation: signature, operands, control-predecessors', async () => {
    // From its use in control-predecessors; main's %p only, not fused's, and not inside op_name.
    const text = await renamed('{%p}', 2, 'input');
    assert.equal(
      text.slice(text.indexOf('ENTRY %main'), text.indexOf('// -----')),
      `ENTRY %main (input: f32[8]) -> f32[8] {
  %input = f32[8]{0} parameter(0)
  %a = f32[8]{0} fusion(%input), kind=kLoop, calls=%fused, metadata={op_name="jit(main)/fused/p"}
  %b = f32[8]{0} fusion(%a), kind=kLoop, calls=%fused
  ROOT %c = f32[8]{0} add(%a, %b), control-predecessors={%input}
}
`,
    );
    assert.equal(text.slice(0, text.indexOf('ENTRY %main')), TEXT.slice(0, TEXT.indexOf('ENTRY %main')));
    // A leading % is taken as the sigil the name already has.
    assert.equal(
      await renamed('%b = ', 1, '%second'),
      TEXT.replace('%b = ', '%second = ').replace('add(%a, %b)', 'add(%a, %second)'),
    );
  });

  it('renames a computation in its module only: header and every calls=', async () => {
    const text = await renamed('calls=%fused', 7, 'negate_all');
    const [first, second] = text.split('// -----');
    assert.equal(identifierCount(first, 'negate_all'), 3);
    assert.equal(identifierCount(first, 'fused'), 1, 'only inside op_name');
    assert.equal(second, TEXT.split('// -----')[1]);
  });

  it('refuses names XLA would not parse, and names taken in the scope', async () => {
    assert.match(
      await refusal('%a = ', 1, '1a'),
      /"1a" is not an HLO name: it must start with a letter or _/,
    );
    assert.match(await refusal('%a = ', 1, 'a b'), /" " cannot appear in one/);
    assert.match(await refusal('%a = ', 1, ''), /cannot be empty/);
    assert.match(await refusal('%a = ', 1, 'f32'), /keyword or element type/);
    assert.match(await refusal('%a = ', 1, 'ROOT'), /keyword or element type/);
    assert.match(
      await refusal('%a = ', 1, 'b'),
      /%b already names an instruction in this computation \(line 11\)/,
    );
    assert.match(
      await refusal('%a = ', 1, 'p'),
      /%p already names an instruction in this computation \(line 9\)/,
    );
    assert.match(
      await refusal('ENTRY %main', 7, 'fused'),
      /%fused already names a computation in this module \(line 3\)/,
    );
    // The other module's computation may take the name of this one's.
    assert.match(await renamed('ENTRY %e', 7, 'main'), /ENTRY %main \{\n {2}%x/);
  });

  it('renames to the same name with no edits, and refuses a name defined nowhere or twice', async () => {
    const same = await client.request<WorkspaceEdit>('textDocument/rename', {
      ...at('%a = ', 1),
      newName: 'a',
    });
    assert.deepEqual(same.changes?.[uri], []);
    const broken = 'HloModule m\nENTRY %e {\n  ROOT %r = f32[] negate(%gone)\n}\n';
    await client.open('file:///w/broken.hlo', broken);
    const e = await client
      .request('textDocument/rename', {
        textDocument: { uri: 'file:///w/broken.hlo' },
        position: positionOf(broken, '%gone', 2),
        newName: 'x',
      })
      .catch((err: unknown) => err);
    assert.ok(e instanceof ResponseError);
    assert.match(e.message, /%gone is not defined in this computation/);
    // Prepare says so already, before the editor asks for the new name.
    const prepared = await client
      .request('textDocument/prepareRename', {
        textDocument: { uri: 'file:///w/broken.hlo' },
        position: positionOf(broken, '%gone', 2),
      })
      .catch((err: unknown) => err);
    assert.ok(
      prepared instanceof ResponseError && /%gone is not defined/.test(prepared.message),
      String(prepared),
    );
    // Two definitions of one name in a scope (a clash, or a nested computation read as part of its parent): no guessing.
    const twice =
      'HloModule m\nENTRY %e {\n  %x = f32[] parameter(0)\n  %x = f32[] negate(%x)\n  ROOT %r = f32[] abs(%x)\n}\n';
    await client.open('file:///w/twice.hlo', twice);
    const e2 = await client
      .request('textDocument/rename', {
        textDocument: { uri: 'file:///w/twice.hlo' },
        position: positionOf(twice, 'abs(%x', 5),
        newName: 'y',
      })
      .catch((err: unknown) => err);
    assert.ok(e2 instanceof ResponseError);
    assert.match(e2.message, /%x names more than one instruction here \(lines 3, 4\)/);
  });

  it('answers rename without prepare support for clients that do not ask first', async () => {
    const { client: plain, init: plainInit } = await TestClient.start(
      {},
      undefined,
      {},
      { rename: { prepareSupport: false } },
    );
    assert.equal(plainInit.capabilities.renameProvider, true);
    await plain.dispose();
  });
});

describe('server: rename on the corpus', () => {
  let client: TestClient;
  before(async () => {
    ({ client } = await TestClient.start());
  });
  after(async () => {
    await client.dispose();
  });

  const unresolved = (m: HloModel) =>
    m.symbols
      .filter((s) => s.definition === undefined)
      .map((s) => `${s.kind} ${s.name}`)
      .sort();

  for (const file of readdirSync(CORPUS_HLO_DIR).filter((f) => f.endsWith('.hlo'))) {
    it(`renames names of ${file} and back, every reference following and none left dangling`, async () => {
      const original = readFileSync(join(CORPUS_HLO_DIR, file), 'utf8');
      const uri = `file:///corpus/${file}`;
      await client.open(uri, original);
      const model = parseHloText(original);
      const defined = model.symbols.filter((s) => s.definition !== undefined);
      // Every computation, and up to 40 instructions spread over the file.
      const computations = defined.filter((s) => s.kind === 'computation');
      const instructions = defined.filter((s) => s.kind === 'instruction');
      const step = Math.max(1, Math.ceil(instructions.length / 40));
      const targets = [...computations, ...instructions.filter((_, i) => i % step === 0)];
      assert.ok(targets.length > 0);
      const rename = async (text: string, offset: number, newName: string): Promise<TextEdit[]> => {
        const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
          textDocument: { uri },
          position: positionAt(text, offset),
          newName,
        });
        const edits = edit.changes?.[uri] ?? [];
        // The server's copy follows, as an editor applying the edit would send it (last edit first).
        const ordered = [...edits].sort(
          (a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start),
        );
        await client.change(
          uri,
          ordered.map((e) => ({ range: e.range, text: e.newText })),
        );
        return edits;
      };
      /** How many definitions the name of `target` has in its scope (more than one: nested computations, or a clash). */
      const definitions = (target: HloSymbol): number =>
        target.kind === 'computation'
          ? model.modules[target.module].computations.filter(
              (c) => model.computations[c]?.name?.name === target.name,
            ).length
          : model.computations[target.computation!].instructions.filter((i) => i.name.name === target.name)
              .length;
      for (const [k, target] of targets.entries()) {
        const fresh = `renamed_${k}`;
        if (definitions(target) > 1) {
          const e = await client
            .request('textDocument/rename', {
              textDocument: { uri },
              position: positionAt(original, target.definition!.start),
              newName: fresh,
            })
            .catch((err: unknown) => err);
          assert.ok(
            e instanceof ResponseError && /names more than one/.test(e.message),
            `${target.kind} ${target.name}: ${String(e)}`,
          );
          continue;
        }
        const edits = await rename(original, target.definition!.start, fresh);
        const text = applyEdits(original, edits);
        assert.equal(edits.length, 1 + target.references.length, `${target.kind} ${target.name}: edits`);
        assert.equal(
          identifierCount(text, fresh),
          edits.length,
          `${target.kind} ${target.name}: ${fresh} in the text`,
        );
        const after = parseHloText(text);
        const moved = after.symbols.find((s) => s.name === fresh);
        assert.equal(moved?.kind, target.kind);
        assert.equal(
          moved?.references.length,
          target.references.length,
          `${target.kind} ${target.name}: references after`,
        );
        assert.deepEqual(
          unresolved(after),
          unresolved(model),
          `${target.kind} ${target.name}: nothing left dangling`,
        );
        const back = applyEdits(text, await rename(text, moved.definition!.start, target.name));
        assert.equal(back, original, `${target.kind} ${target.name}: renamed back`);
      }
    });
  }
});
