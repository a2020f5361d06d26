/**
 * Every vector of corpus/tiling_vectors.json, every field: physical dims, expanded shape, element
 * counts, ByteSizeOf, ArraySize, physical bytes, each linear index in the tables and samples, and
 * the inverse of each.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import {
  elementAt,
  isLayoutError,
  linearIndex,
  planTiling,
  sizes,
  type TilingPlan,
} from '../../core/src/layout';
import { shapeOf } from './layout-shape-literal';
import { join } from 'path';
import { CORPUS_DIR, describeWithSharedCorpus, SHARED_CORPUS } from '../support/corpus';

interface Vector {
  shape: string;
  physical_major_to_minor_dims: number[];
  expanded_tiled_shape: number[];
  logical_elements: number;
  physical_element_slots_all_tiles: number;
  ByteSizeOf: number;
  ArraySize_first_tile_only: number | null;
  physical_bytes_all_tiles: number;
  linear_index_by_logical_index?: Record<string, number>;
  samples?: Record<string, number>;
  expected_from_xla_tests?: Record<string, number>;
}

const vectors = SHARED_CORPUS
  ? (JSON.parse(readFileSync(join(CORPUS_DIR, 'tiling_vectors.json'), 'utf8')) as Vector[])
  : [];
const key = (k: string): bigint[] => (k === '' ? [] : k.split(',').map(BigInt));

describeWithSharedCorpus('layout: corpus tiling_vectors.json', () => {
  it('has the 18 vectors the spec describes', () => assert.equal(vectors.length, 18));

  for (const v of vectors) {
    describe(v.shape, () => {
      const shape = shapeOf(v.shape);

      it('plan: physical dims and expanded shape', () => {
        const plan = planTiling(shape) as TilingPlan;
        assert.ok(!isLayoutError(plan));
        assert.deepEqual(plan.physicalDims, v.physical_major_to_minor_dims.map(BigInt));
        assert.deepEqual(plan.expandedShape, v.expanded_tiled_shape.map(BigInt));
      });

      it('sizes', () => {
        const s = sizes(shape);
        assert.ok(!isLayoutError(s));
        assert.equal(s.logicalElements, BigInt(v.logical_elements));
        assert.equal(s.physicalElements, BigInt(v.physical_element_slots_all_tiles));
        assert.equal(s.logicalBytes, BigInt(v.ByteSizeOf));
        assert.equal(
          s.arraySizeBytes,
          v.ArraySize_first_tile_only === null ? null : BigInt(v.ArraySize_first_tile_only),
        );
        assert.equal(s.physicalBytes, BigInt(v.physical_bytes_all_tiles));
      });

      const table = { ...v.linear_index_by_logical_index, ...v.samples, ...v.expected_from_xla_tests };
      it(`linear index and inverse of ${Object.keys(table).length} elements`, () => {
        assert.ok(Object.keys(table).length > 0);
        for (const [k, li] of Object.entries(table)) {
          assert.equal(linearIndex(shape, key(k)), BigInt(li), `${v.shape} at [${k}]`);
          assert.deepEqual(
            elementAt(shape, BigInt(li)),
            { kind: 'element', index: key(k) },
            `${v.shape} slot ${li}`,
          );
        }
      });

      if (
        v.linear_index_by_logical_index !== undefined &&
        Object.keys(v.linear_index_by_logical_index).length === v.logical_elements
      ) {
        it('complete table: every other slot is padding', () => {
          const used = new Set(Object.values(v.linear_index_by_logical_index!));
          for (let o = 0; o < v.physical_element_slots_all_tiles; o++) {
            if (!used.has(o))
              assert.equal((elementAt(shape, BigInt(o)) as { kind: string }).kind, 'padding', `slot ${o}`);
          }
        });
      }
    });
  }
});
