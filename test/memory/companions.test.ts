/** The names XLA gives a module dump's companions, and a module's name from its dump's. */
import { strict as assert } from 'node:assert';
import { companionKind, companionNames, moduleLabel } from '../../core/src';

describe('memory: companion file names', () => {
  it('finds every companion from the dump or from any companion, CPU and GPU stages alike', () => {
    const cpu = {
      hlo: 'module_0032.jit_step.cpu_after_optimizations.txt',
      companions: {
        'buffer-assignment': 'module_0032.jit_step.cpu_after_optimizations-buffer-assignment.txt',
        'buffer-assignment-values':
          'module_0032.jit_step.cpu_after_optimizations-buffer-assignment-values.txt',
        'memory-usage-report': 'module_0032.jit_step.cpu_after_optimizations-memory-usage-report.txt',
        'live-range': 'module_0032.jit_step.cpu_after_optimizations-live-range.txt',
      },
    };
    assert.deepEqual(companionNames(cpu.hlo), cpu);
    for (const name of Object.values(cpu.companions)) assert.deepEqual(companionNames(name), cpu);
    assert.equal(companionKind(cpu.companions['buffer-assignment-values']), 'buffer-assignment-values');
    assert.equal(companionKind(cpu.hlo), undefined);
    const gpu = companionNames(
      'module_0225.jit__apply.sm_8.0_gpu_after_optimizations-memory-usage-report.txt',
    );
    assert.equal(gpu?.hlo, 'module_0225.jit__apply.sm_8.0_gpu_after_optimizations.txt');
    assert.equal(companionNames('README'), undefined);
  });

  it("names a module by its dump's name without the stage", () => {
    assert.equal(moduleLabel('module_0032.jit_step.cpu_after_optimizations.txt'), 'module_0032.jit_step');
    assert.equal(
      moduleLabel('module_0225.jit__apply.sm_8.0_gpu_after_optimizations-live-range.txt'),
      'module_0225.jit__apply',
    );
    assert.equal(
      moduleLabel('module_0042.jit_train_step.after_optimizations.txt'),
      'module_0042.jit_train_step',
    );
    assert.equal(moduleLabel('tiles.hlo'), 'tiles');
  });
});
