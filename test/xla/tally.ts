/**
 * Agreement between XLA and this tool, counted per class of input, for the XLA layer's report: how
 * many texts each side refused, how many verdicts agree, and the disagreements themselves (the
 * first few of each class, to print when a test fails).
 */
import { appendFileSync } from 'node:fs';

/** One text on which the two sides differ. */
export interface Disagreement {
  readonly what: string;
  readonly xla: string;
  readonly ours: string;
}

interface ClassCount {
  total: number;
  xlaRejects: number;
  agree: number;
  /** We report an error where XLA accepts. */
  falseErrors: number;
  /** XLA refuses where we report no error. */
  missed: number;
  examples: Disagreement[];
}

const EXAMPLES = 12;
/** XLA_LENS_DISAGREEMENTS=FILE appends every disagreement to FILE as JSON lines, to study their classes. */
const DUMP_TO = process.env.XLA_LENS_DISAGREEMENTS;

export class Tally {
  private readonly classes = new Map<string, ClassCount>();

  /** Counts one text of class `name` on which XLA refused (or not) and we reported an error (or not). */
  add(name: string, xlaRejects: boolean, weReject: boolean, detail: () => Disagreement): void {
    let c = this.classes.get(name);
    if (!c)
      this.classes.set(
        name,
        (c = { total: 0, xlaRejects: 0, agree: 0, falseErrors: 0, missed: 0, examples: [] }),
      );
    c.total++;
    if (xlaRejects) c.xlaRejects++;
    if (xlaRejects === weReject) c.agree++;
    else {
      if (weReject) c.falseErrors++;
      else c.missed++;
      if (c.examples.length < EXAMPLES || DUMP_TO) {
        const d = detail();
        if (c.examples.length < EXAMPLES) c.examples.push(d);
        if (DUMP_TO) appendFileSync(DUMP_TO, `${JSON.stringify({ class: name, ...d })}\n`);
      }
    }
  }

  /** Counts of class `name` (zeros when none was added). */
  counts(name: string): Readonly<Omit<ClassCount, 'examples'>> {
    const c = this.classes.get(name);
    return c ?? { total: 0, xlaRejects: 0, agree: 0, falseErrors: 0, missed: 0 };
  }

  /** Whether every class in `names` (all when omitted) agrees on every text. */
  agrees(names?: readonly string[]): boolean {
    return [...this.classes].every(([n, c]) => (names && !names.includes(n)) || c.agree === c.total);
  }

  /** One line per class: `class: agree/total (xla refused N; false errors N, missed N)`. */
  summary(): string {
    return [...this.classes]
      .map(
        ([n, c]) =>
          `  ${n}: ${c.agree}/${c.total} agree (${((100 * c.agree) / Math.max(1, c.total)).toFixed(2)}%; XLA refused ${c.xlaRejects}; we alone refused ${c.falseErrors}; XLA alone refused ${c.missed})`,
      )
      .join('\n');
  }

  /** The recorded disagreements of the classes in `names` (all when omitted), for a failure message. */
  examples(names?: readonly string[]): string {
    const out: string[] = [];
    for (const [n, c] of this.classes) {
      if (names && !names.includes(n)) continue;
      for (const e of c.examples) out.push(`  [${n}] ${e.what}\n      XLA: ${e.xla}\n      ours: ${e.ours}`);
    }
    return out.join('\n');
  }
}

/** The seed the suite runs with, so that `npm test` and CI judge the same texts every run. */
const DEFAULT_SEED = 25;

/**
 * The seed of a random run: XLA_LENS_SEED replays one, XLA_LENS_SEED=random explores with a fresh
 * one; otherwise {@link DEFAULT_SEED}. Rare disagreements remain (see the test's report), and a
 * suite that failed on some runs only would make every run's verdict meaningless.
 */
export function runSeed(): number {
  const given = process.env.XLA_LENS_SEED;
  if (given === 'random') return (Date.now() ^ (process.pid << 16)) >>> 0;
  if (given !== undefined && given !== '') return Number(given) >>> 0;
  return DEFAULT_SEED;
}

/** A one-line form of XLA's message (its multi-line syntax errors) for reports. */
export function oneLine(message: string, max = 240): string {
  const s = message.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max)}...` : s;
}
