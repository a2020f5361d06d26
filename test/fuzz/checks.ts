/**
 * One call per input that drives every core entry point over a text and asserts the invariants of
 * invariants.ts: the shape parser, validator, model, printer and layout math
 * ({@link checkShapeText}), the HLO shape finder and checker ({@link checkScan}), explain
 * ({@link checkExplain}) and the HLO statement/module model ({@link checkHloText}).
 */
import { strict as assert } from 'node:assert';
import type { ShapeNode } from '../../core/src/ast';
import {
  buildModule,
  computationAt,
  createShapeChecker,
  explainShapeText,
  explanationToJson,
  isLayoutError,
  type LayoutErrorCode,
  parseShape,
  parseShapeText,
  parseStatement,
  planTiling,
  printShape,
  scanShapes,
  sizes,
  splitStatements,
  symbolAt,
  toArrayShape,
  validateShape,
  type ArrayShapeNode,
} from '../../core/src/index';
import {
  assertAllRangesInText,
  assertDiagnostics,
  assertRangeInText,
  assertShapeTree,
  canonical,
  noThrow,
  shown,
} from './invariants';

function arrayLeaves(node: ShapeNode): ArrayShapeNode[] {
  const out: ArrayShapeNode[] = [];
  const work: ShapeNode[] = [node];
  while (work.length > 0) {
    const n = work.pop()!;
    if (n.kind === 'array') out.push(n);
    else if (n.kind === 'buffer') work.push(n.element);
    else for (const e of n.elements) work.push(e);
  }
  return out;
}

/** Why layout math may refuse a model that toArrayShape built (see checkShapeText). */
const ACCEPTED_REFUSALS: readonly LayoutErrorCode[] = [
  'element-size-too-large',
  'too-many-slots',
  'tile-ends-in-combine',
  'plan-too-large',
];

/** A sentinel text parsed between two parses of the same input, to flush any shared state. */
const INTERLEAVED = '(f32[8,128]{1,0:T(8,128)}, /* x */ s32[]{:T(128)})';

/**
 * Parser, validator, model, printer and (for the arrays it yields) layout math on `text`:
 * nothing throws, every range is inside the text and nested, parsing is deterministic, and a
 * shape without errors prints to text that re-parses to the same print.
 */
export function checkShapeText(text: string): void {
  const n = text.length;
  const parsed = noThrow('parseShapeText', text, () => parseShapeText(text));
  assert.ok(parsed.end >= 0 && parsed.end <= n, `end ${parsed.end} outside ${shown(text)}`);
  assertDiagnostics(parsed.diagnostics, n, `parseShapeText ${shown(text)}`);
  noThrow('parseShapeText (sentinel)', INTERLEAVED, () => parseShapeText(INTERLEAVED));
  const again = parseShapeText(text);
  assert.equal(canonical(again), canonical(parsed), `parse is not deterministic on ${shown(text)}`);
  const mid = n >> 1;
  const partial = noThrow('parseShape(start)', text, () => parseShape(text, mid));
  assert.ok(partial.end >= mid && partial.end <= n, `parseShape from ${mid} ended at ${partial.end}`);
  assertDiagnostics(partial.diagnostics, n, `parseShape(start=${mid}) ${shown(text)}`);
  if (partial.shape !== undefined)
    assertShapeTree(partial.shape, n, `parseShape(start=${mid}) ${shown(text)}`);
  const shape = parsed.shape;
  if (shape === undefined) return;
  assertShapeTree(shape, n, `parseShapeText ${shown(text)}`);
  const validation = noThrow('validateShape', text, () => validateShape(shape));
  assertDiagnostics(validation, n, `validateShape ${shown(text)}`);
  const printed = noThrow('printShape', text, () => printShape(shape));
  noThrow('printShape(no layout)', text, () => printShape(shape, { layout: false }));
  for (const leaf of arrayLeaves(shape)) {
    const model = noThrow('toArrayShape', text, () => toArrayShape(leaf));
    if (model === undefined) continue;
    noThrow('printShape(model)', text, () => printShape(model));
    const plan = noThrow('planTiling', text, () => planTiling(model));
    const sz = noThrow('sizes', text, () => sizes(model));
    // A model the core built itself must be computable, save for the documented refusals: E past
    // exact doubles, more than 2^1024 slots, a tile ending in `*` (legal XLA text, advice only), and
    // (the plan alone) more intermediate sizes than MAX_PLAN_SIZES.
    const refusal = isLayoutError(plan) ? plan : isLayoutError(sz) ? sz : undefined;
    if (refusal !== undefined)
      assert.ok(
        ACCEPTED_REFUSALS.includes(refusal.code),
        `layout math refused a model of ${shown(text)}: ${refusal.code}`,
      );
  }
  const hasErrors = [...parsed.diagnostics, ...validation].some((d) => d.severity === 'error');
  if (!hasErrors) {
    // Canonical printing is a fixed point: print(parse(print(x))) === print(x), with no new errors.
    const reparsed = parseShapeText(printed);
    assert.ok(reparsed.shape !== undefined, `printed ${printed} of ${shown(text)} does not parse`);
    const errors = [...reparsed.diagnostics, ...validateShape(reparsed.shape)].filter(
      (d) => d.severity === 'error',
    );
    assert.deepEqual(errors, [], `printed ${printed} of ${shown(text)} has errors`);
    assert.equal(printShape(reparsed.shape), printed, `printing is not a fixed point for ${shown(text)}`);
  }
}

/** The HLO shape finder and the memoised checker on `text` (also from an offset and to an end). */
export function checkScan(text: string): void {
  const n = text.length;
  const found = noThrow('scanShapes', text, () => scanShapes(text));
  const checker = createShapeChecker();
  let lastStart = -1;
  for (const f of found) {
    assertShapeTree(f.shape, n, `scanShapes ${shown(text)}`);
    assertDiagnostics(f.diagnostics, n, `scanShapes ${shown(text)}`);
    assert.ok(f.shape.range.start >= lastStart, `scanShapes out of order on ${shown(text)}`);
    lastStart = f.shape.range.start;
    const all = noThrow('ShapeChecker.check', text, () => checker.check(text, f));
    assertDiagnostics(all, n, `ShapeChecker.check ${shown(text)}`);
    // The memoised answer is the same the second time (from the cache).
    assert.equal(canonical(checker.check(text, f)), canonical(all));
  }
  assert.equal(
    canonical(scanShapes(text)),
    canonical(found),
    `scanShapes is not deterministic on ${shown(text)}`,
  );
  const a = n >> 2;
  const b = n - (n >> 2);
  for (const f of noThrow('scanShapes(start,end)', text, () => scanShapes(text, a, b))) {
    assert.ok(
      f.shape.range.start >= a && f.shape.range.end <= b,
      `scanShapes(${a},${b}) found [${f.shape.range.start}, ${f.shape.range.end}) in ${shown(text)}`,
    );
    assertShapeTree(f.shape, n, `scanShapes(${a},${b}) ${shown(text)}`);
    assertDiagnostics(f.diagnostics, n, `scanShapes(${a},${b}) ${shown(text)}`);
  }
}

/**
 * explainShapeText and its JSON form on `text`; with `tpu`, also under assumed TPU tiling (costly
 * on thousands of leaves, so the deep-nesting cases leave it out).
 */
export function checkExplain(text: string, tpu = true): void {
  const n = text.length;
  const e = noThrow('explainShapeText', text, () => explainShapeText(text));
  assertDiagnostics(e.diagnostics, n, `explainShapeText ${shown(text)}`);
  for (const a of e.arrays) assertRangeInText(a.range, n, `explain array ${shown(text)}`);
  noThrow('explanationToJson', text, () => explanationToJson(e));
  if (tpu) noThrow('explainShapeText(tpu)', text, () => explainShapeText(text, { assumedTiling: 'tpu' }));
}

/**
 * HLO statements and the module model on `text`: statement ranges ordered, disjoint and inside the
 * text; every range of every statement and of the model inside the text; symbol look-ups at a
 * few offsets do not throw.
 */
export function checkHloText(text: string): void {
  const n = text.length;
  const ranges = noThrow('splitStatements', text, () => splitStatements(text));
  let last = 0;
  for (const r of ranges) {
    assertRangeInText(r, n, `splitStatements ${shown(text)}`);
    assert.ok(r.start >= last, `statements overlap at ${r.start} in ${shown(text)}`);
    last = r.end;
  }
  const statements = ranges.map((r) => noThrow('parseStatement', text, () => parseStatement(text, r)));
  statements.forEach((s, i) =>
    assertAllRangesInText(s, n, `parseStatement ${shown(text.slice(ranges[i].start, ranges[i].end))}`),
  );
  const model = noThrow('buildModule', text, () => buildModule(statements));
  assertAllRangesInText(
    {
      modules: model.modules,
      computations: model.computations,
      symbols: model.symbols,
      occurrences: model.occurrences,
    },
    n,
    `buildModule ${shown(text)}`,
  );
  model.computations.forEach((c, i) => {
    assert.equal(c?.index, i, `computation slot ${i} filled, in order, in ${shown(text)}`);
    // A computation written in place lies inside the one around it, which comes before it.
    const outer = c.inline ? model.computations[c.inline.computation] : undefined;
    if (c.inline)
      assert.ok(
        outer && outer.index < i && outer.range.start <= c.range.start && c.range.end <= outer.range.end,
        `inline computation ${i} outside its outer one in ${shown(text)}`,
      );
  });
  for (const offset of [0, n >> 1, n - 1, n]) {
    noThrow('symbolAt', text, () => symbolAt(model, offset));
    noThrow('computationAt', text, () => computationAt(model, offset));
  }
}
