/**
 * The number formats every interface shares (CLI, hover, inlay hints, padding report, webview): one
 * buffer must read the same wherever it is shown, and a size reads as its nearest rounding.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  articleFor,
  bytesWithUnit,
  formatFactor,
  formatPercent,
  groupDigits,
  humanBytes,
} from '../../core/src/format';

describe('core: number formats', () => {
  it('groups digits of integers of any size', () => {
    assert.equal(groupDigits(0n), '0');
    assert.equal(groupDigits(999), '999');
    assert.equal(groupDigits(-1234567n), '-1,234,567');
    assert.equal(groupDigits(2n ** 64n), '18,446,744,073,709,551,616');
  });

  it('shows bytes in binary units, rounded to the nearest: one decimal below 100 units', () => {
    assert.equal(humanBytes(0n), '0 B');
    assert.equal(humanBytes(1023n), '1023 B');
    assert.equal(humanBytes(1024n), '1 KiB');
    assert.equal(humanBytes(1536n), '1.5 KiB');
    assert.equal(humanBytes(4096n), '4 KiB');
    assert.equal(humanBytes(10239n), '10 KiB'); // 9.999 KiB
    assert.equal(humanBytes(16384n), '16 KiB');
    assert.equal(humanBytes(131072n), '128 KiB');
    assert.equal(humanBytes(1572863n), '1.5 MiB'); // 1.49999 MiB
    assert.equal(humanBytes(1572864n - 52429n), '1.4 MiB'); // 1.45 MiB - 1 byte
    assert.equal(humanBytes(33554432n), '32 MiB');
    // The figure: 12,000,000,000,000 B = 10.914 TiB, which flooring showed as "10 TiB".
    assert.equal(humanBytes(12_000_000_000_000n), '10.9 TiB');
    assert.equal(humanBytes(99n * 2n ** 20n + 2n ** 20n - 1n), '100 MiB'); // 99.999 MiB
    assert.equal(humanBytes(1023n * 1024n + 1000n), '1 MiB'); // 1023.98 KiB rounds into the next unit
    assert.equal(humanBytes(2n ** 60n), '1 EiB');
    assert.equal(humanBytes(2n ** 70n), '1024 EiB');
    // Past 2^53 the figure comes from integer arithmetic: 2^53 + 1 bytes is 8 PiB, and 8.95 PiB
    // less one byte is 8.9 PiB, where a double would round it to 9.0.
    assert.equal(humanBytes(2n ** 53n + 1n), '8 PiB');
    assert.equal(humanBytes((895n * 2n ** 50n) / 100n - 1n), '8.9 PiB');
    assert.equal(humanBytes(-1536n), '-1.5 KiB');
  });

  it('shows every size within half a step of its last digit', () => {
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
        const [whole, tenth] = number.split('.');
        // In tenths of the unit: what is shown, and the step of its last digit.
        const shown = (BigInt(whole) * 10n + BigInt(tenth ?? '0')) * UNIT[unit];
        const step = tenth !== undefined || BigInt(whole) < 100n ? UNIT[unit] : UNIT[unit] * 10n;
        if (unit === 'B') return shown === bytes * 10n;
        // |shown - exact| <= half a step (exact in tenths: bytes * 10).
        const error = shown > bytes * 10n ? shown - bytes * 10n : bytes * 10n - shown;
        return error * 2n <= step && !number.endsWith('.0');
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

  it('picks "an" for numbers read with a vowel first (8, 11, 18, 80…, 11,000), "a" otherwise', () => {
    const an = [8, 11, 18, 80, 800, 8192, 11_000, 18_000_000, 8n];
    const a = [1, 2, 10, 12, 100, 110, 128, 180, 1024, 111_000];
    assert.deepEqual(
      an.map(articleFor),
      an.map(() => 'an'),
    );
    assert.deepEqual(
      a.map(articleFor),
      a.map(() => 'a'),
    );
  });
});
