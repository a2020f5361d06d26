/** The files of a real `--xla_dump_to` folder, sorted into XLA's HLO and its companions. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { dumpCompanion, type DumpCompanionKind } from '../../core/src';
import { realDumpDir, type RealXla } from '../support/real-xla';
import { rejects, XlaOracle, type XlaVerdict } from './oracle';

export interface DumpFile {
  /** Path relative to the folder. */
  readonly name: string;
  readonly path: string;
}

export interface DumpFolder {
  /** HLO text XLA wrote: `before_optimizations`, one file per pass, `after_optimizations`. */
  readonly hlo: readonly DumpFile[];
  /** The HLO files' distinct texts (passes that change nothing repeat a module), in name order. */
  readonly distinctHlo: readonly { readonly name: string; readonly text: string }[];
  /** Everything else, with the kind core tells from its name and start. */
  readonly companions: readonly (DumpFile & { readonly kind: DumpCompanionKind | undefined })[];
}

function walk(dir: string, root: string, out: DumpFile[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, root, out);
    else out.push({ name: relative(root, path), path });
  }
}

/**
 * XLA's HLO files are the `.txt` files of the folder's top level whose names XLA gives its
 * modules, other than the four text companions; told apart here by XLA's naming alone, so that
 * core's own recognition can be tested against it.
 */
const HLO_NAME = /^module_\d+\.[^/]+\.txt$/;
const TEXT_COMPANION = /-(buffer-assignment|buffer-assignment-values|live-range|memory-usage-report)\.txt$/;

const HEAD_BYTES = 4096;

export function readDumpFolder(dir: string): DumpFolder {
  const all: DumpFile[] = [];
  walk(dir, dir, all);
  const hlo = all.filter((f) => HLO_NAME.test(f.name) && !TEXT_COMPANION.test(f.name));
  const isHlo = new Set(hlo);
  const seen = new Set<string>();
  const distinctHlo: { name: string; text: string }[] = [];
  for (const f of hlo) {
    const text = readFileSync(f.path, 'utf8');
    const hash = createHash('sha256').update(text).digest('hex');
    if (seen.has(hash)) continue;
    seen.add(hash);
    distinctHlo.push({ name: f.name, text });
  }
  const companions = all
    .filter((f) => !isHlo.has(f))
    .map((f) => {
      const head = readFileSync(f.path).subarray(0, HEAD_BYTES).toString('utf8');
      return { ...f, kind: dumpCompanion(f.name, head) };
    });
  return { hlo, distinctHlo, companions };
}

/** The real dump folder, and XLA's verdict on each of its distinct HLO texts. */
export interface JudgedDumpFolder {
  readonly dir: string;
  readonly folder: DumpFolder;
  readonly verdicts: readonly XlaVerdict[];
}

let judged: Promise<JudgedDumpFolder> | undefined;

/** {@link readDumpFolder} of the real dump folder with XLA's verdicts, made once per test run. */
export function judgedDumpFolder(xla: RealXla): Promise<JudgedDumpFolder> {
  judged ??= (async () => {
    const dir = realDumpDir(xla);
    const folder = readDumpFolder(dir);
    const oracle = await XlaOracle.start(xla);
    try {
      return { dir, folder, verdicts: await oracle.judge(folder.distinctHlo.map((f) => f.text)) };
    } finally {
      oracle.close();
    }
  })();
  return judged;
}

/** The distinct HLO texts of the real dump folder that XLA accepts whole, up to `maxChars` long. */
export async function acceptedDumpTexts(xla: RealXla, maxChars: number): Promise<string[]> {
  const { folder, verdicts } = await judgedDumpFolder(xla);
  return folder.distinctHlo
    .filter((f, i) => !rejects(verdicts[i]) && f.text.length <= maxChars)
    .map((f) => f.text);
}
