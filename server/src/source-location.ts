/**
 * Go to source: an instruction's `metadata={... source_file="..." source_line=N}` names the line of
 * the program that produced it; current jax writes `stack_frame_id=N` instead, a frame of the
 * module's stack-frame tables, resolved by core's `metadataSource` (the innermost frame of the
 * user's program, as the Memory View shows it). Go to definition on the file, the line or the
 * frame id, or on the instruction's name where it is defined, answers that location. The path is the one the dump was written with: absolute paths become `file:` URIs
 * (they may belong to another machine; the VS Code client then looks for the file in the
 * workspace), relative ones are taken from the dump's own folder, and a path written as a URI is
 * followed only with the `file` scheme (metadata is text anyone can write: `javascript:…` is no
 * link). The VS Code client opens a file only inside the workspace or the dump's folder
 * (client/src/source-policy.ts). Built with `URL`, which the server has in Node and in a browser
 * worker alike.
 */
import type { TextRange } from '../../core/src';
import type { HloStatement, MetadataSource, ResolvedFrame, SourceFrame } from '../../core/src';
import { metadataSource, sourceLabel } from '../../core/src';
import { OpenSourceCommand, type OpenSourceArgs } from '../../protocol/src/lsp';
import type { HloDocument } from './document';
import { cell, code, commandUri } from '../../protocol/src/markdown';

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
  /** The stack frame it was resolved from, when the metadata named one. */
  readonly frame?: ResolvedFrame;
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

/**
 * Where statement `i` of `doc` (parsed: `st`) comes from, by its metadata: its `source_file` and
 * `source_line`, else its `stack_frame_id` resolved through its module's tables.
 */
export function instructionSource(doc: HloDocument, i: number, st: HloStatement): MetadataSource | undefined {
  const meta = st.kind === 'instruction' ? st.metadata : undefined;
  if (!meta) return undefined;
  const framed = !meta.sourceFile && meta.stackFrameId !== undefined;
  return metadataSource(meta, framed ? doc.stackFrames(i) : undefined);
}

/** Where `source` points: its file's URI and 0-based line, if its path can be a URI. */
export function sourceOf(
  source: { file: string; line?: number } | undefined,
  documentUri: string,
): { uri: string; line: number } | undefined {
  if (!source?.file) return undefined;
  const uri = sourceFileUri(source.file, documentUri);
  return uri ? { uri, line: Math.max(0, (source.line ?? 1) - 1) } : undefined;
}

/**
 * The source location of the `source_file`, `source_line` or `stack_frame_id` value at `offset`
 * of statement `i` of `doc` (parsed: `st`), if any.
 */
export function sourceLocationIn(
  doc: HloDocument,
  i: number,
  st: HloStatement,
  offset: number,
): SourceLocation | undefined {
  const meta = st.kind === 'instruction' ? st.metadata : undefined;
  if (!meta) return undefined;
  let source: MetadataSource | undefined;
  let origin: TextRange | undefined;
  if (inside(meta.stackFrameIdRange, offset) && meta.stackFrameId !== undefined) {
    origin = meta.stackFrameIdRange;
    source = metadataSource({ stackFrameId: meta.stackFrameId }, doc.stackFrames(i));
  } else if (inside(meta.sourceFileRange, offset) || inside(meta.sourceLineRange, offset)) {
    origin = inside(meta.sourceFileRange, offset) ? meta.sourceFileRange : meta.sourceLineRange;
    source = metadataSource(meta, undefined);
  }
  return origin && source ? locationOf(source, origin, doc.uri) : undefined;
}

/** The location of `source`, for the value at `origin` of the dump `documentUri`. */
function locationOf(
  source: MetadataSource,
  origin: TextRange,
  documentUri: string,
): SourceLocation | undefined {
  const target = sourceOf(source, documentUri);
  if (!target) return undefined;
  return { ...target, origin, path: source.file, ...(source.frame ? { frame: source.frame } : {}) };
}

/**
 * The source location of the metadata value at `offset` of `doc`, or of the instruction whose
 * name is defined there (`origin` is then the name), if any.
 */
export function sourceLocationAt(
  doc: HloDocument,
  offset: number,
  definedName?: TextRange,
): SourceLocation | undefined {
  const index = doc.statementIndexAt(offset);
  if (index < 0) return undefined;
  const st = doc.parse(index);
  const found = sourceLocationIn(doc, index, st, offset);
  if (found || !definedName) return found;
  const source = instructionSource(doc, index, st);
  return source ? locationOf(source, definedName, doc.uri) : undefined;
}

/** Most callers a hover lists under a source link. */
const CHAIN_SHOWN = 6;

/**
 * The callers of a resolved frame, as Markdown: `called from` each frame outward (function and
 * a `file.py:N` link); the frames inside the user's frame (a library's, which the link skips)
 * first. Undefined for a frame alone.
 */
export function frameChain(frame: ResolvedFrame, dumpUri: string): string | undefined {
  const show = (f: SourceFrame) => {
    const target = sourceOf(f, dumpUri);
    const place = target ? sourceLink(f.file, target, dumpUri) : cell(sourceLabel(f.file, f.line));
    return `${f.function !== undefined ? `${code(f.function)} ` : ''}${place}`;
  };
  const inner = frame.chain.slice(0, frame.depth);
  const outer = frame.chain.slice(frame.depth + 1);
  const parts: string[] = [];
  if (inner.length > 0) parts.push(`inside ${inner.map(show).join(' ← ')}`);
  if (outer.length > 0) {
    const listed = outer.slice(0, CHAIN_SHOWN).map(show).join(' ← ');
    const more = outer.length > CHAIN_SHOWN ? ` ← … ${outer.length - CHAIN_SHOWN} more` : '';
    parts.push(`called from ${listed}${more}`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
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
