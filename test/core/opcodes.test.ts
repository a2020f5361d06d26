import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  HLO_OPCODES,
  isOpcode,
  opcodeAt,
  LITERAL_OPCODES,
  literalOpcodeAt,
} from '../../core/src/hlo/opcodes';

const NAMES = HLO_OPCODES.map((o) => o.name);
/** Opcodes, their asynchronous forms, near misses and other words, as XLA's dumps and typos hold them. */
const wordArb = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).map((n) => `${n}-start`),
  fc.constantFrom(...NAMES).map((n) => `${n}-done`),
  fc
    .tuple(fc.constantFrom(...NAMES), fc.nat(), fc.constantFrom('', 'x', '-', 'é', '_'))
    .map(([n, at, c]) => n.slice(0, at % (n.length + 1)) + c + n.slice((at % (n.length + 1)) + 1)),
  fc.string({ maxLength: 12 }),
);

describe('opcode lookups in place', () => {
  it('opcodeAt answers the slice when isOpcode takes it, wherever the word sits (seeded)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 4 }),
        wordArb,
        fc.string({ maxLength: 4 }),
        (before, word, after) => {
          const text = before + word + after;
          const end = before.length + word.length;
          assert.equal(
            opcodeAt(text, before.length, end),
            isOpcode(word) ? word : undefined,
            JSON.stringify(word),
          );
          assert.equal(
            literalOpcodeAt(text, before.length, end),
            LITERAL_OPCODES.has(word),
            JSON.stringify(word),
          );
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('knows every opcode and no prefix of a longer one', () => {
    for (const name of NAMES) {
      const text = ` ${name}(`;
      assert.equal(opcodeAt(text, 1, 1 + name.length), name);
      if (!isOpcode(name.slice(0, -1))) assert.equal(opcodeAt(text, 1, name.length), undefined, name);
    }
  });
});
