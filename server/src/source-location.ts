/**
 * Go to source: an instruction's `metadata={... source_file="..." source_line=N}` names the line of
 * the program that produced it. Go to definition on the file or the line value answers that
 * location. The path is the one the dump was written with: absolute paths become `file:` URIs
 * (they may belong to another machine; the VS Code client then looks for the file in the
 * workspace), relative ones are taken from the dump's own folder, and a path written as a URI is
 * followed only with the `file` scheme (metadata is text anyone can write: `javascript:…` is no
 * link). The VS Code client opens a file only inside the workspace or the dump's folder
 * (client/src/source-policy.ts). Built with `URL`, which the server has in Node and in a browser
 * worker alike.
 */
import type { TextRange } from '../../core/src';
import type { HloMetadata, HloStatement } from '../../core/src';
import { sourceLabel } from '../../core/src';
import { OpenSourceCommand, type OpenSourceArgs } from '../../protocol/src/lsp';
import type { HloDocument } from './document';
import { cell, commandUri } from '../../protocol/src/markdown';

/** Where the metadata under the cursor points. */
export interface SourceLocation {
  /** The source file as a URI. */
  readonly uri: string;
  /** 0-based line (source_line is 1-based; the first line when there is none). */
  readonly line: number;
  /** The value under the cursor, for the editor to underline. */
  readonly origin: TextRange;
  /** The path as the dump wrote it. */
  readonly path: string;
}

/** `r` contains `offset`, its end included (a cursor right after a value still finds it). */
function inside(r: TextRange | undefined, offset: number): r is TextRange {
  return r !== undefined && r.start <= offset && offset <= r.end;
}

/**
 * The URI of the source file `path` as written in a dump at `documentUri`, or undefined when it
 * cannot be one (a relative path in an untitled document, an empty path, a URI of another scheme
 * than `file`).
 */
export function sourceFileUri(path: string, documentUri: string): string | undefined {
  if (path === '') return undefined;
  const windows = /^[a-z]:[\\/]/i.test(path);
  try {
    // A path with a scheme (`javascript:`, `https://`, `command:`) is a link only as a `file:` URI.
    if (!windows && /^[a-z][a-z0-9+.-]*:/i.test(path)) {
      const url = new URL(path);
      return url.protocol === 'file:' ? url.href : undefined;
    }
    // Characters that would end a URL's path are part of the file name here.
    let p = path.replace(/%/g, '%25').replace(/#/g, '%23').replace(/\?/g, '%3F');
    if (windows || p.includes('\\')) p = p.replace(/\\/g, '/');
    if (windows) return new URL(`file:///${p}`).href;
    if (p.startsWith('/')) return new URL(`file://${p}`).href;
    // Relative: from the dump's folder, in the dump's own file system.
    return new URL(p, documentUri).href;
  } catch {
    return undefined;
  }
}

/** Where `meta` points: its source file's URI and 0-based line, if it names a file. */
export function sourceOf(
  meta: HloMetadata | undefined,
  documentUri: string,
): { uri: string; line: number } | undefined {
  if (!meta?.sourceFile) return undefined;
  const uri = sourceFileUri(meta.sourceFile, documentUri);
  return uri ? { uri, line: Math.max(0, (meta.sourceLine ?? 1) - 1) } : undefined;
}

/** The source location of the `source_file` or `source_line` value at `offset` of `st`, if any. */
export function sourceLocationIn(
  st: HloStatement,
  offset: number,
  documentUri: string,
): SourceLocation | undefined {
  const meta = st.kind === 'instruction' ? st.metadata : undefined;
  const origin = inside(meta?.sourceFileRange, offset)
    ? meta?.sourceFileRange
    : inside(meta?.sourceLineRange, offset)
      ? meta?.sourceLineRange
      : undefined;
  const target = origin ? sourceOf(meta, documentUri) : undefined;
  return origin && target && meta?.sourceFile ? { ...target, origin, path: meta.sourceFile } : undefined;
}

/** The source location of the `source_file` or `source_line` value at `offset` of `doc`, if any. */
export function sourceLocationAt(doc: HloDocument, offset: number): SourceLocation | undefined {
  const index = doc.statementIndexAt(offset);
  return index < 0 ? undefined : sourceLocationIn(doc.parse(index), offset, doc.uri);
}

/**
 * A Markdown link that opens the source line in VS Code (the client's {@link OpenSourceCommand}),
 * labelled `file.py:N` after the path as written in the dump `dumpUri` (whose folder, with the
 * workspace, bounds what the client opens).
 */
export function sourceLink(path: string, target: { uri: string; line: number }, dumpUri: string): string {
  const args: OpenSourceArgs = { uri: target.uri, line: target.line, dump: dumpUri };
  return `[${cell(sourceLabel(path, target.line + 1))}](${commandUri(OpenSourceCommand, args)} "Open the source line")`;
}
