/**
 * Reads an HLO file from disk into a core stream (PaddingReporter, CheckStream) without going
 * through a TextDocument, which VS Code does not create for extensions above 50 MB. In the Node
 * extension host a file: URI is streamed with fs.createReadStream; elsewhere (the browser build,
 * virtual file systems) workspace.fs.readFile reads the whole file, so only up to a cap.
 */
import * as vscode from 'vscode';
import { BROWSER_READ_CAP_BYTES, fileSize, ProgressSteps } from './large-file-policy';

/** What the core reporters accept. */
export interface TextSink {
  write(chunk: string): void;
}

/** How a read ended. */
export type ReadOutcome =
  | { readonly kind: 'done'; readonly bytes: number }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'refused'; readonly reason: string };

type Progress = vscode.Progress<{ message?: string; increment?: number }>;

const CHUNK_BYTES = 1024 * 1024;

/**
 * Node's fs when this code runs in the Node extension host. `process.getBuiltinModule` (Node
 * 20.16+, and every VS Code since 1.92) avoids a static `import 'fs'`, which the browser bundle of
 * this same module could not resolve.
 */
function nodeFs(): typeof import('fs') | undefined {
  const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return typeof p?.getBuiltinModule === 'function'
    ? (p.getBuiltinModule('fs') as typeof import('fs'))
    : undefined;
}

/** Lets the extension host handle other work between chunks of an in-memory file. */
function yieldToHost(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The refusal of a file whose first chunk holds a NUL byte at `offset`. */
function binary(offset: number): ReadOutcome {
  return { kind: 'refused', reason: `binary file (NUL byte at offset ${offset}), not HLO text.` };
}

/**
 * Streams the UTF-8 text of `uri` into `sink` (the caller ends the sink), reporting progress in
 * percent of bytes and stopping between chunks when `token` is cancelled. Reads no more than the
 * size the file had when it was opened (a device or a growing log never ends), and refuses a file
 * whose first chunk holds a NUL byte (binary) before handing anything on.
 */
export async function readInto(
  uri: vscode.Uri,
  sink: TextSink,
  progress: Progress,
  token: vscode.CancellationToken,
): Promise<ReadOutcome> {
  const size = (await vscode.workspace.fs.stat(uri)).size;
  const steps = new ProgressSteps(size);
  const decoder = new TextDecoder('utf-8');
  let done = 0;
  const fs = uri.scheme === 'file' ? nodeFs() : undefined;
  if (fs !== undefined) {
    if (size === 0) return { kind: 'done', bytes: 0 };
    const stream = fs.createReadStream(uri.fsPath, { highWaterMark: CHUNK_BYTES, end: size - 1 });
    try {
      for await (const chunk of stream as AsyncIterable<Uint8Array>) {
        if (token.isCancellationRequested) return { kind: 'cancelled' };
        // Text never holds a NUL byte.
        const nul = done === 0 ? chunk.indexOf(0) : -1;
        if (nul >= 0) return binary(nul);
        // stream: true holds back a UTF-8 character cut by the chunk boundary.
        sink.write(decoder.decode(chunk, { stream: true }));
        done += chunk.byteLength;
        const increment = steps.advance(done);
        if (increment > 0) progress.report({ increment, message: `${fileSize(done)} of ${fileSize(size)}` });
      }
    } finally {
      stream.destroy();
    }
  } else {
    if (size > BROWSER_READ_CAP_BYTES) {
      return {
        kind: 'refused',
        reason: `${fileSize(size)} is more than this build can read (${fileSize(BROWSER_READ_CAP_BYTES)}): without Node's file streams it must read the whole file into memory. Use the desktop extension or the xla-layout CLI.`,
      };
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      if (token.isCancellationRequested) return { kind: 'cancelled' };
      const chunk = bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
      const nul = at === 0 ? chunk.indexOf(0) : -1;
      if (nul >= 0) return binary(nul);
      sink.write(decoder.decode(chunk, { stream: true }));
      done += chunk.byteLength;
      const increment = steps.advance(done);
      if (increment > 0) progress.report({ increment, message: `${fileSize(done)} of ${fileSize(size)}` });
      await yieldToHost();
    }
  }
  if (token.isCancellationRequested) return { kind: 'cancelled' };
  sink.write(decoder.decode());
  return { kind: 'done', bytes: done };
}
