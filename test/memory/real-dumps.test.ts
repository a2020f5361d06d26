/**
 * The memory model on real XLA: every module of the jax programs in test/xla/dump_programs.py,
 * dumped at test time by the pinned jaxlib. For every module the readers give exactly what the
 * buffer-assignment file says (checked against a plain line-by-line reading of it), the totals
 * equal the memory-usage report's (per memory space, block by block), the values file and the live
 * ranges agree with the allocations, every value's instruction is in the HLO, every value's bytes
 * by our layout model equal XLA's, and the estimate from the HLO alone defines exactly XLA's
 * values that are not phis.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BufferAssignmentReader,
  companionNames,
  estimateMemory,
  indexHlo,
  joinMemory,
  positionKey,
  readBufferAssignment,
  readBufferValues,
  readLiveRange,
  readMemoryUsageReport,
  ValueSizeCache,
  xlaBytes,
  type BufferAssignmentFile,
} from '../../core/src';
import { mulberry32 } from '../support/prng';
import { realDumpDir, realXla } from '../support/real-xla';

interface Plain {
  readonly allocations: {
    index: number;
    size: bigint;
    values: { id: number; name: string; size: bigint; offset: bigint; shape: string }[];
  }[];
}

/** The file read line by line with nothing but two regular expressions: what the file says. */
function plainReading(text: string): Plain {
  const allocations: Plain['allocations'] = [];
  for (const line of text.split('\n')) {
    const a = /^allocation (\d+): size (\d+)/.exec(line);
    if (a) allocations.push({ index: Number(a[1]), size: BigInt(a[2]), values: [] });
    const v =
      /^ value: <(\d+) ([^ ]+?)(\{[\d,]*\})?(?: \(phi\))? @\d+> \(size=(\d+),offset=(\d+)\): (.*)$/.exec(
        line,
      );
    if (v)
      allocations.at(-1)!.values.push({
        id: Number(v[1]),
        name: v[2],
        size: BigInt(v[4]),
        offset: BigInt(v[5]),
        shape: v[6],
      });
  }
  return { allocations };
}

function asPlain(f: BufferAssignmentFile): Plain {
  return {
    allocations: f.allocations.map((a) => ({
      index: a.index,
      size: a.size,
      values: a.values.map((v) => ({
        id: v.id,
        name: v.instruction,
        size: v.size,
        offset: v.offset,
        shape: v.shape,
      })),
    })),
  };
}

const xla = realXla();

if (xla !== undefined)
  describe('memory model on real XLA dumps (jax 0.10.2, test/xla/dump_programs.py)', function () {
    this.timeout(600_000);
    let dir: string;
    let modules: string[];
    const counts = {
      modules: 0,
      allocations: 0,
      values: 0,
      agreeing: 0,
      disagreeing: 0,
      tuples: 0,
      peaks: 0,
    };

    before(function () {
      this.timeout(600_000);
      dir = realDumpDir(xla);
      modules = readdirSync(dir)
        .filter((f) => f.endsWith('-buffer-assignment.txt'))
        .sort();
    });

    after(() => {
      console.log(
        `      ${counts.modules} modules, ${counts.allocations} allocations, ${counts.values} values: our bytes equal XLA's on ${counts.agreeing} (${counts.tuples} of them tuple tables), differ on ${counts.disagreeing}; ${counts.peaks} peaks from live ranges`,
      );
    });

    const read = (name: string): string => readFileSync(join(dir, name), 'utf8');

    it('finds a module per buffer assignment, every companion beside it', () => {
      assert.ok(modules.length >= 60, `${modules.length} modules`);
      for (const m of modules) {
        const names = companionNames(m)!;
        for (const file of [names.hlo, ...Object.values(names.companions)]) read(file);
      }
    });

    it('reads every allocation and value exactly as the file writes it, whole or in random chunks', () => {
      const seed = 26;
      const random = mulberry32(seed);
      for (const m of modules) {
        const text = read(m);
        const f = readBufferAssignment(text);
        assert.deepEqual(f.problems, [], m);
        assert.deepEqual(asPlain(f), plainReading(text), m);
        const reader = new BufferAssignmentReader();
        for (let at = 0; at < text.length;) {
          const n = 1 + Math.floor(random() * 4096);
          reader.write(text.slice(at, at + n));
          at += n;
        }
        assert.deepEqual(reader.end(), f, `${m}, chunks of seed ${seed}`);
        counts.modules++;
        counts.allocations += f.allocations.length;
      }
    });

    it("totals equal the memory-usage report's, per memory space and allocation by allocation", () => {
      for (const m of modules) {
        const names = companionNames(m)!;
        const f = readBufferAssignment(read(m));
        const report = readMemoryUsageReport(read(names.companions['memory-usage-report']));
        assert.deepEqual(report.problems, [], m);
        assert.equal(report.format, 'by-memory-space', m);
        assert.equal(report.totalBytes, f.totalBytes, m);
        for (const space of report.spaces) {
          const mine = f.allocations.filter((a) => a.color === space.color);
          let sum = 0n;
          for (const a of mine) sum += a.size;
          assert.equal(space.totalBytes, sum, `${m} colour ${space.color}`);
          // One block per allocation, largest first; each row is an offset with its values.
          const sorted = [...mine].sort((a, b) =>
            a.size === b.size ? a.index - b.index : a.size > b.size ? -1 : 1,
          );
          assert.equal(space.allocations.length, sorted.length, m);
          sorted.forEach((a, i) => {
            const block = space.allocations[i];
            const byOffset = new Map<bigint, { count: number; largest: bigint }>();
            for (const v of a.values) {
              const g = byOffset.get(v.offset) ?? { count: 0, largest: 0n };
              g.count++;
              if (v.size > g.largest) g.largest = v.size;
              byOffset.set(v.offset, g);
            }
            const shown = block.rows.length + (block.valuesNotShown ?? 0);
            assert.equal(shown, byOffset.size, `${m} allocation ${a.index}`);
            for (const row of block.rows) {
              const g = byOffset.get(row.offset);
              assert.ok(g, `${m} allocation ${a.index} offset ${row.offset}`);
              assert.equal(row.values, g.count, `${m} allocation ${a.index} offset ${row.offset}`);
              assert.equal(row.size.replace(/iB$/, ''), xlaBytes(g.largest), `${m} allocation ${a.index}`);
            }
          });
        }
      }
    });

    it('the values file lists every placed value with the same total; live ranges name them and the peak', () => {
      for (const m of modules) {
        const names = companionNames(m)!;
        const f = readBufferAssignment(read(m));
        const values = readBufferValues(read(names.companions['buffer-assignment-values']));
        assert.deepEqual(values.problems, [], m);
        assert.equal(values.totalBytes, f.totalBytes, m);
        const placed = f.allocations.flatMap((a) => a.values);
        assert.deepEqual(
          values.values.map((v) => v.id).sort((a, b) => a - b),
          placed.map((v) => v.id).sort((a, b) => a - b),
          m,
        );
        const live = readLiveRange(read(names.companions['live-range']));
        assert.deepEqual(live.problems, [], m);
        const byPosition = new Map(placed.map((v) => [positionKey(v.instruction, v.shapeIndex), v]));
        for (const key of live.ranges.keys()) assert.ok(byPosition.has(key), `${m}: live range of ${key}`);
        if (live.peak) {
          counts.peaks++;
          let sum = 0n;
          for (const p of live.peak.values) {
            assert.equal(p.bytes, byPosition.get(p.position)?.size, `${m}: peak value ${p.position}`);
            sum += p.bytes;
          }
          assert.equal(live.peak.bytes, sum, m);
        }
      }
    });

    it("every value's bytes by our layout model equal XLA's, and every value's instruction is in the HLO", () => {
      const sizes = new ValueSizeCache();
      for (const m of modules) {
        const names = companionNames(m)!;
        const model = joinMemory({
          bufferAssignment: readBufferAssignment(read(m)),
          values: readBufferValues(read(names.companions['buffer-assignment-values'])),
          usageReport: readMemoryUsageReport(read(names.companions['memory-usage-report'])),
          liveRange: readLiveRange(read(names.companions['live-range'])),
          hlo: indexHlo(read(names.hlo)),
          sizes,
        });
        assert.equal(model.missingInstructions, 0, m);
        assert.equal(model.problemCount, 0, m);
        for (const s of model.spaces) assert.equal(s.reportedBytes, s.bytes, m);
        for (const a of model.allocations) {
          for (const v of a.values) {
            counts.values++;
            if (v.disagreement) counts.disagreeing++;
            else counts.agreeing++;
            if (v.size.kind === 'tuple') counts.tuples++;
          }
        }
        assert.deepEqual(
          model.disagreements.map((d) => `${d.instruction} ${d.shape}: ${d.disagreement}`),
          [],
          m,
        );
      }
      assert.ok(counts.tuples > 0, 'the dumps hold tuple values');
    });

    it('the peak: the step with the most bytes live by the live ranges and XLA sizes; its groups add up to it', () => {
      const sizes = new ValueSizeCache();
      let otherStep = 0;
      let shared = 0;
      let overAllocated = 0;
      for (const m of modules) {
        const names = companionNames(m)!;
        const f = readBufferAssignment(read(m));
        const live = readLiveRange(read(names.companions['live-range']));
        const model = joinMemory({
          bufferAssignment: f,
          liveRange: live,
          hlo: indexHlo(read(names.hlo)),
          sizes,
        });
        const peak = model.peak!;
        // Counted step by step from the files alone: each live value's XLA size, a place in an
        // allocation (offset and size) held by several live values once.
        const placed = new Map<string, { size: bigint; at: string }>();
        for (const a of f.allocations)
          for (const v of a.values)
            placed.set(positionKey(v.instruction, v.shapeIndex), {
              size: v.size,
              at: `${a.index}:${v.offset}:${v.size}`,
            });
        let best = { time: -1, bytes: -1n };
        for (let t = 0; t <= live.maxTime!; t++) {
          const places = new Map<string, bigint>();
          for (const [position, r] of live.ranges)
            if (r.start <= t && t <= r.end) {
              const p = placed.get(position)!;
              places.set(p.at, p.size);
            }
          let bytes = 0n;
          for (const b of places.values()) bytes += b;
          if (bytes > best.bytes) best = { time: t, bytes };
        }
        assert.deepEqual([peak.time, peak.bytes], [best.time, best.bytes], m);
        let values = 0n;
        for (const v of peak.values) values += v.bytes;
        let groups = 0n;
        for (const g of peak.groups) groups += g.bytes;
        assert.equal(values, peak.bytes, `${m}: values live at the peak`);
        assert.equal(groups, peak.bytes, `${m}: groups of the peak`);
        assert.equal(peak.instruction, live.schedule[peak.time], m);
        // Never more than XLA allocates; the live-range file's own figure can be (it counts a
        // donated input and its in-place update both).
        assert.ok(peak.bytes <= model.totalBytes, m);
        if (peak.xla && peak.xla.time !== peak.time) otherStep++;
        if (live.peak!.bytes > model.totalBytes) overAllocated++;
        if (peak.values.some((v) => v.sharedWith)) shared++;
      }
      // XLA's file names a later step in some modules (a jit_f, a while loop's _normal), and a
      // while loop's tuple and its body's parameter share their bytes.
      assert.ok(otherStep >= 2, `${otherStep} modules where the live-range file names another step`);
      assert.ok(shared >= 1, `${shared} modules with live values sharing bytes`);
      assert.ok(
        overAllocated >= 1,
        `${overAllocated} modules whose live-range peak exceeds their allocations`,
      );
    });

    it("the estimate from the HLO alone defines exactly XLA's values that are not phis", () => {
      for (const m of modules) {
        const names = companionNames(m)!;
        const f = readBufferAssignment(read(m));
        const estimate = estimateMemory(indexHlo(read(names.hlo)));
        const xlaValues = new Set<string>();
        for (const a of f.allocations)
          for (const v of a.values) if (!v.phi) xlaValues.add(positionKey(v.instruction, v.shapeIndex));
        const ours = new Set<string>();
        for (const a of estimate.allocations)
          for (const v of a.values) ours.add(positionKey(v.instruction, v.shapeIndex));
        assert.deepEqual([...ours].sort(), [...xlaValues].sort(), m);
      }
    });
  });
