import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { ShapeNode } from '../../core/src/ast';
import type { TextRange } from '../../core/src/diagnostics';
import { parseShape, parseShapeText } from '../../core/src/parse';
import { printShape } from '../../core/src/print';
import { toArrayShape } from '../../core/src/to-model';
import { validateShape } from '../../core/src/validate';
import { join } from 'path';
import { CORPUS_DIR } from '../support/corpus';

const corpus = readFileSync(join(CORPUS_DIR, 'valid_shapes.txt'), 'utf8')
  .split('\n')
  .filter((l) => l !== '');

function assertRange(r: TextRange, length: number, where: string): void {
  assert.ok(Number.isInteger(r.start) && Number.isInteger(r.end), where);
  assert.ok(
    r.start >= 0 && r.start <= r.end && r.end <= length,
    `${where}: ${JSON.stringify(r)} outside [0, ${length}]`,
  );
}

/** Every node range in bounds and inside its parent's range. */
function assertTree(node: ShapeNode, length: number, parent: TextRange): void {
  assertRange(node.range, length, node.kind);
  assert.ok(node.range.start >= parent.start && node.range.end <= parent.end, 'child outside parent');
  if (node.kind === 'tuple') for (const e of node.elements) assertTree(e, length, node.range);
  else if (node.kind === 'buffer') assertTree(node.element, length, node.range);
  else {
    for (const d of node.dims) assertRange(d.range, length, 'dim');
    if (node.layout !== undefined) {
      assertRange(node.layout.range, length, 'layout');
      for (const t of node.layout.tiles?.tiles ?? [])
        for (const e of t.entries) assertRange(e.range, length, 'tile entry');
    }
  }
}

/** Parses and validates `text` and checks every range; must never throw. */
function checkAll(text: string): void {
  const r = parseShapeText(text);
  assert.ok(r.end >= 0 && r.end <= text.length);
  for (const d of r.diagnostics) assertRange(d.range, text.length, d.code);
  if (r.shape !== undefined) {
    assertTree(r.shape, text.length, { start: 0, end: text.length });
    for (const d of validateShape(r.shape)) assertRange(d.range, text.length, d.code);
    toArrayShape(r.shape);
    printShape(r.shape);
  }
}

describe('parser properties', () => {
  it('never throws and keeps ranges in bounds on random strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => checkAll(s)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => checkAll(s)),
      { numRuns: 1000 },
    );
  });

  it('never throws on one-character mutations of corpus shapes', () => {
    const alphabet = fc.constantFrom(...'[](){},:*#<=?-0123456789TLESCPMDbf /x');
    const mutation = fc.record({
      line: fc.integer({ min: 0, max: corpus.length - 1 }),
      at: fc.nat(),
      kind: fc.constantFrom('insert', 'delete', 'replace'),
      ch: alphabet,
    });
    fc.assert(
      fc.property(mutation, ({ line, at, kind, ch }) => {
        const s = corpus[line];
        const i = at % (s.length + 1);
        const mutated =
          kind === 'insert'
            ? s.slice(0, i) + ch + s.slice(i)
            : kind === 'delete'
              ? s.slice(0, i) + s.slice(i + 1)
              : s.slice(0, i) + ch + s.slice(i + 1);
        checkAll(mutated);
      }),
      { numRuns: 5000 },
    );
  });

  it('never throws on every truncation of every corpus shape, and reports an error for a cut layout', () => {
    for (const s of corpus) {
      for (let i = 0; i <= s.length; i++) checkAll(s.slice(0, i));
      const brace = s.indexOf('{');
      if (brace > 0 && !s.startsWith('(')) {
        const cut = s.slice(0, s.length - 1);
        assert.ok(
          parseShapeText(cut).diagnostics.some((d) => d.severity === 'error'),
          cut,
        );
      }
    }
  });

  it('parses a prefix of a bounded window without reading past it', () => {
    for (const s of corpus.slice(0, 200)) {
      const text = `  ${s}  trailing`;
      const r = parseShape(text, 0, { end: s.length + 2 });
      assert.equal(r.end, s.length + 2, s);
      assert.deepEqual(r.shape!.range, { start: 2, end: s.length + 2 });
    }
  });

  it('printShape(parse(x)) is a fixed point for generated shapes', () => {
    const type = fc.constantFrom('f32', 'bf16', 's4', 'pred', 'u8', 'c64', 'f8e4m3fn');
    const dim = fc.oneof(
      fc.nat({ max: 5000 }).map(String),
      fc.nat({ max: 99 }).map((n) => `<=${n}`),
      fc.constant('?'),
    );
    const array = fc
      .tuple(
        type,
        fc.array(dim, { maxLength: 4 }),
        fc.boolean(),
        fc.array(
          fc.array(fc.oneof(fc.integer({ min: 1, max: 256 }).map(String), fc.constant('*')), {
            minLength: 1,
            maxLength: 3,
          }),
          { maxLength: 3 },
        ),
        fc.option(fc.integer({ min: -3, max: 300 })),
      )
      .map(([t, dims, reversed, tiles, space]) => {
        const order = dims.map((_, i) => dims.length - 1 - i);
        if (reversed) order.reverse();
        const attrs =
          (tiles.length > 0 ? 'T' + tiles.map((x) => `(${x.join(',')})`).join('') : '') +
          (space === null ? '' : `S(${space})`);
        const layout = `{${order.join(',')}${attrs === '' ? '' : ':' + attrs}}`;
        // `{}` is not a layout in XLA's grammar (it needs an integer or ':').
        return `${t}[${dims.join(',')}]${layout === '{}' ? '' : layout}`;
      });
    const shape: fc.Arbitrary<string> = fc.letrec<{ shape: string }>((tie) => ({
      shape: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        array,
        fc.array(tie('shape'), { maxLength: 7 }).map((es) => `(${es.join(', ')})`),
      ),
    })).shape;
    fc.assert(
      fc.property(shape, (s) => {
        const r = parseShapeText(s);
        assert.deepEqual(r.diagnostics, [], s);
        const printed = printShape(r.shape!);
        const again = parseShapeText(printed);
        assert.deepEqual(again.diagnostics, [], printed);
        assert.equal(printShape(again.shape!), printed);
      }),
      { numRuns: 1000 },
    );
  });
});
