/**
 * The number formats every interface shares (CLI, hover, inlay hints, padding report, webview): one
 * buffer must read the same wherever it is shown, and a size must never read larger than it is.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { bytesWithUnit, formatFactor, formatPercent, groupDigits, humanBytes } from '../../core/src/format';

describe('core: number formats', () => {
  it('groups digits of integers of any size', () => {
    assert.equal(groupDigits(0n), '0');
    assert.equal(groupDigits(999), '999');
    assert.equal(groupDigits(-1234567n), '-1,234,567');
    assert.equal(groupDigits(2n ** 64n), '18,446,744,073,709,551,616');
  });

  it('shows bytes in binary units, one decimal below 10 units, rounded down', () => {
    assert.equal(humanBytes(0n), '0 B');
    assert.equal(humanBytes(1023n), '1023 B');
    assert.equal(humanBytes(1024n), '1.0 KiB');
    assert.equal(humanBytes(4096n), '4.0 KiB');
    assert.equal(humanBytes(10239n), '9.9 KiB');
    assert.equal(humanBytes(131072n), '128 KiB');
    assert.equal(humanBytes(1572863n), '1.4 MiB'); // 1.49999 MiB: rounding would claim 1.5
    assert.equal(humanBytes(33554432n), '32 MiB');
    assert.equal(humanBytes(2n ** 60n), '1.0 EiB');
    assert.equal(humanBytes(2n ** 70n), '1024 EiB');
    // Past 2^53 the figure comes from integer arithmetic: 2^53 + 1 bytes is still 8.0 PiB, and
    // 9 PiB - 1 byte is 8.9 PiB, where a double would round it to 9.0.
    assert.equal(humanBytes(2n ** 53n + 1n), '8.0 PiB');
    assert.equal(humanBytes(9n * 2n ** 50n - 1n), '8.9 PiB');
    // Just past 7.9 EiB (7.9 · 2^60 = 9108079886394091110.4): dividing unit by unit, truncating
    // at each step, showed 7.8 (found by the property below).
    assert.equal(humanBytes(9108079886394091111n), '7.9 EiB');
  });

  it('never shows a size larger than it is, nor smaller by a tenth of its unit or more', () => {
    const UNIT: Record<string, bigint> = {
      B: 1n,
      KiB: 2n ** 10n,
      MiB: 2n ** 20n,
      GiB: 2n ** 30n,
      TiB: 2n ** 40n,
      PiB: 2n ** 50n,
      EiB: 2n ** 60n,
    };
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 66n }), (bytes) => {
        const [number, unit] = humanBytes(bytes).split(' ');
        const [whole, tenth = ''] = number.split('.');
        const shown = (BigInt(whole) * 10n + BigInt(tenth || '0')) * UNIT[unit];
        const step = tenth ? UNIT[unit] : UNIT[unit] * 10n;
        return shown <= bytes * 10n && bytes * 10n < shown + step;
      }),
    );
  });

  it('pairs exact bytes with the unit figure from 1 KiB on', () => {
    assert.equal(bytesWithUnit(96n), '96 B');
    assert.equal(bytesWithUnit(131072n), '131,072 B (128 KiB)');
  });

  it('rounds factors to two decimals below 10 and one from 10 on', () => {
    assert.equal(formatFactor(32), '32x');
    assert.equal(formatFactor(1.5), '1.5x');
    assert.equal(formatFactor(1.0666), '1.07x');
    assert.equal(formatFactor(170.66), '170.7x');
  });

  it('shows shares as percentages with one decimal, dropping ".0"', () => {
    assert.equal(formatPercent(0.96875), '96.9%');
    assert.equal(formatPercent(0.5), '50%');
  });
});
