/**
 * The real XLA as a test oracle: a long-lived Python process (test/xla/oracle.py) that imported
 * jaxlib once and judges HLO texts with XLA's parser and shape validation, each batch in a forked
 * child so that a CHECK failure kills the child, not the run.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { RealXla } from '../support/real-xla';

/** What XLA made of one text. */
export interface XlaVerdict {
  /** `crash`: XLA aborted (CHECK failure, LOG(FATAL)) instead of returning an error. */
  readonly verdict: 'ok' | 'error' | 'crash';
  /**
   * `parse`: XLA's HLO parser; `import`: the validation on import to MLIR; `entry-layout`: the
   * validation of `entry_computation_layout`'s shapes; `crash`: the parser aborted;
   * `import-crash`, `entry-layout-crash`: a later stage did.
   */
  readonly stage: '' | 'parse' | 'import' | 'entry-layout' | 'crash' | 'import-crash' | 'entry-layout-crash';
  /** XLA's own message. */
  readonly message: string;
}

/** Whether XLA refused the text, by an error or by dying. */
export function rejects(v: XlaVerdict): boolean {
  return v.verdict !== 'ok';
}

const SCRIPT = join(__dirname, 'oracle.py');
/** Texts per request: a child judges one request's texts one after another. */
const BATCH = 500;

export class XlaOracle {
  private readonly lines: Interface;
  private readonly pending: ((line: string) => void)[] = [];
  private stderr = '';
  private exited = false;
  /** Texts judged so far, and how long XLA took for them (ms), for the report. */
  judged = 0;
  millis = 0;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: child.stdout });
    this.lines.on('line', (line) => this.pending.shift()?.(line));
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    child.on('exit', () => {
      this.exited = true;
      for (const p of this.pending.splice(0)) p('');
    });
  }

  /** Starts the oracle and waits until jaxlib is imported. */
  static async start(xla: RealXla): Promise<XlaOracle> {
    const child = spawn(xla.python, [SCRIPT], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, JAX_PLATFORMS: 'cpu', TF_CPP_MIN_LOG_LEVEL: '3' },
    });
    const oracle = new XlaOracle(child);
    const ready = await oracle.nextLine();
    if (!ready.includes('ready')) throw new Error(`the XLA oracle did not start:\n${oracle.stderr}`);
    return oracle;
  }

  private nextLine(): Promise<string> {
    if (this.exited) return Promise.resolve('');
    return new Promise((resolve) => this.pending.push(resolve));
  }

  /** XLA's verdict on each text, in order. */
  async judge(texts: readonly string[]): Promise<XlaVerdict[]> {
    const started = Date.now();
    const out: XlaVerdict[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const answer = this.nextLine();
      this.child.stdin.write(JSON.stringify({ texts: texts.slice(i, i + BATCH) }) + '\n');
      const line = await answer;
      if (line === '') throw new Error(`the XLA oracle died:\n${this.stderr}`);
      out.push(...(JSON.parse(line) as { verdicts: XlaVerdict[] }).verdicts);
    }
    this.judged += texts.length;
    this.millis += Date.now() - started;
    return out;
  }

  /** XLA's verdict on one text. */
  async judgeOne(text: string): Promise<XlaVerdict> {
    return (await this.judge([text]))[0];
  }

  close(): void {
    this.child.stdin.end();
    this.lines.close();
  }
}

/** An HLO module whose ENTRY returns one parameter of `shape`: how one shape is put to XLA. */
export function moduleWithShape(shape: string): string {
  return `HloModule m\n\nENTRY %e {\n  ROOT %p = ${shape} parameter(0)\n}\n`;
}

/** XLA's `was parsing L:C`, or undefined when its message has none. */
export function xlaPlace(v: XlaVerdict): string | undefined {
  return /was parsing (\d+:\d+)/.exec(v.message)?.[1];
}

/** XLA's error on its own, as in "was parsing 6:1: error: expects 'FunctionNames'". */
export function xlaError(v: XlaVerdict): string | undefined {
  return /was parsing \d+:\d+: error: (.*)/.exec(v.message)?.[1];
}

/** Whether our `line:column` is XLA's place `xla`; XLA's columns on the first line are one less. */
export function samePlace(xla: string, line: number, column: number): boolean {
  const [l, c] = xla.split(':').map(Number);
  return l === line && (c === column || (l === 1 && c === column - 1));
}

/** XLA's verdicts on `texts`, by an oracle started for them and closed after. */
export async function judgeOnce(xla: RealXla, texts: readonly string[]): Promise<XlaVerdict[]> {
  const oracle = await XlaOracle.start(xla);
  try {
    return await oracle.judge(texts);
  } finally {
    oracle.close();
  }
}
