/**
 * This tool's verdict on texts XLA judges, asked the ways users ask: `xla-layout check` on files,
 * the language server over LSP, `xla-layout explain` and core's explainShapeText on one shape.
 * A verdict is the list of error diagnostics (codes and where); no error means "accepted".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explainShapeText } from '../../core/src';
import { cli } from '../cli/run-cli';
import { TestClient } from '../server/harness';

/** One error this tool reported: its code, and the first line and column it covers (1-based). */
export interface OurError {
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The error that comes first in the text (XLA's parser stops at its first). */
export function firstError(errors: readonly OurError[]): OurError | undefined {
  return [...errors].sort((a, b) => a.line - b.line || a.column - b.column)[0];
}

interface CheckJson {
  files: {
    file: string;
    diagnostics: { line: number; column: number; severity: string; code: string; message: string }[];
  }[];
}

/** Arguments per `xla-layout check` run (well under any command-line limit). */
const FILES_PER_RUN = 1500;

/**
 * `xla-layout check --json` on each text written to a file of its own (`name` gives the file
 * name's tail, e.g. `.hlo`), a few runs for all of them: the errors of each text.
 */
export function checkErrors(texts: readonly string[], suffix = '.hlo'): OurError[][] {
  const dir = mkdtempSync(join(tmpdir(), 'xla-oracle-check-'));
  try {
    const files = texts.map((t, i) => {
      const file = join(dir, `t${i}${suffix}`);
      writeFileSync(file, t);
      return file;
    });
    const byFile = new Map<string, OurError[]>();
    for (let i = 0; i < files.length; i += FILES_PER_RUN) {
      const r = cli('check', '--json', ...files.slice(i, i + FILES_PER_RUN));
      if (r.code !== 0 && r.code !== 1) throw new Error(`xla-layout check exited ${r.code}: ${r.stderr}`);
      for (const f of (JSON.parse(r.stdout) as CheckJson).files)
        byFile.set(
          f.file,
          f.diagnostics
            .filter((d) => d.severity === 'error')
            .map((d) => ({ code: d.code, line: d.line, column: d.column, message: d.message })),
        );
    }
    return files.map((f) => byFile.get(f) ?? []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Documents opened at once: the server answers them in turn, and the waits overlap. */
const OPEN_AT_ONCE = 64;

/** The language server's errors on each text, opened as a document of its own over LSP. */
export async function serverErrors(texts: readonly string[]): Promise<OurError[][]> {
  const { client } = await TestClient.start();
  try {
    const out: OurError[][] = [];
    for (let i = 0; i < texts.length; i += OPEN_AT_ONCE) {
      const batch = texts.slice(i, i + OPEN_AT_ONCE);
      const uris = batch.map((_, k) => `file:///oracle/t${i + k}.hlo`);
      const published = await Promise.all(batch.map((text, k) => client.open(uris[k], text)));
      for (const diagnostics of published)
        out.push(
          diagnostics
            .filter((d) => d.severity === 1)
            .map((d) => ({
              code: String(d.code),
              line: d.range.start.line + 1,
              column: d.range.start.character + 1,
              message: d.message,
            })),
        );
      await Promise.all(uris.map((uri) => client.close(uri)));
    }
    return out;
  } finally {
    await client.dispose();
  }
}

/** Core's explanation of one shape: its errors (line and column count in the shape text). */
export function explainErrors(shape: string): OurError[] {
  return explainShapeText(shape)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => {
      const before = shape.slice(0, d.range.start);
      const line = before.split(/\r\n|\r|\n/).length;
      return {
        code: d.code,
        line,
        column: d.range.start - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')),
        message: d.message,
      };
    });
}

/** `xla-layout explain SHAPE`: whether it reports an error (exit 2) rather than explaining (exit 0). */
export function explainCliRejects(shape: string): boolean {
  const r = cli('explain', shape);
  if (r.code !== 0 && r.code !== 2) throw new Error(`xla-layout explain exited ${r.code}: ${r.stderr}`);
  return r.code === 2;
}
