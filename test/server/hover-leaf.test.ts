/**
 * Hovering an array inside a tuple explains that array alone (server/src/hover.ts explainTarget):
 * for every array leaf of every tuple and buffer shape in the corpus and the fixtures, the leaf's
 * explanation and the shape's errors must be those of explaining the whole shape, which is what the
 * hover showed before (the leaf's path inside the tuple aside, which the array hover does not
 * print). Array hover bodies are memoised by array text: a hover answered from the memo must equal
 * the one computed afresh, at every shape of the corpus, the fixtures and a generated dump.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../../server/src/analyzer';
import { explainFound } from '../../server/src/explain-found';
import { HloDocument } from '../../server/src/document';
import { generateDump } from '../../bench/generate-dump';
import { explainTarget, hover } from '../../server/src/hover';
import { shapeAt } from '../../server/src/locate';
import { arrayLeaves } from '../../server/src/shape-facts';
import { DEFAULT_SETTINGS, type Settings } from '../../protocol/src/settings';
import { CORPUS_HLO_DIR } from '../support/corpus';

const FIXTURES = join(__dirname, 'fixtures');
const TPU: Settings = { ...DEFAULT_SETTINGS, assumedTiling: 'tpu' };

const withoutPath = <T extends { path: unknown }>(a: T | undefined) =>
  a ? { ...a, path: undefined } : undefined;

/** Checks every tuple leaf of `text`; returns how many leaves were compared. */
async function check(name: string, text: string, settings: Settings): Promise<number> {
  const doc = new HloDocument(`file:///${name}`, 'hlo', 1, text, new Analyzer(settings));
  await doc.analyze(() => Promise.resolve());
  let leaves = 0;
  for (let i = 0; i < doc.statementCount; i++) {
    const st = doc.parse(i);
    for (const found of st.shapes) {
      if (found.shape.kind === 'array') continue;
      for (const leaf of arrayLeaves(found.shape)) {
        const target = shapeAt(st, leaf.range.start);
        if (target?.leaf !== leaf || target.found !== found) continue;
        const fast = explainTarget(doc, target, settings);
        const whole = explainFound(doc, found, settings);
        const slow = whole.arrays.find(
          (a) => a.range.start === leaf.range.start && a.range.end === leaf.range.end,
        );
        assert.deepEqual(withoutPath(fast.leaf), withoutPath(slow), `${name}: leaf at ${leaf.range.start}`);
        assert.deepEqual(
          fast.errors,
          whole.diagnostics.filter((d) => d.severity === 'error'),
          `${name}: errors of the shape at ${found.shape.range.start}`,
        );
        leaves++;
      }
    }
  }
  return leaves;
}

describe('server: hover on a tuple element explains the element alone', () => {
  for (const settings of [DEFAULT_SETTINGS, TPU]) {
    it(`agrees with the whole-shape explanation on the corpus and fixtures (assumed tiling ${settings.assumedTiling})`, async () => {
      let leaves = 0;
      for (const f of readdirSync(CORPUS_HLO_DIR).filter((x) => x.endsWith('.hlo')))
        leaves += await check(f, readFileSync(join(CORPUS_HLO_DIR, f), 'utf8'), settings);
      for (const f of readdirSync(FIXTURES).filter((x) => x.endsWith('.hlo')))
        leaves += await check(f, readFileSync(join(FIXTURES, f), 'utf8'), settings);
      const shapes = [
        '(f32[3,5]{1,0:T(8,128)}, s32[]{:T(128)})',
        '((bf16[8,256]{1,0:T(8,128)(2,1)}, f32[2]{5}), pred[])',
        'b(f32[9,9]{0,1:T(8,128)(2,1)})',
        '(f32[4,6]{1,0:T(3,4)(2,1)}, s4[16]{0:T(8)E(4)})',
      ];
      leaves += await check(
        'inline',
        `ENTRY %e () -> f32[] {\n${shapes.map((s, i) => `  %t.${i} = ${s} tuple()\n`).join('')}}\n`,
        settings,
      );
      assert.ok(leaves > 50, `${leaves} tuple leaves compared`);
    });
  }
});

/** Hovers every shape of `text` twice: with the memo as it is, and with a fresh settings value (an empty memo). */
async function sameHovers(name: string, text: string, settings: Settings): Promise<number> {
  const doc = new HloDocument(`file:///${name}`, 'hlo', 1, text, new Analyzer(settings));
  await doc.analyze(() => Promise.resolve());
  let hovers = 0;
  for (let i = 0; i < doc.statementCount; i++) {
    for (const found of doc.parse(i).shapes) {
      // The shape itself and the first character of each of its arrays.
      for (const offset of [
        found.shape.range.start,
        ...arrayLeaves(found.shape).map((l) => l.range.start + 1),
      ]) {
        const warm = await hover(doc, offset, settings);
        const cold = await hover(doc, offset, { ...settings });
        assert.deepEqual(warm, cold, `${name}: hover at ${offset}`);
        hovers++;
      }
    }
  }
  return hovers;
}

describe('server: memoised array hovers', () => {
  it('equal fresh ones on the corpus, the fixtures and a generated dump', async function () {
    this.timeout(120_000);
    let hovers = 0;
    for (const f of readdirSync(CORPUS_HLO_DIR).filter((x) => x.endsWith('.hlo')))
      hovers += await sameHovers(f, readFileSync(join(CORPUS_HLO_DIR, f), 'utf8'), DEFAULT_SETTINGS);
    for (const f of readdirSync(FIXTURES).filter((x) => x.endsWith('.hlo')))
      hovers += await sameHovers(f, readFileSync(join(FIXTURES, f), 'utf8'), TPU);
    const dir = mkdtempSync(join(tmpdir(), 'hover-memo-'));
    try {
      const file = join(dir, 'dump.after_optimizations.txt');
      generateDump(file, 60_000, 5, 'model');
      hovers += await sameHovers('dump', readFileSync(file, 'utf8'), DEFAULT_SETTINGS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(hovers > 1000, `${hovers} hovers compared`);
  });
});
