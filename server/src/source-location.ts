/**
 * Go to source: an instruction's `metadata={... source_file="..." source_line=N}` names the line of
 * the program that produced it. Go to definition on the file or the line value answers that
 * location. The path is the one the dump was written with: absolute paths become `file:` URIs
 * (they may belong to another machine; the VS Code client then looks for the file in the
 * workspace), relative ones are taken from the dump's own folder. Built with `URL`, which the
 * server has in Node and in a browser worker alike.
 */
import type { TextRange } from '../../core/src/diagnostics';
import type { HloDocument } from './document';

/** Where the metadata under the cursor points. */
export interface SourceLocation {
  /** The source file as a URI. */
  readonly uri: string;
  /** 0-based line (source_line is 1-based; the first line when there is none). */
  readonly line: number;
  /** The value under the cursor, for the editor to underline. */
  readonly origin: TextRange;
}

/** `r` contains `offset`, its end included (a cursor right after a value still finds it). */
function inside(r: TextRange | undefined, offset: number): r is TextRange {
  return r !== undefined && r.start <= offset && offset <= r.end;
}

/**
 * The URI of the source file `path` as written in a dump at `documentUri`, or undefined when it
 * cannot be one (a relative path in an untitled document, an empty path).
 */
export function sourceFileUri(path: string, documentUri: string): string | undefined {
  if (path === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path;
  // Characters that would end a URL's path are part of the file name here.
  let p = path.replace(/%/g, '%25').replace(/#/g, '%23').replace(/\?/g, '%3F');
  const windows = /^[a-z]:[\\/]/i.test(p);
  if (windows || p.includes('\\')) p = p.replace(/\\/g, '/');
  try {
    if (windows) return new URL(`file:///${p}`).href;
    if (p.startsWith('/')) return new URL(`file://${p}`).href;
    return new URL(p, documentUri).href;
  } catch {
    return undefined;
  }
}

/** The source location of the `source_file` or `source_line` value at `offset`, if there is one. */
export function sourceLocationAt(doc: HloDocument, offset: number): SourceLocation | undefined {
  const index = doc.statementIndexAt(offset);
  if (index < 0) return undefined;
  const st = doc.parse(index);
  const meta = st.kind === 'instruction' ? st.metadata : undefined;
  if (!meta?.sourceFile) return undefined;
  const origin = inside(meta.sourceFileRange, offset) ? meta.sourceFileRange : inside(meta.sourceLineRange, offset) ? meta.sourceLineRange : undefined;
  if (!origin) return undefined;
  const uri = sourceFileUri(meta.sourceFile, doc.uri);
  if (!uri) return undefined;
  return { uri, line: Math.max(0, (meta.sourceLine ?? 1) - 1), origin };
}
