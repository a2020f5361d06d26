/**
 * An iota replica_groups=[G,N]<=[D] whose group shape does not hold the devices makes XLA abort (a
 * CHECK failure reshaping the iota): reported as that crash, through the streaming check
 * `xla-layout check` runs, whose fast path must not pass over such a collective.
 */
import { strict as assert } from 'node:assert';
import { checkErrors as errors } from '../support/check-errors';

describe('iota replica groups whose group shape does not hold the devices', () => {
  const add =
    '%add (x: f32[], y: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n  ROOT %s = f32[] add(%x, %y)\n}\n\n';
  const text = (groups: string) =>
    `HloModule m\n\n${add}ENTRY %e {\n  %p = f32[8]{0} parameter(0)\n  ROOT %r = f32[8]{0} all-reduce(%p), replica_groups=${groups}, to_apply=%add\n}\n`;

  it('is the crash XLA aborts with, on the groups', () => {
    assert.deepEqual(errors(text('[2,2]<=[8]')), [
      'replica-groups-count 11:54 Check failed: new_num_elements == num_elements() (4 vs. 8)',
    ]);
  });

  it('is nothing when the counts agree, transposed or not', () => {
    assert.deepEqual(errors(text('[2,4]<=[8]')), []);
    assert.deepEqual(errors(text('[2,4]<=[4,2]T(1,0)')), []);
  });
});
