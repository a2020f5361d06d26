/**
 * core's placement (allocation-sites.ts) walks the call graph by computation number; here it is held
 * to the walk by name that it replaced, written plainly, on random call graphs: which computations
 * are the module's (global), which get thread-local scratch, which are roots, and so where
 * allocatesIn answers yes.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { allocatesIn, placement, type CallingComputation } from '../../core/src';

const CONTROL_FLOW = new Set(['while', 'call', 'conditional', 'async-start', 'async-update', 'async-done']);

/** The walk by name: a set of names per way of being reached. */
function byName(computations: readonly CallingComputation[]) {
  const named = new Map(computations.map((c) => [c.name, c]));
  const called = new Set<string>();
  for (const c of computations) for (const callee of c.calls.keys()) called.add(callee);
  const entries = computations.filter((c) => c.entry);
  const start = entries.length > 0 ? entries : computations.filter((c) => !called.has(c.name));
  const seen = { global: new Set<string>(), local: new Set<string>(), fused: new Set<string>() };
  const work: [string, keyof typeof seen][] = start.map((c) => [c.name, 'global']);
  while (work.length > 0) {
    const [name, how] = work.pop()!;
    if (seen[how].has(name)) continue;
    seen[how].add(name);
    for (const [callee, opcode] of named.get(name)?.calls ?? []) {
      if (opcode === 'fusion') work.push([callee, 'fused']);
      else if (CONTROL_FLOW.has(opcode) && how === 'global') work.push([callee, 'global']);
      else work.push([callee, 'local']);
    }
  }
  const known = new Set(computations.map((c) => c.name));
  return {
    global: [...seen.global].filter((n) => known.has(n)).sort(),
    threadLocal: [...seen.local].filter((n) => known.has(n) && !seen.global.has(n)).sort(),
    roots: [...new Set(start.map((c) => c.name))].sort(),
  };
}

const OPCODES = [
  'fusion',
  'while',
  'call',
  'conditional',
  'reduce',
  'map',
  'sort',
  'async-start',
  'custom-call',
];

/** Up to 12 computations named c0..c11 calling each other (and names that are none). */
const graphs = fc
  .integer({ min: 1, max: 12 })
  .chain((n) =>
    fc.tuple(
      fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      fc.array(
        fc.array(fc.tuple(fc.integer({ min: 0, max: n }), fc.constantFrom(...OPCODES)), { maxLength: 4 }),
        { minLength: n, maxLength: n },
      ),
    ),
  )
  .map(([entries, calls]) =>
    entries.map((entry, i): CallingComputation => ({
      name: `c${i}`,
      // Few ENTRYs: most graphs have one or none (then the uncalled are the roots).
      entry: entry && i % 3 === 0,
      calls: new Map(calls[i].map(([callee, opcode]) => [`c${callee}`, opcode])),
    })),
  );

describe('core: placement over the call graph', () => {
  it('places what the walk by name places, and allocatesIn answers alike', () => {
    fc.assert(
      fc.property(graphs, (computations) => {
        const placed = placement(computations);
        const expected = byName(computations);
        assert.deepEqual(
          {
            global: [...placed.global].sort(),
            threadLocal: [...placed.threadLocal].sort(),
            roots: [...placed.roots].sort(),
          },
          expected,
        );
        for (const c of computations)
          for (const opcode of ['parameter', 'add'])
            assert.equal(
              allocatesIn(placed, c.name, opcode),
              (expected.global.includes(c.name) || expected.threadLocal.includes(c.name)) &&
                (opcode !== 'parameter' ||
                  expected.threadLocal.includes(c.name) ||
                  expected.roots.includes(c.name)),
            );
      }),
      { numRuns: 500 },
    );
  });

  it('puts a fused computation nowhere, and a while body reached from ENTRY in the module', () => {
    const placed = placement([
      { name: 'f', entry: false, calls: new Map() },
      { name: 'b', entry: false, calls: new Map([['r', 'reduce']]) },
      { name: 'r', entry: false, calls: new Map() },
      {
        name: 'e',
        entry: true,
        calls: new Map([
          ['f', 'fusion'],
          ['b', 'while'],
        ]),
      },
    ]);
    assert.deepEqual([...placed.global].sort(), ['b', 'e']);
    assert.deepEqual([...placed.threadLocal], ['r']);
    assert.deepEqual([...placed.roots], ['e']);
  });
});
