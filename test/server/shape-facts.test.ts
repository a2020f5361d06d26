/**
 * The shape facts build one tiling plan per leaf and read both the divisibility advice and the
 * sizes from it: checked against core's `sizes` and `tileDivisibility` (each of which plans on its
 * own) on every corpus shape, as written and under the assumed TPU tiling, and on the spec's example.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLayoutError, paddingByDimension, planTiling } from '../../core/src/layout';
import { parseShape } from '../../core/src/parse';
import { formatFactor, groupDigits } from '../../core/src/format';
import { paddingCause } from '../../core/src/report/padding-warning';
import { arrayLeaves, effectiveShape, paddingWarning, ShapeFactsCache } from '../../server/src/shape-facts';
import type { ArrayShape } from '../../core/src/model';
import { DEFAULT_SETTINGS, type Settings } from '../../protocol/src/settings';
import { CORPUS_DIR } from '../support/corpus';

const CORPUS = CORPUS_DIR;
const TPU: Settings = { ...DEFAULT_SETTINGS, assumedTiling: 'tpu' };

function shapes(): string[] {
  return ['valid_shapes.txt', 'invalid_shapes.txt', 'legacy_shapes.txt'].flatMap((f) =>
    readFileSync(join(CORPUS, f), 'utf8')
      .split('\n')
      .map((l) => l.replace(/\r$/, ''))
      .filter((l) => l.trim() !== '' && !l.startsWith('#')),
  );
}

/** The cause sentence as the server wrote it from core's full `paddingByDimension` account: the reference. */
function referenceCause(shape: ArrayShape): string | undefined {
  const account = paddingByDimension(shape);
  if (isLayoutError(account) || !account.dominant) return undefined;
  const c = account.dominant;
  const tile = shape.tiles[c.level];
  const tileText = tile
    ? `tile (${tile.map((t) => (t === 'combine' ? '*' : t.toString())).join(',')})`
    : `tile ${c.level + 1}`;
  if (c.dims.length === 0)
    return `${tileText} pads leading size-1 dimensions (vector padding) to ${groupDigits(c.to)}`;
  const names = c.dims.map((d) => {
    const info = account.dimensions.find((x) => x.dim === d);
    const where = info?.isMinorMost ? ', minor-most' : '';
    return `dim ${d} (size ${groupDigits(shape.dims[d] ?? 0n)}${where})`;
  });
  return `${names.join(' × ')}: ${tileText} pads ${groupDigits(c.from)} to ${groupDigits(c.to)} (${formatFactor(c.factor.value)})`;
}

describe('server: shape facts from one tiling plan', () => {
  it("padding causes from one plan agree with core's paddingByDimension on every corpus shape", () => {
    let planned = 0;
    let causes = 0;
    for (const text of shapes()) {
      const node = parseShape(text, 0, { end: text.length }).shape;
      if (!node) continue;
      for (const leaf of arrayLeaves(node)) {
        for (const settings of [DEFAULT_SETTINGS, TPU]) {
          const eff = effectiveShape(leaf, settings);
          if (!eff) continue;
          const plan = planTiling(eff.shape);
          if (isLayoutError(plan)) continue;
          planned++;
          const cause = paddingCause(eff.shape, plan);
          assert.equal(cause, referenceCause(eff.shape), text);
          if (cause !== undefined) causes++;
        }
      }
    }
    assert.ok(planned > 100, `${planned} leaves planned`);
    assert.ok(causes > 50, `${causes} padding causes`);
  });

  it("warns on the spec's f32[4,6]{1,0:T(3,4)(2,1)}: 256 physical bytes where ArraySize says 192", () => {
    const text = 'f32[4,6]{1,0:T(3,4)(2,1)}';
    const node = parseShape(text, 0, { end: text.length }).shape!;
    const facts = new ShapeFactsCache(DEFAULT_SETTINGS).get(text, node);
    assert.deepEqual(
      facts.leaves.map((l) => [l.logicalBytes, l.physicalBytes]),
      [[96n, 256n]],
    );
    const advice = facts.diagnostics.filter((d) => d.code === 'tile-not-dividing');
    assert.equal(advice.length, 1);
    assert.deepEqual(advice[0].range, { start: 19, end: 24 });
    assert.equal(
      advice[0].message,
      "Tile 2 does not divide the dimensions it covers (3 is not a multiple of 2): the array needs more memory than XLA's ArraySize reports.",
    );
  });

  it('places a padding warning on the layout of its shape, and on its lines when asked', () => {
    const text = 'f32[1024,4]{1,0:T(8,128)}';
    const node = parseShape(text, 0, { end: text.length }).shape!;
    const [leaf] = new ShapeFactsCache(DEFAULT_SETTINGS).get(text, node).leaves;
    const warning = paddingWarning(leaf, 100, DEFAULT_SETTINGS);
    assert.ok(warning);
    assert.equal(warning.code, 'padding-overhead');
    assert.deepEqual(warning.range, { start: 100 + 11, end: 100 + text.length });
    assert.equal(warning.span, undefined);
    assert.match(warning.message, /32x/);
    const span = { startLine: 2, startCharacter: 11, endLine: 2, endCharacter: 25 };
    const placed = warning.placed(span);
    assert.deepEqual(placed.span, span);
    assert.deepEqual([placed.range, placed.message], [warning.range, warning.message]);
    assert.equal(paddingWarning(leaf, 0, { ...DEFAULT_SETTINGS, warnExpansion: 64 }), undefined);
  });
});
